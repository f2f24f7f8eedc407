#!/bin/sh
# The README's two commands, `make demo` then `make check`, as a newcomer
# runs them: as root on a fresh Debian 12 (debootstrap minbase with
# build-essential and git), on a clean copy of the committed tree
# (git archive of REV, default HEAD) with ../shared beside it when this
# checkout has one. Run this before resolving an issue that adds a build
# or test dependency. Needs root and debootstrap; slow (the first run
# downloads the base system, every run installs `make demo`'s packages).
# usage: scripts/check-fresh.sh [REV]   (make check-fresh)
# FRESH_KEEP=1 keeps the chroot (its path is printed) for a look after.
set -eu
cd "$(dirname "$0")/.."
. scripts/fresh-chroot.sh
rev=${1:-HEAD}
git rev-parse --verify -q "$rev^{commit}" >/dev/null || fresh_die "no commit $rev"

base=$(fresh_base build-essential,git)
root=$(fresh_root "$base")
[ "${FRESH_KEEP:-0}" = 1 ] || trap 'rm -rf "$root"' EXIT
echo "check-fresh: $(git rev-parse --short "$rev") in $root"
mkdir -p "$root/src/oomlens"
git archive "$rev" | tar -C "$root/src/oomlens" -xf -
[ -d ../shared ] && cp -rL ../shared "$root/src/shared"

status=0
fresh_run "$root" 'cd /src/oomlens && make demo' || status=$?
if [ $status -ne 0 ]; then
	echo "check-fresh: FAIL: make demo exited $status on a fresh Debian 12" >&2
	exit 1
fi
fresh_run "$root" 'cd /src/oomlens && make check' || status=$?
if [ $status -ne 0 ]; then
	echo "check-fresh: FAIL: make check exited $status on a fresh Debian 12" >&2
	exit 1
fi
echo "check-fresh: ok: make demo and make check pass on a fresh Debian 12"
