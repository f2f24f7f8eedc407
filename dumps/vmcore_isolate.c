// SPDX-License-Identifier: MIT
/*
 * vmcore_isolate: vmcore_read() in a child process, so that a dump which
 * crashes a library (libkdumpfile, libaddrxlat, a decompressor) costs that
 * dump and not the run.
 *
 * The child is a fork() of this process (no exec): it reads the dump and
 * writes the struct dump_state down a pipe, then _exit()s without
 * flushing stdio or running atexit handlers. The parent reads the whole
 * answer, then reaps the child. The child may have been subverted by the
 * dump it read, so the parent trusts nothing in the answer it did not
 * bound: counts and lengths are capped, strings are cut at their buffers,
 * the format is an index into a table and provenances are clamped.
 *
 * On the wire (host byte order, the same binary at both ends):
 *   u32 WIRE_MAGIC, u32 status (0 ok, else an oomlens_error_code),
 *   then for an error u32 length and the message,
 *   else struct wire_head, n_tasks struct dump_task, log_len bytes,
 *   and n_warnings times { u32 length, bytes }.
 */
#include "dumps/vmcore.h"

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/fdio.h"
#include "core/banned.h"

#define WIRE_MAGIC 0x6f6f6d76u /* "vmoo" */
/* Caps on the answer: well above what vmcore_read() can produce. */
#define WIRE_MAX_TASKS (4u * VMCORE_MAX_TASKS)
#define WIRE_MAX_LOG (256u << 20)
#define WIRE_MAX_WARNINGS 1024u
#define WIRE_MAX_STRING 65536u

static const char *const formats[] = {"elf", "kdump", "flattened kdump"};
static const char *const types[] = {"dwarf", "btf"};
static const char *const symbols[] = {"vmlinux", "kallsyms"};
#define NLIT(t) (sizeof(t) / sizeof((t)[0]))

/* The index of literal s in table t (n entries), or -1. */
static int32_t lit_index(const char *const *t, size_t n, const char *s)
{
	for (size_t i = 0; s && i < n; i++)
		if (!strcmp(s, t[i]))
			return (int32_t)i;
	return -1;
}

/* Entry i of table t (n entries), or NULL. */
static const char *lit_at(const char *const *t, size_t n, int32_t i)
{
	return i >= 0 && (size_t)i < n ? t[i] : NULL;
}

struct wire_head {
	char osrelease[65];
	char machine[16];
	int32_t format; /* index into formats[], or -1 */
	int32_t types, symbols; /* into types[] and symbols[], or -1 */
	int32_t cputime_unit;
	int32_t log_layout;
	uint8_t partial;
	struct dump_val g[DG_COUNT];
	uint64_t n_tasks, log_len, n_warnings;
};

static bool put(int fd, const void *buf, size_t len)
{
	return fd_io_all(fd, (void *)buf, len, true);
}

/* Read exactly len bytes; false at an early end or an error. */
static bool get(int fd, void *buf, size_t len)
{
	return fd_io_all(fd, buf, len, false);
}

static bool put_string(int fd, const char *s, size_t len)
{
	uint32_t n = len > WIRE_MAX_STRING ? WIRE_MAX_STRING : (uint32_t)len;

	return put(fd, &n, sizeof(n)) && put(fd, s, n);
}

/* The child's whole life: read, answer, exit. */
static void child(int fd, const char *vmcore, const char *vmlinux,
		  const struct vmcore_options *opt)
{
	uint32_t head[2] = {WIRE_MAGIC, 0};
	struct wire_head w = {0};
	struct dump_state d;
	struct oomlens_error *err;
	const char *crash = getenv("OOMLENS_TEST_DUMP_CRASH");
	const char *hang = getenv("OOMLENS_TEST_DUMP_HANG");
	bool ok;

	sigset_t alrm;

	/* the time limit: SIGALRM's default action ends the child */
	signal(SIGALRM, SIG_DFL);
	sigemptyset(&alrm);
	sigaddset(&alrm, SIGALRM);
	sigprocmask(SIG_UNBLOCK, &alrm, NULL);
	alarm(opt && opt->timeout_secs ? opt->timeout_secs
				       : VMCORE_TIMEOUT_SECS);

	/*
	 * Tests make the child die as a library crash would, for dumps whose
	 * path ends in this variable's value, ...
	 */
	if (crash && *crash && strlen(vmcore) >= strlen(crash) &&
	    !strcmp(vmcore + strlen(vmcore) - strlen(crash), crash))
		abort();
	/* ... or loop forever, as a library looping on a dump would */
	if (hang && *hang && strlen(vmcore) >= strlen(hang) &&
	    !strcmp(vmcore + strlen(vmcore) - strlen(hang), hang))
		for (;;)
			pause();
	err = vmcore_read(vmcore, vmlinux, opt, &d);
	if (err) {
		head[1] = (uint32_t)err->code;
		ok = put(fd, head, sizeof(head)) &&
		     put_string(fd, err->message, strlen(err->message));
		oomlens_error_free(err);
		_exit(ok ? 0 : 1);
	}
	memcpy(w.osrelease, d.osrelease, sizeof(w.osrelease));
	memcpy(w.machine, d.machine, sizeof(w.machine));
	w.format = lit_index(formats, NLIT(formats), d.format);
	w.types = lit_index(types, NLIT(types), d.types_source);
	w.symbols = lit_index(symbols, NLIT(symbols), d.symbols_source);
	w.cputime_unit = (int32_t)d.cputime_unit;
	w.log_layout = (int32_t)d.log_layout;
	w.partial = d.partial;
	memcpy(w.g, d.g, sizeof(w.g));
	w.n_tasks = d.n_tasks;
	w.log_len = d.log ? d.log_len : 0;
	w.n_warnings = d.n_warnings;
	ok = put(fd, head, sizeof(head)) && put(fd, &w, sizeof(w)) &&
	     (!d.n_tasks || put(fd, d.tasks, d.n_tasks * sizeof(*d.tasks))) &&
	     (!w.log_len || put(fd, d.log, w.log_len));
	for (size_t i = 0; ok && i < d.n_warnings; i++)
		ok = put_string(fd, d.warnings[i], strlen(d.warnings[i]));
	dump_state_release(&d);
	_exit(ok ? 0 : 1);
}

/* A string of the answer, as a new C string in *out. */
static bool get_string(int fd, char **out)
{
	uint32_t n;
	char *s;

	if (!get(fd, &n, sizeof(n)) || n > WIRE_MAX_STRING)
		return false;
	s = malloc((size_t)n + 1);
	if (!s)
		return false;
	if (!get(fd, s, n)) {
		free(s);
		return false;
	}
	s[n] = '\0';
	*out = s;
	return true;
}

/*
 * The child's answer from fd into *d (initialised): NULL and *d filled,
 * the child's error, or an error saying the answer was cut or bad.
 */
static OOMLENS_MUST_CHECK struct oomlens_error *
read_answer(int fd, struct dump_state *d, bool *cut)
{
	uint32_t head[2];
	struct wire_head w;
	char *msg;

	*cut = true;
	if (!get(fd, head, sizeof(head)) || head[0] != WIRE_MAGIC)
		return NULL;
	if (head[1]) {
		struct oomlens_error *err;

		if (!get_string(fd, &msg))
			return NULL;
		*cut = false;
		err = oomlens_error_new(head[1] <= OOMLENS_ERR_MISSING
						? head[1]
						: OOMLENS_ERR_CORRUPT,
					"%s", msg);
		free(msg);
		return err;
	}
	if (!get(fd, &w, sizeof(w)) || w.n_tasks > WIRE_MAX_TASKS ||
	    w.log_len > WIRE_MAX_LOG || w.n_warnings > WIRE_MAX_WARNINGS)
		return NULL;
	w.osrelease[sizeof(w.osrelease) - 1] = '\0';
	w.machine[sizeof(w.machine) - 1] = '\0';
	memcpy(d->osrelease, w.osrelease, sizeof(d->osrelease));
	memcpy(d->machine, w.machine, sizeof(d->machine));
	d->format = lit_at(formats, NLIT(formats), w.format);
	d->types_source = lit_at(types, NLIT(types), w.types);
	d->symbols_source = lit_at(symbols, NLIT(symbols), w.symbols);
	d->cputime_unit = w.cputime_unit == DU_NS ? DU_NS : DU_JIFFIES;
	d->log_layout = w.log_layout >= DUMP_LOG_NONE &&
					w.log_layout <= DUMP_LOG_RINGBUFFER
				? (enum dump_log_layout)w.log_layout
				: DUMP_LOG_NONE;
	d->partial = w.partial != 0;
	memcpy(d->g, w.g, sizeof(d->g));
	if (w.n_tasks) {
		d->tasks = calloc(w.n_tasks, sizeof(*d->tasks));
		if (!d->tasks)
			return &oomlens_error_nomem;
		if (!get(fd, d->tasks, w.n_tasks * sizeof(*d->tasks)))
			return NULL;
		d->n_tasks = w.n_tasks;
	}
	if (w.log_len) {
		d->log = malloc(w.log_len + 1);
		if (!d->log)
			return &oomlens_error_nomem;
		if (!get(fd, d->log, w.log_len))
			return NULL;
		d->log[w.log_len] = '\0';
		d->log_len = w.log_len;
	}
	if (w.n_warnings) {
		d->warnings = calloc(w.n_warnings, sizeof(*d->warnings));
		if (!d->warnings)
			return &oomlens_error_nomem;
	}
	for (uint64_t i = 0; i < w.n_warnings; i++) {
		if (!get_string(fd, &d->warnings[i]))
			return NULL;
		d->n_warnings++;
	}
	for (size_t i = 0; i < d->n_tasks; i++) {
		struct dump_task *t = &d->tasks[i];

		t->comm[sizeof(t->comm) - 1] = '\0';
		for (int f = 0; f < DT_FIELD_COUNT; f++)
			if (t->f[f].prov > DUMP_UNREADABLE)
				t->f[f].prov = DUMP_UNREADABLE;
	}
	for (int g = 0; g < DG_COUNT; g++)
		if (d->g[g].prov > DUMP_UNREADABLE)
			d->g[g].prov = DUMP_UNREADABLE;
	*cut = false;
	return NULL;
}

struct oomlens_error *vmcore_read_isolated(const char *vmcore,
					   const char *vmlinux,
					   const struct vmcore_options *opt,
					   struct dump_state *out)
{
	struct oomlens_error *err;
	int fds[2], status;
	bool cut;
	pid_t pid;

	dump_state_init(out);
	if (pipe(fds) != 0)
		return oomlens_error_errno(OOMLENS_ERR_IO, errno,
					   "cannot read '%s': pipe", vmcore);
	/* the child must not write out what this process has buffered */
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		int e = errno;

		close(fds[0]);
		close(fds[1]);
		return oomlens_error_errno(OOMLENS_ERR_IO, e,
					   "cannot read '%s': fork", vmcore);
	}
	if (pid == 0) {
		close(fds[0]);
		child(fds[1], vmcore, vmlinux, opt);
	}
	close(fds[1]);
	err = read_answer(fds[0], out, &cut);
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (err || !cut) {
		if (err)
			dump_state_release(out);
		return err;
	}
	dump_state_release(out);
	if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)
		return oomlens_error_new(
			OOMLENS_ERR_LIMIT,
			"'%s': the dump reader took longer than %u s and was stopped (--dump-timeout); nothing of it is used",
			vmcore,
			opt && opt->timeout_secs ? opt->timeout_secs
						 : VMCORE_TIMEOUT_SECS);
	if (WIFSIGNALED(status))
		return oomlens_error_new(
			OOMLENS_ERR_CORRUPT,
			"'%s': the dump reader crashed on it (signal %d, %s): a damaged dump that libkdumpfile does not survive; nothing of it is used",
			vmcore, WTERMSIG(status), strsignal(WTERMSIG(status)));
	return oomlens_error_new(
		OOMLENS_ERR_CORRUPT,
		"'%s': the dump reader stopped without an answer (exit status %d); nothing of it is used",
		vmcore, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}
