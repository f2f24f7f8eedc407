/* SPDX-License-Identifier: MIT */
#ifndef OOMLENS_MODEL_DUMPKIND_H
#define OOMLENS_MODEL_DUMPKIND_H

#include <stdbool.h>
#include <stddef.h>

/*
 * What a file's first len bytes say it is, if a kernel dump: "ELF" (an
 * ELF core file of a kernel, not of a process), "kdump-compressed"
 * ("KDUMP   ") or "flattened kdump" ("makedumpfile"); NULL otherwise. An
 * ELF dump is told from a process core by its VMCOREINFO note or its
 * mappings, which DUMP_SNIFF_BYTES of head usually show.
 */
#define DUMP_SNIFF_BYTES 4096
const char *dump_kind(const void *head, size_t len);

/*
 * Makedumpfile's flattened format: true if the first bytes are its
 * header. Exposed for the fuzz harness and tests.
 */
bool dump_is_flattened(const void *head, size_t len);

#endif
