#!/usr/bin/env python3
# tests/tree-compare.py A B FILE.json...: the verdicts of models A (built
# in) and B (a --badness-from tree) in `oomlens analyze --format json`
# outputs, field by field, incident by incident: --badness-from's proof
# (tests/e2e-tree.sh, make check-tree, docs/badness-from.md).
#
# Equal, always: victim, score, runner_up (pid and score), kernel_rule,
# same_as_old, agreement. One difference is allowed, and only in its exact
# shape: a tie (victim and runner-up of equal scores, swapped) where A took
# the other of the two, because a forced built-in era uses the incident's
# kernel's tie rule while a tree uses its own scan's (6.1: the last of
# equal maxima); agreement may follow it.
# Counted, not failed: certainty, deciding_inputs and candidates, which
# come from the runner (mainline_run.c for A, the generic plugin runner
# for B), not from the badness function; and kernel_score, which the kill
# path prints (points * 1000 / totalpages), not oom_badness().
# Prints each failing difference; exit 1 if any (or no verdict at all).
#
# tests/tree-compare.py --changes A A2 B B2 FILE.json...: the incidents
# whose victim or score changes from model A to A2 are exactly those that
# change from B to B2 (an edit to a tree against the same edit to the
# built-in model); exit 1 otherwise, or when none changes.
import json
import sys

STRICT = ["victim", "score", "runner_up", "kernel_rule", "same_as_old",
          "agreement"]
RUNNER = ["certainty", "deciding_inputs", "candidates", "candidates_total"]


def pairs(path, a, b):
    with open(path) as f:
        doc = json.load(f)
    for i, inc in enumerate(doc.get("incidents", [])):
        vs = {v.get("model"): v for v in inc.get("models", [])}
        yield f"{path}: incident {i + 1} ({inc.get('source')})", \
            vs.get(a), vs.get(b)


def tie_swap(x, y):
    """x and y chose the two of a tie, each the other's runner-up."""
    rx, ry = x.get("runner_up") or {}, y.get("runner_up") or {}
    return (x.get("score") == y.get("score") == rx.get("score") ==
            ry.get("score") and
            (x.get("victim") or {}).get("pid") == ry.get("pid") and
            (y.get("victim") or {}).get("pid") == rx.get("pid"))


def changed(path, a, a2):
    """The incidents where model a2's victim or score is not a's."""
    out = set()
    for where, x, y in pairs(path, a, a2):
        if x is None or y is None:
            continue
        if (x.get("victim"), x.get("score")) != (y.get("victim"),
                                                   y.get("score")):
            out.add(where)
    return out


def changes(argv):
    """--changes A A2 B B2 FILE...: A to A2 changes what B to B2 does."""
    a, a2, b, b2, files = argv[0], argv[1], argv[2], argv[3], argv[4:]
    ca = set().union(*(changed(f, a, a2) for f in files))
    cb = set().union(*(changed(f, b, b2) for f in files))
    for w in sorted(ca ^ cb):
        print(f"{w}: changed by {a2 if w in ca else b2} only")
    print(f"{len(ca)} incidents changed from {a} to {a2}, {len(cb)} from "
          f"{b} to {b2}, {len(ca ^ cb)} not both")
    return 1 if ca != cb or not ca else 0


def main():
    if sys.argv[1] == "--changes":
        return changes(sys.argv[2:])
    a, b, files = sys.argv[1], sys.argv[2], sys.argv[3:]
    n = bad = ties = 0
    runner = {k: 0 for k in RUNNER}
    for path in files:
        for where, x, y in pairs(path, a, b):
            if (x is None) != (y is None):
                print(f"{where}: a verdict of {a if x else b} only")
                bad += 1
            if x is None or y is None:
                continue
            n += 1
            swapped = x.get("victim") != y.get("victim") and tie_swap(x, y)
            ties += swapped
            for k in STRICT:
                if x.get(k) == y.get(k):
                    continue
                if swapped and k in ("victim", "runner_up", "agreement"):
                    continue
                bad += 1
                print(f"{where}: {k}: {a} {json.dumps(x.get(k))}, "
                      f"{b} {json.dumps(y.get(k))}")
            for k in RUNNER:
                runner[k] += x.get(k) != y.get(k)
    print(f"{n} verdicts compared, {bad} differ, {ties} ties taken the "
          f"other way; runner differences: " +
          ", ".join(f"{k} {v}" for k, v in runner.items()))
    return 1 if bad or not n else 0


if __name__ == "__main__":
    sys.exit(main())
