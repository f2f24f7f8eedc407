// SPDX-License-Identifier: MIT
/*
 * Binary journal files (parsers/journal.h, JOURNAL_BINARY): the files
 * journald keeps in /var/log/journal/<machine-id>/, read through
 * libsystemd's sd-journal. This is the only file that includes
 * sd-journal.h.
 *
 * sd-journal reads files: a journal read from a file on disk is given to
 * it as that file; one met inside an archive or on a pipe is first copied
 * into a temporary file in $TMPDIR (at most journal_max_bytes()), removed
 * once read. sd-journal refuses a file without a name (a memfd, an
 * O_TMPFILE: stat_verify_linked() in systemd 252), so the copy keeps one
 * while it is read. A file cut short (journald's own files are when a
 * machine dies, copies when a transfer stops) is padded with zeros (a
 * hole) up to the size its header states, so that sd-journal opens it and
 * gives the entries it holds; a warning says so.
 *
 * libsystemd is not written for hostile files: it runs in a child process
 * (a fork, as dumps/vmcore_isolate.c does) with a time limit (alarm) and,
 * outside the sanitizers, a memory limit (RLIMIT_AS), and writes the kernel
 * entries (_TRANSPORT=kernel) down a pipe as records that the parent
 * bounds. A child that crashes, hangs or runs out of memory costs the
 * entries after the point it reached, with a warning.
 *
 * Records, in host byte order (the same binary at both ends): a type
 * byte; 'E' an entry: struct wire_entry, then its host, identifier, boot
 * id and message bytes; 'W' a warning: u32 length, then the text; 'D' the
 * end.
 */
#include "parsers/journal.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <systemd/sd-journal.h>
#include <unistd.h>

#include "core/fdio.h"
#include "core/banned.h"

/* The journal header's header_size and arena_size (journal-def.h). */
#define HEADER_SIZE_AT 88
#define ARENA_SIZE_AT 96
#define HEADER_MIN 104
#define MAX_HOST 255
#define MAX_WARNING 1024
#define COPY_BLOCK ((size_t)65536)
/* What the child may allocate beyond what it was born with. */
#define CHILD_MEMORY ((uint64_t)1 << 30)

struct wire_entry {
	uint64_t realtime, mono, source_mono;
	int32_t priority;
	uint8_t has_realtime, has_mono, has_source_mono;
	uint32_t host_len, ident_len, boot_len, message_len;
};

/* A number from the environment (tests), else def; bounded. */
static uint64_t env_number(const char *name, uint64_t def, uint64_t max)
{
	const char *env = getenv(name);
	char *end;
	unsigned long long v;

	if (!env || !*env)
		return def;
	v = strtoull(env, &end, 10);
	return *end || !v || v > max ? def : v;
}

static uint64_t journal_max_bytes(void)
{
	return env_number("OOMLENS_JOURNAL_MAX_MB", JOURNAL_MAX_BYTES >> 20,
			  1 << 20)
	       << 20;
}

static unsigned journal_timeout(void)
{
	return (unsigned)env_number("OOMLENS_JOURNAL_TIMEOUT",
				    JOURNAL_TIMEOUT_SECS, 86400);
}

static uint64_t le64_at(const unsigned char *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* The size the journal's header states (header and arena); 0: no header. */
static uint64_t stated_size(int fd)
{
	unsigned char h[HEADER_MIN];
	uint64_t header, arena;

	if (pread(fd, h, sizeof(h), 0) != (ssize_t)sizeof(h) ||
	    memcmp(h, "LPKSHHRH", 8))
		return 0;
	header = le64_at(h + HEADER_SIZE_AT);
	arena = le64_at(h + ARENA_SIZE_AT);
	return arena > UINT64_MAX - header ? UINT64_MAX : header + arena;
}

static void warnf(journal_warn_fn *warn, void *ctx, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void warnf(journal_warn_fn *warn, void *ctx, const char *fmt, ...)
{
	char text[MAX_WARNING];
	va_list ap;

	if (!warn)
		return;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	warn(ctx, 0, text);
}

/* Copy what src (or the file fd, if not -1) holds into mfd, bounded. */
static OOMLENS_MUST_CHECK struct oomlens_error *
copy_journal(struct linesrc *src, int fd, int mfd, uint64_t max,
	     uint64_t *copied, bool *over)
{
	char *block = fd >= 0 ? malloc(COPY_BLOCK) : NULL;
	struct oomlens_error *err = NULL;
	const char *p;
	size_t got;

	*copied = 0;
	*over = false;
	if (fd >= 0 && !block)
		return &oomlens_error_nomem;
	for (;;) {
		size_t want = COPY_BLOCK;
		ssize_t r;

		if (*copied >= max) {
			*over = true;
			break;
		}
		if (max - *copied < want)
			want = (size_t)(max - *copied);
		if (fd >= 0) {
			r = pread(fd, block, want, (off_t)*copied);
			if (r < 0) {
				err = oomlens_error_errno(
					OOMLENS_ERR_IO, errno,
					"cannot read the journal file");
				break;
			}
			got = (size_t)r;
			p = block;
		} else if ((err = linesrc_take(src, want, &p, &got))) {
			break;
		}
		if (!got)
			break;
		if (write(mfd, p, got) != (ssize_t)got) {
			err = oomlens_error_errno(
				OOMLENS_ERR_IO, errno,
				"cannot copy the journal into memory");
			break;
		}
		*copied += got;
	}
	free(block);
	return err;
}

/*
 * A new temporary file in $TMPDIR, its name in *path (to unlink; caller
 * frees). Errors: IO, NOMEM.
 */
static OOMLENS_MUST_CHECK struct oomlens_error *temp_file(int *out, char **path)
{
	const char *dir = getenv("TMPDIR");
	int fd;

	if (asprintf(path, "%s/oomlens-journal-XXXXXX",
		     dir && *dir ? dir : "/tmp") < 0) {
		*path = NULL;
		return &oomlens_error_nomem;
	}
	fd = mkostemp(*path, O_CLOEXEC);
	if (fd < 0) {
		struct oomlens_error *err = oomlens_error_errno(
			OOMLENS_ERR_IO, errno,
			"cannot copy the journal: cannot create '%s'", *path);

		free(*path);
		*path = NULL;
		return err;
	}
	*out = fd;
	return NULL;
}

/*
 * A file descriptor of the journal src gives, in *out: the file itself
 * when it is whole on disk, else a copy in a temporary file whose name
 * *tmp holds (to unlink and free; NULL for none). Errors: IO, NOMEM.
 */
static OOMLENS_MUST_CHECK struct oomlens_error *
journal_fd(struct linesrc *src, journal_warn_fn *warn, void *ctx, int *out,
	   char **tmp)
{
	uint64_t max = journal_max_bytes(), copied, stated;
	struct oomlens_error *err;
	struct stat st;
	int fd = -1, mfd = -1;
	bool over;

	if (src->fd >= 0 && !fstat(src->fd, &st) && S_ISREG(st.st_mode)) {
		fd = src->fd;
		if (stated_size(fd) <= (uint64_t)st.st_size) {
			*out = fcntl(fd, F_DUPFD_CLOEXEC, 0);
			return *out < 0
				       ? oomlens_error_errno(
						 OOMLENS_ERR_IO, errno,
						 "cannot read the journal file")
				       : NULL;
		}
	}
	if ((err = temp_file(&mfd, tmp)))
		return err;
	if ((err = copy_journal(src, fd, mfd, max, &copied, &over))) {
		close(mfd);
		unlink(*tmp);
		free(*tmp);
		*tmp = NULL;
		return err;
	}
	if (over)
		warnf(warn, ctx,
		      "binary journal larger than %llu MiB: its first %llu MiB read (give it as a file to read it whole)",
		      (unsigned long long)(max >> 20),
		      (unsigned long long)(max >> 20));
	stated = stated_size(mfd);
	if (stated > copied && stated <= max && !ftruncate(mfd, (off_t)stated))
		warnf(warn, ctx,
		      "binary journal cut short: %llu of the %llu bytes its header states; the entries it holds are read",
		      (unsigned long long)copied, (unsigned long long)stated);
	*out = mfd;
	return NULL;
}

/* ---- the child --------------------------------------------------------- */

static bool put(int fd, const void *buf, size_t len)
{
	return fd_io_all(fd, (void *)buf, len, true);
}

static bool put_warning(int out, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static bool put_warning(int out, const char *fmt, ...)
{
	char text[MAX_WARNING];
	uint32_t n;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	n = (uint32_t)strlen(text);
	return put(out, "W", 1) && put(out, &n, sizeof(n)) && put(out, text, n);
}

/* Field name's value in the current entry, or NULL; *len its bytes. */
static const char *field(sd_journal *j, const char *name, size_t *len)
{
	const void *d;
	size_t l, k = strlen(name);

	if (sd_journal_get_data(j, name, &d, &l) < 0 || l <= k ||
	    ((const char *)d)[k] != '=')
		return NULL;
	*len = l - k - 1;
	return (const char *)d + k + 1;
}

/* A field holding a decimal number. */
static bool number(sd_journal *j, const char *name, uint64_t *v)
{
	size_t len, i;
	const char *p = field(j, name, &len);

	if (!p || !len || len > 20)
		return false;
	*v = 0;
	for (i = 0; i < len; i++) {
		if (p[i] < '0' || p[i] > '9')
			return false;
		*v = *v * 10 + (uint64_t)(p[i] - '0');
	}
	return true;
}

/* The current entry, if the kernel logged it, down the pipe. */
static bool put_entry(int out, sd_journal *j)
{
	struct wire_entry w = {.priority = -1};
	const char *host, *ident, *msg, *transport;
	size_t hl = 0, il = 0, ml = 0, tl = 0;
	char boot[SD_ID128_STRING_MAX] = "";
	sd_id128_t id;
	uint64_t v;

	transport = field(j, "_TRANSPORT", &tl);
	msg = field(j, "MESSAGE", &ml);
	if (!transport || tl != 6 || memcmp(transport, "kernel", 6) || !msg)
		return true;
	host = field(j, "_HOSTNAME", &hl);
	ident = field(j, "SYSLOG_IDENTIFIER", &il);
	w.host_len = host ? (uint32_t)(hl > MAX_HOST ? MAX_HOST : hl) : 0;
	w.ident_len = ident ? (uint32_t)(il > MAX_HOST ? MAX_HOST : il) : 0;
	w.message_len =
		(uint32_t)(ml > LINESRC_MAX_LINE ? LINESRC_MAX_LINE : ml);
	if (number(j, "PRIORITY", &v) && v <= 7)
		w.priority = (int32_t)v;
	w.has_realtime = sd_journal_get_realtime_usec(j, &w.realtime) >= 0;
	w.has_mono = sd_journal_get_monotonic_usec(j, &w.mono, &id) >= 0;
	if (w.has_mono)
		sd_id128_to_string(id, boot);
	w.boot_len = (uint32_t)strlen(boot);
	w.has_source_mono =
		number(j, "_SOURCE_MONOTONIC_TIMESTAMP", &w.source_mono);
	return put(out, "E", 1) && put(out, &w, sizeof(w)) &&
	       put(out, host, w.host_len) && put(out, ident, w.ident_len) &&
	       put(out, boot, w.boot_len) && put(out, msg, w.message_len);
}

/* Outside the sanitizers (whose shadow memory it would break), a cap. */
static void limit_memory(void)
{
#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
	unsigned long pages = 0;
	FILE *f = fopen("/proc/self/statm", "r");
	struct rlimit rl;

	if (!f)
		return;
	if (fscanf(f, "%lu", &pages) == 1) {
		rl.rlim_cur = rl.rlim_max =
			(rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE) +
			CHILD_MEMORY;
		setrlimit(RLIMIT_AS, &rl);
	}
	fclose(f);
#endif
}

/* Test hooks: the child crashes or hangs, as a library might. */
static void test_hooks(void)
{
	if (getenv("OOMLENS_TEST_JOURNAL_CRASH"))
		abort();
	if (getenv("OOMLENS_TEST_JOURNAL_HANG"))
		for (;;)
			pause();
}

/* The child's whole life: read the journal fd, answer on out, exit. */
static void child(int out, int fd, unsigned timeout)
{
	sd_journal *j = NULL;
	uint64_t n = 0;
	sigset_t alrm;
	int r;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	signal(SIGALRM, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	sigemptyset(&alrm);
	sigaddset(&alrm, SIGALRM);
	sigprocmask(SIG_UNBLOCK, &alrm, NULL);
	alarm(timeout);
	limit_memory();
	test_hooks();
	r = sd_journal_open_files_fd(&j, &fd, 1, 0);
	if (r < 0) {
		put_warning(
			out,
			"binary journal not read: sd_journal_open_files_fd: %s",
			strerror(-r));
		_exit(put(out, "D", 1) ? 0 : 1);
	}
	sd_journal_set_data_threshold(j, LINESRC_MAX_LINE);
	r = sd_journal_add_match(j, "_TRANSPORT=kernel", 0);
	while (r >= 0 && (r = sd_journal_next(j)) > 0) {
		if (!put_entry(out, j))
			_exit(1);
		n++;
	}
	if (r < 0)
		put_warning(
			out,
			"binary journal damaged after %llu kernel entries (sd_journal_next: %s): read no further",
			(unsigned long long)n, strerror(-r));
	sd_journal_close(j);
	_exit(put(out, "D", 1) ? 0 : 1);
}

/* ---- the parent -------------------------------------------------------- */

/* Read exactly len bytes; false at an early end or an error. */
static bool get(int fd, void *buf, size_t len)
{
	return fd_io_all(fd, buf, len, false);
}

struct answer {
	char *buf; /* host, identifier, boot id, message, NUL after each */
	uint64_t entries;
	bool done; /* the child said 'D' */
};

/* One 'E' record into e (strings in a->buf); false if cut or bad. */
static bool get_entry(int in, struct answer *a, struct journal_entry *e)
{
	struct wire_entry w;
	char *p = a->buf;

	if (!get(in, &w, sizeof(w)) || w.host_len > MAX_HOST ||
	    w.ident_len > MAX_HOST || w.boot_len >= SD_ID128_STRING_MAX ||
	    w.message_len > LINESRC_MAX_LINE)
		return false;
	memset(e, 0, sizeof(*e));
	e->hostname = w.host_len ? p : NULL;
	if (!get(in, p, w.host_len))
		return false;
	p += w.host_len;
	*p++ = '\0';
	e->identifier = w.ident_len ? p : NULL;
	if (!get(in, p, w.ident_len))
		return false;
	p += w.ident_len;
	*p++ = '\0';
	e->boot_id = w.boot_len ? p : NULL;
	if (!get(in, p, w.boot_len))
		return false;
	p += w.boot_len;
	*p++ = '\0';
	e->message = p;
	e->message_len = w.message_len;
	if (!get(in, p, w.message_len))
		return false;
	e->pid = -1;
	e->priority = w.priority >= 0 && w.priority <= 7 ? w.priority : -1;
	e->kernel = true;
	e->has_realtime = w.has_realtime;
	e->realtime_usec = w.realtime;
	e->has_mono = w.has_mono;
	e->mono_usec = w.mono;
	e->has_source_mono = w.has_source_mono;
	e->source_mono_usec = w.source_mono;
	e->lineno = e->offset = ++a->entries;
	return true;
}

/* The child's records until 'D', its end, or fn's error. */
static OOMLENS_MUST_CHECK struct oomlens_error *
read_answer(int in, struct answer *a, journal_entry_fn *fn,
	    journal_warn_fn *warn, void *ctx)
{
	struct oomlens_error *err = NULL;
	struct journal_entry e;
	char type, text[MAX_WARNING + 1];
	uint32_t n;

	while (!err && get(in, &type, 1)) {
		if (type == 'D') {
			a->done = true;
			break;
		}
		if (type == 'W') {
			if (!get(in, &n, sizeof(n)) || n > MAX_WARNING ||
			    !get(in, text, n))
				break;
			text[n] = '\0';
			if (warn)
				warn(ctx, 0, text);
			continue;
		}
		if (type != 'E' || !get_entry(in, a, &e))
			break;
		err = fn(ctx, &e);
	}
	return err;
}

/* Why the child stopped before its end, as a warning. */
static void say_stop(int status, const struct answer *a, unsigned timeout,
		     journal_warn_fn *warn, void *ctx)
{
	if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)
		warnf(warn, ctx,
		      "binary journal reader (libsystemd) took longer than %u s and was stopped after %llu kernel entries: read no further",
		      timeout, (unsigned long long)a->entries);
	else if (WIFSIGNALED(status))
		warnf(warn, ctx,
		      "binary journal reader (libsystemd) crashed after %llu kernel entries (signal %d, %s): a damaged journal; read no further",
		      (unsigned long long)a->entries, WTERMSIG(status),
		      strsignal(WTERMSIG(status)));
	else
		warnf(warn, ctx,
		      "binary journal reader (libsystemd) stopped after %llu kernel entries without its end (exit status %d): read no further",
		      (unsigned long long)a->entries,
		      WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

struct oomlens_error *journalfile_read(struct linesrc *src,
				       journal_entry_fn *fn,
				       journal_warn_fn *warn, void *ctx)
{
	struct answer a = {0};
	struct oomlens_error *err;
	unsigned timeout = journal_timeout();
	int fd = -1, fds[2], status = 0;
	char *tmp = NULL;
	pid_t pid;

	if ((err = journal_fd(src, warn, ctx, &fd, &tmp)))
		return err;
	a.buf = malloc(LINESRC_MAX_LINE + 3 * (MAX_HOST + 1) +
		       SD_ID128_STRING_MAX);
	if (!a.buf) {
		close(fd);
		return &oomlens_error_nomem;
	}
	if (pipe2(fds, O_CLOEXEC)) {
		err = oomlens_error_errno(OOMLENS_ERR_IO, errno,
					  "cannot read the journal: pipe");
		goto out;
	}
	fflush(NULL); /* the child must not write what this process holds */
	pid = fork();
	if (pid < 0) {
		err = oomlens_error_errno(OOMLENS_ERR_IO, errno,
					  "cannot read the journal: fork");
		close(fds[0]);
		close(fds[1]);
		goto out;
	}
	if (pid == 0) {
		close(fds[0]);
		child(fds[1], fd, timeout);
	}
	close(fds[1]);
	err = read_answer(fds[0], &a, fn, warn, ctx);
	close(fds[0]);
	if (err || !a.done)
		kill(pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!err && !a.done)
		say_stop(status, &a, timeout, warn, ctx);
out:
	free(a.buf);
	close(fd);
	if (tmp)
		unlink(tmp);
	free(tmp);
	return err;
}
