#!/bin/sh
# The HTML report in a real browser (Debian's headless Chromium): the pages
# of the demo fixtures, of a log whose process names are hostile markup,
# and of a whole archive (report --format html) must load with no console
# error, and no script from the input may run: the hostile names would set
# document.title or add an element, which --dump-dom shows. Screenshots at
# desktop and phone widths go to BUILD/screenshots/ (docs/ keeps two).
#
# Without chromium the test skips with a message, except under CI=true,
# where it fails.
#
# usage: tests/html-browser.sh ./oomlens [BUILD]
set -u
bin=${1:?usage: tests/html-browser.sh OOMLENS [BUILD]}
build=${2:-build}
browser=
for b in chromium chromium-browser; do
	command -v "$b" >/dev/null 2>&1 && { browser=$b; break; }
done
if [ -z "$browser" ]; then
	if [ "${CI:-}" = true ]; then
		echo "html-browser: FAIL: chromium is not installed (scripts/deps.sh installs it)" >&2
		exit 1
	fi
	echo "html-browser: SKIPPED: chromium is not installed (apt-get install chromium)"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
shots=$build/screenshots
mkdir -p "$shots"
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "html-browser: FAIL: $*" >&2; }

# One headless run; its own profile so parallel runs never share one.
run_browser() {
	timeout 60 "$browser" --headless --no-sandbox --disable-gpu \
		--no-first-run --disable-extensions --hide-scrollbars \
		--user-data-dir="$tmp/profile" "$@"
}

# The page's DOM after load, with the browser's console on stderr.
check_page() { # NAME FILE
	name=$1 page=$2
	run_browser --enable-logging=stderr --v=0 --virtual-time-budget=2000 \
		--dump-dom "file://$page" >"$tmp/$name.dom" 2>"$tmp/$name.log"
	if [ ! -s "$tmp/$name.dom" ]; then
		bad "$name: the browser printed no DOM"; sed -n 1,5p "$tmp/$name.log" >&2
		return
	fi
	ok
	if grep -Ei 'CONSOLE|Uncaught|Refused to|SyntaxError' "$tmp/$name.log" >"$tmp/$name.err"; then
		bad "$name: console errors"; head -5 "$tmp/$name.err" >&2
	else ok; fi
	if grep -q '<title>oomlens report</title>' "$tmp/$name.dom"; then ok; else
		bad "$name: the title changed"; grep -o '<title>[^<]*' "$tmp/$name.dom" >&2
	fi
	# a serialised DOM writes '<' in text as &lt;: a raw one is an element
	if grep -Eiq '<script|<img|<iframe|data-pwned' "$tmp/$name.dom"; then
		bad "$name: markup from the input became elements"
		grep -Eio '.{0,40}(<script|<img|<iframe|data-pwned).{0,40}' "$tmp/$name.dom" | head -3 >&2
	else ok; fi
	grep -q '<svg' "$tmp/$name.dom" && ok || bad "$name: no chart"
}

shoot() { # NAME FILE
	run_browser --window-size=1280,1800 --screenshot="$shots/$1-desktop.png" \
		"file://$2" >/dev/null 2>&1 && [ -s "$shots/$1-desktop.png" ] && ok || bad "$1: no desktop screenshot"
	run_browser --window-size=390,1800 --screenshot="$shots/$1-phone.png" \
		"file://$2" >/dev/null 2>&1 && [ -s "$shots/$1-phone.png" ] && ok || bad "$1: no phone screenshot"
}

# A log whose process names are markup: <script> and an attribute breakout.
sed -e 's/(mysqld)/(<script>document.title="pwned"<\/script>)/g' \
	-e 's/ mysqld$/ <script>document.title="pwned"<\/script>/' \
	-e 's/(java)/("><img src=x onerror="document.body.dataset.pwned=1">)/g' \
	-e 's/ java$/ "><img src=x onerror="document.body.dataset.pwned=1">/' \
	fixtures/demo/rhel7-storm.log >"$tmp/hostile.log"

for f in fixtures/demo/*.log "$tmp/hostile.log"; do
	n=$(basename "$f" .log)
	if "$bin" analyze --format html -o "$tmp/$n.html" "$f"; then ok; else
		bad "$n: analyze --format html failed"; continue
	fi
	check_page "$n" "$tmp/$n.html"
done
# the hostile names are on the page, as text
if grep -q '&lt;script&gt;document.title="pwned"&lt;/script&gt;' "$tmp/hostile.dom" &&
   grep -q '"&gt;&lt;img src=x onerror=' "$tmp/hostile.dom"; then ok; else
	bad "hostile: the names are not shown as text"
fi

# a whole archive
"$bin" ingest --quiet --db "$tmp/a.db" fixtures/demo fixtures/kernel-output "$tmp/hostile.log" >/dev/null 2>&1
"$bin" rescore --db "$tmp/a.db" >/dev/null 2>&1
if "$bin" report --db "$tmp/a.db" --format html -o "$tmp/archive.html"; then ok; else
	bad "archive: report --format html failed"
fi
check_page archive "$tmp/archive.html"
for want in 'Incidents over time' 'By host' 'By kernel' 'Top victims' 'differs from the kernel'; do
	grep -q "$want" "$tmp/archive.dom" && ok || bad "archive: no '$want' chart"
done

shoot incident "$tmp/rhel7-storm.html"
shoot archive "$tmp/archive.html"

echo "html-browser: $pass passed, $fail failed (screenshots in $shots)"
[ "$fail" = 0 ]
