/* SPDX-License-Identifier: MIT */
#ifndef OOMLENS_MODEL_COMPARE_H
#define OOMLENS_MODEL_COMPARE_H

/*
 * Where two models choose differently (oomlens report --compare A B): one
 * row per incident whose stored verdicts of A and B name different
 * victims, the set of such rows of one run, and the comparison of a run
 * with a baseline (an earlier run's rows, read back from its JSON). Plain
 * data: db/ fills a row, parsers/ reads a baseline, reports/ renders a
 * set, cli/ carries them.
 *
 * A set owns its rows and their strings (a pool with a cap: a hostile
 * baseline cannot make it grow without bound). Rows handed to
 * compare_set_add() are copied.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/error.h"
#include "core/strpool.h"
#include "model/verdict.h"

/* One model's stored verdict on the incident. */
struct compare_side {
	const char *model; /* as stored: "mainline-5.9", "tree:6.1.192" */
	bool has_victim; /* false: no eligible task */
	int64_t pid; /* the victim */
	const char *comm;
	int64_t score; /* in the model's own units; OOM_VAL_NONE: unknown */
	/* in score_units; OOM_VAL_NONE: unknown */
	int64_t kernel_score_lo, kernel_score_hi;
	/* the kernel's printed units, or a plugin model's own */
	enum verdict_score_units score_units;
	enum verdict_certainty certainty;
	/*
	 * What decided the choice: the verdict's deciding inputs (the
	 * unknowns or assumptions it rests on) joined by "; ", or "" when
	 * the scores alone decided (a certain verdict names none).
	 */
	const char *decided_by;
	/*
	 * What decided between the two victims under this model: the
	 * inputs that alone make the difference, as analyzer_deciding_term()
	 * weighs them ("swap entries 262144 against 0 pages"), or a sentence
	 * saying why none was weighed; "" where it was not weighed (a
	 * baseline of compare_version 1 before this key).
	 */
	const char *deciding_term;
};

/* Against a baseline: what became of a disagreement. */
enum compare_status {
	COMPARE_LISTED, /* no baseline */
	COMPARE_NEW, /* not in the baseline */
	COMPARE_CHANGED, /* in it, with another victim, score or certainty */
	COMPARE_UNCHANGED, /* in it, the same */
	COMPARE_GONE, /* a baseline row the run no longer has */
};

/* "listed", "new", "changed", "unchanged", "gone" */
const char *compare_status_name(enum compare_status s);

struct compare_row {
	int64_t incident_id; /* in the database it came from */
	const char *fingerprint; /* the identity across databases */
	const char *host; /* NULL: unknown */
	const char *kernel_release; /* NULL: unknown */
	const char *kernel; /* "6.1" (major.minor) or "unknown" */
	const char *constraint; /* "memcg", ..., "unknown" */
	struct compare_side a, b;
	enum compare_status status;
	/* COMPARE_CHANGED: the baseline's row (owned by the baseline set) */
	const struct compare_row *before;
};

/* Both verdicts are certain: the models differ whatever the unknowns. */
bool compare_row_certain(const struct compare_row *r);

/* The same victim, scores and certainty (the decided_by text aside). */
bool compare_side_same(const struct compare_side *x,
		       const struct compare_side *y);

/* The rows of one run, in the order added. */
struct compare_set {
	const char *model_a, *model_b; /* in pool */
	int64_t compared; /* incidents both models scored; -1: unknown */
	struct compare_row *rows;
	size_t n, alloc;
	size_t max_rows; /* compare_set_add() refuses more (LIMIT) */
	struct strpool pool;
};

/* Bounds of a set: as many rows as a baseline may hold, bytes of text. */
#define COMPARE_MAX_ROWS ((size_t)1 << 20)
#define COMPARE_MAX_TEXT ((size_t)256 << 20)

/* An empty set of the two models' names (copied). Errors: NOMEM. */
OOMLENS_MUST_CHECK struct oomlens_error *compare_set_init(struct compare_set *s,
							  const char *model_a,
							  const char *model_b);
/* Add a copy of r. Errors: NOMEM, LIMIT (past max_rows or the pool's cap). */
OOMLENS_MUST_CHECK struct oomlens_error *
compare_set_add(struct compare_set *s, const struct compare_row *r);
void compare_set_release(struct compare_set *s);

/* How a run compares with its baseline. */
struct compare_diff {
	size_t fresh, changed, unchanged, gone;
	/* of fresh and changed: those where both verdicts are certain */
	size_t certain;
};

/*
 * Set the status of every row of run (NEW, CHANGED with its before, or
 * UNCHANGED) and of base (GONE, or UNCHANGED where run still has it),
 * matching rows by fingerprint; *d gets the counts. A fingerprint twice
 * in base matches its first row. Errors: NOMEM.
 */
OOMLENS_MUST_CHECK struct oomlens_error *compare_diff(struct compare_set *run,
						      struct compare_set *base,
						      struct compare_diff *d);

/*
 * Whether the run fails its gate: a disagreement on certain verdicts
 * (with a baseline: a new or changed one).
 */
bool compare_fails(const struct compare_set *run);

#endif
