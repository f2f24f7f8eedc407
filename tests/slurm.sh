#!/bin/sh
# tests/slurm.sh OOMLENS: `make check-slurm`. Starts a one-node Slurm
# cluster on this machine (munged, slurmctld and slurmd, on 127.0.0.1 only,
# with a config generated in a temporary folder: nothing outside it is
# changed), runs the recipe of scripts/fleet/slurm-submit.sh on the
# fixtures with 4 array tasks and checks that the merged database equals
# one ingest of the same files (tests/db-canon.sh). Then the same recipe
# with GNU parallel (scripts/fleet/parallel.sh). Every daemon it started
# is stopped, by its pid, whatever happens. Needs root (slurmd runs jobs
# as their user), slurm-wlm, munge, parallel and sqlite3.
set -u
oomlens=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
repo=$(cd "$(dirname "$0")/.." && pwd)
fail=0 pass=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
die() { echo "check-slurm: $*" >&2; exit 2; }

for c in munged mungekey slurmctld slurmd sbatch sinfo squeue scancel parallel sqlite3; do
	command -v "$c" >/dev/null || die "no $c: install slurm-wlm, munge, parallel, sqlite3 (scripts/deps.sh slurm)"
done
[ "$(id -u)" = 0 ] || die "needs root (slurmd)"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/oomlens-slurm.XXXXXX")
chmod 700 "$tmp"
pids=
cleanup() {
	if [ -n "${SLURM_CONF:-}" ]; then
		timeout 10 scancel --quiet --user=root 2>/dev/null
	fi
	for p in $pids; do
		kill "$p" 2>/dev/null
	done
	for p in $pids; do
		n=0
		while kill -0 "$p" 2>/dev/null && [ $n -lt 50 ]; do
			sleep 0.1
			n=$((n + 1))
		done
		kill -9 "$p" 2>/dev/null
	done
	if [ "$fail" != 0 ] || [ -n "${KEEP:-}" ]; then
		for l in "$tmp"/log/*; do
			echo "--- $l"
			tail -20 "$l"
		done
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP
mkdir -p "$tmp/log" "$tmp/munge" "$tmp/state" "$tmp/spool" "$tmp/out"

# munge: a key of our own and a socket in $tmp
mungekey --create --keyfile="$tmp/munge/munge.key" 2>"$tmp/log/mungekey" ||
	die "mungekey failed: $(cat "$tmp/log/mungekey")"
munged --foreground --force --socket="$tmp/munge/socket" \
	--key-file="$tmp/munge/munge.key" --pid-file="$tmp/munge/pid" \
	--log-file="$tmp/log/munged" --seed-file="$tmp/munge/seed" \
	2>>"$tmp/log/munged" &
pids="$pids $!"

# two free ports next to each other, from a range few daemons use
port=$((20000 + $$ % 20000))
while ss -ltn 2>/dev/null | grep -q ":$port \|:$((port + 1)) "; do
	port=$((port + 2))
done
cpus=$(getconf _NPROCESSORS_ONLN)
mem=$(awk '/MemTotal/ { print int($2 / 1024 / 2) }' /proc/meminfo)
cat >"$tmp/slurm.conf" <<CONF
ClusterName=oomlens-check
SlurmctldHost=$(hostname -s)(127.0.0.1)
MailProg=/bin/true
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$tmp/munge/socket
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool/%n
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/log/slurmctld
SlurmdLogFile=$tmp/log/slurmd
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SwitchType=switch/none
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
SchedulerType=sched/backfill
SchedulerParameters=sched_interval=2,bf_interval=1
MinJobAge=300
NodeName=oomlens-node NodeAddr=127.0.0.1 NodeHostname=$(hostname) CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=check Nodes=oomlens-node Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$tmp/slurm.conf"
n=0
until [ -S "$tmp/munge/socket" ] || [ $n -ge 100 ]; do
	sleep 0.1
	n=$((n + 1))
done
[ -S "$tmp/munge/socket" ] || die "munged did not start"
slurmctld -D -i -f "$SLURM_CONF" 2>>"$tmp/log/slurmctld.err" &
pids="$pids $!"
slurmd -D -N oomlens-node -f "$SLURM_CONF" 2>>"$tmp/log/slurmd.err" &
pids="$pids $!"
deadline=$(($(date +%s) + 60))
until timeout 5 sinfo -h -N -o '%T' 2>/dev/null | grep -q '^idle'; do
	[ "$(date +%s)" -lt "$deadline" ] || die "the node did not come up in 60 s"
	sleep 0.2
done
ok

# the fixtures, and the same report in two files (one per shard at least
# in one order): absolute paths, sorted
cp "$repo/fixtures/demo/rhel7-storm.log" "$tmp/dup-a.log"
cp "$repo/fixtures/demo/rhel7-storm.log" "$tmp/dup-b.log"
touch -d '2020-01-01 00:00:00' "$tmp/dup-a.log" "$tmp/dup-b.log"
{
	find "$repo/fixtures/kernel-output" "$repo/fixtures/demo" -type f
	echo "$tmp/dup-a.log"
	echo "$tmp/dup-b.log"
} | LC_ALL=C sort >"$tmp/list"
# shellcheck disable=SC2046 # one path a line, no blanks
"$oomlens" ingest --quiet --db "$tmp/one.db" $(cat "$tmp/list") || bad "one ingest"
"$repo/tests/db-canon.sh" "$tmp/one.db" >"$tmp/one.txt"

started=$(date +%s.%N)
if timeout 600 sh "$repo/scripts/fleet/slurm-submit.sh" -w -n 4 -o "$tmp/out" -b "$oomlens" \
	"$tmp/list" "$tmp/merged.db" >"$tmp/log/submit" 2>&1; then
	ok
else
	bad "slurm: the recipe failed"
	cat "$tmp/log/submit" "$tmp"/out/*.out
fi
ended=$(date +%s.%N)
[ "$(find "$tmp/out" -name 'shard-*.db' | wc -l)" = 4 ] && ok || bad "slurm: 4 shards"
grep -q "ingest array: job [0-9]* (4 tasks)" "$tmp/log/submit" && ok || { bad "slurm: array of 4"; cat "$tmp/log/submit"; }
if [ -f "$tmp/merged.db" ]; then
	"$repo/tests/db-canon.sh" "$tmp/merged.db" >"$tmp/merged.txt"
	cmp -s "$tmp/one.txt" "$tmp/merged.txt" && ok || { bad "slurm: merged equals one ingest"; diff "$tmp/one.txt" "$tmp/merged.txt" | head; }
else
	bad "slurm: no merged database"
fi
echo "check-slurm: slurm recipe, 4 array tasks + merge: $(awk -v a="$started" -v b="$ended" 'BEGIN { printf "%.1f", b - a }') s"

# a failing shard: the merge job is cancelled, the recipe says so
echo /nonexistent/oomlens-missing.log >"$tmp/badlist"
rm -rf "$tmp/out2"
timeout 300 sh "$repo/scripts/fleet/slurm-submit.sh" -w -n 2 -o "$tmp/out2" -b /nonexistent/oomlens \
	"$tmp/badlist" "$tmp/bad.db" >"$tmp/log/submit-bad" 2>&1 &&
	bad "slurm: a failing shard fails the recipe" || ok
[ ! -f "$tmp/bad.db" ] && ok || bad "slurm: no merge after a failed shard"

# the same recipe with GNU parallel, here
started=$(date +%s.%N)
sh "$repo/scripts/fleet/parallel.sh" -n 4 -j 2 -S : -o "$tmp/pout" -b "$oomlens" \
	"$tmp/list" "$tmp/pmerged.db" >"$tmp/log/parallel" 2>&1 && ok || { bad "parallel: the recipe failed"; cat "$tmp/log/parallel"; }
ended=$(date +%s.%N)
"$repo/tests/db-canon.sh" "$tmp/pmerged.db" >"$tmp/pmerged.txt" 2>/dev/null
cmp -s "$tmp/one.txt" "$tmp/pmerged.txt" && ok || bad "parallel: merged equals one ingest"
echo "check-slurm: parallel recipe, 4 shards + merge: $(awk -v a="$started" -v b="$ended" 'BEGIN { printf "%.1f", b - a }') s"

# OOMLENS_FLEET_BENCH=LIST: time one ingest, the Slurm recipe and the
# parallel one on the files of LIST (README.md's figures), each checked
# against the one ingest
if [ -n "${OOMLENS_FLEET_BENCH:-}" ]; then
	bl=$OOMLENS_FLEET_BENCH
	shards=${OOMLENS_FLEET_SHARDS:-8}
	secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }
	t0=$(date +%s.%N)
	tr '\n' '\0' <"$bl" | xargs -0 "$oomlens" ingest --quiet --db "$tmp/b1.db"
	t1=$(date +%s.%N)
	timeout 1800 sh "$repo/scripts/fleet/slurm-submit.sh" -w -n "$shards" -o "$tmp/bs" -b "$oomlens" \
		"$bl" "$tmp/bs.db" >"$tmp/log/bench-slurm" 2>&1 || bad "bench: slurm recipe"
	t2=$(date +%s.%N)
	sh "$repo/scripts/fleet/parallel.sh" -n "$shards" -o "$tmp/bp" -b "$oomlens" \
		"$bl" "$tmp/bp.db" >"$tmp/log/bench-parallel" 2>&1 || bad "bench: parallel recipe"
	t3=$(date +%s.%N)
	"$repo/tests/db-canon.sh" "$tmp/b1.db" >"$tmp/b1.txt"
	for x in bs bp; do
		"$repo/tests/db-canon.sh" "$tmp/$x.db" >"$tmp/$x.txt"
		cmp -s "$tmp/b1.txt" "$tmp/$x.txt" && ok || bad "bench: $x equals one ingest"
	done
	rows=$(sqlite3 "$tmp/b1.db" "SELECT count(*) FROM tasks")
	echo "check-slurm: bench on $(wc -l <"$bl") files, $rows task rows, $(getconf _NPROCESSORS_ONLN) CPUs:"
	echo "  one ingest           $(secs "$t0" "$t1") s"
	echo "  slurm, $shards tasks + merge $(secs "$t1" "$t2") s"
	echo "  parallel, $shards shards + merge $(secs "$t2" "$t3") s"
fi

echo "check-slurm: $pass passed, $fail failed"
[ "$fail" = 0 ]
