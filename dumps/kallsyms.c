// SPDX-License-Identifier: MIT
/*
 * kallsyms: the kernel's compressed symbol table, read out of a dump (see
 * dumps/kallsyms.h).
 *
 * What the tables are, by kernel version (scripts/kallsyms.c and
 * kernel/kallsyms.c of the trees named):
 *
 *   fact                                    versions   commit / tree
 *   --------------------------------------  ---------  -----------------------
 *   tables named in VMCOREINFO              6.0+       5fd8fea935a1 (v6.0)
 *   kallsyms_names: per symbol a length     all        scripts/kallsyms.c
 *     byte, then that many token indexes;
 *     the first decoded char is the type
 *   length > 127 in two bytes (low 7 bits,  6.1+       73bbb94466fd (v6.1)
 *     then the rest; bit 7 of the first)
 *   kallsyms_token_index: u16[256] offsets  all        scripts/kallsyms.c
 *     of NUL-ended tokens in token_table
 *   kallsyms_offsets (s32) + relative_base  4.6+ (if   2213e9a66bb8 (v4.6);
 *     (unsigned long); else                 BASE_REL.) always since 6.11
 *     kallsyms_addresses (unsigned long)               (64e166099b69)
 *   ABSOLUTE_PERCPU (x86_64 SMP): offset    4.6-6.14   2213e9a66bb8
 *     >= 0 is an absolute address, else
 *     relative_base - 1 - offset
 *
 * Whether ABSOLUTE_PERCPU was on is not in the dump: it is read from the
 * offsets themselves. With it, text and data symbols are negative and the
 * per-cpu ones not; without it every offset is a non-negative distance
 * from relative_base. So one negative offset means ABSOLUTE_PERCPU.
 *
 * The index: the names in a string pool, and core/nametab's table of
 * (name, address, rank) sized once from kallsyms_num_syms to be at most
 * half full (24 bytes a slot, 12 MiB for Debian's 6.12): sizing it once
 * spares the rehashing, which with the table took a third of `vmcore --ps`
 * through BTF (perf, 6.12 lab dump).
 */
#include "dumps/kallsyms.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/nametab.h"
#include "core/strpool.h"
#include "core/banned.h"

#define MAX_SYMS (1u << 22) /* Debian's 6.12 has about 200k */
#define MAX_NAMES_BYTES (64u << 20)
#define CHUNK 65536u
#define NAME_MAX_LEN 512 /* KSYM_NAME_LEN is 512 since 6.1 */

struct kallsyms {
	struct strpool names; /* the names the table borrows */
	struct nametab tab; /* rank: 2 a global symbol, 1 a local one */
	size_t syms;
};

/* A sequential reader of dump memory, CHUNK bytes at a time. */
struct cursor {
	struct kcore *kc;
	uint64_t addr; /* of buf[0] */
	size_t len, pos;
	unsigned char buf[CHUNK];
};

static bool cursor_byte(struct cursor *c, unsigned char *out)
{
	if (c->pos == c->len) {
		c->addr += c->len;
		c->pos = 0;
		c->len = 0;
		/* the table may end just before an unreadable page */
		for (size_t n = CHUNK; n >= 4096; n /= 2)
			if (kcore_read(c->kc, c->addr, c->buf, n)) {
				c->len = n;
				break;
			}
		if (!c->len && kcore_read(c->kc, c->addr, c->buf, 1))
			c->len = 1;
		if (!c->len)
			return false;
	}
	*out = c->buf[c->pos++];
	return true;
}

static uint64_t cursor_where(const struct cursor *c)
{
	return c->addr + c->pos;
}

static bool vmcoreinfo_addr(struct kcore *kc, const char *name, uint64_t *out)
{
	char key[64];
	const char *s;
	char *end;

	snprintf(key, sizeof(key), "SYMBOL(%s)", name);
	s = kcore_vmcoreinfo(kc, key);
	if (!s)
		return false;
	*out = strtoull(s, &end, 16);
	return end != s && *out;
}

bool kallsyms_available(struct kcore *kc)
{
	uint64_t a;

	return vmcoreinfo_addr(kc, "kallsyms_names", &a) &&
	       vmcoreinfo_addr(kc, "kallsyms_num_syms", &a) &&
	       vmcoreinfo_addr(kc, "kallsyms_token_table", &a) &&
	       vmcoreinfo_addr(kc, "kallsyms_token_index", &a) &&
	       (vmcoreinfo_addr(kc, "kallsyms_offsets", &a) ||
		vmcoreinfo_addr(kc, "kallsyms_addresses", &a));
}

static OOMLENS_MUST_CHECK struct oomlens_error *
bad(const char *path, const char *table, uint64_t addr, const char *why)
{
	return oomlens_error_new(OOMLENS_ERR_CORRUPT,
				 "'%s': kallsyms: %s at 0x%llx %s", path, table,
				 (unsigned long long)addr, why);
}

static OOMLENS_MUST_CHECK struct oomlens_error *
unreadable(struct kcore *kc, const char *path, const char *table, uint64_t addr)
{
	return oomlens_error_new(OOMLENS_ERR_CORRUPT,
				 "'%s': kallsyms: %s unreadable at 0x%llx (%s)",
				 path, table, (unsigned long long)addr,
				 kcore_last_error(kc));
}

/* Add name (len bytes, no NUL) of kallsyms type `type` at addr. */
static OOMLENS_MUST_CHECK struct oomlens_error *
add(struct kallsyms *ks, const char *name, size_t len, char type, uint64_t addr)
{
	uint8_t rank = type >= 'A' && type <= 'Z' ? 2 : 1;
	struct nametab_ent *e;
	struct oomlens_error *err;
	const char *copy;

	err = nametab_slot(&ks->tab, name, len, 0, &e);
	if (err || (e->name && rank <= e->rank))
		return err;
	if (e->name) {
		e->rank = rank;
		e->val = addr;
		return NULL;
	}
	copy = strpool_dup(&ks->names, name, len);
	if (!copy)
		return ks->names.nomem ? &oomlens_error_nomem
				       : oomlens_error_new(
						 OOMLENS_ERR_LIMIT,
						 "kallsyms: names past %u MiB",
						 MAX_NAMES_BYTES >> 20);
	nametab_fill(&ks->tab, e, copy, 0, addr, rank, 0);
	return NULL;
}

/* The address of symbol i from the offsets (or addresses) table. */
struct addrs {
	int32_t *off; /* NULL if absolute */
	uint64_t *abs;
	uint64_t base;
	bool abs_percpu;
};

static uint64_t sym_addr(const struct addrs *a, size_t i)
{
	if (!a->off)
		return a->abs[i];
	if (!a->abs_percpu)
		return a->base + (uint32_t)a->off[i];
	if (a->off[i] >= 0)
		return (uint64_t)a->off[i];
	return a->base - 1 - (uint64_t)(int64_t)a->off[i];
}

static OOMLENS_MUST_CHECK struct oomlens_error *
read_addrs(struct kcore *kc, const char *path, size_t n, struct addrs *a)
{
	unsigned psz = kcore_ptr_size(kc);
	uint64_t at, base = 0;

	memset(a, 0, sizeof(*a));
	if (vmcoreinfo_addr(kc, "kallsyms_offsets", &at)) {
		uint64_t rb;

		if (!vmcoreinfo_addr(kc, "kallsyms_relative_base", &rb))
			return oomlens_error_new(
				OOMLENS_ERR_CORRUPT,
				"'%s': kallsyms: VMCOREINFO names kallsyms_offsets but not kallsyms_relative_base",
				path);
		if (!kcore_read(kc, rb, &base, psz))
			return unreadable(kc, path, "kallsyms_relative_base",
					  rb);
		a->base = base;
		a->off = malloc(n * sizeof(*a->off));
		if (!a->off)
			return &oomlens_error_nomem;
		if (!kcore_read(kc, at, a->off, n * sizeof(*a->off)))
			return unreadable(kc, path, "kallsyms_offsets", at);
		for (size_t i = 0; i < n && !a->abs_percpu; i++)
			a->abs_percpu = a->off[i] < 0;
		return NULL;
	}
	if (!vmcoreinfo_addr(kc, "kallsyms_addresses", &at))
		return oomlens_error_new(
			OOMLENS_ERR_CORRUPT,
			"'%s': kallsyms: VMCOREINFO names neither kallsyms_offsets nor kallsyms_addresses",
			path);
	a->abs = calloc(n, sizeof(*a->abs));
	if (!a->abs)
		return &oomlens_error_nomem;
	for (size_t i = 0; i < n; i++)
		if (!kcore_read(kc, at + i * psz, &a->abs[i], psz))
			return unreadable(kc, path, "kallsyms_addresses",
					  at + i * psz);
	return NULL;
}

/* The 256 tokens: index[t] is token t's offset in table (tlen bytes). */
struct tokens {
	uint16_t index[256];
	uint16_t tlen[256]; /* each token's length */
	char *table;
	size_t len;
};

static OOMLENS_MUST_CHECK struct oomlens_error *
read_tokens(struct kcore *kc, const char *path, struct tokens *t)
{
	uint64_t ia, ta;
	size_t max = 0, n;

	vmcoreinfo_addr(kc, "kallsyms_token_index", &ia);
	vmcoreinfo_addr(kc, "kallsyms_token_table", &ta);
	if (!kcore_read(kc, ia, t->index, sizeof(t->index)))
		return unreadable(kc, path, "kallsyms_token_index", ia);
	for (int i = 0; i < 256; i++)
		if (t->index[i] > max)
			max = t->index[i];
	/* the last token is short: a page past its start is plenty */
	for (n = max + 4096; n > max; n = max + (n - max) / 2) {
		t->table = malloc(n + 1);
		if (!t->table)
			return &oomlens_error_nomem;
		if (kcore_read(kc, ta, t->table, n))
			break;
		free(t->table);
		t->table = NULL;
	}
	if (!t->table)
		return unreadable(kc, path, "kallsyms_token_table", ta);
	t->table[n] = '\0';
	t->len = n;
	for (int i = 0; i < 256; i++) {
		const char *end =
			memchr(t->table + t->index[i], '\0', n - t->index[i]);

		if (!end)
			return bad(path, "kallsyms_token_table", ta,
				   "has a token without its end");
		t->tlen[i] = (uint16_t)(end - (t->table + t->index[i]));
	}
	return NULL;
}

static OOMLENS_MUST_CHECK struct oomlens_error *
decode(struct kallsyms *ks, struct kcore *kc, const char *path, size_t nsyms,
       const struct addrs *a, const struct tokens *t)
{
	struct cursor *c = calloc(1, sizeof(*c));
	struct oomlens_error *err = NULL;
	char name[NAME_MAX_LEN + 1];
	uint64_t start;

	if (!c)
		return &oomlens_error_nomem;
	c->kc = kc;
	vmcoreinfo_addr(kc, "kallsyms_names", &start);
	c->addr = start;
	for (size_t i = 0; i < nsyms && !err; i++) {
		unsigned char b, tok;
		size_t len, nlen = 0;

		if (!cursor_byte(c, &b))
			goto cut;
		len = b;
		if (b & 0x80) {
			if (!cursor_byte(c, &b))
				goto cut;
			len = (len & 0x7f) | ((size_t)b << 7);
		}
		if (!len) {
			err = bad(path, "kallsyms_names", cursor_where(c),
				  "has an empty name");
			break;
		}
		while (len--) {
			const char *s;
			size_t sl;

			if (!cursor_byte(c, &tok))
				goto cut;
			s = t->table + t->index[tok];
			sl = t->tlen[tok];
			if (nlen + sl > NAME_MAX_LEN) {
				err = bad(path, "kallsyms_names",
					  cursor_where(c),
					  "has a name longer than 512 bytes");
				break;
			}
			memcpy(name + nlen, s, sl);
			nlen += sl;
		}
		if (err)
			break;
		if (cursor_where(c) - start > MAX_NAMES_BYTES) {
			err = bad(path, "kallsyms_names", start,
				  "is larger than 64 MiB");
			break;
		}
		/* name[0] is the type letter */
		if (nlen > 1)
			err = add(ks, name + 1, nlen - 1, name[0],
				  sym_addr(a, i));
		ks->syms++;
	}
	free(c);
	return err;
cut:
	err = oomlens_error_new(
		OOMLENS_ERR_CORRUPT,
		"'%s': kallsyms: kallsyms_names cut short at 0x%llx after %zu of %zu symbols (%s)",
		path, (unsigned long long)cursor_where(c), ks->syms, nsyms,
		kcore_last_error(kc));
	free(c);
	return err;
}

struct oomlens_error *kallsyms_open(struct kcore *kc, const char *path,
				    struct kallsyms **out)
{
	struct kallsyms *ks;
	struct oomlens_error *err;
	struct tokens t = {0};
	struct addrs a = {0};
	uint64_t at;
	uint32_t n = 0;

	if (!kallsyms_available(kc))
		return oomlens_error_new(
			OOMLENS_ERR_USAGE,
			"'%s': VMCOREINFO does not name the kallsyms tables (kernels before 6.0)",
			path);
	vmcoreinfo_addr(kc, "kallsyms_num_syms", &at);
	if (!kcore_read(kc, at, &n, sizeof(n)))
		return unreadable(kc, path, "kallsyms_num_syms", at);
	if (!n || n > MAX_SYMS)
		return bad(path, "kallsyms_num_syms", at, "is out of range");
	ks = calloc(1, sizeof(*ks));
	if (!ks)
		return &oomlens_error_nomem;
	ks->names = (struct strpool)STRPOOL_INIT(MAX_NAMES_BYTES);
	ks->tab.max = n; /* a name per symbol at the most */
	err = nametab_reserve(&ks->tab, n); /* sized once: no rehashing */
	if (!err)
		err = read_addrs(kc, path, n, &a);
	if (!err)
		err = read_tokens(kc, path, &t);
	if (!err)
		err = decode(ks, kc, path, n, &a, &t);
	free(a.off);
	free(a.abs);
	free(t.table);
	if (err) {
		kallsyms_free(ks);
		return err;
	}
	*out = ks;
	return NULL;
}

void kallsyms_free(struct kallsyms *ks)
{
	if (!ks)
		return;
	nametab_release(&ks->tab);
	strpool_release(&ks->names);
	free(ks);
}

bool kallsyms_lookup(const struct kallsyms *ks, const char *name,
		     uint64_t *addr)
{
	const struct nametab_ent *e =
		nametab_get(&ks->tab, name, strlen(name), 0);

	if (!e)
		return false;
	*addr = e->val;
	return true;
}

size_t kallsyms_count(const struct kallsyms *ks)
{
	return ks->syms;
}
