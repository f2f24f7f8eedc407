# bench/bench.mk: `make bench`, included from the Makefile (see bench/README.md).
#
#   make bench                   P1 on a 256 MB sparse log, P2 on 5000 reports
#   BENCH_P1_MB=1024 make bench  P1 on 1 GB (P4 then runs on 256, 512, 1024)
#   make bench BASELINE=path/to/oomlens  also times that binary on P1 and P2,
#                                in the same run: ratios to it show a regression
#   make bench-clean             removes bench/corpus/ and bench/results.txt
#
# The corpora are written by the fixture generator (oomgen --corpus) into
# bench/corpus/, with a .meta file of ground truth beside each log; they are
# rebuilt when missing or when oomgen is rebuilt. A missed target prints
# MISSED and does not fail; a failing command does.

BENCH_P1_MB ?= 256
BENCH_P2_REPORTS ?= 5000
BENCH_GEN := fixtures/gen/oomgen
BENCH_CORPUS := bench/corpus
BENCH_RUN := $(or $(BUILD),build)/bench/run
BENCH_FLOOR := $(or $(BUILD),build)/bench/storefloor
BENCH_P1 := $(BENCH_CORPUS)/sparse-$(BENCH_P1_MB).log
BENCH_P1_HALF := $(BENCH_CORPUS)/sparse-$(shell expr $(BENCH_P1_MB) / 2).log
BENCH_P1_QUARTER := $(BENCH_CORPUS)/sparse-$(shell expr $(BENCH_P1_MB) / 4).log
BENCH_P2 := $(BENCH_CORPUS)/dense-$(BENCH_P2_REPORTS).log
BENCH_LOGS := $(BENCH_P1) $(BENCH_P1_HALF) $(BENCH_P1_QUARTER) $(BENCH_P2)

.PHONY: bench bench-clean

bench: oomlens $(BENCH_RUN) $(BENCH_FLOOR) $(BENCH_LOGS) $(BENCH_LOGS:.log=.meta)
	BASELINE="$(BASELINE)" sh bench/bench.sh ./oomlens $(BENCH_RUN) \
		$(BENCH_FLOOR) $(BENCH_P1) $(BENCH_P1_HALF) $(BENCH_P1_QUARTER) \
		$(BENCH_P2) bench/results.txt

$(BENCH_RUN): bench/run.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $<

$(BENCH_FLOOR): bench/storefloor.c db/settings.h
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(shell pkg-config --libs sqlite3)

# Log and ground truth come from one run of the generator (a grouped target).
$(BENCH_CORPUS)/sparse-%.log $(BENCH_CORPUS)/sparse-%.meta: $(BENCH_GEN)
	@mkdir -p $(BENCH_CORPUS)
	$(BENCH_GEN) --corpus sparse --size-mb $* >$(BENCH_CORPUS)/sparse-$*.tmp \
		2>$(BENCH_CORPUS)/sparse-$*.meta.tmp || \
		{ cat $(BENCH_CORPUS)/sparse-$*.meta.tmp >&2; \
		  rm -f $(BENCH_CORPUS)/sparse-$*.tmp $(BENCH_CORPUS)/sparse-$*.meta.tmp; exit 1; }
	mv $(BENCH_CORPUS)/sparse-$*.meta.tmp $(BENCH_CORPUS)/sparse-$*.meta
	mv $(BENCH_CORPUS)/sparse-$*.tmp $(BENCH_CORPUS)/sparse-$*.log

$(BENCH_CORPUS)/dense-%.log $(BENCH_CORPUS)/dense-%.meta: $(BENCH_GEN)
	@mkdir -p $(BENCH_CORPUS)
	$(BENCH_GEN) --corpus dense --reports $* >$(BENCH_CORPUS)/dense-$*.tmp \
		2>$(BENCH_CORPUS)/dense-$*.meta.tmp || \
		{ cat $(BENCH_CORPUS)/dense-$*.meta.tmp >&2; \
		  rm -f $(BENCH_CORPUS)/dense-$*.tmp $(BENCH_CORPUS)/dense-$*.meta.tmp; exit 1; }
	mv $(BENCH_CORPUS)/dense-$*.meta.tmp $(BENCH_CORPUS)/dense-$*.meta
	mv $(BENCH_CORPUS)/dense-$*.tmp $(BENCH_CORPUS)/dense-$*.log

bench-clean:
	rm -rf $(BENCH_CORPUS) bench/results.txt

# The vmcore process table against crash (issue 5); needs a real dump made
# by fixtures/qemu/vmcore.sh and Debian's crash: skipped without them.
VMLINUX ?= /work/lab/vmlinux-6.1.0-57-cloud-amd64
VMCORE ?= /work/lab/vmcore/memcg.elf
CRASH ?= crash
.PHONY: bench-vmcore
bench-vmcore: oomlens
	CRASH=$(CRASH) sh bench/vmcore.sh ./oomlens $(VMLINUX) $(VMCORE)

# SQLite's own floor for P2 with oomlens's store and two smaller ones.
.PHONY: bench-floor
bench-floor: oomlens $(BENCH_FLOOR) $(BENCH_P2)
	sh bench/floor.sh ./oomlens $(BENCH_FLOOR) $(BENCH_P2)
