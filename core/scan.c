// SPDX-License-Identifier: MIT

#include "core/scan.h"

#include <string.h>

#include "core/banned.h"

static bool is_space(char c)
{
	return c == ' ' || c == '\t';
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

bool scan_lit(struct scan *s, const char *lit)
{
	size_t n = strlen(lit);

	if (scan_left(s) < n || memcmp(s->p, lit, n) != 0)
		return false;
	s->p += n;
	return true;
}

bool scan_char(struct scan *s, char c)
{
	if (scan_eof(s) || *s->p != c)
		return false;
	s->p++;
	return true;
}

bool scan_spaces(struct scan *s)
{
	while (!scan_eof(s) && is_space(*s->p))
		s->p++;
	return true;
}

bool scan_space1(struct scan *s)
{
	if (scan_eof(s) || !is_space(*s->p))
		return false;
	return scan_spaces(s);
}

bool scan_u64(struct scan *s, uint64_t *out)
{
	const char *p = s->p;
	uint64_t v = 0;

	if (p >= s->end || !is_digit(*p))
		return false;
	for (; p < s->end && is_digit(*p); p++) {
		unsigned d = (unsigned)(*p - '0');

		if (v > (UINT64_MAX - d) / 10)
			return false;
		v = v * 10 + d;
	}
	*out = v;
	s->p = p;
	return true;
}

bool scan_i64(struct scan *s, int64_t *out)
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

bool scan_digits(struct scan *s, size_t n, unsigned *out)
{
	unsigned v = 0;
	size_t i;

	if (scan_left(s) < n || n > 9)
		return false;
	for (i = 0; i < n; i++) {
		if (!is_digit(s->p[i]))
			return false;
		v = v * 10 + (unsigned)(s->p[i] - '0');
	}
	*out = v;
	s->p += n;
	return true;
}

bool scan_decimal(struct scan *s, double *out)
{
	struct scan t = *s;
	uint64_t ip;
	double v, scale = 0.1;

	if (!scan_u64(&t, &ip))
		return false;
	v = (double)ip;
	if (scan_char(&t, '.'))
		for (; !scan_eof(&t) && is_digit(*t.p); t.p++, scale /= 10)
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

bool scan_word(struct scan *s, const char **start, size_t *len)
{
	const char *p = s->p;

	while (p < s->end && !is_space(*p))
		p++;
	if (p == s->p)
		return false;
	*start = s->p;
	*len = (size_t)(p - s->p);
	s->p = p;
	return true;
}

const char *scan_find(const char *p, size_t len, const char *lit)
{
	return memmem(p, len, lit, strlen(lit));
}

bool scan_starts(const char *p, size_t len, const char *lit)
{
	size_t n = strlen(lit);

	return len >= n && memcmp(p, lit, n) == 0;
}

void scan_trim(const char **p, size_t *len)
{
	while (*len && (is_space(**p) || **p == '\r')) {
		(*p)++;
		(*len)--;
	}
	while (*len && (is_space((*p)[*len - 1]) || (*p)[*len - 1] == '\r'))
		(*len)--;
}
