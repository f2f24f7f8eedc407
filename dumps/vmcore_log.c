// SPDX-License-Identifier: MIT
/*
 * The kernel log from a dump, in the three layouts the kernel has had:
 *
 *   layout              kernels     symbols and types
 *   ------------------  ----------  -----------------------------------------
 *   character ring      <= 3.4      log_buf, log_buf_len, log_end: text with
 *                                   "<N>" levels, overwritten in a circle
 *   printk_log records  3.5-5.9     log_buf, log_buf_len, log_first_idx,
 *                                   log_next_idx; struct log (3.5-3.10),
 *                                   struct printk_log (3.11+): header then
 *                                   text; a zero len means "wrap to 0"
 *   printk_ringbuffer   5.10+       prb -> desc_ring (descs, infos, ids) and
 *                                   text_data_ring (data, lpos); each text
 *                                   block starts with its descriptor's id
 *
 * The layout is chosen by what the debuginfo has (prb, then log_first_idx,
 * then log_end). Every record is rendered as `dmesg -r` prints it,
 * "<N>[%5lu.%06lu] text" with N = facility * 8 + level (the ring's lines
 * already carry their own), so the log parser reads it like any dmesg. Sizes are capped and every
 * index is checked against the buffer it points into.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"
#include "dumps/vmcore_int.h"
#include "core/banned.h"

#define LOG_MAX (64u << 20) /* the kernel's own cap is 2^25 bytes */

struct out {
	char *p;
	size_t len, cap;
	bool full;
	bool has_last;
	uint64_t last_ns; /* the newest record's time stamp */
};

static void emit(struct out *o, const char *s, size_t n)
{
	if (o->full)
		return;
	if (o->len + n + 1 > o->cap) {
		size_t cap = o->cap ? o->cap * 2 : 65536;
		char *p;

		while (cap < o->len + n + 1)
			cap *= 2;
		if (cap > 2 * (size_t)LOG_MAX || !(p = realloc(o->p, cap))) {
			o->full = true;
			return;
		}
		o->p = p;
		o->cap = cap;
	}
	memcpy(o->p + o->len, s, n);
	o->len += n;
	o->p[o->len] = '\0';
}

/* Text, with the NUL bytes a damaged buffer may hold as spaces. */
static void emit_text(struct out *o, const char *p, size_t n)
{
	size_t run = 0;

	for (size_t i = 0; i <= n; i++)
		if (i == n || !p[i]) {
			emit(o, p + run, i - run);
			if (i < n)
				emit(o, " ", 1);
			run = i + 1;
		}
}

/*
 * One record as dmesg lines: each line of a multi-line record (memcg's
 * memory.stat is one record) gets the prefix, as the console prints it
 * (record_print_text()); a trailing newline adds no empty line; embedded
 * NULs become spaces.
 */
static void emit_record(struct out *o, unsigned prefix, uint64_t ts_nsec,
			const char *text, size_t n)
{
	char head[64];
	int h = snprintf(head, sizeof(head), "<%u>[%5llu.%06llu] ", prefix,
			 (unsigned long long)(ts_nsec / 1000000000ull),
			 (unsigned long long)(ts_nsec % 1000000000ull / 1000));
	size_t start = 0;

	if (!o->has_last || ts_nsec > o->last_ns)
		o->last_ns = ts_nsec;
	o->has_last = true;
	do {
		const char *nl = memchr(text + start, '\n', n - start);
		size_t end = nl ? (size_t)(nl - text) : n;

		emit(o, head, (size_t)h);
		emit_text(o, text + start, end - start);
		emit(o, "\n", 1);
		start = end + 1;
	} while (start < n);
}

static unsigned char *read_blob(struct vmc *v, uint64_t addr, uint64_t size)
{
	unsigned char *buf;

	if (!addr || !size || size > LOG_MAX)
		return NULL;
	buf = malloc(size);
	if (buf && !kcore_read(v->kc, addr, buf, size)) {
		free(buf);
		return NULL;
	}
	return buf;
}

static bool global_ptr(struct vmc *v, const char *name, uint64_t *out)
{
	uint64_t addr;

	return vmc_symbol(v, name, &addr) && vmc_read_ptr(v, addr, out);
}

/* <= 3.4: the last log_buf_len characters before log_end. */
static bool log_ring(struct vmc *v, struct out *o)
{
	uint64_t buf_addr, start, n;
	int64_t len, end;
	unsigned char *buf;

	if (!global_ptr(v, "log_buf", &buf_addr) ||
	    !vmc_global(v, "log_buf_len", &len) ||
	    !vmc_global(v, "log_end", &end))
		return false;
	if (len <= 0 || len > LOG_MAX || (len & (len - 1))) {
		dump_warn(v->d, "log_buf_len %lld is not a sane power of two",
			  (long long)len);
		return false;
	}
	buf = read_blob(v, buf_addr, (uint64_t)len);
	if (!buf) {
		dump_warn(v->d, "log_buf at 0x%llx unreadable",
			  (unsigned long long)buf_addr);
		return false;
	}
	end = (int64_t)(uint32_t)end; /* log_end is an unsigned int */
	n = (uint64_t)end < (uint64_t)len ? (uint64_t)end : (uint64_t)len;
	start = (uint64_t)end - n;
	/* A wrapped ring starts mid-line: drop the partial first line. */
	if (start > 0) {
		while (n && buf[start % (uint64_t)len] != '\n') {
			start++;
			n--;
		}
		if (n) {
			start++;
			n--;
		}
	}
	{ /* the ring's text from start, in at most two pieces */
		uint64_t at = start & ((uint64_t)len - 1);
		uint64_t first =
			n < (uint64_t)len - at ? n : (uint64_t)len - at;

		emit_text(o, (const char *)buf + at, first);
		emit_text(o, (const char *)buf, n - first);
	}
	if (o->len && o->p[o->len - 1] != '\n')
		emit(o, "\n", 1);
	free(buf);
	v->d->log_layout = DUMP_LOG_RING;
	return true;
}

/* 3.5-5.9: variable-length records from log_first_idx to log_next_idx. */
static bool log_records(struct vmc *v, struct out *o)
{
	const char *type =
		ktypes_struct_size(v->kt, "printk_log") ? "printk_log" : "log";
	uint32_t hsize = ktypes_struct_size(v->kt, type);
	struct kfield ts, len, text_len, level, facility;
	uint64_t buf_addr, idx, count = 0;
	int64_t blen, first, next;
	unsigned char *buf;

	if (!vmc_global(v, "log_first_idx", &first) ||
	    !vmc_global(v, "log_next_idx", &next) ||
	    !global_ptr(v, "log_buf", &buf_addr) ||
	    !vmc_global(v, "log_buf_len", &blen))
		return false;
	if (!hsize || !ktypes_member(v->kt, type, "ts_nsec", &ts) ||
	    !ktypes_member(v->kt, type, "len", &len) ||
	    !ktypes_member(v->kt, type, "text_len", &text_len)) {
		dump_warn(v->d, "the debuginfo lacks struct printk_log");
		return false;
	}
	blen = (int64_t)(uint32_t)blen;
	if (blen <= 0 || blen > LOG_MAX) {
		dump_warn(v->d, "log_buf_len %lld is not sane",
			  (long long)blen);
		return false;
	}
	buf = read_blob(v, buf_addr, (uint64_t)blen);
	if (!buf) {
		dump_warn(v->d, "log_buf at 0x%llx unreadable",
			  (unsigned long long)buf_addr);
		return false;
	}
	if (!ktypes_member(v->kt, type, "level", &level))
		memset(&level, 0, sizeof(level));
	if (!ktypes_member(v->kt, type, "facility", &facility))
		memset(&facility, 0, sizeof(facility));
	idx = (uint32_t)first;
	while (idx != (uint64_t)(uint32_t)next) {
		int64_t rlen, tlen, tsv, lv = 0, fac = 0;

		if (++count > (uint64_t)blen / 8 + 2 ||
		    idx + hsize > (uint64_t)blen) {
			dump_warn(v->d,
				  "printk_log records damaged at index %llu",
				  (unsigned long long)idx);
			v->d->partial = true;
			break;
		}
		if (!vmc_field(&len, buf + idx, hsize, &rlen))
			break;
		if (rlen == 0) { /* the rest of the buffer is padding */
			idx = 0;
			continue;
		}
		if (rlen < (int64_t)hsize ||
		    idx + (uint64_t)rlen > (uint64_t)blen ||
		    !vmc_field(&text_len, buf + idx, hsize, &tlen) ||
		    !vmc_field(&ts, buf + idx, hsize, &tsv)) {
			dump_warn(
				v->d,
				"printk_log record at index %llu has length %lld",
				(unsigned long long)idx, (long long)rlen);
			v->d->partial = true;
			break;
		}
		if (tlen > rlen - (int64_t)hsize)
			tlen = rlen - (int64_t)hsize;
		vmc_field(&level, buf + idx, hsize, &lv);
		vmc_field(&facility, buf + idx, hsize, &fac);
		emit_record(o, (unsigned)((fac & 0xff) * 8 + (lv & 7)),
			    (uint64_t)tsv, (const char *)buf + idx + hsize,
			    (size_t)tlen);
		idx += (uint64_t)rlen;
	}
	free(buf);
	v->d->log_layout = DUMP_LOG_PRINTK_LOG;
	return true;
}

/* 5.10+: kernel/printk/printk_ringbuffer.h. */
struct prb {
	struct kfield count_bits, descs, infos, head_id, tail_id;
	struct kfield size_bits, data;
	struct kfield state_var, begin, next;
	struct kfield seq_ts, text_len, level, facility;
	uint32_t desc_size, info_size;
};

static bool prb_layout(struct vmc *v, struct prb *p)
{
	struct kfield dr, tr;

	p->desc_size = ktypes_struct_size(v->kt, "prb_desc");
	p->info_size = ktypes_struct_size(v->kt, "printk_info");
	if (!ktypes_member(v->kt, "printk_ringbuffer", "desc_ring", &dr) ||
	    !ktypes_member(v->kt, "printk_ringbuffer", "text_data_ring", &tr) ||
	    !ktypes_member(v->kt, "prb_desc_ring", "count_bits",
			   &p->count_bits) ||
	    !ktypes_member(v->kt, "prb_desc_ring", "descs", &p->descs) ||
	    !ktypes_member(v->kt, "prb_desc_ring", "infos", &p->infos) ||
	    !ktypes_member(v->kt, "prb_desc_ring", "head_id", &p->head_id) ||
	    !ktypes_member(v->kt, "prb_desc_ring", "tail_id", &p->tail_id) ||
	    !ktypes_member(v->kt, "prb_data_ring", "size_bits",
			   &p->size_bits) ||
	    !ktypes_member(v->kt, "prb_data_ring", "data", &p->data) ||
	    !ktypes_member(v->kt, "prb_desc", "state_var", &p->state_var) ||
	    !ktypes_member(v->kt, "prb_desc", "text_blk_lpos.begin",
			   &p->begin) ||
	    !ktypes_member(v->kt, "prb_desc", "text_blk_lpos.next", &p->next) ||
	    !ktypes_member(v->kt, "printk_info", "ts_nsec", &p->seq_ts) ||
	    !ktypes_member(v->kt, "printk_info", "text_len", &p->text_len) ||
	    !p->desc_size || !p->info_size)
		return false;
	if (!ktypes_member(v->kt, "printk_info", "level", &p->level))
		memset(&p->level, 0, sizeof(p->level));
	if (!ktypes_member(v->kt, "printk_info", "facility", &p->facility))
		memset(&p->facility, 0, sizeof(p->facility));
	p->count_bits.offset += dr.offset;
	p->descs.offset += dr.offset;
	p->infos.offset += dr.offset;
	p->head_id.offset += dr.offset;
	p->tail_id.offset += dr.offset;
	p->size_bits.offset += tr.offset;
	p->data.offset += tr.offset;
	return true;
}

/*
 * The same layout from VMCOREINFO, for a dump whose types cannot be read
 * (its BTF damaged): log_buf_vmcoreinfo_setup() of kernel/printk/printk.c
 * names the offsets and struct sizes since 5.10. The members' own sizes
 * and kinds, which it does not give, are those of
 * kernel/printk/printk_ringbuffer.h and printk_ringbuffer.c, unchanged
 * 5.10-6.12 (size 0: a pointer or long). printk_info's facility and level
 * have no entry: they follow text_len (u16) as u8 facility, then a byte
 * whose top 3 bits are level.
 */
static const struct prb_vmcoreinfo {
	const char *member, *outer; /* OFFSET(member) + OFFSET(outer) */
	size_t field; /* offsetof(struct prb, ...) */
	enum kfield_kind kind;
	uint32_t size;
} prb_vmcoreinfo[] = {
	{"prb_desc_ring.count_bits", "printk_ringbuffer.desc_ring",
	 offsetof(struct prb, count_bits), KF_UINT, 4},
	{"prb_desc_ring.descs", "printk_ringbuffer.desc_ring",
	 offsetof(struct prb, descs), KF_PTR, 0},
	{"prb_desc_ring.infos", "printk_ringbuffer.desc_ring",
	 offsetof(struct prb, infos), KF_PTR, 0},
	{"prb_desc_ring.head_id", "printk_ringbuffer.desc_ring",
	 offsetof(struct prb, head_id), KF_UINT, 0},
	{"prb_desc_ring.tail_id", "printk_ringbuffer.desc_ring",
	 offsetof(struct prb, tail_id), KF_UINT, 0},
	{"prb_data_ring.size_bits", "printk_ringbuffer.text_data_ring",
	 offsetof(struct prb, size_bits), KF_UINT, 4},
	{"prb_data_ring.data", "printk_ringbuffer.text_data_ring",
	 offsetof(struct prb, data), KF_PTR, 0},
	{"prb_desc.state_var", NULL, offsetof(struct prb, state_var), KF_UINT,
	 0},
	{"prb_data_blk_lpos.begin", "prb_desc.text_blk_lpos",
	 offsetof(struct prb, begin), KF_UINT, 0},
	{"prb_data_blk_lpos.next", "prb_desc.text_blk_lpos",
	 offsetof(struct prb, next), KF_UINT, 0},
	{"printk_info.ts_nsec", NULL, offsetof(struct prb, seq_ts), KF_UINT, 8},
	{"printk_info.text_len", NULL, offsetof(struct prb, text_len), KF_UINT,
	 2},
};

/* VMCOREINFO's "OFFSET(name)=dec" or "SIZE(name)=dec" into *out. */
static bool vmcoreinfo_number(struct vmc *v, const char *what, const char *name,
			      uint64_t *out)
{
	char key[128];
	const char *val;
	char *end;

	snprintf(key, sizeof(key), "%s(%s)", what, name);
	val = kcore_vmcoreinfo(v->kc, key);
	if (!val || *val < '0' || *val > '9')
		return false;
	*out = strtoull(val, &end, 10);
	return !*end && *out < (1u << 20);
}

static bool prb_layout_vmcoreinfo(struct vmc *v, struct prb *p, uint32_t *hsize)
{
	uint64_t n, outer;
	size_t i;

	memset(p, 0, sizeof(*p));
	if (!vmcoreinfo_number(v, "SIZE", "printk_ringbuffer", &n))
		return false;
	*hsize = (uint32_t)n;
	if (!vmcoreinfo_number(v, "SIZE", "prb_desc", &n))
		return false;
	p->desc_size = (uint32_t)n;
	if (!vmcoreinfo_number(v, "SIZE", "printk_info", &n))
		return false;
	p->info_size = (uint32_t)n;
	for (i = 0; i < sizeof(prb_vmcoreinfo) / sizeof(prb_vmcoreinfo[0]);
	     i++) {
		const struct prb_vmcoreinfo *e = &prb_vmcoreinfo[i];
		struct kfield *f = (struct kfield *)((char *)p + e->field);

		outer = 0;
		if (!vmcoreinfo_number(v, "OFFSET", e->member, &n) ||
		    (e->outer &&
		     !vmcoreinfo_number(v, "OFFSET", e->outer, &outer)))
			return false;
		f->kind = e->kind;
		f->offset = n + outer;
		f->size = e->size ? e->size : v->psz;
	}
	p->facility = p->text_len;
	p->facility.offset += 2;
	p->facility.size = 1;
	p->level = p->text_len;
	p->level.offset += 3;
	p->level.size = 1;
	p->level.bit_offset = 5;
	p->level.bit_size = 3;
	return true;
}

/* The printk_ringbuffer as log_ringbuffer() reads it. */
struct prb_read {
	struct prb p; /* the layout */
	int64_t cb, sb; /* count_bits, size_bits */
	int64_t descs, infos, data, hid, tid; /* addresses, head and tail */
	uint64_t count, ring_size, id_mask;
	unsigned char *d, *in, *ring; /* the arrays and the text ring */
};

/* The ring's layout and its header at prb_addr into r: false if unread. */
static bool prb_header(struct vmc *v, uint64_t prb_addr, struct prb_read *r)
{
	struct prb *p = &r->p;
	unsigned char hdr[4096];
	uint32_t hsize = 0;

	if (v->kt) {
		hsize = ktypes_struct_size(v->kt, "printk_ringbuffer");
		if (!prb_layout(v, p))
			hsize = 0;
	} else if (!prb_layout_vmcoreinfo(v, p, &hsize)) {
		dump_warn(
			v->d,
			"no types, and VMCOREINFO lacks the printk_ringbuffer layout");
		return false;
	}
	if (!hsize || hsize > sizeof(hdr)) {
		dump_warn(v->d,
			  "the debuginfo lacks the printk_ringbuffer types");
		return false;
	}
	if (!kcore_read(v->kc, prb_addr, hdr, hsize) ||
	    !vmc_field(&p->count_bits, hdr, hsize, &r->cb) ||
	    !vmc_field(&p->descs, hdr, hsize, &r->descs) ||
	    !vmc_field(&p->infos, hdr, hsize, &r->infos) ||
	    !vmc_field(&p->head_id, hdr, hsize, &r->hid) ||
	    !vmc_field(&p->tail_id, hdr, hsize, &r->tid) ||
	    !vmc_field(&p->size_bits, hdr, hsize, &r->sb) ||
	    !vmc_field(&p->data, hdr, hsize, &r->data)) {
		dump_warn(v->d, "printk_ringbuffer at 0x%llx unreadable",
			  (unsigned long long)prb_addr);
		return false;
	}
	if (r->cb < 0 || r->cb > 22 || r->sb < 0 || r->sb > 26) {
		dump_warn(
			v->d,
			"printk_ringbuffer sizes out of range (count_bits %lld, size_bits %lld)",
			(long long)r->cb, (long long)r->sb);
		return false;
	}
	return true;
}

/* The record of descriptor id, if committed or finalized, to o. */
static void prb_record(struct vmc *v, struct out *o, const struct prb_read *r,
		       uint64_t id)
{
	const struct prb *p = &r->p;
	unsigned bits = v->psz * 8;
	uint64_t idx = id & (r->count - 1);
	unsigned char *desc = r->d + idx * p->desc_size;
	unsigned char *info = r->in + idx * p->info_size;
	int64_t sv, b, e, tsv, tlen, lv = 0, fac = 0;
	uint64_t state, bi, ei, len, off;

	if (!vmc_field(&p->state_var, desc, p->desc_size, &sv) ||
	    !vmc_field(&p->begin, desc, p->desc_size, &b) ||
	    !vmc_field(&p->next, desc, p->desc_size, &e) ||
	    !vmc_field(&p->seq_ts, info, p->info_size, &tsv) ||
	    !vmc_field(&p->text_len, info, p->info_size, &tlen))
		return;
	state = ((uint64_t)sv >> (bits - 2)) & 3;
	/* committed (1) or finalized (2), and still this id */
	if ((state != 1 && state != 2) || ((uint64_t)sv & r->id_mask) != id ||
	    (b & 1))
		return;
	bi = (uint64_t)b & (r->ring_size - 1);
	ei = (uint64_t)e & (r->ring_size - 1);
	if ((uint64_t)b >> r->sb == (uint64_t)e >> r->sb) {
		off = bi;
		len = ei > bi ? ei - bi : 0;
	} else { /* wrapped: the block is at 0 */
		off = 0;
		len = ei;
	}
	if (len <= v->psz || off + len > r->ring_size)
		return;
	len -= v->psz; /* the block's id */
	if ((uint64_t)tlen < len)
		len = (uint64_t)tlen;
	vmc_field(&p->level, info, p->info_size, &lv);
	vmc_field(&p->facility, info, p->info_size, &fac);
	emit_record(o, (unsigned)((fac & 0xff) * 8 + (lv & 7)), (uint64_t)tsv,
		    (const char *)r->ring + off + v->psz, len);
}

static bool log_ringbuffer(struct vmc *v, struct out *o)
{
	struct prb_read r = {0};
	uint64_t prb_addr, id, head;
	bool ok = false;

	if (!global_ptr(v, "prb", &prb_addr))
		return false;
	if (!prb_header(v, prb_addr, &r))
		return false;
	r.count = (uint64_t)1 << r.cb;
	r.ring_size = (uint64_t)1 << r.sb;
	r.d = read_blob(v, (uint64_t)r.descs, r.count * r.p.desc_size);
	r.in = read_blob(v, (uint64_t)r.infos, r.count * r.p.info_size);
	r.ring = read_blob(v, (uint64_t)r.data, r.ring_size);
	if (!r.d || !r.in || !r.ring) {
		dump_warn(v->d, "printk_ringbuffer arrays unreadable");
		goto out;
	}
	/* state_var: 2 state bits on top, the id below (DESC_FLAGS_SHIFT) */
	r.id_mask = v->psz * 8 == 64 ? ~(3ull << 62) : 0x3fffffffull;
	head = (uint64_t)r.hid & r.id_mask;
	id = (uint64_t)r.tid & r.id_mask;
	for (uint64_t n = 0; n <= r.count; n++) {
		prb_record(v, o, &r, id);
		if (id == head)
			break;
		id = (id + 1) & r.id_mask;
	}
	ok = true;
	v->d->log_layout = DUMP_LOG_RINGBUFFER;
out:
	free(r.d);
	free(r.in);
	free(r.ring);
	return ok;
}

void vmc_read_log(struct vmc *v)
{
	struct out o = {0};
	uint64_t a;

	bool ok;

	if (vmc_symbol(v, "prb", &a))
		ok = log_ringbuffer(v, &o);
	else if (!v->kt) /* the older layouts are not in VMCOREINFO whole */
		ok = false;
	else if (vmc_symbol(v, "log_first_idx", &a))
		ok = log_records(v, &o);
	else if (vmc_symbol(v, "log_end", &a))
		ok = log_ring(v, &o);
	else {
		dump_warn(v->d, "no kernel log buffer found in the debuginfo");
		ok = true;
	}
	if (!ok) {
		dump_warn(v->d, "the kernel log buffer could not be read (%s)",
			  kcore_last_error(v->kc));
		v->d->partial = true;
	}
	if (o.full) {
		dump_warn(v->d, "kernel log cut at %zu bytes", o.len);
		v->d->partial = true;
	}
	v->d->log = o.p;
	v->d->log_len = o.len;
	if (o.has_last && o.last_ns <= INT64_MAX) {
		v->d->g[DG_LOG_LAST_NS].v = (int64_t)o.last_ns;
		v->d->g[DG_LOG_LAST_NS].prov = DUMP_DERIVED;
	}
}
