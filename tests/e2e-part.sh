#!/bin/sh
# Runs parts of the end-to-end tests (tests/e2e-*.sh, each sourced by
# tests/e2e.sh) alone against a binary: make check-tsan runs the ingest
# parts so under ThreadSanitizer.
# usage: tests/e2e-part.sh BIN tests/e2e-X.sh...
set -u
bin=$1
shift
# pass, fail, $tmp, ok, bad and expect: tests/e2e.sh's
. "$(dirname "$0")/harness.sh"
for part in "$@"; do
	. "$part"
done
echo "e2e parts: $pass passed, $fail failed"
[ "$fail" = 0 ]
