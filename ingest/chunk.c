// SPDX-License-Identifier: MIT
/*
 * ingest/chunk.c: chunking. A big plain log is cut into chunks at report
 * boundaries (split_plan(), find_cut()), each parsed by a worker from its
 * cut to the next (run_chunk()); at its end a chunk's parser asks whether
 * the next chunk can start afresh (chunk_at_end(), a probe of its head)
 * or reads on over it, which cancels the next chunk's job. Also a whole
 * plain file on a worker (run_file()), hashed as its parser reads it when
 * read once (struct job_hash, batch.c), and the line index made while a
 * split file is hashed (index_block()).
 *
 * Threads: run_chunk() and run_file() run on a worker; struct split is
 * shared under g->lock (the hashing pass on the main thread fills in
 * base and ready, the chunks' parsers merged, covered_to, probe, state).
 * Ownership: a split is freed with its last job (split_put()). Ordering:
 * a chunk never waits for a chunk after the next one, nor for the writer.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/scan.h"
#include "ingest/internal.h"
#include "parsers/journal.h"
#include "core/banned.h"

struct range_reader {
	int fd;
	uint64_t at, end; /* end UINT64_MAX: to the end of the file */
	const bool *enough; /* when it points to true: the end */
};

static ssize_t range_read(void *ctx, void *buf, size_t n)
{
	struct range_reader *r = ctx;
	ssize_t got;

	if (r->end != UINT64_MAX && r->end - r->at < n)
		n = (size_t)(r->end - r->at);
	if (!n || (r->enough && *r->enough))
		return 0;
	do
		got = pread(r->fd, buf, n, (off_t)r->at);
	while (got < 0 && errno == EINTR);
	if (got > 0)
		r->at += (uint64_t)got;
	return got;
}

/* content_digest_file_each()'s callback: index a block. */
void index_block(void *ctx, const char *block, size_t n)
{
	struct line_index *x = ctx;
	size_t k = scan_count_newlines_wide(block, n);

	x->block_lines = x->total;
	x->blocks++;
	if (!k) {
		x->since_nl += n;
	} else {
		const char *first = memchr(block, '\n', n);
		const char *last = memrchr(block, '\n', n);

		if (x->since_nl + (uint64_t)(first - block) >
			    LINESRC_MAX_LINE &&
		    x->end - x->since_nl < x->long_start)
			x->long_start = x->end - x->since_nl;
		x->since_nl = (uint64_t)(block + n - last - 1);
	}
	x->total += k;
	x->end += n;
}

struct chunk_ctx {
	struct job *j;
	struct linesrc *src;
	struct range_reader *rr;
};

static void chunk_probe(void *ctx, bool depends)
{
	struct chunk_ctx *cc = ctx;
	struct ingest *g = cc->j->g;
	struct split *sp = cc->j->split;

	pthread_mutex_lock(&g->lock);
	sp->probe[cc->j->chunk] = depends ? PROBE_DEPENDS : PROBE_INDEPENDENT;
	pthread_cond_broadcast(&g->cond);
	pthread_mutex_unlock(&g->lock);
}

/*
 * Under lock: chunk c's parser reads on over chunk `next`: that one's job
 * is cancelled (what it handed over dropped), or never runs.
 */
static void split_merge_locked(struct ingest *g, struct split *sp, size_t c,
			       size_t next)
{
	struct job *nj = sp->jobs[next];

	sp->merged[next] = true;
	sp->covered_to[c] = sp->covered_to[next];
	if (sp->state[next] == J_QUEUED)
		sp->state[next] = J_DONE;
	if (nj)
		job_cancel_locked(g, nj);
	pthread_cond_broadcast(&g->cond);
}

/* A probe parse (probe_chunk()): what it learns; the rest is dropped. */
struct probe_run {
	bool told, depends;
};

static void probe_told(void *ctx, bool depends)
{
	struct probe_run *pr = ctx;

	pr->told = true;
	pr->depends = depends;
}

/*
 * At the end of what it reads: as a chunk's parser at its end, the probe
 * not told yet is told "depends" first (oomlog_range.probe).
 */
static enum oomlog_range_next probe_at_end(void *ctx, unsigned kv,
					   bool fb_pending)
{
	(void)ctx;
	(void)kv;
	(void)fb_pending;
	return OOMLOG_RANGE_ENDED;
}

static OOMLENS_MUST_CHECK struct oomlens_error *
probe_drop_incident(void *ctx, struct oom_incident *inc)
{
	(void)ctx;
	oom_incident_free(inc);
	return NULL;
}

static OOMLENS_MUST_CHECK struct oomlens_error *
probe_drop_event(void *ctx, const struct oom_event *ev)
{
	(void)ctx;
	(void)ev;
	return NULL;
}

/*
 * Chunk c of sp not started yet: would its parse depend on the release
 * stated before it? Parse its head afresh, as its own parser will, only
 * until the probe is told (a report or two), read with fd: so a chunk at
 * its end need neither wait for a worker to start the next one nor read
 * the next one over.
 */
static bool probe_chunk(struct split *sp, size_t c, int fd, const char *name)
{
	struct probe_run pr = {false, true};
	struct range_reader rr = {fd, sp->start[c], UINT64_MAX, &pr.told};
	struct oomlog_sink sink = {probe_drop_incident, probe_drop_event, &pr,
				   NULL};
	struct oomlog_range range = {false, probe_at_end, probe_told, &pr};
	struct linesrc src;

	if (c + 1 < sp->n)
		rr.end = sp->cut_end[c + 1];
	if (linesrc_init_reader(&src, name, range_read, &rr))
		return true;
	src.finite = true; /* a range of a regular file */
	oomlens_error_free(oomlog_parse_range(&src, name, NULL, &sink, &range));
	linesrc_close(&src);
	return !pr.told || pr.depends;
}

/* oomlog_range.at_end of a chunk: stop at the cut, or read on. */
static enum oomlog_range_next chunk_at_end(void *ctx, unsigned kv,
					   bool fb_pending)
{
	struct chunk_ctx *cc = ctx;
	struct job *j = cc->j;
	struct ingest *g = j->g;
	struct split *sp = j->split;
	size_t c = j->chunk, next;
	bool merge = false;

	pthread_mutex_lock(&g->lock);
	next = sp->covered_to[c] + 1;
	if (next >= sp->n) {
		pthread_mutex_unlock(&g->lock);
		return OOMLOG_RANGE_ENDED;
	}
	/*
	 * Wait for the hashing pass to have handed the next chunk over (it
	 * waits for nothing a chunk holds): whether it is safe is known then.
	 * The probe of a chunk not started yet is made here (probe_chunk()).
	 */
	for (;;) {
		if (j->cancel) {
			pthread_mutex_unlock(&g->lock);
			return OOMLOG_RANGE_STOP;
		}
		if (!sp->ready[next]) {
			pthread_cond_wait(&g->cond, &g->lock);
			continue;
		}
		if (fb_pending || next >= sp->unsafe_from) {
			merge = true;
			break;
		}
		if (!kv || sp->probe[next] == PROBE_INDEPENDENT)
			break;
		if (sp->probe[next] == PROBE_DEPENDS ||
		    sp->state[next] == J_DONE) {
			merge = true;
			break;
		}
		if (sp->state[next] == J_QUEUED) {
			/* its probe here, rather than wait for a worker */
			bool depends;

			pthread_mutex_unlock(&g->lock);
			depends =
				probe_chunk(sp, next, cc->rr->fd, j->si->name);
			pthread_mutex_lock(&g->lock);
			if (sp->probe[next] == PROBE_OPEN)
				sp->probe[next] = depends ? PROBE_DEPENDS
							  : PROBE_INDEPENDENT;
			continue;
		}
		pthread_cond_wait(&g->cond, &g->lock);
	}
	if (merge) {
		g->opt.counts->split_read_on++;
		split_merge_locked(g, sp, c, next);
		next = sp->covered_to[c] + 1;
		cc->rr->end = next < sp->n ? sp->cut_end[next] : UINT64_MAX;
		cc->src->eof = false;
	}
	pthread_mutex_unlock(&g->lock);
	return merge ? OOMLOG_RANGE_READ_ON : OOMLOG_RANGE_STOP;
}

/*
 * Chunk c of a split file: parse from its cut to the next. A chunk after a
 * line too long to count lines by newlines is left to the one before.
 */
OOMLENS_MUST_CHECK struct oomlens_error *run_chunk(struct job *j, bool *done)
{
	struct ingest *g = j->g;
	struct split *sp = j->split;
	size_t c = j->chunk, i;
	struct range_reader rr = {-1, 0, 0, NULL};
	struct chunk_ctx cc = {j, NULL, &rr};
	struct oomlog_range range = {c == 0, chunk_at_end, chunk_probe, &cc};
	struct oomlog_sink sink = g->sink;
	struct oomlens_error *err;
	struct linesrc src;
	bool unsafe;

	*done = false;
	sink.ctx = j;
	/* under lock: the hashing pass lowers it for the chunks after */
	pthread_mutex_lock(&g->lock);
	unsafe = c && c >= sp->unsafe_from;
	pthread_mutex_unlock(&g->lock);
	if (unsafe)
		return NULL; /* the chunk before reads on over it */
	rr.fd = open(j->si->src.path, O_RDONLY | O_CLOEXEC);
	if (rr.fd < 0)
		return oomlens_error_errno(OOMLENS_ERR_IO, errno,
					   "cannot open '%s'", j->si->name);
	rr.at = sp->start[c];
	rr.end = c + 1 < sp->n ? sp->cut_end[c + 1] : UINT64_MAX;
	err = linesrc_init_reader(&src, j->si->name, range_read, &rr);
	if (!err) {
		cc.src = &src;
		src.finite = true; /* a range of a regular file */
		src.lineno = sp->base[c] - 1;
		src.offset = sp->start[c];
		err = oomlog_parse_range(&src, j->si->name, j->si->src.host,
					 &sink, &range);
		linesrc_close(&src);
	}
	pthread_mutex_lock(&g->lock);
	i = sp->covered_to[c] + 1;
	*done = i >= sp->n;
	j->bytes = (i < sp->n ? sp->start[i] : rr.at) - sp->start[c];
	pthread_mutex_unlock(&g->lock);
	close(rr.fd);
	return err;
}

/*
 * A whole plain file, on a worker; hashed as it is read when its source
 * waits for it (si->hash_by_job), the hash made before the job ends.
 */
OOMLENS_MUST_CHECK struct oomlens_error *run_file(struct job *j)
{
	struct oomlog_sink sink = j->g->sink;
	struct job_hash h = {-1, NULL, 0};
	struct oomlens_error *err;
	struct linesrc src;

	sink.ctx = j;
	if (j->si->hash_by_job) {
		err = job_hash_open(j, &h, &src);
		if (!err)
			j->hash = &h;
	} else {
		err = linesrc_open(&src, j->si->src.path);
	}
	if (err)
		return err;
	/* the binary data the walk passed over, passed over again */
	for (uint64_t left = j->si->binary_head; left && !err;) {
		const char *p;
		size_t got;

		err = linesrc_take(&src,
				   left < LINESRC_MAX_LINE ? (size_t)left
							   : LINESRC_MAX_LINE,
				   &p, &got);
		left = got ? left - got : 0;
	}
	src.binary_head = j->si->binary_head;
	if (!err)
		err = oomlog_parse_lines(&src, j->si->name, j->si->src.host,
					 &sink, NULL);
	linesrc_close(&src);
	if (j->hash) {
		job_hash_finish(j); /* the rest, if the parse stopped early */
		j->hash = NULL;
		close(h.fd);
	}
	return err;
}

/*
 * The first cut (oomlog_is_cut()) whose line starts after byte from - 1
 * (from > 0), read with fd into buf (SCAN_BLOCK bytes): its offset and
 * that of the line after it; false if there is none (or the file cannot be
 * read: then it is not split there).
 */
#define SCAN_BLOCK ((size_t)1 << 20)

static bool find_cut(int fd, uint64_t from, char *buf, uint64_t *at,
		     uint64_t *after)
{
	static const char needle[] = "invoked oom-killer";
	uint64_t pos = from - 1; /* lines start after a '\n' from here */

	for (;;) {
		ssize_t got = pread(fd, buf, SCAN_BLOCK, (off_t)pos);
		const char *p, *end, *nl, *resume = NULL;
		uint64_t next;

		if (got <= 0)
			return false;
		end = buf + got;
		nl = memchr(buf, '\n', (size_t)got);
		if (!nl) {
			pos += (uint64_t)got; /* inside a line of a MiB */
			continue;
		}
		for (p = nl + 1; p < end;) {
			const char *hit = memmem(p, (size_t)(end - p), needle,
						 sizeof(needle) - 1);
			const char *ls, *le, *ne = NULL;

			if (!hit)
				break;
			ls = memrchr(p, '\n', (size_t)(hit - p));
			ls = ls ? ls + 1 : p;
			le = memchr(hit, '\n', (size_t)(end - hit));
			if (le)
				ne = memchr(le + 1, '\n',
					    (size_t)(end - le - 1));
			if (!ne) {
				resume = ls - 1; /* read again from its line */
				break;
			}
			if (oomlog_is_cut(ls, (size_t)(le - ls), le + 1,
					  (size_t)(ne - le - 1))) {
				*at = pos + (uint64_t)(ls - buf);
				*after = pos + (uint64_t)(le + 1 - buf);
				return true;
			}
			p = le + 1;
		}
		if ((size_t)got < SCAN_BLOCK)
			return false; /* the end of the file */
		if (!resume) /* the last line may hold the needle's head */
			resume = memrchr(buf, '\n', (size_t)got);
		next = pos + (uint64_t)(resume - buf);
		pos = next > pos ? next : pos + (uint64_t)got;
	}
}

/*
 * Files smaller than this are not split (the chunk size then is a fourth
 * of the file per worker, at least this); OOMLENS_SPLIT_BYTES sets the
 * chunk size itself (tests use a tiny one), splitting any larger file.
 */
#define SPLIT_MIN_BYTES ((uint64_t)8 << 20)

static void *grow(void *p, size_t n, size_t size, bool *failed)
{
	void *q = realloc(p, n * size);

	*failed = *failed || !q;
	return q ? q : p;
}

/*
 * The chunks a big plain log is split into for the workers, or NULL (too
 * small, a journal export, no cut found, or out of memory: one job then).
 */
/*
 * Does the file hold more than DENSE_REPORTS reports in its first MiB?
 * Storing such a log is what takes the time (P2 of make bench: the writer
 * is busy throughout), and splitting it only makes the writer wait for
 * the hash and share the cores with more parsers: it is read as one job.
 */
#define DENSE_REPORTS 4

static bool dense(int fd, char *buf)
{
	ssize_t got = pread(fd, buf, SCAN_BLOCK, 0);
	const char *p = buf, *end;
	int n = 0;

	if (got <= 0)
		return false;
	end = buf + got;
	while (n <= DENSE_REPORTS &&
	       (p = memmem(p, (size_t)(end - p), "invoked oom-killer", 18))) {
		n++;
		p++;
	}
	return n > DENSE_REPORTS;
}

/* The chunk size a file of size bytes is split by; 0: not split. */
uint64_t split_chunk_bytes(const struct ingest *g, int64_t size)
{
	uint64_t chunk = g->opt.split_bytes;

	if (!g->opt.nworkers || size <= 0)
		return 0;
	if (chunk)
		return (uint64_t)size > chunk ? chunk : 0;
	chunk = (uint64_t)size / (4 * g->opt.nworkers);
	if (chunk < SPLIT_MIN_BYTES)
		chunk = SPLIT_MIN_BYTES;
	return (uint64_t)size >= 2 * chunk ? chunk : 0;
}

/*
 * The chunks a big plain log is split into for the workers, or NULL (too
 * small, changed since it was indexed, a journal export, no cut found, or
 * out of memory: one job then).
 */
struct split *split_plan(struct ingest *g, const char *path, int64_t size)
{
	uint64_t chunk = split_chunk_bytes(g, size), pos, at, after;
	struct split *sp;
	char head[4096], *buf;
	bool failed = false;
	size_t cap = 0, i;
	ssize_t got;
	int fd;

	if (!chunk)
		return NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	got = pread(fd, head, sizeof(head), 0);
	buf = malloc(SCAN_BLOCK);
	sp = calloc(1, sizeof(*sp));
	if (got <= 0 || journal_sniff(head, (size_t)got) != JOURNAL_NOT ||
	    !buf || !sp || (!g->opt.split_bytes && dense(fd, buf)))
		goto fail;
	for (pos = 0, at = 0, after = 0;;) {
		if (sp->n == cap) {
			cap = cap ? 2 * cap : 16;
			sp->start = grow(sp->start, cap, sizeof(*sp->start),
					 &failed);
			sp->cut_end = grow(sp->cut_end, cap,
					   sizeof(*sp->cut_end), &failed);
			if (failed)
				goto fail;
		}
		sp->start[sp->n] = at;
		sp->cut_end[sp->n] = after;
		sp->n++;
		pos = at + chunk;
		if (pos >= (uint64_t)size ||
		    !find_cut(fd, pos, buf, &at, &after))
			break;
	}
	if (sp->n < 2)
		goto fail;
	sp->base = calloc(sp->n, sizeof(*sp->base));
	sp->ready = calloc(sp->n, sizeof(*sp->ready));
	sp->merged = calloc(sp->n, sizeof(*sp->merged));
	sp->covered_to = calloc(sp->n, sizeof(*sp->covered_to));
	sp->probe = calloc(sp->n, sizeof(*sp->probe));
	sp->state = calloc(sp->n, sizeof(*sp->state));
	sp->jobs = calloc(sp->n, sizeof(*sp->jobs));
	if (!sp->base || !sp->ready || !sp->merged || !sp->covered_to ||
	    !sp->probe || !sp->state || !sp->jobs)
		goto fail;
	sp->unsafe_from = sp->n;
	for (i = 0; i < sp->n; i++) {
		sp->covered_to[i] = i;
		sp->probe[i] = PROBE_OPEN;
		sp->state[i] = J_QUEUED;
	}
	close(fd);
	free(buf);
	return sp;
fail:
	close(fd);
	free(buf);
	if (sp) {
		sp->refs = 1;
		split_put(sp);
	}
	return NULL;
}
