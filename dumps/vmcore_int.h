/* SPDX-License-Identifier: MIT */
#ifndef OOMLENS_PARSERS_VMCORE_INT_H
#define OOMLENS_PARSERS_VMCORE_INT_H

/*
 * Shared by dumps/vmcore.c (tasks, globals) and vmcore_log.c (the log);
 * the memory-access helpers below are defined in vmcore_mem.c.
 */

#include <stdbool.h>
#include <stdint.h>

#include "model/dump.h"
#include "dumps/kcore.h"
#include "dumps/kallsyms.h"
#include "dumps/kdwarf.h"
#include "dumps/ktypes.h"

struct vmc {
	struct kcore *kc;
	struct kdwarf *dw; /* the vmlinux, or NULL when the dump serves */
	struct ktypes *kt; /* DWARF of dw, or the dump's BTF */
	struct kallsyms *ks; /* the dump's symbols, when dw is NULL */
	struct dump_state *d;
	const char *path; /* the vmcore, for messages */
	uint64_t koff; /* KERNELOFFSET: added to every symbol */
	unsigned psz; /* pointer size */
	unsigned kver; /* KV() of OSRELEASE, 0 if unknown */
};

/*
 * A symbol's runtime address: kallsyms's as is, a vmlinux's link address
 * + KERNELOFFSET.
 */
bool vmc_symbol(const struct vmc *v, const char *name, uint64_t *addr);
/* Read a pointer-sized word. */
bool vmc_read_ptr(struct vmc *v, uint64_t addr, uint64_t *out);
/* Read a scalar field f of the object at addr (whatever its size). */
bool vmc_read_field(struct vmc *v, uint64_t addr, const struct kfield *f,
		    int64_t *out);
/* The value of scalar field f inside buf (size bytes); false if outside. */
bool vmc_field(const struct kfield *f, const unsigned char *buf, uint32_t size,
	       int64_t *out);
/* A global scalar variable. */
bool vmc_global(struct vmc *v, const char *name, int64_t *out);

/* Extract the kernel log into v->d->log (vmcore_log.c). */
void vmc_read_log(struct vmc *v);

#endif
