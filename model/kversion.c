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
