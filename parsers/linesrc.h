/* SPDX-License-Identifier: MIT */
#ifndef OOMLENS_PARSERS_LINESRC_H
#define OOMLENS_PARSERS_LINESRC_H

/*
 * A line source: streams lines out of a byte reader with bounded memory.
 *
 * Lines are split at '\n' and delivered without it. A line longer than
 * LINESRC_MAX_LINE bytes is delivered cut to that length with `cut` set; the
 * rest of it is skipped, unless it holds a CR in its first LINESRC_MAX_LINE
 * bytes (a file whose lines end in CR alone): then it is delivered up to
 * its last such CR, not cut, and the rest follows as the next line. NUL
 * bytes and invalid UTF-8 are passed through, but for a run of NUL bytes
 * at the start of a line that would make it over-long (a crashed file's
 * unwritten blocks): the run is dropped, counted in the line's `nuls`, and
 * the text after it is the line. In a stream that may have no end (a pipe,
 * a device, an archive entry: not `finite`), a run of more than
 * LINESRC_MAX_NULS bytes with no line in it is an error (/dev/zero).
 * Line numbers are 1-based; offsets are byte offsets of the line's start.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/error.h"

#define LINESRC_MAX_LINE ((size_t)1 << 20)
#define LINESRC_MAX_NULS ((uint64_t)64 << 20)

/* Reads up to n bytes; returns bytes read, 0 at the end, -1 with errno. */
typedef ssize_t linesrc_read_fn(void *ctx, void *buf, size_t n);

struct linesrc {
	const char *name; /* borrowed: for messages */
	linesrc_read_fn *read;
	void *ctx;
	int fd; /* for the fd reader; -1 otherwise */
	bool own_fd;
	char *buf;
	size_t size, start, end;
	uint64_t lineno;
	uint64_t offset; /* of buf[start] in the stream */
	bool eof, skipping;
	uint64_t nuls; /* NUL bytes dropped ahead of the next line */
	/*
	 * The stream ends (a regular file; linesrc_open() sets it, a reader
	 * of a file's bytes may): a run of NUL bytes is not bounded.
	 */
	bool finite;
	uint64_t binary_head; /* bytes passed over by linesrc_skip_binary() */
	/*
	 * A reader that fails may point this at why (else strerror(errno)
	 * is said); it must stay valid until the reader is called again.
	 */
	const char *read_error;
};

struct line {
	const char *text; /* valid until the next linesrc_next() */
	size_t len;
	uint64_t lineno;
	uint64_t offset;
	bool cut; /* longer than LINESRC_MAX_LINE */
	/* NUL bytes dropped before text (offset is after them): see above */
	uint64_t nuls;
};

/*
 * Open path for reading ("-" is standard input). name is borrowed for
 * messages. Errors: IO (cannot open, is a directory), NOMEM.
 */
OOMLENS_MUST_CHECK struct oomlens_error *linesrc_open(struct linesrc *src,
						      const char *path);
/* Read from a caller-supplied reader; ctx is borrowed. */
OOMLENS_MUST_CHECK struct oomlens_error *
linesrc_init_reader(struct linesrc *src, const char *name,
		    linesrc_read_fn *read, void *ctx);
/*
 * The next line into *line; *got is false at the end of input.
 * Errors: IO, naming the file and the byte offset; LIMIT, a run of NUL
 * bytes over LINESRC_MAX_NULS in a stream that is not finite.
 */
OOMLENS_MUST_CHECK struct oomlens_error *
linesrc_next(struct linesrc *src, struct line *line, bool *got);
/*
 * Skip whole lines that hold none of the literals of set: stop at the start
 * of the first line that holds one, or at the end of input. Line numbers and
 * offsets stay exact. *skipped counts the lines passed over. The literals
 * hold no '\n'. Errors: IO.
 */
struct scan_set;
OOMLENS_MUST_CHECK struct oomlens_error *
linesrc_skip_to(struct linesrc *src, const struct scan_set *set,
		uint64_t *skipped);
/*
 * The first bytes of the stream, up to want (at most LINESRC_MAX_LINE),
 * without consuming them: fewer only at the end of input. *p is valid until
 * the next call on src. Errors: IO.
 */
OOMLENS_MUST_CHECK struct oomlens_error *
linesrc_peek(struct linesrc *src, size_t want, const char **p, size_t *n);
/*
 * linesrc_peek() of up to max bytes (at most LINESRC_MAX_LINE), and
 * *whole says whether they are all that is left of the stream.
 */
OOMLENS_MUST_CHECK struct oomlens_error *
linesrc_peek_all(struct linesrc *src, size_t max, const char **p, size_t *n,
		 bool *whole);
/*
 * Take the next n bytes whatever they hold (a binary field of a journal
 * export): *p points at *got bytes, n unless the input ends first, valid
 * until the next call; n is at most LINESRC_MAX_LINE. Line numbers count the
 * newlines taken. Errors: IO.
 */
OOMLENS_MUST_CHECK struct oomlens_error *
linesrc_take(struct linesrc *src, size_t n, const char **p, size_t *got);
/* True if the block p[0..n) is binary data, not text. */
typedef bool linesrc_judge_fn(const unsigned char *p, size_t n);
/*
 * At the start of the stream only: pass over the blocks of `block` bytes
 * (at most LINESRC_MAX_LINE / 2) that binary() calls binary, then the line
 * holding the last control byte of the last one (the garbage's end): the
 * stream goes on at the line after, line numbers and offsets exact, and
 * src->binary_head says how many bytes were passed over. *all is true
 * when no block that is text came before the end or `limit` bytes: then
 * the stream is binary data and nothing more should be read. Errors: IO.
 */
OOMLENS_MUST_CHECK struct oomlens_error *
linesrc_skip_binary(struct linesrc *src, linesrc_judge_fn *binary, size_t block,
		    uint64_t limit, bool *all);
void linesrc_close(struct linesrc *src);

#endif
