// SPDX-License-Identifier: MIT
/*
 * The ordered parallel map of ingest/ingest.h: workers make items, the
 * calling thread takes them in order.
 *
 * Threads: the calling thread (the taker) and nworkers workers. Shared,
 * under lock: next (the next item to make), taken (items taken so far),
 * stop, and the ring of window slots; item i lives in slot i % window
 * from the moment a worker made it until the taker takes it.
 *
 * Invariants: a worker starts item i only when i < taken + window, so
 * slot i % window is free (item i - window was taken); the taker waits
 * for slot i % window to hold item i; after stop no item is started, and
 * every made item not taken is dropped once the workers have joined.
 */
#include "ingest/ingest.h"

#include <pthread.h>
#include <stdlib.h>

#include "core/banned.h"

struct map_slot {
	void *out;
	struct oomlens_error *err;
	bool made;
};

struct mapper {
	const struct ingest_map *m;
	size_t window;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	size_t next, taken, worker_ids;
	bool stop;
	struct map_slot *ring;
};

/* The next item this worker may make, or false when there is none. */
static bool claim(struct mapper *p, size_t *i)
{
	bool got;

	pthread_mutex_lock(&p->lock);
	while (!p->stop && p->next < p->m->n && p->next >= p->taken + p->window)
		pthread_cond_wait(&p->cond, &p->lock);
	got = !p->stop && p->next < p->m->n;
	if (got)
		*i = p->next++;
	pthread_mutex_unlock(&p->lock);
	return got;
}

static void *worker(void *arg)
{
	struct mapper *p = arg;
	size_t w, i;

	pthread_mutex_lock(&p->lock);
	w = p->worker_ids++;
	pthread_mutex_unlock(&p->lock);
	while (claim(p, &i)) {
		void *out = NULL;
		struct oomlens_error *err = p->m->work(p->m->ctx, w, i, &out);
		struct map_slot *s = &p->ring[i % p->window];

		pthread_mutex_lock(&p->lock);
		s->out = out;
		s->err = err;
		s->made = true;
		pthread_cond_broadcast(&p->cond);
		pthread_mutex_unlock(&p->lock);
	}
	return NULL;
}

/* All on the calling thread. */
static struct oomlens_error *run_serial(const struct ingest_map *m)
{
	struct oomlens_error *err = NULL;

	for (size_t i = 0; i < m->n && !err; i++) {
		void *out = NULL;

		err = m->work(m->ctx, 0, i, &out);
		if (err) {
			if (out)
				m->drop(m->ctx, out);
			break;
		}
		err = m->take(m->ctx, i, out);
	}
	return err;
}

/* The taker: item after item, until the end or the first error. */
static struct oomlens_error *take_all(struct mapper *p)
{
	struct oomlens_error *err = NULL;

	for (size_t i = 0; i < p->m->n && !err; i++) {
		struct map_slot *s = &p->ring[i % p->window];
		struct map_slot got;

		pthread_mutex_lock(&p->lock);
		while (!s->made)
			pthread_cond_wait(&p->cond, &p->lock);
		got = *s;
		s->made = false;
		s->out = NULL;
		s->err = NULL;
		p->taken = i + 1;
		pthread_cond_broadcast(&p->cond);
		pthread_mutex_unlock(&p->lock);
		if (got.err) {
			if (got.out)
				p->m->drop(p->m->ctx, got.out);
			err = got.err;
		} else {
			err = p->m->take(p->m->ctx, i, got.out);
		}
	}
	return err;
}

struct oomlens_error *ingest_map_run(const struct ingest_map *m)
{
	struct mapper p = {.m = m};
	pthread_t tid[INGEST_MAX_JOBS];
	size_t started = 0, nw = m->nworkers;
	struct oomlens_error *err;

	if (nw > INGEST_MAX_JOBS)
		nw = INGEST_MAX_JOBS;
	if (nw > m->n)
		nw = m->n;
	if (nw <= 1)
		return run_serial(m);
	p.window = m->window ? m->window : 4 * nw;
	p.ring = calloc(p.window, sizeof(*p.ring));
	if (!p.ring)
		return &oomlens_error_nomem;
	pthread_mutex_init(&p.lock, NULL);
	pthread_cond_init(&p.cond, NULL);
	for (; started < nw; started++)
		if (pthread_create(&tid[started], NULL, worker, &p))
			break;
	if (!started) {
		err = oomlens_error_new(OOMLENS_ERR_IO,
					"cannot start a thread");
		goto out;
	}
	err = take_all(&p);
	pthread_mutex_lock(&p.lock);
	p.stop = true;
	pthread_cond_broadcast(&p.cond);
	pthread_mutex_unlock(&p.lock);
	for (size_t k = 0; k < started; k++)
		pthread_join(tid[k], NULL);
	for (size_t k = 0; k < p.window; k++) {
		if (p.ring[k].made && p.ring[k].out)
			m->drop(m->ctx, p.ring[k].out);
		oomlens_error_free(p.ring[k].err);
	}
out:
	pthread_mutex_destroy(&p.lock);
	pthread_cond_destroy(&p.cond);
	free(p.ring);
	return err;
}
