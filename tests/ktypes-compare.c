// SPDX-License-Identifier: MIT
/*
 * ktypes-compare: ask the DWARF and the BTF back ends of dumps/ktypes.h
 * the same questions about one kernel and print where they differ.
 *
 * usage: ktypes-compare VMLINUX BTF_BLOB < QUERIES
 *
 * VMLINUX has DWARF; BTF_BLOB is the raw BTF of the same build (objcopy
 * -O binary --only-section=.BTF VMLINUX BLOB). QUERIES has one question a
 * line, as vmshrink's queries.txt writes them (other lines are skipped):
 *
 *   size STRUCT
 *   member STRUCT PATH
 *   variable NAME
 *   enum NAME
 *
 * Prints every answer pair that differs and a summary line; exits 0 when
 * all agree, 1 when some differ, 2 on errors. Used by tests/e2e.sh (on the
 * kdwarf fixture, its BTF made by pahole -J) and by
 * tests/vmcore-btf-compare.sh (on the lab's vmlinux files).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dumps/kdwarf.h"
#include "dumps/ktypes.h"

static void show(char *buf, size_t n, bool ok, const struct kfield *f)
{
	if (!ok) {
		snprintf(buf, n, "-");
		return;
	}
	snprintf(
		buf, n,
		"kind=%d off=%llu size=%u bit=%u:%u scalar=%d signed=%d elem=%u count=%u type=%s target=%d:%u",
		f->kind, (unsigned long long)f->offset, f->size, f->bit_offset,
		f->bit_size, f->scalar, f->is_signed, f->elem_size, f->count,
		f->type_name[0] ? f->type_name : "-", f->target_kind,
		f->target_size);
}

static void *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0, r;

	if (!f)
		return NULL;
	do {
		if (n == cap) {
			char *p = realloc(buf, cap = cap ? cap * 2 : 1 << 20);

			if (!p) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = p;
		}
		r = fread(buf + n, 1, cap - n, f);
		n += r;
	} while (r > 0);
	fclose(f);
	*len = n;
	return buf;
}

int main(int argc, char **argv)
{
	struct ktypes *dwt = NULL, *btt = NULL;
	struct oomlens_error *err;
	struct kdwarf *dw = NULL;
	char line[1024], a[512], b[512];
	int asked = 0, differ = 0;
	void *blob;
	size_t len;

	if (argc != 3) {
		fprintf(stderr,
			"usage: ktypes-compare VMLINUX BTF_BLOB < QUERIES\n");
		return 2;
	}
	blob = slurp(argv[2], &len);
	if (!blob) {
		fprintf(stderr, "ktypes-compare: cannot read '%s'\n", argv[2]);
		return 2;
	}
	err = kdwarf_open(argv[1], &dw);
	if (!err)
		err = ktypes_from_dwarf(dw, &dwt);
	if (!err)
		err = ktypes_from_btf(blob, len, argv[2], &btt);
	free(blob);
	if (err) {
		fprintf(stderr, "ktypes-compare: %s\n", err->message);
		oomlens_error_free(err);
		ktypes_free(dwt);
		kdwarf_close(dw);
		return 2;
	}
	while (fgets(line, sizeof(line), stdin)) {
		char kind[16], name[256], path[512];
		struct kfield fa, fb;
		bool oka, okb;
		int n;

		memset(&fa, 0, sizeof(fa));
		memset(&fb, 0, sizeof(fb));
		n = sscanf(line, "%15s %255s %511s", kind, name, path);
		if (n >= 3 && !strcmp(kind, "member")) {
			oka = ktypes_member(dwt, name, path, &fa);
			okb = ktypes_member(btt, name, path, &fb);
		} else if (n >= 2 && !strcmp(kind, "variable")) {
			oka = ktypes_variable(dwt, name, &fa);
			okb = ktypes_variable(btt, name, &fb);
		} else if (n >= 2 && !strcmp(kind, "size")) {
			fa.size = ktypes_struct_size(dwt, name);
			fb.size = ktypes_struct_size(btt, name);
			oka = fa.size;
			okb = fb.size;
		} else if (n >= 2 && !strcmp(kind, "enum")) {
			int64_t va = 0, vb = 0;

			oka = ktypes_enumerator(dwt, name, &va);
			okb = ktypes_enumerator(btt, name, &vb);
			fa.offset = (uint64_t)va;
			fb.offset = (uint64_t)vb;
		} else {
			continue;
		}
		asked++;
		show(a, sizeof(a), oka, &fa);
		show(b, sizeof(b), okb, &fb);
		if (strcmp(a, b) != 0) {
			differ++;
			printf("%s %s %s\n  dwarf %s\n  btf   %s\n", kind, name,
			       n >= 3 && !strcmp(kind, "member") ? path : "", a,
			       b);
		}
	}
	printf("ktypes-compare: %d questions, %d differ\n", asked, differ);
	ktypes_free(dwt);
	ktypes_free(btt);
	kdwarf_close(dw);
	return differ ? 1 : 0;
}
