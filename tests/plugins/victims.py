#!/usr/bin/env python3
# The victims of the example plugins (examples/plugins/), worked from the
# task tables of the raw logs given, not from oomlens: one line per table,
# "LARGEST_RSS_PID PSS_LIKE_PID", in the order of the files and tables.
# Pages of 4 kB. largest-rss: the largest rss among rows whose
# oom_score_adj (or oom_adj's, scaled by 1000/17) is above -1000, the
# first of equal ones; pss-like: rss_anon + rss_file + rss_shmem / S, S
# the rows with rss_shmem > 0 (1 if none); where the table has no split,
# rss, but the Killed line's split (kB / 4 each) for its pid.
import re
import sys

HEADER = re.compile(r"\[\s*pid\s*\]\s+(.*?)\s*$")
KILLED = re.compile(r"Killed process (\d+) .*?anon-rss:(\d+)kB, "
                    r"file-rss:(\d+)kB, shmem-rss:(\d+)kB")


def row_re(n):
    return re.compile(r"\[\s*(\d+)\]((?:\s+-?\d+){%d})\s+(.*)$" % n)


def tables(lines):
    i = 0
    while i < len(lines):
        m = HEADER.search(lines[i])
        i += 1
        if not m:
            continue
        cols = m.group(1).split()[:-1]  # the numeric ones; "name" last
        rx = row_re(len(cols))
        rows = []
        while i < len(lines):
            r = rx.search(lines[i])
            if not r:
                break
            vals = [int(v) for v in r.group(2).split()]
            row = dict(zip(cols, vals))
            row["pid"] = int(r.group(1))
            rows.append(row)
            i += 1
        killed = None
        for j in range(i, min(i + 5, len(lines))):
            k = KILLED.search(lines[j])
            if k:
                killed = [int(x) for x in k.groups()]
                break
        yield rows, killed


def osa(row):
    if "oom_score_adj" in row:
        return row["oom_score_adj"]
    adj = row.get("oom_adj", 0)
    return 1000 if adj >= 15 else -1000 if adj <= -17 else adj * 1000 // 17


def best(rows, score):
    win = None
    for r in rows:
        if osa(r) <= -1000:
            continue
        s = score(r)
        if win is None or s > win[0]:
            win = (s, r["pid"])
    return win[1] if win else "-"


def main():
    for path in sys.argv[1:]:
        with open(path, errors="replace") as f:
            lines = f.read().splitlines()
        for rows, killed in tables(lines):
            split = rows and "rss_shmem" in rows[0]
            sharers = sum(1 for r in rows if r.get("rss_shmem", 0) > 0) or 1

            def pss(r):
                if split:
                    return (r["rss_anon"] + r["rss_file"] +
                            r["rss_shmem"] // sharers)
                if killed and killed[0] == r["pid"]:
                    return sum(v // 4 for v in killed[1:])
                return r["rss"]
            print(best(rows, lambda r: r["rss"]), best(rows, pss))


main()
