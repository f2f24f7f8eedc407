// SPDX-License-Identifier: MIT
/*
 * An LD_PRELOAD shim for `make check-oom`: the Nth allocation of the process
 * fails (returns NULL, errno ENOMEM), every other one goes to the next
 * allocator (glibc's, or AddressSanitizer's when the program is built with
 * it: then run with ASAN_OPTIONS=verify_asan_link_order=0).
 *
 *   FAILMALLOC_NTH=N     fail the Nth allocation counted (1-based); 0 or
 *                        unset: fail none
 *   FAILMALLOC_COUNT=F   at exit, write the number of allocations counted
 *                        to file F (how many N there are to try)
 *   FAILMALLOC_TRACE=1   print the stack of the failed call to stderr
 *
 * Counting starts in this library's constructor, which the dynamic loader
 * runs after the constructors of the libraries the program links (this
 * object is loaded first, so initialised last but for the program): what
 * is counted is the program's run, PCRE2's, SQLite's and libarchive's
 * allocations included. Invariant: an allocation made while looking up
 * the next allocator (dlsym may call calloc) is served from a small static
 * arena and never freed.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *(*next_malloc)(size_t);
static void *(*next_calloc)(size_t, size_t);
static void *(*next_realloc)(void *, size_t);
static void (*next_free)(void *);
static int (*next_posix_memalign)(void **, size_t, size_t);
static void *(*next_aligned_alloc)(size_t, size_t);

static unsigned long counted, fail_at;
static int armed, resolving;

static _Alignas(16) char arena[4096];
static size_t arena_used;

static void *arena_alloc(size_t n)
{
	void *p;

	n = (n + 15) & ~(size_t)15;
	if (n > sizeof(arena) - arena_used)
		return NULL;
	p = arena + arena_used;
	arena_used += n;
	return p;
}

static int in_arena(const void *p)
{
	return (const char *)p >= arena &&
	       (const char *)p < arena + sizeof(arena);
}

static void resolve(void)
{
	if (next_malloc || resolving)
		return;
	resolving = 1;
	next_malloc = (void *(*)(size_t))dlsym(RTLD_NEXT, "malloc");
	next_calloc = (void *(*)(size_t, size_t))dlsym(RTLD_NEXT, "calloc");
	next_realloc = (void *(*)(void *, size_t))dlsym(RTLD_NEXT, "realloc");
	next_free = (void (*)(void *))dlsym(RTLD_NEXT, "free");
	next_posix_memalign = (int (*)(void **, size_t, size_t))dlsym(
		RTLD_NEXT, "posix_memalign");
	next_aligned_alloc =
		(void *(*)(size_t, size_t))dlsym(RTLD_NEXT, "aligned_alloc");
	resolving = 0;
}

/* True when this allocation is the one to fail. */
static int fails(void)
{
	if (!armed)
		return 0;
	if (++counted == fail_at) {
		if (getenv("FAILMALLOC_TRACE")) {
			void *frames[32];

			backtrace_symbols_fd(frames, backtrace(frames, 32), 2);
		}
		errno = ENOMEM;
		return 1;
	}
	return 0;
}

__attribute__((constructor)) static void arm(void)
{
	const char *n = getenv("FAILMALLOC_NTH");

	resolve();
	fail_at = n ? strtoul(n, NULL, 10) : 0;
	armed = 1;
}

__attribute__((destructor)) static void report(void)
{
	const char *path = getenv("FAILMALLOC_COUNT");
	FILE *f;

	armed = 0;
	if (!path)
		return;
	f = fopen(path, "w");
	if (f) {
		fprintf(f, "%lu\n", counted);
		fclose(f);
	}
}

void *malloc(size_t n)
{
	resolve();
	if (!next_malloc)
		return arena_alloc(n);
	return fails() ? NULL : next_malloc(n);
}

void *calloc(size_t n, size_t size)
{
	resolve();
	if (!next_calloc)
		return n && size > sizeof(arena) / n ? NULL
						     : arena_alloc(n * size);
	return fails() ? NULL : next_calloc(n, size);
}

void *realloc(void *p, size_t n)
{
	resolve();
	if (in_arena(p)) {
		void *q = malloc(n);

		if (q)
			memcpy(q, p, n < 64 ? n : 64);
		return q;
	}
	return fails() ? NULL : next_realloc(p, n);
}

void free(void *p)
{
	if (!p || in_arena(p))
		return;
	resolve();
	next_free(p);
}

int posix_memalign(void **out, size_t align, size_t n)
{
	resolve();
	return fails() ? ENOMEM : next_posix_memalign(out, align, n);
}

void *aligned_alloc(size_t align, size_t n)
{
	resolve();
	return fails() ? NULL : next_aligned_alloc(align, n);
}
