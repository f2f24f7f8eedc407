/* SPDX-License-Identifier: MIT */
#ifndef OOMLENS_CORE_SCAN_H
#define OOMLENS_CORE_SCAN_H

/*
 * Cursor-style scanning over a byte range that need not be NUL-terminated.
 *
 * Each scan_* function looks at the text at the cursor and, on success,
 * advances the cursor past what it consumed and returns true. On failure it
 * returns false and leaves the cursor where it was, so alternatives chain
 * with || and sequences with &&:
 *
 *	struct scan s = scan_of(line, len);
 *	if (scan_lit(&s, "[") && scan_spaces(&s) && scan_i64(&s, &pid) &&
 *	    scan_lit(&s, "]"))
 *		...
 *
 * Numbers never overflow silently: a value out of range fails the scan.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct scan {
	const char *p; /* the cursor */
	const char *end; /* one past the last byte */
};

static inline struct scan scan_of(const char *p, size_t len)
{
	struct scan s = {p, p + len};
	return s;
}

static inline size_t scan_left(const struct scan *s)
{
	return (size_t)(s->end - s->p);
}

static inline bool scan_eof(const struct scan *s)
{
	return s->p >= s->end;
}

/* Consume the literal text lit. */
bool scan_lit(struct scan *s, const char *lit);
/* Consume one byte c. */
bool scan_char(struct scan *s, char c);
/* Consume zero or more spaces/tabs; always succeeds. */
bool scan_spaces(struct scan *s);
/* Consume one or more spaces/tabs. */
bool scan_space1(struct scan *s);
/* Consume a decimal integer with optional leading '-'. */
bool scan_i64(struct scan *s, int64_t *out);
/* Consume an unsigned decimal integer. */
bool scan_u64(struct scan *s, uint64_t *out);
/* Consume exactly n decimal digits into *out. */
bool scan_digits(struct scan *s, size_t n, unsigned *out);
/* Consume a decimal number "123.456"; frac digits may be absent. */
bool scan_decimal(struct scan *s, double *out);
/* Consume bytes up to (not including) c; fails if c is absent. */
bool scan_until(struct scan *s, char c, const char **start, size_t *len);
/* Consume a run of non-space bytes (at least one). */
bool scan_word(struct scan *s, const char **start, size_t *len);

/* The number of '\n' bytes in [p, p+len), a word at a time. */
size_t scan_count_newlines(const char *p, size_t len);

/*
 * The first place in [p, p+len) where any of n three-byte anchors starts
 * (anchors: n*3 bytes, back to back), NULL if none; at most
 * SCAN_MAX_ANCHORS are used. If newlines is not NULL it receives the number
 * of '\n' bytes before that place (or in the whole range, when NULL is
 * returned). SIMD on x86-64 (AVX2 where the CPU has it, else SSE2): many
 * bytes per cycle.
 */
#define SCAN_MAX_ANCHORS 8
const char *scan_find_any3(const char *p, size_t len, const char *anchors,
			   size_t n, size_t *newlines);

/* memmem for a literal over [p, p+len), NULL if absent. */
const char *scan_find(const char *p, size_t len, const char *lit);
/* True if [p, p+len) starts with lit. */
bool scan_starts(const char *p, size_t len, const char *lit);
/* Skip leading and trailing spaces/tabs/CR of a range in place. */
void scan_trim(const char **p, size_t *len);

#endif
