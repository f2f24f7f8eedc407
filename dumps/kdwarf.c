// SPDX-License-Identifier: MIT
/*
 * A vmlinux's DWARF and ELF symbols, indexed once (see dumps/kdwarf.h).
 *
 * This is the only file that sees Dwarf and Elf. The file is mapped
 * (ELF_C_READ_MMAP), never copied; every name in the tables points into the
 * mapping (.debug_str, .debug_info, .strtab), so the tables hold only
 * pointers, hashes and offsets and live exactly as long as the handles.
 * The pages indexing touched are given back as it goes (drop_pages()).
 *
 * Indexing is one pass over every unit's top-level DIEs: nothing descends
 * into functions, and only enumerations are opened (for their
 * enumerators). A type entry is the DIE's offset; a lookup re-creates the
 * DIE with dwarf_offdie() and walks that one type. The first complete
 * definition of a name wins; declarations are never indexed.
 *
 * Invariants: every loop over DIEs checks that offsets grow, and every
 * walk along DW_AT_type or into anonymous members has a depth cap, so a
 * hostile file with reference cycles ends in "not found".
 */
#include "dumps/kdwarf.h"

#include <dwarf.h>
#include <elf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "core/nametab.h"
#include "core/banned.h"

/* Caps against hostile input. */
#define MAX_ENTRIES ((size_t)1 << 24) /* per table */
#define MAX_TYPE_DEPTH 32 /* typedef/const chains, nested anonymous members */
#define MAX_PATH_PART 255 /* one name of a member path */
/* members looked at by one kdwarf_member(), anonymous ones opened */
#define MAX_MEMBER_VISITS 100000L
/* units indexed between two drops of the mapping's pages (drop_pages) */
#define UNITS_PER_DROP 128

struct kdwarf {
	char *path;
	int fd;
	Elf *elf;
	void *map; /* libelf's mapping of the file, when drop_pages() may */
	size_t map_len;
	Dwarf *dbg[2]; /* the file's own DWARF and its dwz alternate, if any */
	int bits, machine;
	bool has_types;
	/* name tables (core/nametab.h): key a DWARF tag in types; rank a
	 * variable with a type over one without, a global symbol over a local */
	struct nametab types, vars, enums, syms;
	size_t units;
	char release[65];
	bool has_release;
	uint8_t build_id[64];
	size_t build_id_len;
};

static bool name_is(const char *name, const char *s, size_t len)
{
	return strncmp(name, s, len) == 0 && name[len] == '\0';
}

/* ---- indexing ---- */

static OOMLENS_MUST_CHECK struct oomlens_error *corrupt(const struct kdwarf *dw,
							const char *call)
{
	return oomlens_error_new(OOMLENS_ERR_CORRUPT,
				 "'%s': corrupt DWARF: %s: %s", dw->path, call,
				 dwarf_errmsg(-1));
}

static bool type_of(Dwarf_Die *die, Dwarf_Die *type)
{
	Dwarf_Attribute a;

	return dwarf_attr_integrate(die, DW_AT_type, &a) &&
	       dwarf_formref_die(&a, type);
}

static bool udata(Dwarf_Die *die, unsigned int at, Dwarf_Word *v)
{
	Dwarf_Attribute a;

	return dwarf_attr_integrate(die, at, &a) && dwarf_formudata(&a, v) == 0;
}

static bool is_declaration(Dwarf_Die *die)
{
	Dwarf_Attribute a;
	bool flag;

	return dwarf_attr(die, DW_AT_declaration, &a) &&
	       dwarf_formflag(&a, &flag) == 0 && flag;
}

static OOMLENS_MUST_CHECK struct oomlens_error *
index_enumerators(struct kdwarf *dw, Dwarf_Die *en)
{
	Dwarf_Die e;
	Dwarf_Off last = 0;
	int r;

	if (dwarf_child(en, &e) != 0)
		return NULL;
	do {
		Dwarf_Attribute a;
		struct oomlens_error *err;
		const char *name;
		struct nametab_ent *slot;
		Dwarf_Sword sv;
		Dwarf_Word uv;
		int64_t v;

		if (dwarf_dieoffset(&e) <= last)
			return corrupt(dw, "dwarf_siblingof");
		last = dwarf_dieoffset(&e);
		if (dwarf_tag(&e) != DW_TAG_enumerator)
			continue;
		name = dwarf_diename(&e);
		if (!name || !dwarf_attr(&e, DW_AT_const_value, &a))
			continue;
		/* data1..data8 say nothing of sign: sdata does */
		if (dwarf_whatform(&a) == DW_FORM_sdata) {
			if (dwarf_formsdata(&a, &sv) != 0)
				continue;
			v = sv;
		} else {
			if (dwarf_formudata(&a, &uv) != 0)
				continue;
			v = (int64_t)uv;
		}
		err = nametab_slot(&dw->enums, name, strlen(name), 0, &slot);
		if (err)
			return err;
		if (!slot->name)
			nametab_fill(&dw->enums, slot, name, 0, (uint64_t)v, 0,
				     0);
	} while ((r = dwarf_siblingof(&e, &e)) == 0);
	return r < 0 ? corrupt(dw, "dwarf_siblingof") : NULL;
}

/* Variables: a typed definition beats a typed declaration beats no type. */
static uint8_t var_rank(Dwarf_Die *die)
{
	if (!dwarf_hasattr_integrate(die, DW_AT_type))
		return 0;
	return is_declaration(die) ? 1 : 2;
}

static OOMLENS_MUST_CHECK struct oomlens_error *
index_die(struct kdwarf *dw, Dwarf_Die *die, uint8_t which)
{
	int tag = dwarf_tag(die);
	struct oomlens_error *err;
	struct nametab_ent *slot;
	const char *name;
	Dwarf_Die target;

	switch (tag) {
	case DW_TAG_structure_type:
	case DW_TAG_union_type:
	case DW_TAG_enumeration_type:
	case DW_TAG_typedef:
	case DW_TAG_base_type:
		break;
	case DW_TAG_variable:
		name = dwarf_diename(die);
		if (!name)
			return NULL;
		err = nametab_slot(&dw->vars, name, strlen(name), 0, &slot);
		if (err)
			return err;
		if (!slot->name) {
			nametab_fill(&dw->vars, slot, name, 0,
				     dwarf_dieoffset(die), var_rank(die),
				     which);
		} else if (slot->rank < 2) {
			uint8_t rank = var_rank(die);

			if (rank > slot->rank)
				nametab_fill(&dw->vars, slot, name, 0,
					     dwarf_dieoffset(die), rank, which);
		}
		return NULL;
	default:
		return NULL;
	}

	name = dwarf_diename(die);
	if (name) {
		err = nametab_slot(&dw->types, name, strlen(name),
				   (uint16_t)tag, &slot);
		if (err)
			return err;
		if (slot->name) {
			/* another enum of this name may differ */
			if (tag != DW_TAG_enumeration_type)
				return NULL;
		} else if (tag != DW_TAG_typedef && tag != DW_TAG_base_type &&
			   is_declaration(die)) {
			return NULL;
		} else {
			nametab_fill(&dw->types, slot, name, (uint16_t)tag,
				     dwarf_dieoffset(die), 0, which);
		}
	}
	if (tag == DW_TAG_enumeration_type && !is_declaration(die))
		return index_enumerators(dw, die);
	/* typedef enum { ... } name_t; in case the enum is not top-level */
	if (tag == DW_TAG_typedef && type_of(die, &target) &&
	    dwarf_tag(&target) == DW_TAG_enumeration_type &&
	    !dwarf_hasattr(&target, DW_AT_name) && !is_declaration(&target))
		return index_enumerators(dw, &target);
	return NULL;
}

/*
 * Indexing reads most of a 300-600 MB vmlinux's .debug_info, .debug_abbrev
 * and .debug_str through libelf's mapping of the file, and every page read
 * stays in the process's RSS: 176 MB for Debian's 6.1. The index needs
 * none of them (names are re-read on lookup), so they are dropped as
 * indexing goes: MADV_DONTNEED on a private mapping of the file only
 * unmaps them, and a later access faults them back in from the page
 * cache. find_mapping() makes sure that there is one: the ELF header that
 * libelf hands out lies in a mapping of this very file (device and inode
 * in /proc/self/maps); and that libelf wrote nothing into it: the file is
 * of the host's byte order, so nothing was converted in place.
 */
static void find_mapping(struct kdwarf *dw, const struct stat *st)
{
	static const unsigned char host_le = 1;
	const char *ident = (const char *)elf_getident(dw->elf, NULL);
	const void *eh = dw->bits == 64 ? (const void *)elf64_getehdr(dw->elf)
					: (const void *)elf32_getehdr(dw->elf);
	char line[512];
	FILE *maps;

	if (!eh || !ident || !st->st_ino ||
	    ident[EI_DATA] !=
		    (*(const char *)&host_le ? ELFDATA2LSB : ELFDATA2MSB))
		return;
	maps = fopen("/proc/self/maps", "re");
	if (!maps)
		return;
	while (fgets(line, sizeof(line), maps)) {
		unsigned long long lo, hi, off, ino;
		unsigned maj, mnr;

		if (sscanf(line, "%llx-%llx %*s %llx %x:%x %llu", &lo, &hi,
			   &off, &maj, &mnr, &ino) != 6 ||
		    (uintptr_t)eh < lo || (uintptr_t)eh >= hi)
			continue;
		if (ino == (unsigned long long)st->st_ino &&
		    makedev(maj, mnr) == st->st_dev) {
			dw->map = (void *)(uintptr_t)lo;
			dw->map_len = (size_t)(hi - lo);
		}
		break;
	}
	fclose(maps);
}

static void drop_pages(const struct kdwarf *dw)
{
	if (dw->map)
		madvise(dw->map, dw->map_len, MADV_DONTNEED);
}

static OOMLENS_MUST_CHECK struct oomlens_error *index_dwarf(struct kdwarf *dw,
							    uint8_t which)
{
	Dwarf_CU *cu = NULL;
	Dwarf_Die cudie, die;
	uint8_t unit_type;
	Dwarf_Half version;
	int r;

	while ((r = dwarf_get_units(dw->dbg[which], cu, &cu, &version,
				    &unit_type, &cudie, NULL)) == 0) {
		Dwarf_Off last = 0;

		if (++dw->units % UNITS_PER_DROP == 0)
			drop_pages(dw);
		if (unit_type == DW_UT_skeleton)
			continue;
		r = dwarf_child(&cudie, &die);
		if (r < 0)
			return corrupt(dw, "dwarf_child");
		if (r > 0)
			continue;
		do {
			struct oomlens_error *err;

			if (dwarf_dieoffset(&die) <= last)
				return corrupt(dw, "dwarf_siblingof");
			last = dwarf_dieoffset(&die);
			err = index_die(dw, &die, which);
			if (err)
				return err;
		} while ((r = dwarf_siblingof(&die, &die)) == 0);
		if (r < 0)
			return corrupt(dw, "dwarf_siblingof");
	}
	return r < 0 ? corrupt(dw, "dwarf_get_units") : NULL;
}

/*
 * Symbols: the first of a name wins, except that a global or weak object
 * or function replaces a local, and anything defined replaces an
 * undefined reference.
 */
static uint8_t sym_rank(const GElf_Sym *sym)
{
	int bind = GELF_ST_BIND(sym->st_info),
	    type = GELF_ST_TYPE(sym->st_info);

	if (sym->st_shndx == SHN_UNDEF)
		return 0;
	if ((bind == STB_GLOBAL || bind == STB_WEAK) &&
	    (type == STT_OBJECT || type == STT_FUNC))
		return 2;
	return 1;
}

static OOMLENS_MUST_CHECK struct oomlens_error *
index_symtab(struct kdwarf *dw, Elf_Scn *scn, const GElf_Shdr *sh)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t i, n;

	if (!data || !sh->sh_entsize)
		return NULL;
	n = data->d_size / gelf_fsize(dw->elf, ELF_T_SYM, 1, EV_CURRENT);
	for (i = 1; i < n; i++) {
		struct oomlens_error *err;
		struct nametab_ent *slot;
		const char *name;
		GElf_Sym sym;
		uint8_t rank;

		if (!gelf_getsym(data, (int)i, &sym))
			break;
		if (GELF_ST_TYPE(sym.st_info) == STT_FILE ||
		    GELF_ST_TYPE(sym.st_info) == STT_SECTION)
			continue;
		name = elf_strptr(dw->elf, sh->sh_link, sym.st_name);
		if (!name || !*name)
			continue;
		err = nametab_slot(&dw->syms, name, strlen(name), 0, &slot);
		if (err)
			return err;
		rank = sym_rank(&sym);
		if (!slot->name || rank > slot->rank)
			nametab_fill(&dw->syms, slot, name, 0, sym.st_value,
				     rank, 0);
	}
	return NULL;
}

static OOMLENS_MUST_CHECK struct oomlens_error *index_symbols(struct kdwarf *dw)
{
	Elf_Scn *scn = NULL, *dyn = NULL;
	GElf_Shdr sh, dynsh;

	while ((scn = elf_nextscn(dw->elf, scn))) {
		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_SYMTAB)
			return index_symtab(dw, scn, &sh);
		if (sh.sh_type == SHT_DYNSYM && !dyn) {
			dyn = scn;
			dynsh = sh;
		}
	}
	return dyn ? index_symtab(dw, dyn, &dynsh) : NULL;
}

/* ---- build id and release ---- */

static bool note_build_id(struct kdwarf *dw, Elf_Data *data)
{
	GElf_Nhdr nh;
	size_t off = 0, name_off, desc_off;

	while (off < data->d_size &&
	       (off = gelf_getnote(data, off, &nh, &name_off, &desc_off)) > 0) {
		if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
		    memcmp((char *)data->d_buf + name_off, "GNU", 4) == 0 &&
		    nh.n_descsz > 0 && nh.n_descsz <= sizeof(dw->build_id)) {
			memcpy(dw->build_id, (char *)data->d_buf + desc_off,
			       nh.n_descsz);
			dw->build_id_len = nh.n_descsz;
			return true;
		}
	}
	return false;
}

static void find_build_id(struct kdwarf *dw)
{
	Elf_Scn *scn = NULL;
	size_t i, nph;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(dw->elf, scn))) {
		Elf_Data *data;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
			continue;
		data = elf_getdata(scn, NULL);
		if (data && note_build_id(dw, data))
			return;
	}
	if (elf_getphdrnum(dw->elf, &nph) != 0)
		return;
	for (i = 0; i < nph; i++) {
		GElf_Phdr ph;
		Elf_Data *data;

		if (!gelf_getphdr(dw->elf, (int)i, &ph) || ph.p_type != PT_NOTE)
			continue;
		/* libelf takes a signed offset and refuses one past the file */
		data = elf_getdata_rawchunk(dw->elf, (int64_t)ph.p_offset,
					    ph.p_filesz, ELF_T_NHDR);
		if (data && note_build_id(dw, data))
			return;
	}
}

/*
 * Up to n bytes of the file's initialised data at link-time address addr,
 * cut at the end of the section holding it. Returns the count read.
 */
static size_t read_addr(const struct kdwarf *dw, uint64_t addr, char *buf,
			size_t n)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(dw->elf, scn))) {
		uint64_t avail;
		ssize_t r;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS ||
		    !(sh.sh_flags & SHF_ALLOC) || addr < sh.sh_addr ||
		    addr - sh.sh_addr >= sh.sh_size)
			continue;
		avail = sh.sh_size - (addr - sh.sh_addr);
		if (n > avail)
			n = avail;
		do
			r = pread(dw->fd, buf, n,
				  (off_t)(sh.sh_offset + (addr - sh.sh_addr)));
		while (r < 0 && errno == EINTR);
		return r > 0 ? (size_t)r : 0;
	}
	return 0;
}

/* A release is what uname -r prints: no spaces, no control characters. */
static bool set_release(struct kdwarf *dw, const char *s, size_t n)
{
	size_t i;

	if (!n || n >= sizeof(dw->release))
		return false;
	for (i = 0; i < n; i++)
		if (s[i] <= ' ' || s[i] > '~')
			return false;
	memcpy(dw->release, s, n);
	dw->release[n] = '\0';
	dw->has_release = true;
	return true;
}

static void find_release(struct kdwarf *dw)
{
	static const char prefix[] = "Linux version ";
	char buf[256];
	struct kfield f;
	uint64_t addr;
	size_t n;

	if (kdwarf_symbol(dw, "linux_banner", &addr)) {
		n = read_addr(dw, addr, buf, sizeof(buf));
		if (n > strlen(prefix) &&
		    memcmp(buf, prefix, strlen(prefix)) == 0) {
			char *s = buf + strlen(prefix);
			char *end = memchr(s, ' ', n - strlen(prefix));

			if (end && set_release(dw, s, (size_t)(end - s)))
				return;
		}
	}
	/* struct uts_namespace init_uts_ns = { .name = { .release = ... } } */
	if (kdwarf_symbol(dw, "init_uts_ns", &addr) &&
	    kdwarf_member(dw, "uts_namespace", "name.release", &f) &&
	    f.kind == KF_ARRAY && f.size <= sizeof(buf)) {
		n = read_addr(dw, addr + f.offset, buf, f.size);
		if (n == f.size && memchr(buf, '\0', n))
			set_release(dw, buf, strlen(buf));
	}
}

/* ---- open and close ---- */

static bool has_debug_info(Elf *elf)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	GElf_Shdr sh;

	if (elf_getshdrstrndx(elf, &shstrndx) != 0)
		return false;
	while ((scn = elf_nextscn(elf, scn))) {
		const char *name;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS)
			continue;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (name && (!strcmp(name, ".debug_info") ||
			     !strcmp(name, ".zdebug_info")))
			return true;
	}
	return false;
}

struct oomlens_error *kdwarf_open(const char *path, struct kdwarf **out)
{
	struct oomlens_error *err;
	struct kdwarf *dw;
	struct stat st = {0};
	GElf_Ehdr eh;

	dw = calloc(1, sizeof(*dw));
	if (!dw)
		return &oomlens_error_nomem;
	dw->fd = -1;
	dw->types.max = dw->vars.max = dw->enums.max = dw->syms.max =
		MAX_ENTRIES;
	dw->path = strdup(path);
	if (!dw->path) {
		err = &oomlens_error_nomem;
		goto fail;
	}
	dw->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (dw->fd < 0) {
		err = oomlens_error_errno(OOMLENS_ERR_IO, errno,
					  "cannot open '%s'", path);
		goto fail;
	}
	if (fstat(dw->fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		err = oomlens_error_new(OOMLENS_ERR_IO,
					"cannot read '%s': is a directory",
					path);
		goto fail;
	}
	elf_version(EV_CURRENT);
	dw->elf = elf_begin(dw->fd, ELF_C_READ_MMAP, NULL);
	if (!dw->elf || elf_kind(dw->elf) != ELF_K_ELF ||
	    !gelf_getehdr(dw->elf, &eh)) {
		err = oomlens_error_new(OOMLENS_ERR_CORRUPT,
					"'%s' is not an ELF file", path);
		goto fail;
	}
	dw->bits = gelf_getclass(dw->elf) == ELFCLASS32 ? 32 : 64;
	dw->machine = eh.e_machine;
	find_mapping(dw, &st);

	err = index_symbols(dw);
	if (err)
		goto fail;
	find_build_id(dw);

	if (has_debug_info(dw->elf)) {
		dw->dbg[0] = dwarf_begin_elf(dw->elf, DWARF_C_READ, NULL);
		if (!dw->dbg[0]) {
			err = oomlens_error_new(
				OOMLENS_ERR_CORRUPT,
				"'%s': cannot read DWARF: dwarf_begin_elf: %s",
				path, dwarf_errmsg(-1));
			goto fail;
		}
		dw->has_types = true;
		/* dwz: types shared between files live in an alternate */
		dw->dbg[1] = dwarf_getalt(dw->dbg[0]);
		err = index_dwarf(dw, 0);
		if (!err && dw->dbg[1])
			err = index_dwarf(dw, 1);
		if (err)
			goto fail;
		drop_pages(dw);
	}
	find_release(dw);
	*out = dw;
	return NULL;
fail:
	kdwarf_close(dw);
	return err;
}

void kdwarf_close(struct kdwarf *dw)
{
	if (!dw)
		return;
	/* the alternate belongs to dbg[0] */
	if (dw->dbg[0])
		dwarf_end(dw->dbg[0]);
	if (dw->elf)
		elf_end(dw->elf);
	if (dw->fd >= 0)
		close(dw->fd);
	nametab_release(&dw->types);
	nametab_release(&dw->vars);
	nametab_release(&dw->enums);
	nametab_release(&dw->syms);
	free(dw->path);
	free(dw);
}

struct oomlens_error *kdwarf_require_types(const struct kdwarf *dw)
{
	if (dw->has_types)
		return NULL;
	return oomlens_error_new(
		OOMLENS_ERR_USAGE,
		"'%s' has no DWARF debug information (a vmlinux from the -dbg package is needed)",
		dw->path);
}

int kdwarf_bits(const struct kdwarf *dw)
{
	return dw->bits;
}

int kdwarf_machine(const struct kdwarf *dw)
{
	return dw->machine;
}

bool kdwarf_has_types(const struct kdwarf *dw)
{
	return dw->has_types;
}

const char *kdwarf_osrelease(const struct kdwarf *dw)
{
	return dw->has_release ? dw->release : NULL;
}

size_t kdwarf_build_id(const struct kdwarf *dw, const uint8_t **id)
{
	*id = dw->build_id_len ? dw->build_id : NULL;
	return dw->build_id_len;
}

bool kdwarf_symbol(const struct kdwarf *dw, const char *name, uint64_t *addr)
{
	const struct nametab_ent *e =
		nametab_get(&dw->syms, name, strlen(name), 0);

	if (!e || !e->rank)
		return false;
	*addr = e->val;
	return true;
}

void kdwarf_stats(const struct kdwarf *dw, struct kdwarf_stats *out)
{
	out->units = dw->units;
	out->types = dw->types.n;
	out->variables = dw->vars.n;
	out->enumerators = dw->enums.n;
	out->symbols = dw->syms.n;
}

/* ---- types ---- */

/*
 * Strip typedefs and qualifiers. False if the chain ends in void (no
 * DW_AT_type) or is broken or too long; *die is then unchanged.
 */
static bool strip(Dwarf_Die *die)
{
	Dwarf_Die t = *die;
	int i;

	for (i = 0; i < MAX_TYPE_DEPTH; i++) {
		switch (dwarf_tag(&t)) {
		case DW_TAG_typedef:
		case DW_TAG_const_type:
		case DW_TAG_volatile_type:
		case DW_TAG_restrict_type:
		case DW_TAG_atomic_type:
			if (!type_of(&t, &t))
				return false;
			break;
		default:
			*die = t;
			return true;
		}
	}
	return false;
}

static const struct nametab_ent *type_get(const struct kdwarf *dw,
					  const char *name, size_t len, int tag)
{
	return nametab_get(&dw->types, name, len, (uint16_t)tag);
}

static bool offdie(const struct kdwarf *dw, const struct nametab_ent *e,
		   Dwarf_Die *die)
{
	return e && e->aux < 2 && dw->dbg[e->aux] &&
	       dwarf_offdie(dw->dbg[e->aux], e->val, die);
}

/* A declaration-only struct/union/enum: its complete definition, if any. */
static void complete(const struct kdwarf *dw, Dwarf_Die *die)
{
	const char *name;
	Dwarf_Die full;

	if (!is_declaration(die))
		return;
	name = dwarf_diename(die);
	if (name &&
	    offdie(dw, type_get(dw, name, strlen(name), dwarf_tag(die)), &full))
		*die = full;
}

/* struct name, else union name, else a typedef naming a struct or union. */
static bool find_struct(const struct kdwarf *dw, const char *name,
			Dwarf_Die *die)
{
	size_t len = strlen(name);
	int tag;

	if (offdie(dw, type_get(dw, name, len, DW_TAG_structure_type), die) ||
	    offdie(dw, type_get(dw, name, len, DW_TAG_union_type), die))
		return true;
	if (!offdie(dw, type_get(dw, name, len, DW_TAG_typedef), die) ||
	    !strip(die))
		return false;
	tag = dwarf_tag(die);
	if (tag != DW_TAG_structure_type && tag != DW_TAG_union_type)
		return false;
	complete(dw, die);
	return true;
}

/* What describe() learns of one (stripped) type. */
struct tinfo {
	enum kfield_kind kind;
	uint64_t size;
	bool scalar, is_signed;
	const char *name; /* struct/union tag, NULL if anonymous */
};

static bool address_size(Dwarf_Die *die, uint64_t *size)
{
	Dwarf_Die cu;
	uint8_t asize;

	if (!dwarf_diecu(die, &cu, &asize, NULL))
		return false;
	*size = asize;
	return true;
}

static bool encoding_signed(Dwarf_Die *base, bool *is_signed, bool *is_int)
{
	Dwarf_Word enc;

	if (!udata(base, DW_AT_encoding, &enc))
		return false;
	switch (enc) {
	case DW_ATE_signed:
	case DW_ATE_signed_char:
		*is_signed = *is_int = true;
		break;
	case DW_ATE_unsigned:
	case DW_ATE_unsigned_char:
	case DW_ATE_boolean:
	case DW_ATE_UTF:
		*is_signed = false;
		*is_int = true;
		break;
	default:
		*is_signed = *is_int = false;
	}
	return true;
}

/*
 * An enum is signed if its underlying type says so (DWARF 3+ GCC emits
 * DW_AT_type) or, failing that, if an enumerator is negative.
 */
static bool enum_signed(Dwarf_Die *en)
{
	bool is_signed, is_int;
	Dwarf_Attribute a;
	Dwarf_Die t, e;
	Dwarf_Off last = 0;

	if (type_of(en, &t) && strip(&t) &&
	    encoding_signed(&t, &is_signed, &is_int))
		return is_signed;
	if (dwarf_child(en, &e) != 0)
		return false;
	do {
		if (dwarf_dieoffset(&e) <= last)
			return false;
		last = dwarf_dieoffset(&e);
		if (dwarf_attr(&e, DW_AT_const_value, &a) &&
		    dwarf_whatform(&a) == DW_FORM_sdata) {
			Dwarf_Sword v;

			if (dwarf_formsdata(&a, &v) == 0 && v < 0)
				return true;
		}
	} while (dwarf_siblingof(&e, &e) == 0);
	return false;
}

static bool member_offset(Dwarf_Die *m, uint64_t *off);
static bool describe(const struct kdwarf *dw, Dwarf_Die *type, int depth,
		     struct tinfo *ti);

/*
 * The scalar rule of kdwarf.h for a struct or union: at most 8 bytes, and
 * its first member sits at 0 and is itself a scalar of the same size.
 */
static void struct_scalar(const struct kdwarf *dw, Dwarf_Die *s, int depth,
			  struct tinfo *ti)
{
	struct tinfo inner;
	Dwarf_Die m, t;
	uint64_t off;

	if (!ti->size || ti->size > 8 || dwarf_child(s, &m) != 0)
		return;
	while (dwarf_tag(&m) != DW_TAG_member) {
		Dwarf_Off last = dwarf_dieoffset(&m);

		if (dwarf_siblingof(&m, &m) != 0 || dwarf_dieoffset(&m) <= last)
			return;
	}
	if (dwarf_hasattr(&m, DW_AT_bit_size) || !member_offset(&m, &off) ||
	    off != 0 || !type_of(&m, &t) ||
	    !describe(dw, &t, depth + 1, &inner))
		return;
	if (inner.scalar && inner.size == ti->size) {
		ti->scalar = true;
		ti->is_signed = inner.is_signed;
	}
}

/*
 * Arrays: the element (innermost, for int x[2][3]) and the count, which for
 * several dimensions is their product; 0 if a dimension has no bound.
 */
static bool array_info(Dwarf_Die *arr, uint64_t *count)
{
	Dwarf_Off last = 0;
	Dwarf_Die sub;
	uint64_t n = 1;

	if (dwarf_child(arr, &sub) != 0) {
		*count = 0;
		return true;
	}
	do {
		Dwarf_Word v;
		Dwarf_Attribute a;

		if (dwarf_dieoffset(&sub) <= last)
			return false;
		last = dwarf_dieoffset(&sub);
		if (dwarf_tag(&sub) != DW_TAG_subrange_type)
			continue;
		if (udata(&sub, DW_AT_count, &v)) {
			/* v as is */
		} else if (dwarf_attr(&sub, DW_AT_upper_bound, &a)) {
			Dwarf_Sword sv;

			/* char x[0] is upper bound -1, in any form */
			if (dwarf_whatform(&a) == DW_FORM_sdata) {
				if (dwarf_formsdata(&a, &sv) != 0)
					return false;
				v = sv < 0 ? 0 : (Dwarf_Word)sv + 1;
			} else if (dwarf_formudata(&a, &v) == 0) {
				bool minus1 =
					v == UINT64_MAX ||
					(dwarf_whatform(&a) == DW_FORM_data4 &&
					 v == UINT32_MAX) ||
					(dwarf_whatform(&a) == DW_FORM_data2 &&
					 v == UINT16_MAX) ||
					(dwarf_whatform(&a) == DW_FORM_data1 &&
					 v == UINT8_MAX);

				v = minus1 ? 0 : v + 1;
			} else {
				v = 0; /* a runtime bound (exprloc) */
			}
		} else {
			v = 0;
		}
		if (v && n > UINT64_MAX / v)
			return false;
		n *= v;
	} while (dwarf_siblingof(&sub, &sub) == 0);
	*count = n;
	return true;
}

/* Fill ti from a type DIE; NULL or void gives KF_OTHER of size 0. */
static bool describe(const struct kdwarf *dw, Dwarf_Die *type, int depth,
		     struct tinfo *ti)
{
	Dwarf_Die t;
	Dwarf_Word size;
	bool is_int;
	int tag;

	memset(ti, 0, sizeof(*ti));
	ti->kind = KF_OTHER;
	if (depth > MAX_TYPE_DEPTH)
		return false;
	if (!type)
		return true;
	t = *type;
	if (!strip(&t)) {
		/* a typedef of void, or a broken chain */
		return true;
	}
	tag = dwarf_tag(&t);
	if (tag == DW_TAG_structure_type || tag == DW_TAG_union_type ||
	    tag == DW_TAG_enumeration_type)
		complete(dw, &t);
	if (udata(&t, DW_AT_byte_size, &size))
		ti->size = size;
	switch (tag) {
	case DW_TAG_base_type:
		if (encoding_signed(&t, &ti->is_signed, &is_int) && is_int) {
			ti->kind = ti->is_signed ? KF_INT : KF_UINT;
			ti->scalar = true;
		}
		break;
	case DW_TAG_enumeration_type:
		ti->is_signed = enum_signed(&t);
		ti->kind = ti->is_signed ? KF_INT : KF_UINT;
		ti->scalar = true;
		break;
	case DW_TAG_pointer_type:
	case DW_TAG_reference_type:
	case DW_TAG_rvalue_reference_type:
		ti->kind = KF_PTR;
		ti->scalar = true;
		if (!ti->size && !address_size(&t, &ti->size))
			return false;
		break;
	case DW_TAG_structure_type:
	case DW_TAG_union_type:
	case DW_TAG_class_type:
		ti->kind = tag == DW_TAG_union_type ? KF_UNION : KF_STRUCT;
		ti->name = dwarf_diename(&t);
		struct_scalar(dw, &t, depth, ti);
		break;
	case DW_TAG_array_type: {
		struct tinfo elem;
		Dwarf_Die et;
		uint64_t count;

		ti->kind = KF_ARRAY;
		if (!type_of(&t, &et) || !describe(dw, &et, depth + 1, &elem) ||
		    !array_info(&t, &count))
			return false;
		if (!ti->size)
			ti->size = count && elem.size <= UINT64_MAX / count
					   ? count * elem.size
					   : 0;
		break;
	}
	default:
		break;
	}
	return true;
}

/* DW_AT_data_member_location: a constant, or DWARF 2's DW_OP_plus_uconst. */
static bool member_offset(Dwarf_Die *m, uint64_t *off)
{
	Dwarf_Attribute a;
	Dwarf_Op *ops;
	size_t nops;
	Dwarf_Word v;

	if (!dwarf_attr(m, DW_AT_data_member_location, &a)) {
		*off = 0; /* union members, and DW_AT_data_bit_offset ones */
		return true;
	}
	switch (dwarf_whatform(&a)) {
	case DW_FORM_block:
	case DW_FORM_block1:
	case DW_FORM_block2:
	case DW_FORM_block4:
	case DW_FORM_exprloc:
		if (dwarf_getlocation(&a, &ops, &nops) != 0 || nops != 1)
			return false;
		if (ops[0].atom != DW_OP_plus_uconst &&
		    ops[0].atom != DW_OP_constu)
			return false;
		*off = ops[0].number;
		return true;
	default:
		if (dwarf_formudata(&a, &v) != 0)
			return false;
		*off = v;
		return true;
	}
}

/*
 * Where a bit-field's bits are, as bits from the start of its struct,
 * counted from the least significant bit (little-endian). DWARF 4+
 * DW_AT_data_bit_offset says so directly; DWARF 2/3 DW_AT_bit_offset counts
 * from the most significant bit of a DW_AT_byte_size storage unit at
 * DW_AT_data_member_location.
 */
static bool bit_position(Dwarf_Die *m, uint64_t base, uint64_t bit_size,
			 uint64_t type_size, uint64_t *pos)
{
	Dwarf_Word dbo, unit;
	Dwarf_Attribute a;
	Dwarf_Sword bo;
	uint64_t off;
	int64_t lsb;

	if (udata(m, DW_AT_data_bit_offset, &dbo)) {
		*pos = base * 8 + dbo;
		return true;
	}
	/* negative (sdata) when a packed field reaches past its unit */
	if (!dwarf_attr(m, DW_AT_bit_offset, &a) ||
	    (dwarf_whatform(&a) == DW_FORM_sdata
		     ? dwarf_formsdata(&a, &bo)
		     : dwarf_formudata(&a, (Dwarf_Word *)&bo)) != 0 ||
	    !member_offset(m, &off))
		return false;
	if (!udata(m, DW_AT_byte_size, &unit))
		unit = type_size;
	if (unit > 16 || bo > (Dwarf_Sword)(unit * 8) || bo < -128)
		return false;
	lsb = (int64_t)(unit * 8) - bo - (int64_t)bit_size;
	if (lsb < 0 && (uint64_t)-lsb > (base + off) * 8)
		return false;
	*pos = (base + off) * 8 + (uint64_t)lsb;
	return true;
}

/* The member called name[0..len) of struct/union s, anonymous ones opened. */
static bool find_member(const struct kdwarf *dw, Dwarf_Die *s, const char *name,
			size_t len, uint64_t base, int depth, long *budget,
			Dwarf_Die *found, uint64_t *off)
{
	Dwarf_Off last = 0;
	Dwarf_Die m;

	if (depth > MAX_TYPE_DEPTH || dwarf_child(s, &m) != 0)
		return false;
	do {
		if (--*budget < 0)
			return false;
		const char *mname;
		uint64_t moff;
		Dwarf_Die t;
		int tag;

		if (dwarf_dieoffset(&m) <= last)
			return false;
		last = dwarf_dieoffset(&m);
		if (dwarf_tag(&m) != DW_TAG_member)
			continue;
		mname = dwarf_diename(&m);
		if (mname) {
			if (!name_is(mname, name, len))
				continue;
			*found = m;
			*off = base;
			return true;
		}
		if (!member_offset(&m, &moff) || !type_of(&m, &t) || !strip(&t))
			continue;
		tag = dwarf_tag(&t);
		if (tag != DW_TAG_structure_type && tag != DW_TAG_union_type)
			continue;
		if (find_member(dw, &t, name, len, base + moff, depth + 1,
				budget, found, off))
			return true;
	} while (dwarf_siblingof(&m, &m) == 0);
	return false;
}

/* Fill out from type (NULL: void); offset and bits are the caller's. */
static bool fill_field(const struct kdwarf *dw, Dwarf_Die *type,
		       struct kfield *out)
{
	struct tinfo ti, target;
	Dwarf_Die t;

	memset(out, 0, sizeof(*out));
	if (!describe(dw, type, 0, &ti))
		return false;
	out->kind = ti.kind;
	out->size = kfield_clamp32(ti.size);
	out->scalar = ti.scalar;
	out->is_signed = ti.is_signed;
	if (ti.kind == KF_STRUCT || ti.kind == KF_UNION) {
		snprintf(out->type_name, sizeof(out->type_name), "%s",
			 ti.name ? ti.name : "");
	} else if (ti.kind == KF_PTR || ti.kind == KF_ARRAY) {
		uint64_t count = 1, n;
		int i;

		t = *type;
		if (!strip(&t))
			return false;
		/*
		 * The target: what the pointer points to, or an array's
		 * innermost element; int x[2][3] (and an array of a typedef'd
		 * array) is 6 ints.
		 */
		for (i = 0; ti.kind == KF_ARRAY && i < MAX_TYPE_DEPTH; i++) {
			if (!array_info(&t, &n) || !type_of(&t, &t))
				return false;
			count = n && count <= UINT64_MAX / n ? count * n : 0;
			if (!strip(&t) || dwarf_tag(&t) != DW_TAG_array_type)
				break;
		}
		if (ti.kind == KF_PTR && !type_of(&t, &t)) {
			describe(dw, NULL, 0, &target); /* void * */
		} else if (!describe(dw, &t, 1, &target)) {
			return false;
		}
		kfield_set_target(out, ti.kind == KF_ARRAY, target.kind,
				  target.size, target.name, count);
	}
	return true;
}

uint32_t kdwarf_struct_size(const struct kdwarf *dw, const char *name)
{
	Dwarf_Die s;
	Dwarf_Word size;

	if (!find_struct(dw, name, &s) || !udata(&s, DW_AT_byte_size, &size))
		return 0;
	return kfield_clamp32(size);
}

bool kdwarf_member(const struct kdwarf *dw, const char *name, const char *path,
		   struct kfield *out)
{
	uint64_t base = 0, moff, pos, bits;
	long budget = MAX_MEMBER_VISITS;
	struct kfield f;
	Dwarf_Die s, m, t;

	if (!find_struct(dw, name, &s))
		return false;
	for (;;) {
		const char *dot = strchr(path, '.');
		size_t len = dot ? (size_t)(dot - path) : strlen(path);
		int tag;

		if (!len || len > MAX_PATH_PART ||
		    !find_member(dw, &s, path, len, base, 0, &budget, &m,
				 &base) ||
		    !member_offset(&m, &moff))
			return false;
		if (!dot)
			break;
		if (dwarf_hasattr(&m, DW_AT_bit_size) || !type_of(&m, &s) ||
		    !strip(&s))
			return false;
		tag = dwarf_tag(&s);
		if (tag != DW_TAG_structure_type && tag != DW_TAG_union_type)
			return false;
		complete(dw, &s);
		base += moff;
		path = dot + 1;
	}
	if (!type_of(&m, &t) || !fill_field(dw, &t, &f))
		return false;
	if (!udata(&m, DW_AT_bit_size, &bits) || !bits) {
		f.offset = base + moff;
		*out = f;
		return true;
	}
	if (bits > 64 || !f.size || f.size > 8 ||
	    !bit_position(&m, base, bits, f.size, &pos))
		return false;
	/*
	 * Relative to the storage unit of the declared type that holds the
	 * field (naturally aligned, as the compiler placed it); if a packed
	 * struct makes it straddle two, from the byte holding its first bit.
	 */
	f.offset = pos / 8 / f.size * f.size;
	if (pos - f.offset * 8 + bits > (uint64_t)f.size * 8)
		f.offset = pos / 8;
	f.bit_offset = (uint16_t)(pos - f.offset * 8);
	f.bit_size = (uint16_t)bits;
	*out = f;
	return true;
}

bool kdwarf_variable(const struct kdwarf *dw, const char *name,
		     struct kfield *out)
{
	const struct nametab_ent *e;
	struct kfield f;
	Dwarf_Die v, t;

	e = nametab_get(&dw->vars, name, strlen(name), 0);
	if (!offdie(dw, e, &v) || !type_of(&v, &t) || !fill_field(dw, &t, &f))
		return false;
	*out = f;
	return true;
}

bool kdwarf_enumerator(const struct kdwarf *dw, const char *name,
		       int64_t *value)
{
	const struct nametab_ent *e =
		nametab_get(&dw->enums, name, strlen(name), 0);

	if (!e)
		return false;
	*value = (int64_t)e->val;
	return true;
}
