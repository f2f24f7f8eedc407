// SPDX-License-Identifier: MIT
/*
 * Kernel types from DWARF or BTF (see dumps/ktypes.h): a handle that
 * says which back end it holds and passes every question to it. The back
 * ends (kdwarf.c, kbtf.c) are the only files that see libdw and libbpf.
 */
#include "dumps/ktypes.h"

#include <stdlib.h>

#include "dumps/kbtf.h"
#include "dumps/kdwarf.h"
#include "core/banned.h"

struct ktypes {
	enum ktypes_source source;
	struct kdwarf *dw; /* borrowed */
	struct kbtf *btf; /* owned */
};

struct oomlens_error *ktypes_from_dwarf(struct kdwarf *dw, struct ktypes **out)
{
	struct ktypes *kt;
	struct oomlens_error *err = kdwarf_require_types(dw);

	if (err)
		return err;
	kt = calloc(1, sizeof(*kt));
	if (!kt)
		return &oomlens_error_nomem;
	kt->source = KTYPES_DWARF;
	kt->dw = dw;
	*out = kt;
	return NULL;
}

struct oomlens_error *ktypes_from_btf(const void *blob, size_t len,
				      const char *what, struct ktypes **out)
{
	struct ktypes *kt = calloc(1, sizeof(*kt));
	struct oomlens_error *err;

	if (!kt)
		return &oomlens_error_nomem;
	kt->source = KTYPES_BTF;
	err = kbtf_new(blob, len, what, &kt->btf);
	if (err) {
		free(kt);
		return err;
	}
	*out = kt;
	return NULL;
}

void ktypes_free(struct ktypes *kt)
{
	if (!kt)
		return;
	kbtf_free(kt->btf);
	free(kt);
}

enum ktypes_source ktypes_source(const struct ktypes *kt)
{
	return kt->source;
}

const char *ktypes_source_name(enum ktypes_source s)
{
	return s == KTYPES_BTF ? "btf" : "dwarf";
}

uint32_t ktypes_struct_size(const struct ktypes *kt, const char *name)
{
	return kt->btf ? kbtf_struct_size(kt->btf, name)
		       : kdwarf_struct_size(kt->dw, name);
}

bool ktypes_member(const struct ktypes *kt, const char *name, const char *path,
		   struct kfield *out)
{
	return kt->btf ? kbtf_member(kt->btf, name, path, out)
		       : kdwarf_member(kt->dw, name, path, out);
}

bool ktypes_variable(const struct ktypes *kt, const char *name,
		     struct kfield *out)
{
	return kt->btf ? kbtf_variable(kt->btf, name, out)
		       : kdwarf_variable(kt->dw, name, out);
}

bool ktypes_enumerator(const struct ktypes *kt, const char *name,
		       int64_t *value)
{
	return kt->btf ? kbtf_enumerator(kt->btf, name, value)
		       : kdwarf_enumerator(kt->dw, name, value);
}
