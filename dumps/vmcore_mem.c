// SPDX-License-Identifier: MIT
/*
 * The memory-access helpers of the vmcore readers (dumps/vmcore_int.h):
 * symbols to runtime addresses, pointers, scalar fields and globals, read
 * through kcore from the dump. Both the task walk (vmcore.c) and the log
 * reader (vmcore_log.c) call them; they call neither, so that no call
 * cycle runs between those two files (`make check-cycles`). Every read is
 * bounded by the field it reads (at most 8 bytes) and fails rather than
 * guess: a false return writes no out-parameter.
 */
#include <string.h>

#include "dumps/vmcore_int.h"
#include "core/banned.h"

bool vmc_symbol(const struct vmc *v, const char *name, uint64_t *addr)
{
	uint64_t a;

	if (v->ks)
		return kallsyms_lookup(v->ks, name, addr);
	if (!kdwarf_symbol(v->dw, name, &a))
		return false;
	*addr = a + v->koff;
	return true;
}

bool vmc_read_ptr(struct vmc *v, uint64_t addr, uint64_t *out)
{
	uint64_t p = 0;

	if (!kcore_read(v->kc, addr, &p, v->psz))
		return false;
	*out = p; /* little-endian hosts and dumps (x86) */
	return true;
}

bool vmc_field(const struct kfield *f, const unsigned char *buf, uint32_t size,
	       int64_t *out)
{
	uint64_t raw = 0;
	uint32_t n = f->size;

	if (f->kind == KF_NONE || n == 0 || n > 8 || f->offset > size ||
	    n > size - f->offset)
		return false;
	memcpy(&raw, buf + f->offset, n);
	if (f->bit_size) {
		if (f->bit_size >= 64 || f->bit_offset >= 64)
			return false;
		raw = (raw >> f->bit_offset) &
		      (((uint64_t)1 << f->bit_size) - 1);
		n = 0; /* unsigned bit-fields only, in the kernel's uses */
	}
	if (f->is_signed && n > 0 && n < 8) {
		unsigned shift = 64 - 8 * n;

		*out = (int64_t)(raw << shift) >> shift;
		return true;
	}
	*out = (int64_t)raw;
	return true;
}

bool vmc_read_field(struct vmc *v, uint64_t addr, const struct kfield *f,
		    int64_t *out)
{
	unsigned char buf[8] = {0};
	struct kfield g = *f;

	if (f->kind == KF_NONE || f->size == 0 || f->size > 8)
		return false;
	if (!kcore_read(v->kc, addr + f->offset, buf, f->size))
		return false;
	g.offset = 0;
	return vmc_field(&g, buf, sizeof(buf), out);
}

bool vmc_global(struct vmc *v, const char *name, int64_t *out)
{
	struct kfield f;
	uint64_t addr;

	if (!ktypes_variable(v->kt, name, &f) || !vmc_symbol(v, name, &addr))
		return false;
	if (!f.scalar)
		return false;
	return vmc_read_field(v, addr, &f, out);
}
