#!/bin/sh
# Builds the Debian package from a clean copy of the committed tree (git
# archive of REV, default HEAD; uncommitted changes are not in it) with
# dpkg-buildpackage -us -uc -b, into OUT (default build/deb/), then runs
# lintian on it, which must report no error and no warning.
# The build runs the test suite (debian/rules, dh_auto_test); give
# DEB_BUILD_OPTIONS=nocheck to skip it.
# usage: scripts/make-deb.sh [OUT [REV]]   (make deb)
set -eu
cd "$(dirname "$0")/.."
out=${1:-build/deb}
rev=${2:-HEAD}
for c in dpkg-buildpackage dh lintian; do
	command -v $c >/dev/null || { echo "$0: needs $c (apt-get install dpkg-dev debhelper lintian)" >&2; exit 2; }
done
version=$(git show "$rev:debian/changelog" | sed -n '1s/^oomlens (\([^)]*\)).*/\1/p')
[ -n "$version" ] || { echo "$0: no version in $rev:debian/changelog" >&2; exit 2; }
rm -rf "$out"
mkdir -p "$out/src"
git archive --prefix="oomlens-$version/" "$rev" | tar -C "$out/src" -xf -
(cd "$out/src/oomlens-$version" &&
	DEB_BUILD_OPTIONS="${DEB_BUILD_OPTIONS:+$DEB_BUILD_OPTIONS }parallel=$(nproc)" dpkg-buildpackage -us -uc -b) \
	>"$out/build.log" 2>&1 ||
	{ tail -40 "$out/build.log" >&2; echo "$0: dpkg-buildpackage failed (log: $out/build.log)" >&2; exit 1; }
find "$out/src" -maxdepth 1 -type f -exec mv {} "$out/" \;
rm -rf "$out/src"
ls "$out"/*.deb
lintian --fail-on error,warning --info "$out"/oomlens_"$version"_*.changes
echo "make deb: $(ls "$out"/*.deb) built, lintian clean"
