#!/bin/sh
# Build the libFuzzer target for the OOM log parser: bench/fuzz/README.md.
# Run from the repository root. Output: $OUT (default /tmp/fuzz_oomlog).
set -eu

OUT=${OUT:-/tmp/fuzz_oomlog}
CC=${CC:-clang}

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
set -x
$CC -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	-std=gnu11 -D_GNU_SOURCE -I. \
	-o "$OUT" bench/fuzz/fuzz_oomlog.c $LIB_SRC $LIBS
