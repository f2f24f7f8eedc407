/* SPDX-License-Identifier: MIT */
#ifndef OOMLENS_MODEL_KVERSION_H
#define OOMLENS_MODEL_KVERSION_H

/*
 * Kernel versions as comparable integers: KV(2, 6, 32) < KV(3, 10, 0).
 * A release string such as "3.10.0-514.6.1.el7.x86_64" parses to its
 * upstream base version; distribution kernels are recognised separately.
 */

#include <stdbool.h>
#include <stddef.h>

/*
 * 8 bits of major and minor, 16 of sublevel: stable trees go past 255
 * (4.14.336, 4.19.325), and where a fix reached a stable tree decides
 * which formula its kernels ran (analyzer/kernels.c).
 */
#define KV(a, b, c) (((a) << 24) | ((b) << 16) | (c))
#define KV_ANY_MIN 0
#define KV_ANY_MAX KV(255u, 255u, 65535u)

/* The base version of a release string, or 0 if it does not start "N.N". */
unsigned kversion_parse(const char *release, size_t len);

/*
 * The order of two release strings, as strcmp() gives its sign: by base
 * version first (3.2 before 3.10, 5.3 before 5.10), then digit runs as
 * numbers and the rest byte by byte (4.18.0-80.el8 before
 * 4.18.0-348.el8). A release without a base version sorts after those
 * with one.
 */
int kversion_cmp(const char *a, size_t alen, const char *b, size_t blen);

#endif
