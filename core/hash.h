/* SPDX-License-Identifier: MIT */
#ifndef OOMLENS_CORE_HASH_H
#define OOMLENS_CORE_HASH_H

/* FNV-1a, 64 bit: small, fast, stable across runs and machines. */

#include <stddef.h>
#include <stdint.h>

#define FNV64_SEED 0xcbf29ce484222325ULL
#define FNV64_PRIME 0x100000001b3ULL

static inline uint64_t fnv64_byte(uint64_t h, unsigned char c)
{
	return (h ^ c) * FNV64_PRIME;
}

static inline uint64_t fnv64(uint64_t h, const void *data, size_t n)
{
	const unsigned char *p = data;
	size_t i;

	for (i = 0; i < n; i++)
		h = fnv64_byte(h, p[i]);
	return h;
}

#endif
