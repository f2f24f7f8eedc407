#!/bin/sh
# The built package on a fresh Debian 12 with nothing but it and its
# declared dependencies: a debootstrap minbase chroot (cached in
# /var/cache/oomlens-fresh, scripts/fresh-chroot.sh), the .deb of DIR
# (default build/deb/, made by `make deb`) installed by apt, then the
# package's own autopkgtest (debian/tests/smoke: analyze, ingest, report
# --format html, vmcore, on the demo logs and the shrunk 6.1 dump), the
# version agreeing in dpkg, --version and the man page, and `man oomlens`
# (man-db is installed for that last step only: it shows the page, the
# program does not need it). Needs root; slow.
# usage: scripts/check-deb.sh [DIR]   (make check-deb)
set -eu
cd "$(dirname "$0")/.."
. scripts/fresh-chroot.sh
dir=${1:-build/deb}
deb=$(ls "$dir"/oomlens_*.deb 2>/dev/null | head -1)
[ -n "$deb" ] || fresh_die "no $dir/oomlens_*.deb: run make deb first"

base=$(fresh_base "")
root=$(fresh_root "$base")
[ "${FRESH_KEEP:-0}" = 1 ] || trap 'rm -rf "$root"' EXIT
echo "check-deb: $deb in $root"
mkdir -p "$root/src/oomlens/fixtures/vmcore-lab" "$root/src/oomlens/debian/tests"
cp "$deb" "$root/src/"
cp -r fixtures/demo "$root/src/oomlens/fixtures/"
cp debian/tests/smoke "$root/src/oomlens/debian/tests/"
xz -dc fixtures/vmcore-lab/mini-memcg.elf.xz >"$root/src/mini-memcg.elf"

fail() {
	echo "check-deb: FAIL: $*" >&2
	exit 1
}
fresh_run "$root" "export DEBIAN_FRONTEND=noninteractive; apt-get update -qq &&
	apt-get install -y -qq --no-install-recommends /src/$(basename "$deb")" ||
	fail "apt-get install of $(basename "$deb") with its dependencies"
fresh_run "$root" 'cd /src/oomlens && SMOKE_DUMP=/src/mini-memcg.elf debian/tests/smoke' ||
	fail "debian/tests/smoke with the installed package"
fresh_run "$root" 'export DEBIAN_FRONTEND=noninteractive; apt-get install -y -qq --no-install-recommends man-db >/dev/null &&
	pkg=$(dpkg-query -W -f "\${Version}" oomlens) &&
	bin=$(oomlens --version) &&
	page=$(MANWIDTH=80 man oomlens 2>&1) &&
	echo "$page" | sed -n "1p;/^NAME/,/^$/p" &&
	echo "package $pkg, $bin, man page: $(echo "$page" | tail -1)" &&
	[ "$bin" = "oomlens $pkg" ] &&
	echo "$page" | tail -1 | grep -q "oomlens $pkg" &&
	echo "$page" | grep -q "^   oomlens vmcore"' ||
	fail "man oomlens, or the versions of package, binary and man page differ"
echo "check-deb: ok: the package installs on a fresh Debian 12 and works there"
