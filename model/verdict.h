/* SPDX-License-Identifier: MIT */
#ifndef OOMLENS_MODEL_VERDICT_H
#define OOMLENS_MODEL_VERDICT_H

/*
 * What a heuristic model says about one incident: the victim it would
 * choose, its score, the runner-up, and how sure that answer is given what
 * the report leaves unknown. Plain data: analyzer/ fills it, reports/
 * renders it, cli/ carries it from one to the other.
 *
 * Ownership: a verdict owns no memory. Its comm pointers are borrowed from
 * the incident it was computed from and live as long as that incident; its
 * model name is a copy; deciding_inputs point to string literals.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum verdict_certainty {
	/* the same victim under every admissible value of the unknowns */
	VERDICT_CERTAIN,
	/* the victim depends on unknowns: deciding_inputs and candidates */
	VERDICT_UNDETERMINED,
	/* one victim, but only under assumptions named in deciding_inputs */
	VERDICT_ASSUMED,
};

static inline const char *verdict_certainty_name(enum verdict_certainty c)
{
	switch (c) {
	case VERDICT_CERTAIN:
		return "certain";
	case VERDICT_UNDETERMINED:
		return "undetermined";
	case VERDICT_ASSUMED:
		return "assumed";
	}
	return "unknown";
}

/*
 * What the kernel did, as far as a model's choice can be compared with it.
 * Only a victim the kernel chose by its badness (a selected or killed pid
 * in the report) is a choice to agree or disagree with. Otherwise the
 * kernel chose by another rule (oom_kill_allocating_task kills the
 * allocating task), chose nothing (panic_on_oom panics before any choice;
 * no task was eligible), or the report stops before its choice: the
 * verdict is then VERDICT_NO_BADNESS_CHOICE, counted apart from the
 * agreement rate.
 */
enum verdict_agreement {
	VERDICT_SAME, /* the model's victim is the kernel's choice */
	VERDICT_DIFFERS, /* another victim, or none where the kernel chose */
	VERDICT_NO_BADNESS_CHOICE, /* nothing to compare: verdict.kernel_rule */
	/*
	 * Undetermined, and the kernel's victim is one of the candidates:
	 * what the report leaves unknown decides whether the model would
	 * have chosen as the kernel did. Neither same nor differs: counted
	 * apart, in no rate.
	 */
	VERDICT_UNDETERMINED_INCLUDES_KERNEL, /* the last (model/fields.c) */
};

static inline const char *verdict_agreement_name(enum verdict_agreement a)
{
	switch (a) {
	case VERDICT_SAME:
		return "same";
	case VERDICT_DIFFERS:
		return "differs";
	case VERDICT_NO_BADNESS_CHOICE:
		return "no_badness_choice";
	case VERDICT_UNDETERMINED_INCLUDES_KERNEL:
		return "undetermined_includes_kernel";
	}
	return "unknown";
}

/*
 * The units of a verdict's kernel_score_lo/hi: the kernel's printed score
 * (the built-in models, whose formulas are the kernel's), or the model's
 * own (a plugin's score, which no kernel printed).
 */
enum verdict_score_units {
	VERDICT_UNITS_KERNEL, /* the default: a zeroed verdict's */
	VERDICT_UNITS_MODEL,
};

/* "kernel" or "model", as JSON and model_verdicts.score_units name them */
static inline const char *verdict_score_units_name(enum verdict_score_units u)
{
	return u == VERDICT_UNITS_MODEL ? "model" : "kernel";
}

struct verdict_task {
	int64_t pid;
	const char *comm; /* borrowed from the incident */
	int64_t score; /* in the model's own units */
};

#define VERDICT_MAX_INPUTS 12
#define VERDICT_MAX_CANDIDATES 8
#define VERDICT_MAX_STEPS 20

/*
 * One term of a score breakdown (--explain): what was applied and the
 * points after it, as the kernel's unsigned long (or long) held them.
 */
struct verdict_step {
	char term[80];
	uint64_t points;
	bool is_signed; /* points is a two's-complement int64_t */
};

/*
 * The score of one process under one model, term by term, with the inputs
 * at their defaults or assumed values; lo and hi bound it over the
 * unknowns.
 */
struct verdict_explain {
	bool present; /* the asked pid is in the task table */
	int64_t pid;
	const char *comm; /* borrowed from the incident */
	struct verdict_step steps[VERDICT_MAX_STEPS];
	size_t n_steps;
	uint64_t lo, hi; /* the score's bounds over the unknowns */
	bool is_signed; /* lo, hi and the steps are int64_t (mainline) */
};

struct verdict {
	char model[32]; /* "mainline-3.14": model name and era */
	int model_version; /* of the model's formula; bumps when it changes */
	bool has_victim; /* false: no eligible task in the table */
	struct verdict_task victim;
	/*
	 * The victim's score in the units the era's kernel prints in its Kill
	 * line, so it compares with `score S`: an interval [lo, hi] over the
	 * unknowns; lo == hi when the report determines it. A plugin model's
	 * are its own score's bounds instead, in its units (score_units).
	 */
	int64_t kernel_score_lo, kernel_score_hi;
	enum verdict_score_units score_units; /* of kernel_score_lo/hi */
	bool has_runner_up;
	struct verdict_task runner_up;
	bool same_as_kernel; /* agreement == VERDICT_SAME */
	enum verdict_agreement agreement;
	/*
	 * VERDICT_NO_BADNESS_CHOICE: what the kernel did instead, a literal
	 * ("panic_on_oom", "oom_kill_allocating_task", ...); else NULL.
	 */
	const char *kernel_rule;
	/*
	 * Against the old badness (mmotm-2009-11, the one the 2009 RFC
	 * replaced), when it ran on the same incident: the same victim?
	 */
	bool has_old, same_as_old;
	enum verdict_certainty certainty;
	const char *deciding_inputs[VERDICT_MAX_INPUTS];
	size_t n_deciding_inputs;
	/* undetermined: the tasks that could be chosen (the first few) */
	struct verdict_task candidates[VERDICT_MAX_CANDIDATES];
	size_t n_candidates; /* how many are stored */
	size_t n_candidates_total; /* how many there are */
	/* undetermined: the kernel's victim is one of the candidates */
	bool kernel_among_candidates;
	/*
	 * Where the kernel's release allows more than one formula: what the
	 * kernel's own choice says of the one it ran, or "" (issue 26)
	 */
	char formula_evidence[224];
	/*
	 * Which formula the verdict is on evidence from: 1 the row's own, 2
	 * the other the row allows; 0 where nothing showed it. formula_from
	 * is the fingerprint of the incident whose choice showed it when that
	 * was another of the same host and kernel release, else 0.
	 */
	uint8_t formula_shown;
	uint64_t formula_from;
	/*
	 * A remark on the choice, or "": the 2009 RFC models say here where
	 * "as posted" and "as intended" choose differently, and what their
	 * fork-bomb detector could be told by the report.
	 */
	char note[192];
	/* fork bomb detected (2009 RFC models): its pid, else 0 */
	int64_t forkbomb_pid;
	/* --explain PID: the breakdown under this model, when asked */
	struct verdict_explain explain;
};

/* The models run on one incident, in the order they were asked for. */
#define VERDICT_MAX_MODELS 8

/* A plugin model that gave no verdict on the incident, and why. */
struct verdict_failure {
	char model[32];
	char why[192];
};

struct verdict_list {
	struct verdict v[VERDICT_MAX_MODELS];
	size_t n;
	/* analyzer_run(): the plugin models that failed (cli reports them) */
	struct verdict_failure failed[VERDICT_MAX_MODELS];
	size_t n_failed;
};

#endif
