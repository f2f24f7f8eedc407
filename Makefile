# oomlens: see README.md. `make` builds ./oomlens; `make check` runs every test.

CC ?= cc
PKGS := libpcre2-8 check
# A packager's CPPFLAGS, CFLAGS and LDFLAGS are honoured, and warnings stay
# warnings; `make DEVELOPER=1` (CI, and anyone changing the code) adds
# stricter ones and makes every warning an error.
CFLAGS ?= -O2 -g
WARNINGS := -Wall -Wextra -Wshadow -Wno-missing-field-initializers
ifeq ($(DEVELOPER),1)
WARNINGS += -Wconversion -Wsign-conversion -Wmissing-prototypes -Wformat=2 -Werror
endif
override CFLAGS += -std=gnu11 $(WARNINGS)
override CPPFLAGS += -D_GNU_SOURCE -I.
# The version, in one place: the first line of debian/changelog (a native
# package, so no Debian revision). `oomlens --version`, the man page
# (scripts/mkman.sh asks the binary) and the package all take it from there.
VERSION := ${shell sed -n '1s/^oomlens (\([^)]*\)).*/\1/p' debian/changelog}
# libsystemd: binary journal files (/var/log/journal/*/*.journal) are read
# through its sd-journal (parsers/journalfile.c). jansson: analyze --input
# reads JSON incidents (parsers/jsonin.c says why jansson).
LIBS := -pthread $(shell pkg-config --libs libpcre2-8 sqlite3 libarchive libkdumpfile libdw libelf libxxhash libbpf libsystemd jansson 2>/dev/null || \
	echo -lpcre2-8 -lsqlite3 -larchive -lkdumpfile -ldw -lelf -lxxhash -lbpf -lsystemd -ljansson)
CHECK_LIBS := $(shell pkg-config --libs check 2>/dev/null || echo -lcheck)

# Dependencies point one way:
# core <- model <- {parsers, dumps, analyzer, db, reports} <- ingest <- cli.
CORE := core/error.c core/strbuf.c core/scan.c core/array.c core/strpool.c \
	core/escape.c core/fdio.c core/csrc.c core/nametab.c
MODEL := $(wildcard model/*.c)
PARSERS := $(wildcard parsers/*.c)
DUMPS := $(wildcard dumps/*.c)
REPORTS := $(wildcard reports/*.c)
DB := $(wildcard db/*.c)
CLI := $(wildcard cli/*.c)
ANALYZER := $(wildcard analyzer/*.c)
# the ingest engine (ingest/ingest.h): above the middle modules, below cli
INGEST := $(wildcard ingest/*.c)
LIB_SRC := $(CORE) $(MODEL) $(PARSERS) $(DUMPS) $(REPORTS) $(DB) $(ANALYZER) \
	$(INGEST)

BUILD ?= build
LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/%.o)
CLI_OBJ := $(CLI:%.c=$(BUILD)/%.o)
TEST_SRC := $(wildcard tests/test_*.c)
TEST_OBJ := $(TEST_SRC:%.c=$(BUILD)/%.o) $(BUILD)/tests/run.o
GEN := fixtures/gen/oomgen

.DELETE_ON_ERROR:

.PHONY: all check check-tree check-html check-slurm check-asan check-tsan check-valgrind asan-run demo deps style check-layers check-cycles check-mutants-list clean fixtures mutants golden check-oom rfc-lab rfc-lab-i386 \
	install uninstall check-install check-fresh deb check-deb

all: oomlens

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/cli/main.o: override CPPFLAGS += -DOOMLENS_VERSION='"$(VERSION)"'
$(BUILD)/cli/main.o: debian/changelog

# --badness-from compiles a kernel tree's badness function against the
# plugin ABI and a kernel shim, both embedded as text (cli/treemodel.c).
$(BUILD)/cli/treeshim.inc: include/oomlens/model.h cli/treeshim/kernel.h
	@mkdir -p $(dir $@)
	sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' $^ >$@
$(BUILD)/cli/treemodel.o: $(BUILD)/cli/treeshim.inc
$(BUILD)/cli/treemodel.o: override CPPFLAGS += -I$(BUILD)/cli

oomlens: $(LIB_OBJ) $(CLI_OBJ)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS)

$(BUILD)/tests/run: $(LIB_OBJ) $(TEST_OBJ)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS) $(CHECK_LIBS)

# kdwarf's fixtures (fixtures/kdwarf/types.h): kernel-shaped types built into
# small ELF files with DWARF 5, DWARF 4 (-m32), strict DWARF 2, and none.
KDW := $(BUILD)/fixtures/kdwarf
KDW_ELF := $(KDW)/types.elf $(KDW)/types-32.elf $(KDW)/types-dwarf2.elf $(KDW)/types-nodebug.elf
$(BUILD)/tests/run: | $(KDW_ELF)
$(KDW)/types-32.elf: KDW_FLAGS := -m32 -gdwarf-4
$(KDW)/types-dwarf2.elf: KDW_FLAGS := -gdwarf-2 -gstrict-dwarf -DKDW_NO_BANNER
$(KDW)/%.elf: fixtures/kdwarf/types.c fixtures/kdwarf/types2.c fixtures/kdwarf/types.h fixtures/kdwarf/types-mm.h
	@mkdir -p $(dir $@)
	$(CC) -g -O0 $(KDW_FLAGS) -c -o $(@:.elf=-1.o) fixtures/kdwarf/types.c
	$(CC) -g -O0 $(KDW_FLAGS) -c -o $(@:.elf=-2.o) fixtures/kdwarf/types2.c
	$(CC) $(filter -m32,$(KDW_FLAGS)) -nostdlib -no-pie -Wl,--build-id -Wl,-e,0 -o $@ $(@:.elf=-1.o) $(@:.elf=-2.o)
$(KDW)/types-nodebug.elf: $(KDW)/types.elf
	objcopy --strip-debug $< $@
# ... and their BTF, encoded from that DWARF by pahole (dwarves): the BTF
# back end of dumps/ktypes.h must answer as the DWARF one
# (tests/ktypes-compare, run by tests/e2e.sh). Detached: `pahole -J` would
# run llvm-objcopy, which Debian's dwarves does not depend on.
KDW_BTF := $(KDW)/types.btf $(KDW)/types-32.btf $(KDW)/types-dwarf2.btf
$(KDW)/%.btf: $(KDW)/%.elf
	pahole --btf_encode_detached=$@ $<
$(BUILD)/tests/ktypes-compare: tests/ktypes-compare.c $(LIB_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(LIB_OBJ) $(LIBS)

# --badness-from's objects against the built-in models (tests/e2e-tree.sh)
$(BUILD)/tests/tree-scores: tests/tree-scores.c $(LIB_OBJ) $(BUILD)/cli/treemodel.o
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(LIB_OBJ) $(BUILD)/cli/treemodel.o $(LIBS)

$(GEN): fixtures/gen/oomgen.c
	$(CC) -std=gnu11 -O2 -Wall -Wextra -Werror -o $@ $<

# Every test: unit suites (Check), then the end-to-end script.
check: oomlens $(BUILD)/tests/run $(GEN) check-layers check-cycles check-install check-mutants-list $(BUILD)/fixtures/vmcore/.stamp \
	$(BUILD)/tests/ktypes-compare $(KDW_BTF) $(JOURNAL_FILES) $(BUILD)/tests/tree-scores
	cd tests && CK_FORK=yes ../$(BUILD)/tests/run
	tests/e2e.sh ./oomlens
	tests/html-browser.sh ./oomlens $(BUILD)

# The HTML report in headless Chromium alone (also part of check).
check-html: oomlens
	tests/html-browser.sh ./oomlens $(BUILD)

# The fleet recipes (scripts/fleet/) on a one-node Slurm cluster started
# here and stopped after (tests/slurm.sh): needs root, slurm-wlm, munge
# and parallel.
check-slurm: oomlens
	scripts/deps.sh slurm
	tests/slurm.sh ./oomlens

# The whole suite under AddressSanitizer and UndefinedBehaviorSanitizer.
check-asan:
	$(MAKE) BUILD=build-asan CC=gcc \
		CFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" \
		OOMLENS_BIN=build-asan/oomlens asan-run

# The ingest engine's threads (ingest/: the walk, parser workers, the
# writer, split logs) under ThreadSanitizer, over the end-to-end parts that
# ingest (tests/e2e-part.sh): a race makes the binary exit 66, which fails
# the check that ran it.
TSAN_PARTS := tests/e2e-jobs.sh tests/e2e-db.sh tests/e2e-sos.sh tests/e2e-journal.sh
check-tsan:
	$(MAKE) BUILD=build-tsan CC=gcc CFLAGS="-O1 -g -fsanitize=thread" \
		build-tsan/oomlens $(GEN) build-tsan/fixtures/journal/lab.journal \
		build-tsan/fixtures/journal/lab-cut.journal
	TSAN_OPTIONS="exitcode=66 second_deadlock_stack=1" \
		tests/e2e-part.sh ./build-tsan/oomlens $(TSAN_PARTS)

# Leak checks; the slow unwinder sees through libkdumpfile's frames, which
# the one third-party leak suppressed in tests/lsan.supp needs.
ASAN_RUN_OPTIONS := detect_leaks=1:fast_unwind_on_malloc=0
asan-run: $(BUILD)/tests/run $(BUILD)/oomlens $(GEN) $(BUILD)/fixtures/vmcore/.stamp \
	$(BUILD)/tests/ktypes-compare $(KDW_BTF) $(JOURNAL_FILES) $(BUILD)/tests/tree-scores
	cd tests && CK_FORK=no ASAN_OPTIONS=$(ASAN_RUN_OPTIONS) \
		LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp ../$(BUILD)/tests/run
	E2E_NO_VMLIMIT=1 ASAN_OPTIONS=$(ASAN_RUN_OPTIONS) \
		LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp tests/e2e.sh ./$(BUILD)/oomlens

$(BUILD)/oomlens: $(LIB_OBJ) $(CLI_OBJ)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS)

# valgrind over the unit suites and the command on every fixture (PCRE2's
# JIT is off: valgrind cannot follow the code it generates).
# tests/valgrind.supp holds libkdumpfile 0.5.1's own errors (see there).
# Children forked without exec (the dump reader of vmcore_isolate.c, the
# tests' lock holders) leave by _exit() with the parent's heap: not leaks.
VG := valgrind -q --leak-check=full --errors-for-leak-kinds=all \
	--child-silent-after-fork=yes \
	--error-exitcode=9 --suppressions=$(CURDIR)/tests/valgrind.supp
VG_VMCORE := $(BUILD)/fixtures/vmcore/x86_64-2.6.32-rfc
check-valgrind: oomlens $(BUILD)/tests/run $(BUILD)/fixtures/vmcore/.stamp $(JOURNAL_FILES)
	cd tests && CK_FORK=no OOMLENS_NO_JIT=1 $(VG) ../$(BUILD)/tests/run
	OOMLENS_NO_JIT=1 $(VG) ./oomlens analyze --format json --model all \
		--vmlinux $(VG_VMCORE).vmlinux $(VG_VMCORE).kdump $(VG_VMCORE).elf \
		$(VG_VMCORE).flat >/dev/null
	rm -f $(BUILD)/vg.db*
	OOMLENS_NO_JIT=1 $(VG) ./oomlens ingest --quiet --db $(BUILD)/vg.db \
		--vmlinux $(VG_VMCORE).vmlinux $(VG_VMCORE).kdump
	OOMLENS_NO_JIT=1 $(VG) ./oomlens rescore --quiet --db $(BUILD)/vg.db
	OOMLENS_NO_JIT=1 valgrind -q --leak-check=full --errors-for-leak-kinds=all \
		--error-exitcode=9 ./oomlens analyze --format json fixtures/demo/*.log \
		fixtures/kernel-output/*.log fixtures/generated/*.log \
		$(JOURNAL_FILES) >/dev/null
	rm -f $(BUILD)/vg.db*
	OOMLENS_NO_JIT=1 valgrind -q --leak-check=full --errors-for-leak-kinds=all \
		--error-exitcode=9 ./oomlens ingest --quiet --db $(BUILD)/vg.db \
		fixtures/demo fixtures/kernel-output
	OOMLENS_NO_JIT=1 valgrind -q --leak-check=full --errors-for-leak-kinds=all \
		--error-exitcode=9 ./oomlens report --db $(BUILD)/vg.db --format json >/dev/null

# The golden reports of fixtures/golden, rewritten from this build (the
# demo logs' reports in text, JSON and HTML; archive.* the report of their
# database; synthetic.* from test_db's every-field incident):
# review the diff, and say in the commit why each change is right.
golden: oomlens $(BUILD)/tests/run
	@for f in fixtures/demo/*.log; do \
		n=$$(basename $$f .log); \
		touch -d 2026-12-01T00:00:00Z $$f; \
		./oomlens analyze $$f >fixtures/golden/$$n.txt || exit 1; \
		./oomlens analyze --format json $$f >fixtures/golden/$$n.json || exit 1; \
		./oomlens analyze --format html $$f >fixtures/golden/$$n.html || exit 1; \
		./oomlens analyze --format csv --table tasks $$f >fixtures/golden/$$n.csv || exit 1; \
	done
	@rm -f $(BUILD)/golden.db
	./oomlens ingest --quiet --db $(BUILD)/golden.db fixtures/demo >/dev/null
	./oomlens rescore --db $(BUILD)/golden.db >/dev/null 2>&1
	./oomlens report --db $(BUILD)/golden.db --format html -o fixtures/golden/archive.html
	./oomlens report --db $(BUILD)/golden.db --format json >fixtures/golden/archive.json
	./oomlens report --db $(BUILD)/golden.db >fixtures/golden/archive.txt
	./oomlens report --db $(BUILD)/golden.db --format csv >fixtures/golden/archive.csv
	./oomlens report --db $(BUILD)/golden.db --format jsonl >fixtures/golden/archive.jsonl
	cd tests && OOMLENS_WRITE_GOLDEN=1 CK_RUN_SUITE=db ../$(BUILD)/tests/run >/dev/null
	@git status --short fixtures/golden

# Every allocation failed in turn over analyze and ingest (scripts/check-oom.sh).
$(BUILD)/tests/failmalloc.so: tests/failmalloc.c
	@mkdir -p $(dir $@)
	$(CC) -shared -fPIC -O2 -Wall -Wextra -Werror -o $@ $< -ldl
check-oom:
	$(MAKE) BUILD=build-asan CC=gcc \
		CFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" \
		build-asan/oomlens build-asan/tests/failmalloc.so
	scripts/check-oom.sh build-asan/oomlens $(CURDIR)/build-asan/tests/failmalloc.so

# Mutation testing: each single-field mistake of scripts/mutants.txt in a
# scratch copy, `make check` run on it; fails below 95 % caught (slow: about
# half a minute a mutant on 2 cores).
mutants:
	scripts/mutants.sh

# Every mutant of the list still applies to the code (part of check): a
# snippet a change rewrote would leave its mutant stale, testing nothing.
check-mutants-list:
	@mkdir -p $(BUILD)
	@MUTANT_DRY=1 scripts/mutants.sh >$(BUILD)/mutants-dry.log 2>&1 || \
		{ grep -v ' applies ' $(BUILD)/mutants-dry.log; exit 1; }

# Installs missing Debian packages (as root) or names them, builds, and
# analyzes the bundled fixtures: the demo logs, then a synthetic vmcore.
demo: deps
	$(MAKE) oomlens $(BUILD)/fixtures/vmcore/.stamp
	./oomlens analyze fixtures/demo/*.log
	@echo; echo "== a synthetic vmcore of a 2.6.32 kernel carrying the 2009 RFC:"
	./oomlens analyze --model all \
		--vmlinux $(BUILD)/fixtures/vmcore/x86_64-2.6.32-rfc.vmlinux \
		$(BUILD)/fixtures/vmcore/x86_64-2.6.32-rfc.kdump

deps:
	@scripts/deps.sh

# The README's two commands (make demo, make check) as root in a fresh
# Debian 12 chroot (debootstrap minbase with build-essential and git, cached
# in /var/cache/oomlens-fresh) on a clean copy of the committed tree
# (git archive HEAD) with ../shared beside it: the check for a dependency
# that only this machine has. Needs root; long (30 min or more); not part
# of check. Run it before resolving an issue that adds a build or test
# dependency.
check-fresh:
	scripts/check-fresh.sh

# The Debian package (debian/), built by dpkg-buildpackage -us -uc -b from
# git archive HEAD into build/deb/ with the test suite run during the
# build, then lintian (no error, no warning). Commit first: uncommitted
# changes are not in the package.
deb:
	scripts/make-deb.sh build/deb

# build/deb/'s package installed into a fresh Debian 12 chroot with only
# its dependencies: analyze, ingest, report --format html, vmcore (the
# package's autopkgtest, debian/tests/smoke) and man oomlens there. Needs
# root and make deb first; long; not part of check.
check-deb:
	scripts/check-deb.sh build/deb

# The RFC lab (fixtures/rfc-lab/README.md): builds Debian's 6.1 kernel with
# kernel/patches/ (cached), boots it in qemu per scenario, dumps it at the
# RFC's kill and prints the agreement table. Long; not part of check.
rfc-lab: oomlens
	fixtures/rfc-lab/lab.sh $(RFCLAB_SCENARIOS)

# The same on the 32-bit kernel the RFC was written for (i386 HIGHMEM,
# fixtures/rfc-lab/README.md "The i386 lab"): a lowmem OOM and the idle
# scenario's 32-bit quiet-time arithmetic. Long; not part of check.
rfc-lab-i386: oomlens
	fixtures/rfc-lab/lab.sh -a i386 $(RFCLAB_I386_SCENARIOS)

# --badness-from on the whole linux-source-6.1 tree, plain and with
# kernel/patches 0001-0006 (scripts/check-tree.sh); make check runs the
# same checks on the excerpts in fixtures/trees. Not part of check.
check-tree: oomlens $(BUILD)/tests/tree-scores $(RFC_MINI)
	scripts/check-tree.sh $(BUILD)

style:
	clang-format --dry-run --Werror $(LIB_SRC) $(CLI) $(TEST_SRC) $(wildcard */*.h) \
		$(wildcard include/oomlens/*.h)

# No middle module includes another: parsers, dumps, analyzer, db and reports
# see only core/ and model/; core sees nothing above it; ingest/ sees all
# of those but cli/, and only cli/ sees ingest/. Each foreign
# library's headers are included by its one wrapper file only (a new
# library adds its row to FOREIGN: header pattern=the file).
MODULES := core model parsers dumps analyzer db reports ingest cli
FOREIGN := 'sqlite3\.h=db/internal.h' 'pcre2\.h=parsers/patterns.c' \
	'archive(_entry)?\.h=parsers/source.c' 'libkdumpfile/=dumps/kcore.c' \
	'(dwarf\.h|elfutils/|gelf\.h|libelf\.h)=dumps/kdwarf.c' 'xxhash\.h=parsers/digest.c' \
	'bpf/=dumps/kbtf.c' 'systemd/=parsers/journalfile.c' \
	'jansson\.h=parsers/jsonin.c' 'dlfcn\.h=cli/plugin.c'
check-layers:
	@! grep -nE '#include "(model|parsers|dumps|analyzer|db|reports|ingest|cli)/' core/*.[ch] || \
		(echo "layering: core includes a module above it" && false)
	@! grep -nE '#include "(parsers|dumps|analyzer|db|reports|ingest|cli)/' model/*.[ch] || \
		(echo "layering: model includes a higher module" && false)
	@for rule in $(FOREIGN); do \
		hdr=$${rule%%=*}; file=$${rule#*=}; \
		! grep -nE "#include <($$hdr)" $(foreach m,$(MODULES),$(m)/*.[ch]) | \
			grep -v "^$$file:" || \
			{ echo "layering: <$$hdr> outside its wrapper $$file"; exit 1; }; \
	done
	@for m in parsers dumps analyzer db reports; do \
		others=$$(echo parsers dumps analyzer db reports ingest cli | tr ' ' '\n' | grep -v "^$$m$$" | paste -sd'|'); \
		! grep -nE "#include \"($$others)/" $$m/*.[ch] 2>/dev/null || \
			{ echo "layering: $$m includes a sibling module"; exit 1; }; \
	done
	@! grep -nE '#include "cli/' ingest/*.[ch] || \
		(echo "layering: ingest includes cli" && false)
	@echo "layers ok"

# Installs the binary, its man page (made from the help texts by
# scripts/mkman.sh) and its bash completion. A packager's DESTDIR,
# PREFIX and flags pass through: make install DESTDIR=/tmp/x PREFIX=/usr
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
COMPLETIONDIR ?= $(PREFIX)/share/bash-completion/completions
# the model plugin ABI (docs/plugins.md): header-only, so its .pc file
# goes to share/pkgconfig; the example plugins with the documentation
INCLUDEDIR ?= $(PREFIX)/include
PKGCONFIGDIR ?= $(PREFIX)/share/pkgconfig
EXAMPLEDIR ?= $(PREFIX)/share/doc/oomlens/examples/plugins
INSTALL ?= install

$(BUILD)/oomlens.1: oomlens scripts/mkman.sh
	@mkdir -p $(dir $@)
	scripts/mkman.sh ./oomlens > $@

install: oomlens $(BUILD)/oomlens.1
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 \
		$(DESTDIR)$(COMPLETIONDIR)
	$(INSTALL) -m 755 oomlens $(DESTDIR)$(BINDIR)/oomlens
	$(INSTALL) -m 644 $(BUILD)/oomlens.1 $(DESTDIR)$(MANDIR)/man1/oomlens.1
	$(INSTALL) -m 644 contrib/oomlens.bash $(DESTDIR)$(COMPLETIONDIR)/oomlens
	$(INSTALL) -d $(DESTDIR)$(INCLUDEDIR)/oomlens $(DESTDIR)$(PKGCONFIGDIR) \
		$(DESTDIR)$(EXAMPLEDIR)
	$(INSTALL) -m 644 include/oomlens/model.h $(DESTDIR)$(INCLUDEDIR)/oomlens/model.h
	printf '%s\n' 'prefix=$(PREFIX)' 'includedir=$(INCLUDEDIR)' '' \
		'Name: oomlens-model' \
		'Description: the model plugin ABI of oomlens (docs/plugins.md)' \
		'Version: $(VERSION)' 'Cflags: -I$${includedir}' \
		>$(DESTDIR)$(PKGCONFIGDIR)/oomlens-model.pc
	chmod 644 $(DESTDIR)$(PKGCONFIGDIR)/oomlens-model.pc
	$(INSTALL) -m 644 examples/plugins/largest-rss.c examples/plugins/pss.c \
		$(DESTDIR)$(EXAMPLEDIR)

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/oomlens $(DESTDIR)$(MANDIR)/man1/oomlens.1 \
		$(DESTDIR)$(COMPLETIONDIR)/oomlens \
		$(DESTDIR)$(INCLUDEDIR)/oomlens/model.h \
		$(DESTDIR)$(PKGCONFIGDIR)/oomlens-model.pc \
		$(DESTDIR)$(EXAMPLEDIR)/largest-rss.c $(DESTDIR)$(EXAMPLEDIR)/pss.c

# What issue 15 asks of an install, into a scratch DESTDIR (run by check).
check-install: oomlens
	tests/install.sh

# No call cycle between files, nor between modules: the project's code
# compiled with gcc's -fcallgraph-info into build-ci/ (one .ci call graph
# per object), read by scripts/check-cycles.sh.
check-cycles:
	@$(MAKE) --no-print-directory -s BUILD=build-ci CFLAGS="-O0 -fcallgraph-info" \
		$(LIB_SRC:%.c=build-ci/%.o) $(CLI:%.c=build-ci/%.o)
	@scripts/check-cycles.sh build-ci

clean:
	rm -rf build build-asan build-tsan build-ci oomlens $(GEN)

-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(TEST_OBJ:.o=.d)

-include bench/bench.mk
# synthetic vmcores (fixtures/vmgen/README.md)
include fixtures/vmgen/vmgen.mk
# a real lab dump, shrunk (fixtures/vmshrink/README.md)
include fixtures/vmshrink/vmshrink.mk
# binary journal files (fixtures/journal/README.md)
include fixtures/journal/journal.mk
