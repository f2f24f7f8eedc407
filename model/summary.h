/* SPDX-License-Identifier: MIT */
#ifndef OOMLENS_MODEL_SUMMARY_H
#define OOMLENS_MODEL_SUMMARY_H

/*
 * One line of the archive-wide summary of model verdicts (oomlens report
 * --summary): for a model family within a group of incidents, how often it
 * chose as the kernel did, how often it differs from the old model, and
 * how certain its choices are. Plain data; strings are borrowed from
 * whoever produced the row, for the duration of a callback.
 */

#include <stdint.h>

struct verdict_summary {
	const char *dim; /* "all", "constraint", "kernel", "host", "rule" */
	/* the group: "memcg", "3.10", "db7", "all", "panic_on_oom" */
	const char *key;
	const char *family; /* "mainline", "rfc-2009-as-intended", ... */
	int64_t incidents; /* incidents this family scored in the group */
	/*
	 * Of those, where the kernel chose its victim by badness: the model
	 * chose the same, or another; the agreement rate is same_as_kernel /
	 * (same_as_kernel + differs_from_kernel). no_badness_choice: the
	 * kernel chose by another rule, chose nothing, or the report does not
	 * show its choice (model/verdict.h): counted apart, in no rate.
	 * includes_kernel: undetermined, and the kernel's victim is one of
	 * the model's candidates: neither same nor differs, in no rate.
	 */
	int64_t same_as_kernel, differs_from_kernel, no_badness_choice;
	int64_t includes_kernel;
	/* against mmotm-2009-11, the badness the 2009 RFC replaced */
	int64_t differs_from_old, compared_with_old;
	int64_t certain, assumed, undetermined;
};

#endif
