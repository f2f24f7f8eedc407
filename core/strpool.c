// SPDX-License-Identifier: MIT
/*
 * String arenas (core/strpool.h): strings copied into chunks of about 4 KB
 * (a longer string gets a chunk of its own), all freed at once. The bytes
 * held never pass the pool's cap; a copy that would pass it returns NULL.
 */
#include "core/strpool.h"

#include <stdlib.h>
#include <string.h>

#include "core/banned.h"

#define CHUNK_SIZE 4000

struct strpool_chunk {
	struct strpool_chunk *next;
	size_t size, used;
	char data[];
};

char *strpool_dup(struct strpool *pool, const char *s, size_t n)
{
	struct strpool_chunk *c = pool->head;
	char *out;

	if (n >= pool->cap || pool->used > pool->cap - n - 1)
		return NULL; /* over the cap: not out of memory */
	if (!c || c->size - c->used < n + 1) {
		size_t size = n + 1 > CHUNK_SIZE ? n + 1 : CHUNK_SIZE;

		c = malloc(sizeof(*c) + size);
		if (!c) {
			pool->nomem = true;
			return NULL;
		}
		c->size = size;
		c->used = 0;
		c->next = pool->head;
		pool->head = c;
	}
	out = c->data + c->used;
	memcpy(out, s, n);
	out[n] = '\0';
	c->used += n + 1;
	pool->used += n + 1;
	return out;
}

char *strpool_dups(struct strpool *pool, const char *s)
{
	return s ? strpool_dup(pool, s, strlen(s)) : NULL;
}

void strpool_release(struct strpool *pool)
{
	struct strpool_chunk *c = pool->head, *next;

	for (; c; c = next) {
		next = c->next;
		free(c);
	}
	pool->head = NULL;
	pool->used = 0;
	pool->nomem = false;
}
