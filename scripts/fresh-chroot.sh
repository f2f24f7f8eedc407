#!/bin/sh
# A fresh Debian 12 in a chroot, for the tests that must not see this
# machine's packages (scripts/check-fresh.sh, scripts/check-deb.sh).
# Sourced, not run. Needs root and debootstrap; the base systems are
# cached as tarballs in $FRESH_CACHE (outside the tree), so only the
# first run downloads them.
#
#   fresh_base PACKAGES   the cached tarball of a debootstrap minbase
#                         bookworm with PACKAGES (comma-separated; may be
#                         empty) installed: made on first use, path printed
#   fresh_root TARBALL    a new root unpacked from it, path printed
#   fresh_run ROOT CMD    CMD run by /bin/sh in ROOT, with /proc, /sys and
#                         /dev mounted in a private mount namespace (gone
#                         when CMD ends) and the host's resolver; of the
#                         caller's environment only CK_TIMEOUT_MULTIPLIER
#                         passes (Check's timeouts on a loaded machine)
FRESH_CACHE=${FRESH_CACHE:-/var/cache/oomlens-fresh}
FRESH_MIRROR=${FRESH_MIRROR:-http://deb.debian.org/debian}
FRESH_SUITE=bookworm

fresh_die() {
	echo "$0: $*" >&2
	exit 2
}

fresh_base() {
	[ "$(id -u)" = 0 ] || fresh_die "needs root (debootstrap, chroot)"
	command -v debootstrap >/dev/null || fresh_die "needs debootstrap (apt-get install debootstrap)"
	name=$FRESH_SUITE-minbase
	[ -n "$1" ] && name=$name-$(echo "$1" | tr ',' '-')
	tarball=$FRESH_CACHE/$name.tar
	if [ ! -s "$tarball" ]; then
		mkdir -p "$FRESH_CACHE"
		tmp=$(mktemp -d "$FRESH_CACHE/debootstrap.XXXXXX")
		echo "debootstrap --variant=minbase ${1:+--include=$1 }$FRESH_SUITE (cached as $tarball)" >&2
		debootstrap --variant=minbase ${1:+--include="$1"} "$FRESH_SUITE" "$tmp" "$FRESH_MIRROR" >"$tmp.log" 2>&1 ||
			{ tail -20 "$tmp.log" >&2; rm -rf "$tmp"; fresh_die "debootstrap failed (log: $tmp.log)"; }
		# what a Debian 12 installation has: the point releases' updates
		# and security support
		cat >"$tmp/etc/apt/sources.list" <<EOF
deb $FRESH_MIRROR $FRESH_SUITE main
deb $FRESH_MIRROR $FRESH_SUITE-updates main
deb http://deb.debian.org/debian-security $FRESH_SUITE-security main
EOF
		rm -rf "$tmp/var/cache/apt/archives/"*.deb
		chmod 755 "$tmp"
		tar -C "$tmp" -cf "$tarball.tmp" . && mv "$tarball.tmp" "$tarball" ||
			fresh_die "cannot write $tarball"
		rm -rf "$tmp" "$tmp.log"
	fi
	echo "$tarball"
}

fresh_root() {
	root=$(mktemp -d "${FRESH_WORK:-/var/tmp}/oomlens-fresh.XXXXXX") || fresh_die "no scratch folder"
	tar -C "$root" -xf "$1" || fresh_die "cannot unpack $1"
	# mktemp made it 0700: the system users of the chroot (_apt, man) must
	# get through it as through any /
	chmod 755 "$root"
	echo "$root"
}

fresh_run() {
	root=$1
	shift
	cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null
	unshare --mount --propagation private sh -c '
		root=$1; shift
		mount -t proc proc "$root/proc" &&
		mount -t sysfs sys "$root/sys" &&
		mount --rbind /dev "$root/dev" || exit 2
		exec chroot "$root" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
			HOME=/root TERM=dumb ${CK_TIMEOUT_MULTIPLIER:+CK_TIMEOUT_MULTIPLIER=$CK_TIMEOUT_MULTIPLIER} \
			/bin/sh -c "$*"' sh "$root" "$@"
}
