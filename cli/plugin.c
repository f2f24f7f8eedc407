// SPDX-License-Identifier: MIT
/*
 * Model plugins: loading (dlopen), checking the descriptor, and running
 * a plugin's model in a forked worker with a time limit (--isolate).
 * The one file that includes <dlfcn.h>; the runner is pure
 * (analyzer/plugin_run.c) and runs the same in the worker as in-process.
 *
 * The worker is a fork of this process: it sees the incident where the
 * parent has it, runs analyzer_plugin_run() and writes back one fixed
 * record (status, message, verdict). The parent trusts none of it: the
 * verdict must name the model, every task it names must be a row of the
 * table (its comm is taken from the parent's row), every deciding input
 * one of the runner's own texts, every count in range. A worker that
 * crashes, exits, overruns the time limit or sends anything else is the
 * incident's failure, reported by cli_plugins_report(); the run goes on.
 */
#include "cli/plugin.h"

#include <dlfcn.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "analyzer/internal.h"
#include "cli/commands.h"
#include "cli/treemodel.h"
#include "include/oomlens/model.h"
#include "core/banned.h"

struct cli_plugin {
	struct analyzer_model row; /* first: the run function finds us */
	struct analyzer_model direct; /* the same, run in-process */
	void *handle;
	const char *path;
	unsigned timeout_s;
};

/* --badness-from PATH, or --model-name NAME for the one before it */
static bool tree_option(struct cli_plugins *p, const char *cmd, bool path,
			const char *arg)
{
	if (path && p->n_trees == CLI_PLUGIN_MAX_TREES) {
		cli_print(stderr, "oomlens %s: more than %d --badness-from",
			  cmd, CLI_PLUGIN_MAX_TREES);
		return false;
	}
	if (path) {
		p->tree_names[p->n_trees] = NULL;
		p->trees[p->n_trees++] = arg;
		return true;
	}
	if (!p->n_trees || p->tree_names[p->n_trees - 1]) {
		cli_print(stderr,
			  "oomlens %s: --model-name '%s' names the model of "
			  "the --badness-from before it, and there is none",
			  cmd, arg);
		return false;
	}
	p->tree_names[p->n_trees - 1] = arg;
	return true;
}

bool cli_plugins_option(struct cli_plugins *p, const char *cmd, int c,
			const char *arg, bool *bad)
{
	*bad = false;
	switch (c) {
	case 0x150:
		if (p->n_paths == VERDICT_MAX_MODELS) {
			cli_print(stderr, "oomlens %s: more than %d plugins",
				  cmd, VERDICT_MAX_MODELS);
			*bad = true;
		} else {
			p->paths[p->n_paths++] = arg;
		}
		return true;
	case 0x151:
		p->isolate = true;
		return true;
	case 0x152:
		if (!cli_parse_seconds(arg, &p->timeout_s)) {
			cli_print(
				stderr,
				"oomlens %s: bad --plugin-timeout '%s': whole "
				"seconds, 1 to 604800",
				cmd, arg);
			*bad = true;
		}
		return true;
	case 0x153:
	case 0x154:
		*bad = !tree_option(p, cmd, c == 0x153, arg);
		return true;
	default:
		return false;
	}
}

/* ---- the worker */

struct worker_reply {
	uint32_t magic;
	int32_t status; /* 0: a verdict; 1: the runner's error, in message */
	char message[160];
	struct verdict v;
};

#define REPLY_MAGIC 0x6f6f6d70u /* "oomp" */

static bool write_all(int fd, const void *buf, size_t n)
{
	const char *p = buf;

	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return false;
		p += w;
		n -= (size_t)w;
	}
	return true;
}

/*
 * A crash in plugin code must end the worker by its signal, which the parent
 * names. Handlers the process inherited (a sanitizer's, which turns SIGSEGV
 * into exit status 1) would hide it, so the worker puts the defaults back.
 */
static void default_crash_signals(void)
{
	static const int sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};

	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		signal(sigs[i], SIG_DFL);
}

static void worker(const struct cli_plugin *pl, const struct oom_incident *inc,
		   const struct analyzer_options *o, int fd)
{
	static struct worker_reply r;
	const struct rlimit no_core = {0, 0};
	struct oomlens_error *err;

	setrlimit(RLIMIT_CORE, &no_core); /* a crash leaves no core file */
	default_crash_signals();
	memset(&r, 0, sizeof(r));
	r.magic = REPLY_MAGIC;
	err = analyzer_plugin_run(&pl->direct, inc, o, &r.v);
	if (err) {
		r.status = 1;
		snprintf(r.message, sizeof(r.message), "%s", err->message);
		oomlens_error_free(err);
	}
	_exit(write_all(fd, &r, sizeof(r)) ? 0 : 3);
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Read the reply until the deadline: bytes read, or -1 on a timeout. */
static ssize_t read_reply(int fd, struct worker_reply *r, unsigned secs)
{
	int64_t deadline = now_ms() + (int64_t)secs * 1000;
	char *p = (char *)r;
	size_t got = 0;

	while (got < sizeof(*r)) {
		struct pollfd pfd = {.fd = fd, .events = POLLIN};
		int64_t left = deadline - now_ms();
		ssize_t n;

		if (left <= 0)
			return -1;
		if (poll(&pfd, 1, left > 60000 ? 60000 : (int)left) < 0 &&
		    errno != EINTR)
			break;
		if (!pfd.revents)
			continue;
		n = read(fd, p + got, sizeof(*r) - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	return (ssize_t)got;
}

/* Why a worker failed, from its wait status. */
static struct oomlens_error *died(const struct cli_plugin *pl, int status)
{
	if (WIFSIGNALED(status))
		return oomlens_error_new(OOMLENS_ERR_CORRUPT,
					 "model plugin '%s' (%s) crashed: "
					 "signal %d (%s)",
					 pl->row.name, pl->path,
					 WTERMSIG(status),
					 strsignal(WTERMSIG(status)));
	return oomlens_error_new(OOMLENS_ERR_CORRUPT,
				 "model plugin '%s' (%s) exited with status "
				 "%d before its verdict",
				 pl->row.name, pl->path,
				 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

/* A task the worker named: a row of the table, its comm the parent's. */
static bool rehome(const struct oom_incident *inc, struct verdict_task *t)
{
	size_t i = analyzer_row_of_pid(inc, t->pid);

	if (i == inc->n_tasks)
		return false;
	t->comm = inc->tasks[i].comm;
	return true;
}

static bool known_input(const struct oom_incident *inc, const char *s)
{
	struct assumption_list a = {.n = 0};
	struct analyzer_span t;

	if (analyzer_plugin_text_is_ours(s))
		return true;
	analyzer_totalpages(inc, &t, &a);
	for (size_t i = 0; i < a.n; i++)
		if (s == a.what[i])
			return true;
	return s == t.input;
}

/* Is the worker's verdict one the runner can write for inc? */
static const char *check_verdict(const struct cli_plugin *pl,
				 const struct oom_incident *inc,
				 struct verdict *v)
{
	size_t i;

	v->model[sizeof(v->model) - 1] = '\0';
	v->note[sizeof(v->note) - 1] = '\0';
	v->formula_evidence[sizeof(v->formula_evidence) - 1] = '\0';
	memset(&v->explain, 0, sizeof(v->explain));
	v->kernel_rule = NULL;
	v->score_units = VERDICT_UNITS_MODEL; /* whatever the worker wrote */
	if (strcmp(v->model, pl->row.name) ||
	    v->model_version != pl->row.version)
		return "a verdict of another model";
	if ((unsigned)v->certainty > VERDICT_ASSUMED ||
	    v->n_candidates > VERDICT_MAX_CANDIDATES ||
	    v->n_deciding_inputs > VERDICT_MAX_INPUTS)
		return "a verdict with counts out of range";
	if (v->has_victim && !rehome(inc, &v->victim))
		return "a victim that is not in the task table";
	if (v->has_runner_up && !rehome(inc, &v->runner_up))
		return "a runner-up that is not in the task table";
	for (i = 0; i < v->n_candidates; i++)
		if (!rehome(inc, &v->candidates[i]))
			return "a candidate that is not in the task table";
	for (i = 0; i < v->n_deciding_inputs; i++)
		if (!known_input(inc, v->deciding_inputs[i]))
			return "a deciding input of its own";
	return NULL;
}

/* The run function of an isolated plugin row. */
static struct oomlens_error *isolated_run(const struct analyzer_model *m,
					  const struct oom_incident *inc,
					  const struct analyzer_options *o,
					  struct verdict *v)
{
	const struct cli_plugin *pl = (const struct cli_plugin *)m;
	struct worker_reply *r;
	struct oomlens_error *err = NULL;
	const char *bad;
	int fds[2], status = 0;
	ssize_t got;
	pid_t pid;

	r = calloc(1, sizeof(*r));
	if (!r)
		return &oomlens_error_nomem;
	if (pipe(fds)) {
		free(r);
		return oomlens_error_errno(OOMLENS_ERR_IO, errno,
					   "model plugin '%s': pipe", m->name);
	}
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		close(fds[0]);
		free(r); /* the parent's; the worker replies from its own */
		worker(pl, inc, o, fds[1]);
	}
	close(fds[1]);
	got = pid < 0 ? 0 : read_reply(fds[0], r, pl->timeout_s);
	close(fds[0]);
	if (pid < 0) {
		free(r);
		return oomlens_error_errno(OOMLENS_ERR_IO, errno,
					   "model plugin '%s': fork", m->name);
	}
	if (got < 0)
		kill(pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (got < 0)
		err = oomlens_error_new(OOMLENS_ERR_LIMIT,
					"model plugin '%s' (%s) ran past its "
					"time limit of %u s: killed",
					m->name, pl->path, pl->timeout_s);
	else if ((size_t)got < sizeof(*r) && !WIFEXITED(status))
		err = died(pl, status);
	else if ((size_t)got < sizeof(*r) || r->magic != REPLY_MAGIC)
		err = oomlens_error_new(OOMLENS_ERR_CORRUPT,
					"model plugin '%s' (%s) sent no "
					"verdict (exit status %d)",
					m->name, pl->path,
					WIFEXITED(status) ? WEXITSTATUS(status)
							  : -1);
	else if (r->status) {
		r->message[sizeof(r->message) - 1] = '\0';
		err = oomlens_error_new(OOMLENS_ERR_CORRUPT, "%s", r->message);
	} else if ((bad = check_verdict(pl, inc, &r->v))) {
		err = oomlens_error_new(OOMLENS_ERR_CORRUPT,
					"model plugin '%s' (%s) sent garbage: "
					"%s",
					m->name, pl->path, bad);
	} else {
		*v = r->v;
	}
	free(r);
	return err;
}

/* ---- loading */

static struct oomlens_error *load(const char *path, bool isolate,
				  unsigned timeout_s, struct cli_plugin **out)
{
	struct cli_plugin *pl;
	oomlens_model_entry_fn entry;
	const struct oomlens_model *m;
	char why[160], file[4096];
	void *h;

	/* a FILE, not a library name to search for: "x.so" is ./x.so */
	snprintf(file, sizeof(file), "%s%s", strchr(path, '/') ? "" : "./",
		 path);
	dlerror();
	h = dlopen(file, RTLD_NOW | RTLD_LOCAL);
	if (!h)
		return oomlens_error_new(OOMLENS_ERR_IO,
					 "cannot load model plugin '%s': %s",
					 path, dlerror());
	*(void **)&entry = dlsym(h, OOMLENS_MODEL_ENTRY);
	if (!entry) {
		dlclose(h);
		return oomlens_error_new(OOMLENS_ERR_CORRUPT,
					 "'%s' is no oomlens model plugin: "
					 "it has no %s() (model ABI %d)",
					 path, OOMLENS_MODEL_ENTRY,
					 OOMLENS_MODEL_ABI_VERSION);
	}
	m = entry();
	if (!analyzer_plugin_check(m, why, sizeof(why))) {
		dlclose(h);
		return oomlens_error_new(OOMLENS_ERR_CORRUPT,
					 "cannot use model plugin '%s': %s",
					 path, why);
	}
	pl = calloc(1, sizeof(*pl));
	if (!pl) {
		dlclose(h);
		return &oomlens_error_nomem;
	}
	pl->handle = h;
	pl->path = path;
	pl->timeout_s = timeout_s ? timeout_s : CLI_PLUGIN_TIMEOUT;
	analyzer_plugin_row(&pl->direct, m, path);
	pl->row = pl->direct;
	if (isolate)
		pl->row.run = isolated_run;
	*out = pl;
	return NULL;
}

/*
 * --badness-from: each tree's object built (cli/treemodel.c), loaded like
 * a --model-plugin, its row's source the tree's file.
 */
static struct oomlens_error *select_trees(struct cli_plugins *p,
					  struct analyzer_options *o)
{
	struct oomlens_error *err = NULL;

	if (!p->n_trees)
		return NULL;
	p->built = calloc(p->n_trees, sizeof(*p->built));
	if (!p->built)
		return &oomlens_error_nomem;
	for (size_t i = 0; i < p->n_trees && !err; i++) {
		struct tree_model *t = &p->built[i];

		err = tree_model_build(p->trees[i], p->tree_names[i], t);
		if (err)
			break;
		err = load(t->so, p->isolate, p->timeout_s, &p->loaded[p->n]);
		tree_model_release(t); /* a temporary object: loaded now */
		if (err)
			break;
		p->loaded[p->n]->row.source = t->file;
		p->loaded[p->n]->direct.source = t->file;
		p->n++;
		err = analyzer_options_add(o, &p->loaded[p->n - 1]->row);
	}
	return err;
}

bool cli_plugins_select(struct cli_plugins *p, const char *cmd,
			struct analyzer_options *o)
{
	struct oomlens_error *err = select_trees(p, o);

	for (size_t i = 0; i < p->n_paths && !err; i++) {
		err = load(p->paths[i], p->isolate, p->timeout_s,
			   &p->loaded[p->n]);
		if (!err) {
			p->n++;
			err = analyzer_options_add(o,
						   &p->loaded[p->n - 1]->row);
		}
	}
	if (!err)
		return true;
	cli_fail(cmd, err);
	/* the caller returns at once: nothing loaded may stay behind */
	cli_plugins_close(p);
	return false;
}

void cli_plugins_report(const char *cmd, const struct oom_incident *inc,
			const struct verdict_list *vl)
{
	for (size_t i = 0; i < vl->n_failed; i++)
		cli_print(stderr,
			  "oomlens %s: %s:%llu: no verdict of model '%s': %s",
			  cmd, inc->source ? inc->source : "-",
			  (unsigned long long)inc->first.line,
			  vl->failed[i].model, vl->failed[i].why);
}

void cli_plugins_close(struct cli_plugins *p)
{
	for (size_t i = 0; i < p->n; i++) {
		dlclose(p->loaded[i]->handle);
		free(p->loaded[i]);
	}
	p->n = 0;
	free(p->built);
	p->built = NULL;
}
