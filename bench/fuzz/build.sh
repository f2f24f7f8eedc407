#!/bin/sh
# Build the libFuzzer targets: bench/fuzz/README.md.
# Run from the repository root. Output: $OUT (default /tmp/fuzz_oomlog) for
# the OOM log parser and $OUT_VMCORE (default /tmp/fuzz_vmcore) for the
# vmcore readers. `bench/fuzz/build.sh vmcore` builds only the second,
# `bench/fuzz/build.sh oomlog` only the first.
set -eu

OUT=${OUT:-/tmp/fuzz_oomlog}
OUT_VMCORE=${OUT_VMCORE:-/tmp/fuzz_vmcore}
CC=${CC:-clang}
WHAT=${1:-all}

[ -f Makefile ] && [ -f parsers/oomlog.h ] || {
	echo "build.sh: run from the repository root" >&2
	exit 2
}

# A Makefile variable's value (the Makefile changes as the project grows).
make_var() {
	printf 'include Makefile\nfuzz-print-var:\n\t@echo $(%s)\n' "$1" |
		make --no-print-directory -s -f - fuzz-print-var
}

# The library sources and link flags, as the Makefile has them.
LIB_SRC=$(make_var LIB_SRC)
LIBS=$(make_var LIBS)
[ -n "$LIB_SRC" ] || {
	echo "build.sh: cannot read LIB_SRC from the Makefile" >&2
	exit 1
}
[ -n "$LIBS" ] || LIBS=-lpcre2-8

# -fno-sanitize-recover=all: undefined behaviour aborts, so libFuzzer keeps
# the input instead of printing a diagnostic and going on.
FLAGS="-g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	-std=gnu11 -D_GNU_SOURCE -I."
set -x
if [ "$WHAT" != vmcore ]; then
	$CC $FLAGS -o "$OUT" bench/fuzz/fuzz_oomlog.c $LIB_SRC $LIBS
fi
if [ "$WHAT" != oomlog ]; then
	$CC $FLAGS -o "$OUT_VMCORE" bench/fuzz/fuzz_vmcore.c $LIB_SRC $LIBS
fi
