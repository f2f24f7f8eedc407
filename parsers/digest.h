/* SPDX-License-Identifier: MIT */
#ifndef OOMLENS_PARSERS_DIGEST_H
#define OOMLENS_PARSERS_DIGEST_H

/*
 * Content identity: the XXH3 128-bit hash of every byte of a file, as 32
 * lowercase hex digits (XXH128_canonical_t order, most significant byte
 * first: what `xxhsum -H2` prints). A fast non-cryptographic hash: it tells
 * an edited log from the one ingested before, it does not stand against a
 * forger. parsers/digest.c is the only file that sees libxxhash.
 */

#include <stdbool.h>
#include <stddef.h>

#include "core/error.h"

#define CONTENT_DIGEST_HEX 33 /* 32 hex digits and a NUL */

/*
 * Hash the file at path, read to its end in large blocks, into hex.
 * Errors: IO naming the file ("cannot read 'x.log'"), NOMEM.
 */
OOMLENS_MUST_CHECK struct oomlens_error *
content_digest_file(const char *path, char hex[CONTENT_DIGEST_HEX]);

/*
 * content_digest_file() that shows each block it reads to each (in file
 * order; the block is borrowed for the call), so that one reading of the
 * file serves another pass over its bytes. each may be NULL.
 */
OOMLENS_MUST_CHECK struct oomlens_error *
content_digest_file_each(const char *path, char hex[CONTENT_DIGEST_HEX],
			 void (*each)(void *ctx, const char *block, size_t n),
			 void *ctx);

/*
 * The same hash made piece by piece, in file order (XXH3's streaming
 * state): the hex of every byte added is that of content_digest_file() on
 * those bytes, however they were cut.
 */
struct content_digest;
struct content_digest *content_digest_start(void); /* NULL: out of memory */
void content_digest_add(struct content_digest *d, const void *p, size_t n);
/* The hex of what was added; false if the library failed. Frees d. */
bool content_digest_end(struct content_digest *d, char hex[CONTENT_DIGEST_HEX]);
void content_digest_drop(struct content_digest *d);

/* Hash n bytes held in memory into hex. */
void content_digest_bytes(const void *data, size_t n,
			  char hex[CONTENT_DIGEST_HEX]);

#endif
