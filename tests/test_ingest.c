// SPDX-License-Identifier: MIT
/*
 * The ordered parallel map of the ingest engine (ingest/map.c): items
 * made on workers are taken in order, memory stays within the window, and
 * the first error stops the run with every made item dropped.
 */
#include <check.h>
#include <pthread.h>
#include <stdlib.h>

#include "ingest/ingest.h"
#include "tests/suites.h"

struct counts {
	pthread_mutex_t lock;
	size_t n_taken, n_dropped, live, max_live;
	size_t next_taken; /* the item take() expects */
	bool in_order;
	size_t fail_work_at, fail_take_at; /* (size_t)-1: never */
	size_t max_worker;
};

static void live(struct counts *c, int d)
{
	pthread_mutex_lock(&c->lock);
	c->live += (size_t)d;
	if (d > 0 && c->live > c->max_live)
		c->max_live = c->live;
	pthread_mutex_unlock(&c->lock);
}

static struct oomlens_error *work(void *ctx, size_t w, size_t i, void **out)
{
	struct counts *c = ctx;
	size_t *item = malloc(sizeof(*item));

	ck_assert_ptr_nonnull(item);
	*item = i;
	*out = item;
	live(c, 1);
	pthread_mutex_lock(&c->lock);
	if (w > c->max_worker)
		c->max_worker = w;
	pthread_mutex_unlock(&c->lock);
	if (i == c->fail_work_at)
		return oomlens_error_new(OOMLENS_ERR_CORRUPT, "work %zu", i);
	return NULL;
}

static struct oomlens_error *take(void *ctx, size_t i, void *out)
{
	struct counts *c = ctx;
	size_t *item = out;

	if (*item != i || i != c->next_taken)
		c->in_order = false;
	c->next_taken++;
	c->n_taken++;
	free(item);
	live(c, -1);
	if (i == c->fail_take_at)
		return oomlens_error_new(OOMLENS_ERR_DB, "take %zu", i);
	return NULL;
}

static void drop(void *ctx, void *out)
{
	struct counts *c = ctx;

	free(out);
	c->n_dropped++;
	live(c, -1);
}

static struct oomlens_error *run_map(struct counts *c, size_t n, size_t workers,
				     size_t window)
{
	struct ingest_map m = {.n = n,
			       .nworkers = workers,
			       .window = window,
			       .work = work,
			       .take = take,
			       .drop = drop,
			       .ctx = c};

	pthread_mutex_init(&c->lock, NULL);
	c->in_order = true;
	return ingest_map_run(&m);
}

static void init(struct counts *c)
{
	*c = (struct counts){.fail_work_at = (size_t)-1,
			     .fail_take_at = (size_t)-1};
}

/* Every item taken once, in order, with at most window alive. */
START_TEST(test_map_in_order)
{
	static const size_t workers[] = {0, 1, 2, 4, 16};
	struct counts c;

	for (size_t k = 0; k < sizeof(workers) / sizeof(workers[0]); k++) {
		init(&c);
		ck_assert_ptr_null(run_map(&c, 5000, workers[k], 3));
		ck_assert(c.in_order);
		ck_assert_uint_eq(c.n_taken, 5000);
		ck_assert_uint_eq(c.n_dropped, 0);
		ck_assert_uint_eq(c.live, 0);
		/* made ahead: the window, plus the one being taken */
		ck_assert_uint_le(c.max_live, 3 + 1);
		ck_assert_uint_lt(c.max_worker, workers[k] ? workers[k] : 1);
	}
	init(&c);
	ck_assert_ptr_null(run_map(&c, 0, 4, 0));
	ck_assert_uint_eq(c.n_taken, 0);
}
END_TEST

/* The first error stops the run: nothing after it taken, nothing leaked. */
START_TEST(test_map_stops_at_the_first_error)
{
	struct oomlens_error *err;
	struct counts c;

	for (size_t workers = 1; workers <= 4; workers += 3) {
		init(&c);
		c.fail_work_at = 700;
		err = run_map(&c, 5000, workers, 8);
		ck_assert_ptr_nonnull(err);
		ck_assert_str_eq(err->message, "work 700");
		oomlens_error_free(err);
		ck_assert_uint_eq(c.n_taken, 700);
		ck_assert(c.in_order);
		ck_assert_uint_eq(c.live, 0);

		init(&c);
		c.fail_take_at = 41;
		err = run_map(&c, 5000, workers, 8);
		ck_assert_ptr_nonnull(err);
		ck_assert_str_eq(err->message, "take 41");
		oomlens_error_free(err);
		ck_assert_uint_eq(c.n_taken, 42);
		ck_assert_uint_eq(c.live, 0);
	}
}
END_TEST

Suite *ingest_suite(void)
{
	Suite *s = suite_create("ingest");
	TCase *tc = tcase_create("map");

	tcase_add_test(tc, test_map_in_order);
	tcase_add_test(tc, test_map_stops_at_the_first_error);
	suite_add_tcase(s, tc);
	return s;
}
