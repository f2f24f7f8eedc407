// SPDX-License-Identifier: MIT
/*
 * Cursor scanning (core/scan.h) and the byte searches the parsers run on
 * every line: literal search, trimming, node lists, and the search for a
 * set of literals that skips quiet log text (AVX-512 VBMI or AVX2 where the
 * CPU has it, chosen at run time, else a byte-table loop; the same answer
 * every way). A failed scan leaves the cursor where it was; numbers out of
 * range fail, never wrap.
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

size_t scan_count_newlines_wide(const char *p, size_t len)
{
	size_t i = 0, count = 0;
#if defined(__SSE2__)
	const __m128i nl = _mm_set1_epi8('\n'), zero = _mm_setzero_si128();

	while (i + 16 <= len) {
		__m128i acc = zero, sum;
		size_t k;

		/* at most 255 per byte lane before it is summed */
		for (k = 0; k < 255 && i + 16 <= len; k++, i += 16)
			acc = _mm_sub_epi8(
				acc,
				_mm_cmpeq_epi8(_mm_loadu_si128((
						       const __m128i *)(p + i)),
					       nl));
		sum = _mm_sad_epu8(acc, zero);
		count +=
			(size_t)_mm_cvtsi128_si64(sum) +
			(size_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(sum, sum));
	}
#endif
	return count + scan_count_newlines(p + i, len - i);
}

/*
 * A set of literals (scan_set_*): each literal's first `window` bytes go
 * into a bucket (literals with the same window share one; more distinct
 * windows than buckets share them round-robin), and per window byte j three
 * tables say which buckets may hold a byte there: by its low nibble and by
 * its high nibble (16 entries each, for a SIMD byte shuffle: a place passes
 * when both nibbles of all window bytes agree on a bucket, so some places
 * pass that hold no literal), by its low seven bits (for a 128-entry byte
 * permutation: a byte above 127 passes where the same byte without its top
 * bit would) and by the whole byte (the scalar loop). Every
 * place that passes is compared in full with the literals of its buckets,
 * in order, so the first literal is what is found. Window bytes past the
 * shortest literal's length let every byte through.
 */
bool scan_set_init(struct scan_set *set, const char *const *lit, size_t n)
{
	size_t i, j, k, windows = 0;
	unsigned of[SCAN_SET_MAX];

	memset(set, 0, sizeof(*set));
	if (!n || n > SCAN_SET_MAX)
		return false;
	set->window = SCAN_SET_WINDOW;
	for (i = 0; i < n; i++) {
		set->lit[i] = lit[i];
		set->len[i] = strlen(lit[i]);
		if (!set->len[i]) {
			memset(set, 0, sizeof(*set));
			return false;
		}
		if (set->len[i] < set->window)
			set->window = set->len[i];
	}
	for (i = 0; i < n; i++) {
		for (k = 0; k < i && memcmp(lit[k], lit[i], set->window); k++)
			;
		of[i] = k < i ? of[k] : windows++ % SCAN_SET_BUCKETS;
		set->bucket[of[i]] |= (uint16_t)(1u << i);
		for (j = 0; j < set->window; j++) {
			unsigned char c = (unsigned char)lit[i][j];

			set->lo[j][c & 15] |= (uint8_t)(1u << of[i]);
			set->hi[j][c >> 4] |= (uint8_t)(1u << of[i]);
			set->byte[j][c] |= (uint8_t)(1u << of[i]);
			set->low7[j][c & 127] |= (uint8_t)(1u << of[i]);
		}
	}
	for (j = set->window; j < SCAN_SET_WINDOW; j++) {
		memset(set->lo[j], 0xff, sizeof(set->lo[j]));
		memset(set->hi[j], 0xff, sizeof(set->hi[j]));
		memset(set->byte[j], 0xff, sizeof(set->byte[j]));
		memset(set->low7[j], 0xff, sizeof(set->low7[j]));
	}
	set->n = n;
	return true;
}

/* Does a literal of the buckets in `buckets` start at p[at]? */
static bool set_holds(const struct scan_set *set, const char *p, size_t len,
		      size_t at, unsigned buckets)
{
	unsigned lits = 0;

	for (; buckets; buckets &= buckets - 1)
		lits |= set->bucket[__builtin_ctz(buckets)];
	for (; lits; lits &= lits - 1) {
		unsigned i = (unsigned)__builtin_ctz(lits);

		if (set->len[i] <= len - at &&
		    memcmp(p + at, set->lit[i], set->len[i]) == 0)
			return true;
	}
	return false;
}

/* The places from..len-1 one at a time, with the whole-byte tables. */
static const char *set_find_bytes(const struct scan_set *set, const char *p,
				  size_t len, size_t from, size_t *newlines)
{
	size_t i, j, lines = 0;

	for (i = from; i < len; i++) {
		if (set->window <= len - i) {
			unsigned m = set->byte[0][(unsigned char)p[i]];

			for (j = 1; m && j < set->window; j++)
				m &= set->byte[j][(unsigned char)p[i + j]];
			if (m && set_holds(set, p, len, i, m)) {
				*newlines = lines;
				return p + i;
			}
		}
		lines += p[i] == '\n';
	}
	*newlines = lines;
	return NULL;
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

/*
 * The first literal at the candidate places of the block at p[i] (cand: a
 * bit per place, m: each place's buckets), or NULL. nls has a bit per
 * newline of the block; with a literal found, *lines is added the n
 * newlines before the block and those of the block before it.
 */
static const char *block_first(const struct scan_set *set, const char *p,
			       size_t len, size_t i, uint64_t cand,
			       const uint8_t *m, uint64_t nls, size_t n,
			       size_t *lines)
{
	for (; cand; cand &= cand - 1) {
		unsigned k = (unsigned)__builtin_ctzll(cand);

		if (set_holds(set, p, len, i + k, m[k])) {
			*lines += n + (size_t)__builtin_popcountll(
					      nls & ((1ull << k) - 1));
			return p + i + k;
		}
	}
	return NULL;
}

/*
 * Blocks of 32 places from *at on, while a block's window bytes lie inside
 * [p, p+len): the first literal found (*lines: the newlines before it), or
 * NULL with *at at the first place not looked at and *lines counting the
 * newlines before it. *lines is added to, not set. The four window bytes
 * are written out, so that the compiler keeps the eight tables in
 * registers.
 */
#define TARGET_AVX2 __attribute__((target("avx2,popcnt")))

/* The buckets that the bytes at p (one per place) allow at window byte j. */
TARGET_AVX2 static inline __m256i buckets_avx2(const char *p, __m256i lo,
					       __m256i hi)
{
	const __m256i low = _mm256_set1_epi8(15);
	__m256i v = _mm256_loadu_si256((const __m256i *)p);

	return _mm256_and_si256(
		_mm256_shuffle_epi8(lo, _mm256_and_si256(v, low)),
		_mm256_shuffle_epi8(
			hi, _mm256_and_si256(_mm256_srli_epi16(v, 4), low)));
}

TARGET_AVX2 static inline __m256i table_avx2(const uint8_t t[16])
{
	return _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)t));
}

TARGET_AVX2 static const char *set_find_avx2(const struct scan_set *set,
					     const char *p, size_t len,
					     size_t *at, size_t *lines)
{
	const __m256i nl = _mm256_set1_epi8('\n'),
		      zero = _mm256_setzero_si256();
	const __m256i lo0 = table_avx2(set->lo[0]),
		      hi0 = table_avx2(set->hi[0]);
	const __m256i lo1 = table_avx2(set->lo[1]),
		      hi1 = table_avx2(set->hi[1]);
	const __m256i lo2 = table_avx2(set->lo[2]),
		      hi2 = table_avx2(set->hi[2]);
	const __m256i lo3 = table_avx2(set->lo[3]),
		      hi3 = table_avx2(set->hi[3]);
	size_t i = *at, n = 0;

	for (; i + 32 + SCAN_SET_WINDOW - 1 <= len; i += 32) {
		const char *b = p + i;
		__m256i r = _mm256_and_si256(
			_mm256_and_si256(buckets_avx2(b, lo0, hi0),
					 buckets_avx2(b + 1, lo1, hi1)),
			_mm256_and_si256(buckets_avx2(b + 2, lo2, hi2),
					 buckets_avx2(b + 3, lo3, hi3)));
		unsigned cand = ~(unsigned)_mm256_movemask_epi8(
			_mm256_cmpeq_epi8(r, zero));
		unsigned nls = (unsigned)_mm256_movemask_epi8(_mm256_cmpeq_epi8(
			_mm256_loadu_si256((const __m256i *)b), nl));

		if (cand) {
			uint8_t m[32];
			const char *hit;

			_mm256_storeu_si256((__m256i *)m, r);
			hit = block_first(set, p, len, i, cand, m, nls, n,
					  lines);
			if (hit)
				return hit;
		}
		n += (size_t)__builtin_popcount(nls);
	}
	*at = i;
	*lines += n;
	return NULL;
}

/*
 * The same with AVX-512 VBMI: a two-table byte permutation looks each byte
 * up in 128 entries by its low seven bits, whatever its top bit, so a
 * window byte costs one instruction instead of AVX2's shift, two masks and
 * two shuffles.
 */
#define TARGET_VBMI                                                            \
	__attribute__((target("avx512f,avx512bw,avx512vbmi,popcnt")))

TARGET_VBMI static inline __m512i buckets_vbmi(const char *p, __m512i first,
					       __m512i second)
{
	return _mm512_permutex2var_epi8(
		first, _mm512_loadu_si512((const void *)p), second);
}

TARGET_VBMI static const char *set_find_vbmi(const struct scan_set *set,
					     const char *p, size_t len,
					     size_t *at, size_t *lines)
{
	const __m512i nl = _mm512_set1_epi8('\n');
	const __m512i l0 = _mm512_loadu_si512((const void *)set->low7[0]),
		      t0 = _mm512_loadu_si512(
			      (const void *)(set->low7[0] + 64));
	const __m512i l1 = _mm512_loadu_si512((const void *)set->low7[1]),
		      t1 = _mm512_loadu_si512(
			      (const void *)(set->low7[1] + 64));
	const __m512i l2 = _mm512_loadu_si512((const void *)set->low7[2]),
		      t2 = _mm512_loadu_si512(
			      (const void *)(set->low7[2] + 64));
	const __m512i l3 = _mm512_loadu_si512((const void *)set->low7[3]),
		      t3 = _mm512_loadu_si512(
			      (const void *)(set->low7[3] + 64));
	size_t i = *at, n = 0;

	for (; i + 64 + SCAN_SET_WINDOW - 1 <= len; i += 64) {
		const char *b = p + i;
		__m512i r = _mm512_and_si512(
			_mm512_and_si512(buckets_vbmi(b, l0, t0),
					 buckets_vbmi(b + 1, l1, t1)),
			_mm512_and_si512(buckets_vbmi(b + 2, l2, t2),
					 buckets_vbmi(b + 3, l3, t3)));
		uint64_t cand = _mm512_test_epi8_mask(r, r);
		uint64_t nls = _mm512_cmpeq_epi8_mask(
			_mm512_loadu_si512((const void *)b), nl);

		if (cand) {
			uint8_t m[64];
			const char *hit;

			_mm512_storeu_si512((void *)m, r);
			hit = block_first(set, p, len, i, cand, m, nls, n,
					  lines);
			if (hit)
				return hit;
		}
		n += (size_t)__builtin_popcountll(nls);
	}
	*at = i;
	*lines += n;
	return NULL;
}

static bool way_runs(enum scan_set_way way)
{
	switch (way) {
	case SCAN_SET_AVX512_VBMI:
		return __builtin_cpu_supports("avx512bw") &&
		       __builtin_cpu_supports("avx512vbmi");
	case SCAN_SET_AVX2:
		return __builtin_cpu_supports("avx2");
	default:
		return true;
	}
}
#else
static bool way_runs(enum scan_set_way way)
{
	return way == SCAN_SET_BEST || way == SCAN_SET_BYTES;
}
#endif

/* Wide blocks first, narrower ones next, the last places one by one. */
static const char *set_find(enum scan_set_way way, const struct scan_set *set,
			    const char *p, size_t len, size_t *newlines)
{
	size_t at = 0, lines = 0, rest;
	const char *hit = NULL;

	if (!set->n) {
		*newlines = scan_count_newlines(p, len);
		return NULL;
	}
#if defined(__x86_64__) && defined(__GNUC__)
	if (way == SCAN_SET_AVX512_VBMI)
		hit = set_find_vbmi(set, p, len, &at, &lines);
	if (!hit && way >= SCAN_SET_AVX2)
		hit = set_find_avx2(set, p, len, &at, &lines);
	if (hit) {
		*newlines = lines;
		return hit;
	}
#endif
	hit = set_find_bytes(set, p, len, at, &rest);
	*newlines = lines + rest;
	return hit;
}

static enum scan_set_way best_way(void)
{
	if (way_runs(SCAN_SET_AVX512_VBMI))
		return SCAN_SET_AVX512_VBMI;
	if (way_runs(SCAN_SET_AVX2))
		return SCAN_SET_AVX2;
	return SCAN_SET_BYTES;
}

const char *scan_set_find(const struct scan_set *set, const char *p, size_t len,
			  size_t *newlines)
{
	size_t dummy;

	return set_find(best_way(), set, p, len, newlines ? newlines : &dummy);
}

bool scan_set_find_way(enum scan_set_way way, const struct scan_set *set,
		       const char *p, size_t len, size_t *newlines,
		       const char **hit)
{
	size_t dummy;

	if (way == SCAN_SET_BEST)
		way = best_way();
	if (!way_runs(way))
		return false;
	*hit = set_find(way, set, p, len, newlines ? newlines : &dummy);
	return true;
}

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
