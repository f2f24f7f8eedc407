// SPDX-License-Identifier: MIT
/*
 * dumpkind: what a file's first bytes say it is, if a kernel dump. Pure
 * byte inspection, no I/O: the log reader (parsers/source.c) uses it to
 * set dumps aside, the dump reader (dumps/kcore.c) to choose its path.
 */
#include "model/dumpkind.h"

#include <string.h>

#include "core/banned.h"
#include "core/scan.h"

#define DUMP_FLAT_SIGNATURE "makedumpfile"

bool dump_is_flattened(const void *head, size_t len)
{
	return len >= sizeof(DUMP_FLAT_SIGNATURE) &&
	       memcmp(head, DUMP_FLAT_SIGNATURE, sizeof(DUMP_FLAT_SIGNATURE)) ==
		       0;
}

/*
 * An ELF core file (ET_CORE) is a kernel's dump, not a process's core,
 * when it carries a VMCOREINFO note, or maps kernel addresses (the top
 * half: 0xc0000000 and up for the i386 3G/1G split), or maps only
 * physical memory (QEMU's dump-guest-memory without paging: every
 * p_vaddr 0). A process core maps user addresses only. When the program
 * headers lie beyond head, it is taken for a dump (libkdumpfile judges).
 */
static bool elf_core_is_kernel(const unsigned char *h, size_t len)
{
	bool is64 = h[4] == 2, be = h[5] == 2, all_zero = true;
	uint64_t phoff = scan_uint_at(h + (is64 ? 32 : 28), is64 ? 8 : 4, be);
	unsigned phent = (unsigned)scan_uint_at(h + (is64 ? 54 : 42), 2, be);
	unsigned phnum = (unsigned)scan_uint_at(h + (is64 ? 56 : 44), 2, be);
	uint64_t kernel = is64 ? 1ull << 63 : 0xc0000000ull;

	if (memmem(h, len, "VMCOREINFO", 10))
		return true;
	if (phent != (is64 ? 56u : 32u) || phoff > len || phnum == 0 ||
	    phnum > (len - phoff) / phent)
		return true;
	for (unsigned i = 0; i < phnum; i++) {
		const unsigned char *p = h + phoff + (uint64_t)i * phent;
		uint64_t vaddr;

		if (scan_uint_at(p, 4, be) != 1) /* PT_LOAD */
			continue;
		vaddr = scan_uint_at(p + (is64 ? 16 : 8), is64 ? 8 : 4, be);
		if (vaddr >= kernel)
			return true;
		all_zero &= vaddr == 0;
	}
	return all_zero;
}

const char *dump_kind(const void *head, size_t len)
{
	const unsigned char *h = head;

	if (dump_is_flattened(h, len))
		return "flattened kdump";
	if (len >= 8 && memcmp(h, "KDUMP   ", 8) == 0)
		return "kdump-compressed";
	if (len < 64 || memcmp(h, "\177ELF", 4) != 0 ||
	    (h[4] != 1 && h[4] != 2) || (h[5] != 1 && h[5] != 2))
		return NULL;
	/* e_type ET_CORE (4) in the file's byte order */
	if (scan_uint_at(h + 16, 2, h[5] == 2) != 4 ||
	    !elf_core_is_kernel(h, len))
		return NULL;
	return "ELF";
}
