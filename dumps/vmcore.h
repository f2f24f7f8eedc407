/* SPDX-License-Identifier: MIT */
#ifndef OOMLENS_PARSERS_VMCORE_H
#define OOMLENS_PARSERS_VMCORE_H

/*
 * Read a kdump vmcore into a struct dump_state: every process (thread-group
 * leader) on the task list with its memory state, the machine's counters,
 * and the kernel log.
 *
 * Members are found by name through the kernel types of dumps/ktypes.h:
 * the DWARF of the kernel's debuginfo, or, when none is given or found,
 * the BTF the kernel keeps in memory, with its symbols from the kallsyms
 * tables VMCOREINFO names (6.0+; dumps/kallsyms.h). Memory is read
 * through libkdumpfile (dumps/kcore.h); which members exist decides what
 * is read, so one reader serves 2.6.x to 6.x (the eras are in the table in
 * vmcore.c). The walk is bounded and cycle-safe: a damaged list yields
 * the tasks read so far, a warning and `partial`.
 */

#include <stdbool.h>
#include <stddef.h>

#include "core/error.h"
#include "model/dump.h"

struct vmcore_options {
	bool force; /* read even if the debuginfo does not match the dump */
	bool no_log; /* skip the log buffer */
	bool no_tasks; /* skip the task list */
	unsigned max_tasks; /* 0: the default cap (VMCORE_MAX_TASKS) */
	/*
	 * vmcore_read_isolated(): seconds the reading child may take before
	 * it is stopped (a library that loops on a hostile dump); 0: the
	 * default, VMCORE_TIMEOUT_SECS.
	 */
	unsigned timeout_secs;
	/*
	 * With no vmlinux given: called once the dump is open, with its
	 * VMCOREINFO OSRELEASE and BUILD-ID (NULL when absent), to name its
	 * debuginfo in buf (n bytes); false when there is none.
	 */
	bool (*locate)(void *ctx, const char *osrelease, const char *build_id,
		       char *buf, size_t n);
	void *locate_ctx;
};

#define VMCORE_MAX_TASKS 1000000u
/* A million tasks through DWARF take well under a minute here. */
#define VMCORE_TIMEOUT_SECS 600u

/*
 * Read vmcore with the debuginfo in vmlinux (or, when vmlinux is NULL, the
 * one opt->locate names; when it names none, the dump's own BTF and
 * kallsyms) into *out (initialised here). out->types_source and
 * symbols_source say which served.
 * An error means nothing useful could be read (wrong files, mismatch
 * without force); damage found later is reported as warnings in *out.
 * With no debuginfo and nothing in the dump to stand in for it (no kallsyms
 * in VMCOREINFO before 6.0, or a kernel without BTF), the error names the
 * dump's release and build id and what is missing; its code is
 * OOMLENS_ERR_MISSING when neither vmlinux nor opt->locate was given (the
 * caller says which options give a debuginfo), else the locate failure's.
 */
OOMLENS_MUST_CHECK struct oomlens_error *
vmcore_read(const char *vmcore, const char *vmlinux,
	    const struct vmcore_options *opt, struct dump_state *out);

/*
 * vmcore_read() in a child process: the same answer, or, when a library
 * crashes on the dump, an error naming the file and the signal, and this
 * process goes on; when the child takes longer than opt->timeout_secs, it
 * is stopped and the error (OOMLENS_ERR_LIMIT) says so. For untrusted
 * dumps; opt->locate runs in the child.
 */
OOMLENS_MUST_CHECK struct oomlens_error *
vmcore_read_isolated(const char *vmcore, const char *vmlinux,
		     const struct vmcore_options *opt, struct dump_state *out);

#endif
