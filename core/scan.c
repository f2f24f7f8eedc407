// SPDX-License-Identifier: MIT
/*
 * Cursor scanning (core/scan.h) and the byte searches the parsers run on
 * every line: literal search, trimming, node lists, and the three-byte
 * anchor search that skips quiet log text (SSE2, or AVX2 where the CPU has
 * it, chosen at run time; the same answer either way). A failed scan
 * leaves the cursor where it was; numbers out of range fail, never wrap.
 */
#include "core/scan.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <string.h>

#include "core/banned.h"

bool scan_decimal(struct scan *s, double *out)
{
	struct scan t = *s;
	uint64_t ip;
	double v, scale = 0.1;

	if (!scan_u64(&t, &ip))
		return false;
	v = (double)ip;
	if (scan_char(&t, '.'))
		for (; !scan_eof(&t) && scan_is_digit(*t.p); t.p++, scale /= 10)
			v += (*t.p - '0') * scale;
	*out = v;
	*s = t;
	return true;
}

bool scan_until(struct scan *s, char c, const char **start, size_t *len)
{
	const char *q = memchr(s->p, c, scan_left(s));

	if (!q)
		return false;
	*start = s->p;
	*len = (size_t)(q - s->p);
	s->p = q;
	return true;
}

/* The plain search: where lit's first byte is, compare the rest. */
static const char *find_bytes(const char *p, size_t len, const char *lit,
			      size_t n, size_t from)
{
	size_t i;

	for (i = from; i + n <= len; i++)
		if (p[i] == lit[0] && memcmp(p + i + 1, lit + 1, n - 1) == 0)
			return p + i;
	return NULL;
}

#if defined(__SSE2__)
/*
 * The places i..i+15 where lit may start, as a bit mask: both its first and
 * its last byte are in place (two loads, n - 1 bytes apart).
 */
static unsigned candidates16(const char *p, size_t i, size_t n, __m128i first,
			     __m128i last)
{
	__m128i a = _mm_loadu_si128((const __m128i *)(p + i));
	__m128i b = _mm_loadu_si128((const __m128i *)(p + i + n - 1));

	return (unsigned)_mm_movemask_epi8(_mm_and_si128(
		_mm_cmpeq_epi8(a, first), _mm_cmpeq_epi8(b, last)));
}

/* The first candidate of mask (places from i on) that holds lit, or NULL. */
static const char *verify16(const char *p, size_t i, unsigned mask,
			    const char *lit, size_t n)
{
	for (; mask; mask &= mask - 1) {
		size_t at = i + (size_t)__builtin_ctz(mask);

		if (memcmp(p + at + 1, lit + 1, n - 2) == 0)
			return p + at;
	}
	return NULL;
}

/*
 * 16 starting places at a time, candidates compared in full in order, so
 * the first occurrence is found. Every load stays inside [p, p+len): the
 * last places are covered by one more block that ends at the last place
 * (overlapping places already looked at are masked off); a text too short
 * for one block goes to find_bytes().
 */
const char *scan_find_n(const char *p, size_t len, const char *lit, size_t n)
{
	__m128i first, last;
	size_t i = 0, places;
	const char *hit;

	if (n < 2) /* memmem's answers; no memchr() of an empty range */
		return !n ? p : len ? memchr(p, lit[0], len) : NULL;
	if (n > len)
		return NULL;
	places = len - n + 1; /* where lit may start: 0 .. places-1 */
	if (places < 16)
		return find_bytes(p, len, lit, n, 0);
	first = _mm_set1_epi8(lit[0]);
	last = _mm_set1_epi8(lit[n - 1]);
	for (; i + 16 <= places; i += 16) {
		hit = verify16(p, i, candidates16(p, i, n, first, last), lit,
			       n);
		if (hit)
			return hit;
	}
	if (i < places) {
		size_t j = places - 16; /* j < i: places j..i-1 are done */
		unsigned mask = candidates16(p, j, n, first, last);

		return verify16(p, j, mask & ~((1u << (i - j)) - 1), lit, n);
	}
	return NULL;
}
#else
const char *scan_find_n(const char *p, size_t len, const char *lit, size_t n)
{
	if (n < 2) /* memmem's answers; no memchr() of an empty range */
		return !n ? p : len ? memchr(p, lit[0], len) : NULL;
	return find_bytes(p, len, lit, n, 0);
}
#endif

void scan_trim(const char **p, size_t *len)
{
	while (*len && (scan_is_space(**p) || **p == '\r')) {
		(*p)++;
		(*len)--;
	}
	while (*len &&
	       (scan_is_space((*p)[*len - 1]) || (*p)[*len - 1] == '\r'))
		(*len)--;
}

size_t scan_count_newlines(const char *p, size_t len)
{
	const uint64_t ones = 0x0101010101010101ULL;
	const uint64_t highs = 0x8080808080808080ULL;
	const uint64_t nl = ones * '\n';
	size_t count = 0, i = 0;

	for (; i + 8 <= len; i += 8) {
		uint64_t w, x;

		memcpy(&w, p + i, 8);
		x = w ^ nl; /* zero bytes where '\n' was */
		/* exact zero-byte test: no false positives from borrows */
		x = ~(((x & ~highs) + ~highs) | x) & highs;
		/* one bit per matching byte: sum the bytes by multiplication */
		count += (size_t)(((x >> 7) * ones) >> 56);
	}
	for (; i < len; i++)
		count += p[i] == '\n';
	return count;
}

#if defined(__SSE2__)
/* 16 starting positions at a time; counts the newlines it passes. */
static const char *find_any3_sse2(const char *p, size_t len,
				  const char *anchors, size_t n,
				  size_t *newlines)
{
	__m128i a0[SCAN_MAX_ANCHORS], a1[SCAN_MAX_ANCHORS],
		a2[SCAN_MAX_ANCHORS];
	const __m128i nl = _mm_set1_epi8('\n');
	size_t i = 0, k, lines = 0;

	for (k = 0; k < n; k++) {
		a0[k] = _mm_set1_epi8(anchors[3 * k]);
		a1[k] = _mm_set1_epi8(anchors[3 * k + 1]);
		a2[k] = _mm_set1_epi8(anchors[3 * k + 2]);
	}
	for (; i + 18 <= len; i += 16) {
		__m128i v0 = _mm_loadu_si128((const __m128i *)(p + i));
		__m128i v1 = _mm_loadu_si128((const __m128i *)(p + i + 1));
		__m128i v2 = _mm_loadu_si128((const __m128i *)(p + i + 2));
		__m128i hit = _mm_setzero_si128();
		unsigned mask;

		for (k = 0; k < n; k++)
			hit = _mm_or_si128(
				hit, _mm_and_si128(
					     _mm_and_si128(
						     _mm_cmpeq_epi8(v0, a0[k]),
						     _mm_cmpeq_epi8(v1, a1[k])),
					     _mm_cmpeq_epi8(v2, a2[k])));
		mask = (unsigned)_mm_movemask_epi8(hit);
		if (mask) {
			size_t at = i + (size_t)__builtin_ctz(mask);

			*newlines = lines + scan_count_newlines(p + i, at - i);
			return p + at;
		}
		lines += scan_count_newlines(p + i, 16);
	}
	for (; i + 3 <= len; i++) {
		for (k = 0; k < n; k++)
			if (!memcmp(p + i, anchors + 3 * k, 3)) {
				*newlines = lines;
				return p + i;
			}
		lines += p[i] == '\n';
	}
	*newlines = lines + scan_count_newlines(p + i, len - i);
	(void)nl;
	return NULL;
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

/* The same, 32 positions at a time, for CPUs with AVX2. */
__attribute__((target("avx2,popcnt"))) static const char *
find_any3_avx2(const char *p, size_t len, const char *anchors, size_t n,
	       size_t *newlines)
{
	__m256i a0[SCAN_MAX_ANCHORS], a1[SCAN_MAX_ANCHORS],
		a2[SCAN_MAX_ANCHORS];
	const __m256i nl = _mm256_set1_epi8('\n');
	size_t i = 0, k, lines = 0;

	for (k = 0; k < n; k++) {
		a0[k] = _mm256_set1_epi8(anchors[3 * k]);
		a1[k] = _mm256_set1_epi8(anchors[3 * k + 1]);
		a2[k] = _mm256_set1_epi8(anchors[3 * k + 2]);
	}
	for (; i + 34 <= len; i += 32) {
		__m256i v0 = _mm256_loadu_si256((const __m256i *)(p + i));
		__m256i v1 = _mm256_loadu_si256((const __m256i *)(p + i + 1));
		__m256i v2 = _mm256_loadu_si256((const __m256i *)(p + i + 2));
		__m256i hit = _mm256_setzero_si256();
		unsigned mask, nls;

		for (k = 0; k < n; k++)
			hit = _mm256_or_si256(
				hit,
				_mm256_and_si256(
					_mm256_and_si256(
						_mm256_cmpeq_epi8(v0, a0[k]),
						_mm256_cmpeq_epi8(v1, a1[k])),
					_mm256_cmpeq_epi8(v2, a2[k])));
		mask = (unsigned)_mm256_movemask_epi8(hit);
		nls = (unsigned)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v0, nl));
		if (mask) {
			unsigned at = (unsigned)__builtin_ctz(mask);
			unsigned before =
				at ? nls & (0xffffffffu >> (32 - at)) : 0;

			*newlines = lines + (size_t)__builtin_popcount(before);
			return p + i + at;
		}
		lines += (size_t)__builtin_popcount(nls);
	}
	{
		size_t rest;
		const char *r =
			find_any3_sse2(p + i, len - i, anchors, n, &rest);

		*newlines = lines + rest;
		return r;
	}
}
#endif

const char *scan_find_any3(const char *p, size_t len, const char *anchors,
			   size_t n, size_t *newlines)
{
	size_t dummy;

	if (!newlines)
		newlines = &dummy;
	if (n > SCAN_MAX_ANCHORS)
		n = SCAN_MAX_ANCHORS;
#if defined(__x86_64__) && defined(__GNUC__)
	if (__builtin_cpu_supports("avx2"))
		return find_any3_avx2(p, len, anchors, n, newlines);
#endif
	return find_any3_sse2(p, len, anchors, n, newlines);
}
#else
const char *scan_find_any3(const char *p, size_t len, const char *anchors,
			   size_t n, size_t *newlines)
{
	size_t i, k, lines = 0;

	for (i = 0; i + 3 <= len; i++) {
		for (k = 0; k < n; k++)
			if (!memcmp(p + i, anchors + 3 * k, 3)) {
				if (newlines)
					*newlines = lines;
				return p + i;
			}
		lines += p[i] == '\n';
	}
	for (; i < len; i++)
		lines += p[i] == '\n';
	if (newlines)
		*newlines = lines;
	return NULL;
}
#endif

bool scan_nodelist(struct scan *s, uint64_t *mask)
{
	struct scan sc = *s;
	uint64_t lo, hi, m = 0;

	do {
		if (!scan_u64(&sc, &lo))
			return false;
		hi = lo;
		if (scan_char(&sc, '-') && !scan_u64(&sc, &hi))
			return false;
		if (lo > hi || hi > 63)
			return false;
		for (; lo <= hi; lo++)
			m |= (uint64_t)1 << lo;
	} while (scan_char(&sc, ','));
	*s = sc;
	*mask = m;
	return true;
}
