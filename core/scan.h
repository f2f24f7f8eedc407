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
#include <string.h>

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

/*
 * The small scanners below are inline: they run several times per log line.
 * Consume one byte c; zero or more / one or more blanks; an unsigned or
 * signed decimal integer (failing on overflow); exactly n digits (n <= 9);
 * a run of non-blank bytes.
 */

static inline bool scan_is_space(char c)
{
	return c == ' ' || c == '\t';
}

static inline bool scan_is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static inline bool scan_char(struct scan *s, char c)
{
	if (scan_eof(s) || *s->p != c)
		return false;
	s->p++;
	return true;
}

static inline bool scan_spaces(struct scan *s)
{
	while (!scan_eof(s) && scan_is_space(*s->p))
		s->p++;
	return true;
}

static inline bool scan_space1(struct scan *s)
{
	if (scan_eof(s) || !scan_is_space(*s->p))
		return false;
	return scan_spaces(s);
}

static inline bool scan_u64(struct scan *s, uint64_t *out)
{
	const char *p = s->p;
	uint64_t v = 0;

	if (p >= s->end || !scan_is_digit(*p))
		return false;
	for (; p < s->end && scan_is_digit(*p); p++) {
		unsigned d = (unsigned)(*p - '0');

		/* v * 10 + d > UINT64_MAX, without a division per digit */
		if (__builtin_mul_overflow(v, 10, &v) ||
		    __builtin_add_overflow(v, d, &v))
			return false;
	}
	*out = v;
	s->p = p;
	return true;
}

static inline bool scan_i64(struct scan *s, int64_t *out)
{
	struct scan t = *s;
	bool neg = scan_char(&t, '-');
	uint64_t v;

	if (!scan_u64(&t, &v))
		return false;
	if (neg ? v > (uint64_t)INT64_MAX + 1 : v > (uint64_t)INT64_MAX)
		return false;
	*out = neg ? (int64_t)(0 - v) : (int64_t)v;
	*s = t;
	return true;
}

static inline bool scan_digits(struct scan *s, size_t n, unsigned *out)
{
	unsigned v = 0;
	size_t i;

	if (scan_left(s) < n || n > 9)
		return false;
	for (i = 0; i < n; i++) {
		if (!scan_is_digit(s->p[i]))
			return false;
		v = v * 10 + (unsigned)(s->p[i] - '0');
	}
	*out = v;
	s->p += n;
	return true;
}

static inline bool scan_word(struct scan *s, const char **start, size_t *len)
{
	const char *p = s->p;

	while (p < s->end && !scan_is_space(*p))
		p++;
	if (p == s->p)
		return false;
	*start = s->p;
	*len = (size_t)(p - s->p);
	s->p = p;
	return true;
}

/*
 * Consume the literal text lit. Inline, as scan_starts() and scan_find()
 * below: with a literal argument its length is known at compile time.
 */
static inline bool scan_lit(struct scan *s, const char *lit)
{
	size_t n = strlen(lit);

	if (scan_left(s) < n || memcmp(s->p, lit, n) != 0)
		return false;
	s->p += n;
	return true;
}
/* Consume a decimal number "123.456"; frac digits may be absent. */
bool scan_decimal(struct scan *s, double *out);
/* Consume bytes up to (not including) c; fails if c is absent. */
bool scan_until(struct scan *s, char c, const char **start, size_t *len);

/*
 * Consume a "%*pbl" node list such as "0-1,3" into a bit mask of nodes
 * 0..63; fails (consuming nothing) if it is malformed or names a node
 * above 63.
 */
bool scan_nodelist(struct scan *s, uint64_t *mask);

/* The number of '\n' bytes in [p, p+len), a word at a time. */
size_t scan_count_newlines(const char *p, size_t len);

/*
 * The same count, 16 bytes at a time where SSE2 is (the rest a word at a
 * time): for blocks of a MiB, as ingest's line index reads them.
 */
size_t scan_count_newlines_wide(const char *p, size_t len);

/*
 * A set of literals searched for together, in one pass over the text (the
 * way grep looks for several fixed strings): a filter on a window of the
 * first SCAN_SET_WINDOW bytes of every literal, then an exact comparison
 * of the places it lets through. SIMD on x86-64 (AVX-512 VBMI or AVX2 where
 * the CPU has it, chosen at run time), else a byte-table loop: the same
 * answer every way. Build it once with scan_set_init(); it holds no pointers of
 * its own but the borrowed literals.
 */
#define SCAN_SET_MAX 16
#define SCAN_SET_WINDOW 4
#define SCAN_SET_BUCKETS 8

struct scan_set {
	size_t n; /* literals */
	const char *lit[SCAN_SET_MAX]; /* borrowed: valid as long as the set */
	size_t len[SCAN_SET_MAX];
	size_t window; /* bytes filtered on: the shortest literal, at most 4 */
	uint16_t bucket[SCAN_SET_BUCKETS]; /* literals (bits) in each bucket */
	/* per window byte: the buckets whose literals may hold a byte there */
	uint8_t lo[SCAN_SET_WINDOW][16]; /* by its low nibble */
	uint8_t hi[SCAN_SET_WINDOW][16]; /* by its high nibble */
	uint8_t byte[SCAN_SET_WINDOW][256]; /* by the whole byte */
	uint8_t low7[SCAN_SET_WINDOW][128]; /* by its low seven bits */
};

/*
 * Make a set of n literals (NUL-terminated, borrowed). False, leaving the
 * set empty, if n is 0 or above SCAN_SET_MAX or a literal is empty.
 */
bool scan_set_init(struct scan_set *set, const char *const *lit, size_t n);

/*
 * The first place in [p, p+len) where any literal of set starts, NULL if
 * none. If newlines is not NULL it receives the number of '\n' bytes before
 * that place (or in the whole range, when NULL is returned).
 */
const char *scan_set_find(const struct scan_set *set, const char *p, size_t len,
			  size_t *newlines);

/*
 * For tests: the ways scan_set_find() may search, and the search done one
 * given way (false if this CPU cannot). SCAN_SET_BEST is what
 * scan_set_find() uses.
 */
enum scan_set_way {
	SCAN_SET_BEST,
	SCAN_SET_BYTES,
	SCAN_SET_AVX2,
	SCAN_SET_AVX512_VBMI,
};
bool scan_set_find_way(enum scan_set_way way, const struct scan_set *set,
		       const char *p, size_t len, size_t *newlines,
		       const char **hit);

/*
 * memmem: the first place in [p, p+len) where the n bytes of lit start, NULL
 * if none. SIMD on x86-64: cheaper than libc's memmem on the short texts
 * of log lines, which it spends most of its time setting up for.
 */
const char *scan_find_n(const char *p, size_t len, const char *lit, size_t n);

/* memmem for a literal over [p, p+len), NULL if absent. */
static inline const char *scan_find(const char *p, size_t len, const char *lit)
{
	return scan_find_n(p, len, lit, strlen(lit));
}

/* True if [p, p+len) starts with lit. */
static inline bool scan_starts(const char *p, size_t len, const char *lit)
{
	size_t n = strlen(lit);

	return len >= n && memcmp(p, lit, n) == 0;
}
/* Skip leading and trailing spaces/tabs/CR of a range in place. */
void scan_trim(const char **p, size_t *len);

/* The unsigned field of n (<= 8) bytes at p, little- or big-endian (be). */
static inline uint64_t scan_uint_at(const unsigned char *p, unsigned n, bool be)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < n; i++)
		v |= (uint64_t)p[i] << (8 * (be ? n - 1 - i : i));
	return v;
}

#endif
