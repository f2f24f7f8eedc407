// SPDX-License-Identifier: MIT
/*
 * Kernel releases as comparable numbers (model/kversion.h): the upstream
 * base version of a release string; 0 when it does not parse.
 */
#include "model/kversion.h"

#include "core/scan.h"
#include "core/banned.h"

unsigned kversion_parse(const char *release, size_t len)
{
	struct scan s = scan_of(release, len);
	uint64_t a, b, c = 0;

	if (!scan_u64(&s, &a) || !scan_char(&s, '.') || !scan_u64(&s, &b))
		return 0;
	if (scan_char(&s, '.') && !scan_u64(&s, &c))
		c = 0;
	if (a > 255 || b > 255)
		return 0;
	return KV((unsigned)a, (unsigned)b, c > 65535 ? 65535u : (unsigned)c);
}

/* The digit run at s[*i..n) compared with t's: by value, any length. */
static int digits_cmp(const char *s, size_t n, size_t *i, const char *t,
		      size_t m, size_t *j)
{
	size_t a, b, la, lb;
	int order = 0;

	while (*i < n && s[*i] == '0' && *i + 1 < n && s[*i + 1] >= '0' &&
	       s[*i + 1] <= '9')
		(*i)++;
	while (*j < m && t[*j] == '0' && *j + 1 < m && t[*j + 1] >= '0' &&
	       t[*j + 1] <= '9')
		(*j)++;
	for (a = *i; a < n && s[a] >= '0' && s[a] <= '9';)
		a++;
	for (b = *j; b < m && t[b] >= '0' && t[b] <= '9';)
		b++;
	la = a - *i;
	lb = b - *j;
	if (la != lb)
		order = la < lb ? -1 : 1;
	for (size_t k = 0; !order && k < la; k++)
		if (s[*i + k] != t[*j + k])
			order = s[*i + k] < t[*j + k] ? -1 : 1;
	*i = a;
	*j = b;
	return order;
}

int kversion_cmp(const char *a, size_t alen, const char *b, size_t blen)
{
	unsigned va = kversion_parse(a, alen), vb = kversion_parse(b, blen);
	size_t i = 0, j = 0;

	if (va != vb)
		return !va ? 1 : !vb ? -1 : va < vb ? -1 : 1;
	while (i < alen && j < blen) {
		bool da = a[i] >= '0' && a[i] <= '9',
		     db = b[j] >= '0' && b[j] <= '9';

		if (da && db) {
			int order = digits_cmp(a, alen, &i, b, blen, &j);

			if (order)
				return order;
			continue;
		}
		if (a[i] != b[j])
			return (unsigned char)a[i] < (unsigned char)b[j] ? -1
									 : 1;
		i++;
		j++;
	}
	return i < alen ? 1 : j < blen ? -1 : 0;
}
