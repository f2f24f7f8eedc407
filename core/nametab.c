// SPDX-License-Identifier: MIT
/*
 * The name table of core/nametab.h. An entry keeps a 32-bit hash of the
 * name's bytes and then the key's two (FNV-1a, folded), so that growing
 * hashes no name again and a probe compares strings only where the hashes
 * agree. Capacities stay far below 2^32 (max is a size the caller sets).
 */
#include "core/nametab.h"

#include <stdlib.h>
#include <string.h>

#include "core/hash.h"
#include "core/banned.h"

static uint32_t name_hash(const char *s, size_t len, uint16_t key)
{
	uint64_t h = fnv64(FNV64_SEED, s, len);

	h = fnv64_byte(fnv64_byte(h, (unsigned char)(key & 0xff)),
		       (unsigned char)(key >> 8));
	return (uint32_t)(h ^ (h >> 32));
}

static struct nametab_ent *find(const struct nametab *t, const char *s,
				size_t len, uint32_t h, uint16_t key)
{
	size_t mask = t->cap - 1;

	for (size_t i = h & mask;; i = (i + 1) & mask) {
		struct nametab_ent *e = &t->ent[i];

		if (!e->name)
			return e;
		if (e->hash == h && e->key == key &&
		    strncmp(e->name, s, len) == 0 && e->name[len] == '\0')
			return e;
	}
}

/* Move every entry into a table of cap slots (a power of two). */
static OOMLENS_MUST_CHECK struct oomlens_error *rehash(struct nametab *t,
						       size_t cap)
{
	struct nametab_ent *ent = calloc(cap, sizeof(*ent));

	if (!ent)
		return &oomlens_error_nomem;
	for (size_t i = 0; i < t->cap; i++) {
		size_t j;

		if (!t->ent[i].name)
			continue;
		for (j = t->ent[i].hash & (cap - 1); ent[j].name;
		     j = (j + 1) & (cap - 1))
			;
		ent[j] = t->ent[i];
	}
	free(t->ent);
	t->ent = ent;
	t->cap = cap;
	return NULL;
}

struct oomlens_error *nametab_reserve(struct nametab *t, size_t n)
{
	size_t cap = t->cap ? t->cap : 1024;

	if (n > t->max)
		return oomlens_error_new(OOMLENS_ERR_LIMIT,
					 "more than %zu names", t->max);
	while (cap < 2 * n)
		cap *= 2;
	return cap == t->cap ? NULL : rehash(t, cap);
}

struct oomlens_error *nametab_slot(struct nametab *t, const char *name,
				   size_t len, uint16_t key,
				   struct nametab_ent **out)
{
	uint32_t h = name_hash(name, len, key);
	struct oomlens_error *err;
	struct nametab_ent *e;

	if ((t->n + 1) * 2 > t->cap) {
		err = rehash(t, t->cap ? t->cap * 2 : 1024);
		if (err)
			return err;
	}
	e = find(t, name, len, h, key);
	if (!e->name && t->n >= t->max)
		return oomlens_error_new(OOMLENS_ERR_LIMIT,
					 "more than %zu names", t->max);
	if (!e->name)
		e->hash = h;
	*out = e;
	return NULL;
}

void nametab_fill(struct nametab *t, struct nametab_ent *e, const char *name,
		  uint16_t key, uint64_t val, uint8_t rank, uint8_t aux)
{
	if (!e->name)
		t->n++;
	e->name = name;
	e->key = key;
	e->val = val;
	e->rank = rank;
	e->aux = aux;
}

const struct nametab_ent *nametab_get(const struct nametab *t, const char *s,
				      size_t len, uint16_t key)
{
	const struct nametab_ent *e;

	if (!t->cap)
		return NULL;
	e = find(t, s, len, name_hash(s, len, key), key);
	return e->name ? e : NULL;
}

void nametab_release(struct nametab *t)
{
	free(t->ent);
	t->ent = NULL;
	t->cap = t->n = 0;
}
