/* SPDX-License-Identifier: MIT */
#ifndef OOMLENS_PARSERS_KCORE_H
#define OOMLENS_PARSERS_KCORE_H

/*
 * A kdump vmcore opened through libkdumpfile: ELF (32 and 64 bit) and
 * kdump-compressed (diskdump) files, and makedumpfile's flattened format
 * (`makedumpfile -F`, QEMU's `dump-guest-memory -z`), which libkdumpfile
 * 0.5.1 cannot open and kcore_open() first reassembles into an unlinked
 * temporary file in $TMPDIR (or /tmp).
 *
 * Reads are of kernel virtual addresses, translated by libkdumpfile through
 * the dump's page tables (OS type linux). A read that fails says why;
 * nothing here trusts the file.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/error.h"

struct kcore;

/* Open path. Errors name the file (and the offset, for the flattened form). */
OOMLENS_MUST_CHECK struct oomlens_error *kcore_open(const char *path,
						    struct kcore **out);
void kcore_close(struct kcore *kc);

/*
 * Some writers (QEMU's kdump-compressed output) leave the machine out of
 * the header: name it ("x86_64", "ia32") from the debuginfo's ELF header.
 */
OOMLENS_MUST_CHECK struct oomlens_error *
kcore_set_arch(struct kcore *kc, const char *arch, const char *path);

/* "elf", "kdump" or "flattened kdump" (a literal). */
const char *kcore_format(const struct kcore *kc);
/* libkdumpfile's architecture name ("x86_64", "ia32"), or "". */
const char *kcore_arch(const struct kcore *kc);
unsigned kcore_ptr_size(const struct kcore *kc);
unsigned kcore_page_size(const struct kcore *kc);

/*
 * The VMCOREINFO value of key ("OSRELEASE", "KERNELOFFSET",
 * "SYMBOL(init_task)"), owned by kc, or NULL.
 */
const char *kcore_vmcoreinfo(struct kcore *kc, const char *key);

/*
 * Read len bytes at kernel virtual address addr. False on any failure,
 * with the reason left for kcore_last_error() (valid until the next read).
 */
bool kcore_read(struct kcore *kc, uint64_t addr, void *buf, size_t len);
const char *kcore_last_error(const struct kcore *kc);

/* Reads served through the ia32 lowmem direct map (see kcore.c). */
uint64_t kcore_lowmem_reads(const struct kcore *kc);

/* Reads done and bytes read, for --verbose and the benchmarks. */
void kcore_counts(const struct kcore *kc, uint64_t *reads, uint64_t *bytes);

/* dump_kind() (model/dumpkind.h) of the file at path. False if it cannot be read. */
bool kcore_sniff(const char *path);

/*
 * Reassemble the flattened stream in fd_in into fd_out (a regular file).
 * in_size bounds where blocks may write. Errors name `name` and the offset
 * of the bad block header.
 */
OOMLENS_MUST_CHECK struct oomlens_error *
kcore_unflatten(int fd_in, uint64_t in_size, int fd_out, const char *name);

#endif
