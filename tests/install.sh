#!/bin/bash
# make install into a scratch DESTDIR, as a packager would, and what
# issue 15 asks of it: the binary, a man page that man renders without a
# warning and with a section per subcommand, a bash completion that
# completes, and a packager's flags passed through without -Werror.
set -u
cd "$(dirname "$0")/.."
# a packager's make, not the one that ran us (whose DEVELOPER=1 would leak in)
unset MAKEFLAGS MFLAGS MAKEOVERRIDES DEVELOPER
fail=0
check() { if eval "$2"; then echo "ok - $1"; else echo "not ok - $1"; fail=1; fi; }

dest=$(mktemp -d)
trap 'rm -rf "$dest"' EXIT
make -s install DESTDIR="$dest" PREFIX=/usr >"$dest/.log" 2>&1
rc=$?
check "make install DESTDIR PREFIX=/usr" "[ $rc -eq 0 ]"
check "binary in /usr/bin" "[ -x '$dest/usr/bin/oomlens' ]"
check "installed binary runs" "'$dest/usr/bin/oomlens' --version | grep -q '^oomlens '"
page=$dest/usr/share/man/man1/oomlens.1
check "man page installed" "[ -s '$page' ]"
# one version, from debian/changelog (the Makefile's VERSION): the package's,
# the binary's and the man page's
ver=$(sed -n '1s/^oomlens (\([^)]*\)).*/\1/p' debian/changelog)
check "--version is debian/changelog's ($ver)" "[ -n '$ver' ] && [ \"\$('$dest/usr/bin/oomlens' --version)\" = 'oomlens $ver' ]"
check "man page's version is debian/changelog's" "grep -q '^\.TH OOMLENS 1 .*\"oomlens $ver\"' '$page'"
warn=$(MANWIDTH=80 man --warnings -l "$page" 2>&1 >/dev/null)
check "man -l renders without a warning" "[ -z \"\$warn\" ]"
text=$(MANWIDTH=80 man -l "$page" 2>/dev/null)
for cmd in $(./oomlens --list-commands); do
	check "man page has a section for $cmd" "grep -q '^   oomlens $cmd\$' <<<\"\$text\""
done
check "man page lists --summary of report" "grep -q -- '--summary' <<<\"\$text\""
comp=$dest/usr/share/bash-completion/completions/oomlens
check "bash completion installed" "[ -s '$comp' ]"
got=$(PATH=$dest/usr/bin:$PATH bash -c "source '$comp'
	COMP_WORDS=(oomlens rep); COMP_CWORD=1; _oomlens; echo \${COMPREPLY[*]}
	COMP_WORDS=(oomlens report --sum); COMP_CWORD=2; _oomlens; echo \${COMPREPLY[*]}")
check "completion: rep -> report" "grep -qx 'report' <<<\"\$(sed -n 1p <<<\"\$got\")\""
check "completion: report --sum -> --summary" "grep -qx -- '--summary' <<<\"\$(sed -n 2p <<<\"\$got\")\""

# The model plugin ABI (docs/plugins.md): the header and oomlens-model.pc
# installed; both example plugins built from the installed tree by the
# cc line their comment documents, with pkg-config into DESTDIR; their
# victims over the demo fixtures, one of theirs, and an ingested archive
# (ingest, then rescore --model-plugin) are those tests/plugins/victims.py
# works from the raw task tables.
check "model.h installed" "[ -s '$dest/usr/include/oomlens/model.h' ]"
check "oomlens-model.pc installed" "[ -s '$dest/usr/share/pkgconfig/oomlens-model.pc' ]"
export PKG_CONFIG_PATH=$dest/usr/share/pkgconfig PKG_CONFIG_SYSROOT_DIR=$dest
check "pkg-config --cflags oomlens-model" "pkg-config --cflags oomlens-model | grep -q -- '-I$dest/usr/include'"
ex=$dest/usr/share/doc/oomlens/examples/plugins
for p in largest-rss pss; do
	line=$(grep -o 'cc -shared -fPIC \$(pkg-config --cflags oomlens-model) .*' "$ex/$p.c")
	check "$p: its documented cc line" "[ -n \"\$line\" ] && (cd '$ex' && eval \"\$line\") && [ -s '$ex/$p.so' ]"
done
unset PKG_CONFIG_PATH PKG_CONFIG_SYSROOT_DIR
logs="fixtures/demo/rhel7-storm.log fixtures/demo/rfc-forkbomb.log examples/plugins/shared-memory.log fixtures/generated/names.6.8.syslog-nohost.log"
# shellcheck disable=SC2086 # the file names have no blanks
want=$(python3 tests/plugins/victims.py $logs)
# the victims of both plugins, one line per incident that has a table
victims() {
	python3 -c 'import json, sys
for i in json.load(sys.stdin)["incidents"]:
    v = {m["model"]: (m.get("victim") or {}).get("pid", "-") for m in i.get("models", [])}
    if "largest-rss" in v:
        print(v["largest-rss"], v["pss-like"])'
}
plug="--model-plugin $ex/largest-rss.so --model-plugin $ex/pss.so"
# shellcheck disable=SC2086
got=$("$dest/usr/bin/oomlens" analyze --format json $plug $logs | victims)
check "plugins' victims as the task tables show (analyze)" "[ -n \"\$want\" ] && [ \"\$got\" = \"\$want\" ]"
[ "$got" = "$want" ] || printf 'want:\n%s\ngot:\n%s\n' "$want" "$got"
check "pss-like and largest-rss differ on shared memory" "grep -qx '2101 3300' <<<\"\$want\""
# shellcheck disable=SC2086
got=$("$dest/usr/bin/oomlens" analyze --isolate --format json $plug $logs | victims)
check "the same, isolated" "[ \"\$got\" = \"\$want\" ]"
db=$dest/archive.db
# shellcheck disable=SC2086
"$dest/usr/bin/oomlens" ingest --quiet --db "$db" $logs >/dev/null 2>&1
# shellcheck disable=SC2086
check "rescore --model-plugin over the archive" "'$dest/usr/bin/oomlens' rescore --quiet --db '$db' $plug"
if command -v sqlite3 >/dev/null 2>&1; then
	stored=$(sqlite3 "$db" "select model, victim_pid from model_verdicts where model in ('largest-rss', 'pss-like') order by model, victim_pid")
	wantdb=$(tr ' ' '\n' <<<"$want" | paste - - | awk '{print "largest-rss|" $1; print "pss-like|" $2}' | sort -t'|' -k1,1 -k2,2n)
	check "their stored verdicts as the task tables show" "[ -n \"\$stored\" ] && [ \"\$stored\" = \"\$wantdb\" ]"
fi

# A packager's flags reach every compile and link; -Werror only with DEVELOPER=1.
flags="-O2 -fstack-protector-strong -Wformat -Werror=format-security"
cmds=$(make -n -B BUILD=build-pkgtest oomlens CFLAGS="$flags" CPPFLAGS="-D_FORTIFY_SOURCE=2" LDFLAGS="-Wl,-z,relro")
check "CFLAGS reach the compiler" "grep -q -- '-fstack-protector-strong' <<<\"\$cmds\""
check "CPPFLAGS reach the compiler" "grep -q -- '-D_FORTIFY_SOURCE=2' <<<\"\$cmds\""
check "LDFLAGS reach the link" "grep -q -- '-Wl,-z,relro' <<<\"\$cmds\""
check "no -Werror in a packager's build" "! grep -qE -- '-Werror( |\$)' <<<\"\$cmds\""
dev=$(make -n -B BUILD=build-pkgtest oomlens DEVELOPER=1)
check "-Werror in the developer build" "grep -qE -- '-Werror( |\$)' <<<\"\$dev\""
exit $fail
