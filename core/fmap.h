/* SPDX-License-Identifier: MIT */
#ifndef OOMLENS_CORE_FMAP_H
#define OOMLENS_CORE_FMAP_H

/*
 * A regular file mapped read-only, once, so that the passes over its bytes
 * (its content hash, its parsers) look at the same pages and no byte is
 * read twice by a system call.
 *
 * The file is untrusted: it may shrink while it is mapped, and a page past
 * its new end then raises SIGBUS. So its bytes are only ever touched
 * inside fmap_run() (or fmap_copy()), which catches that signal for the
 * calling thread and returns false instead: the caller says the file
 * changed while read. Such a run must touch the mapping and plain memory
 * only: it may be left at any byte of the mapping it reads, so it holds no
 * lock and leaves nothing half done that matters when it is left.
 *
 * The size is read once, when the file is mapped: what is past it (the
 * file grew) is not read, so that every pass sees the same bytes.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct fmap {
	const char *data; /* NULL: not mapped */
	uint64_t size;
};

/*
 * Map the file at path. False (m->data NULL) if it is not a regular file
 * of at least one byte or cannot be opened or mapped: then read it as
 * before; errno says why, for an open that failed.
 */
bool fmap_open(struct fmap *m, const char *path);
void fmap_close(struct fmap *m);

/*
 * Run fn(ctx), which touches m's bytes, catching a fault of m's mapping
 * (the file shrank): false then, fn left where it was. Not nested.
 */
bool fmap_run(const struct fmap *m, void (*fn)(void *ctx), void *ctx);

/* Copy the n bytes at off (within m->size) into dst: fmap_run()'s rules. */
bool fmap_copy(const struct fmap *m, void *dst, uint64_t off, size_t n);

#endif
