// SPDX-License-Identifier: MIT
/*
 * Where two models choose differently (model/compare.h): a run's rows,
 * and how they compare with a baseline's.
 */
#include "model/compare.h"

#include <stdlib.h>
#include <string.h>

#include "core/banned.h"

const char *compare_status_name(enum compare_status s)
{
	switch (s) {
	case COMPARE_LISTED:
		return "listed";
	case COMPARE_NEW:
		return "new";
	case COMPARE_CHANGED:
		return "changed";
	case COMPARE_UNCHANGED:
		return "unchanged";
	case COMPARE_GONE:
		return "gone";
	}
	return "unknown";
}

bool compare_row_certain(const struct compare_row *r)
{
	return r->a.certainty == VERDICT_CERTAIN &&
	       r->b.certainty == VERDICT_CERTAIN;
}

static bool same_text(const char *x, const char *y)
{
	return (!x && !y) || (x && y && !strcmp(x, y));
}

bool compare_side_same(const struct compare_side *x,
		       const struct compare_side *y)
{
	if (x->has_victim != y->has_victim || x->certainty != y->certainty ||
	    !same_text(x->model, y->model))
		return false;
	if (!x->has_victim)
		return true;
	return x->pid == y->pid && same_text(x->comm, y->comm) &&
	       x->score == y->score &&
	       x->kernel_score_lo == y->kernel_score_lo &&
	       x->kernel_score_hi == y->kernel_score_hi;
}

struct oomlens_error *compare_set_init(struct compare_set *s,
				       const char *model_a, const char *model_b)
{
	memset(s, 0, sizeof(*s));
	s->pool.cap = COMPARE_MAX_TEXT;
	s->max_rows = COMPARE_MAX_ROWS;
	s->compared = -1;
	s->model_a = strpool_dups(&s->pool, model_a);
	s->model_b = strpool_dups(&s->pool, model_b);
	if (!s->model_a || !s->model_b) {
		strpool_release(&s->pool);
		return &oomlens_error_nomem;
	}
	return NULL;
}

/* Copy a side's strings into s's pool. */
static void copy_side(struct compare_set *s, struct compare_side *d)
{
	d->model = strpool_dups(&s->pool, d->model ? d->model : "");
	d->comm = strpool_dups(&s->pool, d->comm ? d->comm : "");
	d->decided_by =
		strpool_dups(&s->pool, d->decided_by ? d->decided_by : "");
	d->deciding_term = strpool_dups(
		&s->pool, d->deciding_term ? d->deciding_term : "");
}

struct oomlens_error *compare_set_add(struct compare_set *s,
				      const struct compare_row *r)
{
	struct compare_row *d;

	if (s->n >= s->max_rows)
		return oomlens_error_new(OOMLENS_ERR_LIMIT,
					 "more than %zu disagreements",
					 s->max_rows);
	if (s->n == s->alloc) {
		size_t want = s->alloc ? s->alloc * 2 : 64;
		struct compare_row *p = realloc(s->rows, want * sizeof(*p));

		if (!p)
			return &oomlens_error_nomem;
		s->rows = p;
		s->alloc = want;
	}
	d = &s->rows[s->n];
	*d = *r;
	d->fingerprint =
		strpool_dups(&s->pool, r->fingerprint ? r->fingerprint : "");
	d->host = strpool_dups(&s->pool, r->host);
	d->kernel_release = strpool_dups(&s->pool, r->kernel_release);
	d->kernel = strpool_dups(&s->pool, r->kernel ? r->kernel : "unknown");
	d->constraint = strpool_dups(&s->pool,
				     r->constraint ? r->constraint : "unknown");
	copy_side(s, &d->a);
	copy_side(s, &d->b);
	if (s->pool.nomem)
		return &oomlens_error_nomem;
	if (!d->fingerprint || !d->kernel || !d->constraint || !d->a.model ||
	    !d->a.comm || !d->a.decided_by || !d->a.deciding_term ||
	    !d->b.model || !d->b.comm || !d->b.decided_by ||
	    !d->b.deciding_term || (r->host && !d->host) ||
	    (r->kernel_release && !d->kernel_release))
		return oomlens_error_new(OOMLENS_ERR_LIMIT,
					 "more than %zu bytes of text",
					 s->pool.cap);
	s->n++;
	return NULL;
}

void compare_set_release(struct compare_set *s)
{
	free(s->rows);
	strpool_release(&s->pool);
	memset(s, 0, sizeof(*s));
}

static int by_fingerprint(const void *x, const void *y)
{
	const struct compare_row *const *a = x, *const *b = y;
	int c = strcmp((*a)->fingerprint, (*b)->fingerprint);

	/* equal fingerprints: the first row first */
	return c ? c : (*a < *b ? -1 : *a > *b);
}

/* The first row of sorted (n of them) with fingerprint fp, or NULL. */
static struct compare_row *find(struct compare_row **sorted, size_t n,
				const char *fp)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(sorted[mid]->fingerprint, fp) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && !strcmp(sorted[lo]->fingerprint, fp) ? sorted[lo]
							      : NULL;
}

/* One run row against the base row b (or none). */
static void classify(struct compare_row *r, struct compare_row *b,
		     struct compare_diff *d)
{
	if (!b) {
		r->status = COMPARE_NEW;
		d->fresh++;
	} else if (compare_side_same(&r->a, &b->a) &&
		   compare_side_same(&r->b, &b->b)) {
		r->status = COMPARE_UNCHANGED;
		d->unchanged++;
	} else {
		r->status = COMPARE_CHANGED;
		r->before = b;
		d->changed++;
	}
	if (b)
		b->status = COMPARE_UNCHANGED;
	if (r->status != COMPARE_UNCHANGED && compare_row_certain(r))
		d->certain++;
}

struct oomlens_error *compare_diff(struct compare_set *run,
				   struct compare_set *base,
				   struct compare_diff *d)
{
	struct compare_row **sorted = NULL;
	size_t i;

	memset(d, 0, sizeof(*d));
	if (base->n && !(sorted = calloc(base->n, sizeof(*sorted))))
		return &oomlens_error_nomem;
	for (i = 0; i < base->n; i++) {
		sorted[i] = &base->rows[i];
		base->rows[i].status = COMPARE_GONE;
	}
	if (base->n)
		qsort(sorted, base->n, sizeof(*sorted), by_fingerprint);
	for (i = 0; i < run->n; i++)
		classify(&run->rows[i],
			 find(sorted, base->n, run->rows[i].fingerprint), d);
	for (i = 0; i < base->n; i++)
		d->gone += base->rows[i].status == COMPARE_GONE;
	free(sorted);
	return NULL;
}

bool compare_fails(const struct compare_set *run)
{
	size_t i;

	for (i = 0; i < run->n; i++) {
		const struct compare_row *r = &run->rows[i];

		if (compare_row_certain(r) && r->status != COMPARE_UNCHANGED)
			return true;
	}
	return false;
}
