// SPDX-License-Identifier: MIT
/*
 * A kernel's BTF through libbpf (see dumps/kbtf.h). This is the only
 * file that sees struct btf.
 *
 * libbpf parses and bounds-checks the blob; btf__type_by_id() refuses ids
 * beyond the last type. What libbpf 1.1 does not offer is a fast lookup:
 * btf__find_by_name_kind() scans every type, so kbtf_new() indexes the
 * names once (open addressing, at most half full, first definition of a
 * (name, kind) wins). Names point into libbpf's copy of the string
 * section and live as long as the handle.
 *
 * BTF describes only the per-cpu variables (BTF_KIND_VAR in
 * .data..percpu). The readers also need a few ordinary globals; their
 * declared types, the same in every kernel that has kallsyms in
 * VMCOREINFO (6.0+), are in the table below, checked against the trees
 * named there and, on the lab dumps, against the DWARF of the same
 * kernels (tests/vmcore-btf-compare.sh).
 */
#include "dumps/kbtf.h"

#include <bpf/btf.h>
#include <errno.h>
#include <linux/btf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/nametab.h"
#include "core/banned.h"

#define MAX_TYPE_DEPTH 32
#define MAX_PATH_PART 255
#define MAX_MEMBER_VISITS 100000L
#define KEY_ENUMERATOR 0x100 /* beside the BTF_KIND_* keys */
#define MAX_NAMES ((size_t)1 << 24) /* types and enumerators indexed */

/*
 *   variable          declared type        where (v6.1 and v6.12 trees)
 *   ----------------  -------------------  ------------------------------
 *   tick_nsec         unsigned long        kernel/time/ntp.c
 *   jiffies_64        u64                  kernel/time/timer.c (6.1),
 *                                          kernel/time/jiffies.c (6.12)
 *   jiffies           unsigned long        include/linux/jiffies.h
 *   _totalram_pages   atomic_long_t        mm/page_alloc.c (5.0+)
 *   total_swap_pages  long                 mm/swapfile.c
 *   nr_threads        int                  kernel/fork.c
 *   nr_cpu_ids        unsigned int         kernel/smp.c (4.15+)
 */
static const struct {
	const char *var, *type;
} known_globals[] = {
	{"tick_nsec", "long unsigned int"},
	{"jiffies_64", "u64"},
	{"jiffies", "long unsigned int"},
	{"_totalram_pages", "atomic_long_t"},
	{"total_swap_pages", "long int"},
	{"nr_threads", "int"},
	{"nr_cpu_ids", "unsigned int"},
};

struct kbtf {
	struct btf *btf;
	char *what;
	struct nametab names; /* key a BTF kind, or KEY_ENUMERATOR */
	uint32_t ntypes;
	unsigned psz;
	bool enum_kflag; /* the encoder marks signed enums (see enum_signed) */
};

static const struct nametab_ent *get(const struct kbtf *kb, const char *s,
				     uint16_t key)
{
	return nametab_get(&kb->names, s, strlen(s), key);
}

/* Index name under key; the first of a name and key stays. */
static OOMLENS_MUST_CHECK struct oomlens_error *
put(struct kbtf *kb, const char *name, uint16_t key, uint64_t val)
{
	size_t len = strlen(name);
	struct oomlens_error *err;
	struct nametab_ent *e;

	if (!len)
		return NULL;
	err = nametab_slot(&kb->names, name, len, key, &e);
	if (!err && !e->name)
		nametab_fill(&kb->names, e, name, key, val, 0, 0);
	return err;
}

static const char *name_of(const struct kbtf *kb, uint32_t off)
{
	const char *s = btf__name_by_offset(kb->btf, off);

	return s ? s : "";
}

/*
 * An enum is signed if its kind flag says so. Encoders before pahole 1.24
 * (kernels before 6.0) always leave the flag 0; one that sets it anywhere
 * knows, so its 0 means unsigned (an enum holding 0x80000000). For the
 * others a negative value says signed.
 */
static bool enum_signed(const struct kbtf *kb, const struct btf_type *t)
{
	if (btf_kflag(t))
		return true;
	if (!kb->enum_kflag && btf_kind(t) == BTF_KIND_ENUM) {
		const struct btf_enum *e = btf_enum(t);

		for (int i = 0; i < btf_vlen(t); i++)
			if (e[i].val < 0)
				return true;
	}
	return false;
}

static OOMLENS_MUST_CHECK struct oomlens_error *
index_enum(struct kbtf *kb, const struct btf_type *t)
{
	bool sign = enum_signed(kb, t);
	struct oomlens_error *err = NULL;

	for (int i = 0; i < btf_vlen(t) && !err; i++) {
		int64_t v;
		uint32_t name;

		if (btf_kind(t) == BTF_KIND_ENUM) {
			const struct btf_enum *e = btf_enum(t) + i;

			name = e->name_off;
			v = sign ? (int64_t)e->val : (int64_t)(uint32_t)e->val;
		} else {
			const struct btf_enum64 *e = btf_enum64(t) + i;

			name = e->name_off;
			v = (int64_t)btf_enum64_value(e);
		}
		err = put(kb, name_of(kb, name), KEY_ENUMERATOR, (uint64_t)v);
	}
	return err;
}

static OOMLENS_MUST_CHECK struct oomlens_error *index_types(struct kbtf *kb)
{
	struct oomlens_error *err = NULL;

	for (uint32_t id = 1; id < kb->ntypes && !kb->enum_kflag; id++) {
		const struct btf_type *t = btf__type_by_id(kb->btf, id);

		kb->enum_kflag = t &&
				 (btf_kind(t) == BTF_KIND_ENUM ||
				  btf_kind(t) == BTF_KIND_ENUM64) &&
				 btf_kflag(t);
	}
	for (uint32_t id = 1; id < kb->ntypes && !err; id++) {
		const struct btf_type *t = btf__type_by_id(kb->btf, id);

		if (!t)
			break;
		switch (btf_kind(t)) {
		case BTF_KIND_STRUCT:
		case BTF_KIND_UNION:
		case BTF_KIND_TYPEDEF:
		case BTF_KIND_INT:
		case BTF_KIND_VAR:
			err = put(kb, name_of(kb, t->name_off), btf_kind(t),
				  id);
			break;
		case BTF_KIND_ENUM:
		case BTF_KIND_ENUM64:
			err = index_enum(kb, t);
			break;
		default:
			break;
		}
	}
	return err;
}

struct oomlens_error *kbtf_new(const void *blob, size_t len, const char *what,
			       struct kbtf **out)
{
	struct oomlens_error *err;
	struct kbtf *kb;

	if (len > KTYPES_MAX_BTF)
		return oomlens_error_new(OOMLENS_ERR_CORRUPT,
					 "%s: BTF of %zu bytes is too large",
					 what, len);
	kb = calloc(1, sizeof(*kb));
	if (!kb)
		return &oomlens_error_nomem;
	kb->names.max = MAX_NAMES;
	kb->what = strdup(what);
	if (!kb->what) {
		err = &oomlens_error_nomem;
		goto fail;
	}
	errno = 0;
	kb->btf = btf__new(blob, (uint32_t)len);
	if (!kb->btf) {
		int e = errno ? errno : EINVAL;

		err = oomlens_error_new(OOMLENS_ERR_CORRUPT,
					"%s: not valid BTF: btf__new: %s", what,
					strerror(e));
		goto fail;
	}
	kb->ntypes = btf__type_cnt(kb->btf);
	kb->psz = (unsigned)btf__pointer_size(kb->btf);
	if (kb->psz != 4 && kb->psz != 8)
		kb->psz = 8;
	err = index_types(kb);
	if (err)
		goto fail;
	*out = kb;
	return NULL;
fail:
	kbtf_free(kb);
	return err;
}

void kbtf_free(struct kbtf *kb)
{
	if (!kb)
		return;
	btf__free(kb->btf);
	nametab_release(&kb->names);
	free(kb->what);
	free(kb);
}

uint32_t kbtf_types(const struct kbtf *kb)
{
	return kb->ntypes ? kb->ntypes - 1 : 0;
}

/* ---- types ---- */

static const struct btf_type *type(const struct kbtf *kb, uint32_t id)
{
	return id ? btf__type_by_id(kb->btf, id) : NULL;
}

/*
 * Strip typedefs, qualifiers and type tags; a forward declaration becomes
 * its complete definition if there is one. 0 for void or a broken chain.
 */
static uint32_t strip(const struct kbtf *kb, uint32_t id)
{
	for (int i = 0; i < MAX_TYPE_DEPTH; i++) {
		const struct btf_type *t = type(kb, id);
		const struct nametab_ent *e;

		if (!t)
			return 0;
		switch (btf_kind(t)) {
		case BTF_KIND_TYPEDEF:
		case BTF_KIND_CONST:
		case BTF_KIND_VOLATILE:
		case BTF_KIND_RESTRICT:
		case BTF_KIND_TYPE_TAG:
			id = t->type;
			break;
		case BTF_KIND_FWD:
			e = get(kb, name_of(kb, t->name_off),
				btf_kflag(t) ? BTF_KIND_UNION
					     : BTF_KIND_STRUCT);
			return e ? (uint32_t)e->val : id;
		default:
			return id;
		}
	}
	return 0;
}

static bool is_aggregate(const struct btf_type *t)
{
	return t && (btf_kind(t) == BTF_KIND_STRUCT ||
		     btf_kind(t) == BTF_KIND_UNION);
}

/* struct name, else union name, else a typedef naming a struct or union. */
static uint32_t find_struct(const struct kbtf *kb, const char *name)
{
	const struct nametab_ent *e;
	uint32_t id;

	if ((e = get(kb, name, BTF_KIND_STRUCT)) ||
	    (e = get(kb, name, BTF_KIND_UNION)))
		return (uint32_t)e->val;
	e = get(kb, name, BTF_KIND_TYPEDEF);
	if (!e)
		return 0;
	id = strip(kb, (uint32_t)e->val);
	return is_aggregate(type(kb, id)) ? id : 0;
}

struct tinfo {
	enum kfield_kind kind;
	uint64_t size;
	bool scalar, is_signed;
	const char *name; /* struct/union tag, NULL if anonymous */
};

static bool describe(const struct kbtf *kb, uint32_t id, int depth,
		     struct tinfo *ti);

/* kdwarf.h's scalar rule for a struct or union of at most 8 bytes. */
static void struct_scalar(const struct kbtf *kb, const struct btf_type *t,
			  int depth, struct tinfo *ti)
{
	struct tinfo inner;

	if (!ti->size || ti->size > 8 || btf_vlen(t) == 0)
		return;
	if (btf_member_bit_offset(t, 0) != 0 ||
	    btf_member_bitfield_size(t, 0) != 0 ||
	    !describe(kb, btf_members(t)[0].type, depth + 1, &inner))
		return;
	if (inner.scalar && inner.size == ti->size) {
		ti->scalar = true;
		ti->is_signed = inner.is_signed;
	}
}

/* An array's innermost element and the product of the dimensions. */
static bool array_inner(const struct kbtf *kb, uint32_t id, uint32_t *elem,
			uint64_t *count)
{
	uint64_t n = 1;

	for (int i = 0; i < MAX_TYPE_DEPTH; i++) {
		const struct btf_type *t = type(kb, id);
		const struct btf_array *a;

		if (!t || btf_kind(t) != BTF_KIND_ARRAY) {
			*elem = id;
			*count = n;
			return true;
		}
		a = btf_array(t);
		n = a->nelems && n <= UINT64_MAX / a->nelems ? n * a->nelems
							     : 0;
		id = strip(kb, a->type);
	}
	return false;
}

static bool describe(const struct kbtf *kb, uint32_t id, int depth,
		     struct tinfo *ti)
{
	const struct btf_type *t;

	memset(ti, 0, sizeof(*ti));
	ti->kind = KF_OTHER;
	if (depth > MAX_TYPE_DEPTH)
		return false;
	id = strip(kb, id);
	t = type(kb, id);
	if (!t)
		return true; /* void */
	switch (btf_kind(t)) {
	case BTF_KIND_INT:
		ti->size = t->size;
		ti->is_signed = btf_int_encoding(t) & BTF_INT_SIGNED;
		ti->kind = ti->is_signed ? KF_INT : KF_UINT;
		ti->scalar = true;
		break;
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		ti->size = t->size;
		ti->is_signed = enum_signed(kb, t);
		ti->kind = ti->is_signed ? KF_INT : KF_UINT;
		ti->scalar = true;
		break;
	case BTF_KIND_PTR:
		ti->size = kb->psz;
		ti->kind = KF_PTR;
		ti->scalar = true;
		break;
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		ti->size = t->size;
		ti->kind = btf_kind(t) == BTF_KIND_UNION ? KF_UNION : KF_STRUCT;
		ti->name = t->name_off ? name_of(kb, t->name_off) : NULL;
		struct_scalar(kb, t, depth, ti);
		break;
	case BTF_KIND_ARRAY: {
		struct tinfo elem;
		uint32_t eid;
		uint64_t count;

		ti->kind = KF_ARRAY;
		if (!array_inner(kb, id, &eid, &count) ||
		    !describe(kb, eid, depth + 1, &elem))
			return false;
		ti->size = count && elem.size <= UINT64_MAX / count
				   ? count * elem.size
				   : 0;
		break;
	}
	case BTF_KIND_FLOAT:
		ti->size = t->size;
		break;
	case BTF_KIND_FWD: /* declared only, as DWARF's declarations */
		ti->kind = btf_kflag(t) ? KF_UNION : KF_STRUCT;
		ti->name = name_of(kb, t->name_off);
		break;
	default:
		break;
	}
	return true;
}

/* Fill out from type id (0: void); offset and bits are the caller's. */
static bool fill_field(const struct kbtf *kb, uint32_t id, struct kfield *out)
{
	struct tinfo ti, target;
	uint32_t tid;
	uint64_t count = 1;

	memset(out, 0, sizeof(*out));
	if (!describe(kb, id, 0, &ti))
		return false;
	out->kind = ti.kind;
	out->size = kfield_clamp32(ti.size);
	out->scalar = ti.scalar;
	out->is_signed = ti.is_signed;
	if (ti.kind == KF_STRUCT || ti.kind == KF_UNION) {
		snprintf(out->type_name, sizeof(out->type_name), "%s",
			 ti.name ? ti.name : "");
		return true;
	}
	if (ti.kind != KF_PTR && ti.kind != KF_ARRAY)
		return true;
	id = strip(kb, id);
	if (ti.kind == KF_PTR)
		tid = type(kb, id)->type;
	else if (!array_inner(kb, id, &tid, &count))
		return false;
	if (!describe(kb, tid, 1, &target))
		return false;
	kfield_set_target(out, ti.kind == KF_ARRAY, target.kind, target.size,
			  target.name, count);
	return true;
}

uint32_t kbtf_struct_size(const struct kbtf *kb, const char *name)
{
	const struct btf_type *t = type(kb, find_struct(kb, name));

	return t ? t->size : 0;
}

/* A found member: its type, bit position from the outer struct, bits. */
struct found {
	uint32_t type;
	uint64_t bitpos;
	uint32_t bits;
};

static bool find_member(const struct kbtf *kb, uint32_t sid, const char *name,
			size_t len, uint64_t base, int depth, long *budget,
			struct found *f)
{
	const struct btf_type *s = type(kb, sid);

	if (depth > MAX_TYPE_DEPTH || !is_aggregate(s))
		return false;
	for (int i = 0; i < btf_vlen(s); i++) {
		const struct btf_member *m = btf_members(s) + i;
		uint64_t pos = base + btf_member_bit_offset(s, (uint32_t)i);
		const char *mname;

		if (--*budget < 0)
			return false;
		if (m->name_off) {
			mname = name_of(kb, m->name_off);
			if (strncmp(mname, name, len) != 0 || mname[len])
				continue;
			f->type = m->type;
			f->bitpos = pos;
			f->bits = btf_member_bitfield_size(s, (uint32_t)i);
			return true;
		}
		if (find_member(kb, strip(kb, m->type), name, len, pos,
				depth + 1, budget, f))
			return true;
	}
	return false;
}

bool kbtf_member(const struct kbtf *kb, const char *name, const char *path,
		 struct kfield *out)
{
	long budget = MAX_MEMBER_VISITS;
	uint32_t sid = find_struct(kb, name);
	struct found m = {0};
	const struct btf_type *t;
	struct kfield f;
	uint64_t base = 0, pos;

	if (!sid)
		return false;
	for (;;) {
		const char *dot = strchr(path, '.');
		size_t len = dot ? (size_t)(dot - path) : strlen(path);

		if (!len || len > MAX_PATH_PART ||
		    !find_member(kb, sid, path, len, base, 0, &budget, &m))
			return false;
		if (!dot)
			break;
		sid = strip(kb, m.type);
		if (m.bits || m.bitpos % 8 || !is_aggregate(type(kb, sid)))
			return false;
		base = m.bitpos;
		path = dot + 1;
	}
	if (!fill_field(kb, m.type, &f))
		return false;
	/* kind flag 0: a bit-field's width is in its int type */
	t = type(kb, strip(kb, m.type));
	pos = m.bitpos;
	if (!m.bits && t && btf_kind(t) == BTF_KIND_INT &&
	    btf_int_bits(t) != t->size * 8) {
		m.bits = btf_int_bits(t);
		pos += btf_int_offset(t);
	}
	if (!m.bits) {
		if (pos % 8)
			return false;
		f.offset = pos / 8;
		*out = f;
		return true;
	}
	if (m.bits > 64 || !f.size || f.size > 8)
		return false;
	/* placed as kdwarf_member() places it (kdwarf.h) */
	f.offset = pos / 8 / f.size * f.size;
	if (pos - f.offset * 8 + m.bits > (uint64_t)f.size * 8)
		f.offset = pos / 8;
	f.bit_offset = (uint16_t)(pos - f.offset * 8);
	f.bit_size = (uint16_t)m.bits;
	*out = f;
	return true;
}

bool kbtf_variable(const struct kbtf *kb, const char *name, struct kfield *out)
{
	const struct nametab_ent *e = get(kb, name, BTF_KIND_VAR);
	const struct btf_type *t;
	struct kfield f;

	if (e) {
		t = type(kb, (uint32_t)e->val);
		if (!t || !fill_field(kb, t->type, &f))
			return false;
		*out = f;
		return true;
	}
	for (size_t i = 0; i < sizeof(known_globals) / sizeof(*known_globals);
	     i++) {
		if (strcmp(known_globals[i].var, name) != 0)
			continue;
		if (!(e = get(kb, known_globals[i].type, BTF_KIND_TYPEDEF)) &&
		    !(e = get(kb, known_globals[i].type, BTF_KIND_INT)))
			return false;
		if (!fill_field(kb, (uint32_t)e->val, &f))
			return false;
		*out = f;
		return true;
	}
	return false;
}

bool kbtf_enumerator(const struct kbtf *kb, const char *name, int64_t *value)
{
	const struct nametab_ent *e = get(kb, name, KEY_ENUMERATOR);

	if (!e)
		return false;
	*value = (int64_t)e->val;
	return true;
}
