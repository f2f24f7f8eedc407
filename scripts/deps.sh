#!/bin/sh
# Install the Debian packages oomlens builds and tests with, or say which
# are missing. usage: scripts/deps.sh [slurm]
# "slurm" adds what `make check-slurm` needs (a Slurm cluster's daemons,
# munge, GNU parallel), which a plain build and `make check` do not.
set -eu
# libsystemd-dev: sd-journal reads binary journal files (parsers/
# journalfile.c); systemd-journal-remote: the tests make journal files
# with it (fixtures/journal/journal.mk). gcc-multilib: the i386 test
# kernels and kdwarf's -m32 fixtures; python3, bzip2, zstd, lz4: the
# end-to-end tests (without them those tests are skipped). No llvm:
# BTF is added with binutils' objcopy (fixtures/vmgen/vmgen.mk).
# libjansson-dev: analyze --input reads JSON (parsers/jsonin.c).
need="build-essential gcc-multilib python3 bzip2 zstd lz4 pkg-config libpcre2-dev check libsqlite3-dev libarchive-dev libdw-dev libelf-dev libkdumpfile-dev libxxhash-dev libbpf-dev libsystemd-dev libjansson-dev systemd-journal-remote dwarves xz-utils sqlite3 clang-format man-db groff-base chromium"
if [ "${1:-}" = slurm ]; then
	need="$need slurm-wlm munge parallel"
fi
missing=""
for p in $need; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ]; then
	echo "installing:$missing"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	# shellcheck disable=SC2086
	apt-get install -y -qq --no-install-recommends $missing
else
	echo "oomlens needs these Debian packages; run as root:" >&2
	echo "  apt-get install$missing" >&2
	exit 1
fi
