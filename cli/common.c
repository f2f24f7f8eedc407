// SPDX-License-Identifier: MIT
/*
 * What every subcommand shares (cli/commands.h): printing with the input's
 * control characters escaped, the error line and its exit status, the
 * --format parser over reports/'s renderer table, the database path,
 * finding a vmcore's debuginfo, times given on the command line, and -o
 * FILE written whole or not at all (a temporary file renamed).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/commands.h"
#include "core/escape.h"
#include "core/scan.h"
#include "model/dump.h"
#include "parsers/oomlog.h"
#include "core/banned.h"

void cli_print(FILE *f, const char *fmt, ...)
{
	char *text = NULL;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&text, fmt, ap);
	va_end(ap);
	if (n < 0) {
		fputs("oomlens: out of memory\n", f);
		return;
	}
	escape_fputs(text, f);
	fputc('\n', f);
	free(text);
}

void cli_print_warning(const char *cmd, const char *source, uint64_t line,
		       const char *text)
{
	if (line)
		cli_print(stderr, "oomlens %s: warning: %s:%llu: %s", cmd,
			  source, (unsigned long long)line, text);
	else
		cli_print(stderr, "oomlens %s: warning: %s: %s", cmd, source,
			  text);
}

bool cli_parse_seconds(const char *text, unsigned *secs)
{
	unsigned long v;
	char *end;

	if (!scan_is_digit(*text))
		return false;
	errno = 0;
	v = strtoul(text, &end, 10);
	if (errno || *end || v < 1 || v > 7 * 24 * 3600)
		return false;
	*secs = (unsigned)v;
	return true;
}

void cli_say_waiting(void *ctx, const char *path, long pid, const char *command)
{
	const char *self = ctx;

	if (pid)
		cli_print(stderr,
			  "oomlens %s: waiting for another %s of '%s', pid %ld",
			  self, command, path, pid);
	else
		cli_print(stderr,
			  "oomlens %s: waiting for another writer of '%s'",
			  self, path);
}

bool cli_parse_table(const char *cmd, const char *name, enum report_format fmt,
		     enum csv_table *out)
{
	if (fmt == REPORT_CSV && csv_table_by_name(name, out))
		return true;
	if (fmt != REPORT_CSV)
		cli_print(stderr, "oomlens %s: --table '%s' needs --format csv",
			  cmd, name);
	else
		cli_print(stderr,
			  "oomlens %s: unknown table '%s' (incidents, tasks,"
			  " verdicts or events)",
			  cmd, name);
	return false;
}

int cli_fail(const char *cmd, struct oomlens_error *err)
{
	cli_print(stderr, "oomlens %s: %s", cmd, err->message);
	oomlens_error_free(err);
	return EXIT_TROUBLE;
}

bool cli_parse_format(const char *cmd, const char *arg, unsigned allowed,
		      enum report_format *out)
{
	enum report_format fmt;
	char names[128] = "";
	size_t i, n = 0, k = 0;

	if (report_format_parse(arg, &fmt) && (allowed & CLI_FORMAT(fmt))) {
		*out = fmt;
		return true;
	}
	for (i = 0; i < REPORT_FORMATS; i++)
		n += !!(allowed & CLI_FORMAT(i));
	for (i = 0; i < REPORT_FORMATS; i++) {
		size_t used = strlen(names);

		if (!(allowed & CLI_FORMAT(i)))
			continue;
		k++;
		snprintf(names + used, sizeof(names) - used, "%s%s",
			 k == 1	  ? ""
			 : k == n ? " or "
				  : ", ",
			 report_format_name((enum report_format)i));
	}
	cli_print(stderr, "oomlens %s: unknown format '%s' (%s)", cmd, arg,
		  names);
	return false;
}

const char *cli_db_path(const char *given)
{
	const char *env = getenv("OOMLENS_DB");

	if (given)
		return given;
	return env && *env ? env : "oomlens.db";
}

bool cli_db_exists(const char *cmd, const char *path)
{
	struct stat st;

	if (!strcmp(path, ":memory:") || stat(path, &st) == 0 ||
	    errno != ENOENT)
		return true;
	cli_print(stderr, "oomlens %s: cannot open '%s': no such database", cmd,
		  path);
	return false;
}

static bool readable(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

bool cli_find_debuginfo(void *dir_arg, const char *rel, const char *id,
			char *out, size_t n)
{
	const char *dir = dir_arg;

	if (id && strlen(id) > 2 && !strchr(id, '/')) {
		snprintf(out, n, "%s/.build-id/%.2s/%s.debug", dir, id, id + 2);
		if (readable(out))
			return true;
	}
	if (!rel || strchr(rel, '/'))
		return false;
	snprintf(out, n, "%s/vmlinux-%s", dir, rel);
	if (readable(out))
		return true;
	snprintf(out, n, "%s/usr/lib/debug/boot/vmlinux-%s", dir, rel);
	if (readable(out))
		return true;
	snprintf(out, n, "%s/usr/lib/debug/lib/modules/%s/vmlinux", dir, rel);
	return readable(out);
}

bool cli_parse_uptime(const char *arg, bool unit, double *out)
{
	size_t i = 0, digits = 0, fraction = 0;
	char *end;
	double up;

	while (arg[i] >= '0' && arg[i] <= '9')
		i++, digits++;
	if (arg[i] == '.')
		for (i++; arg[i] >= '0' && arg[i] <= '9';)
			i++, fraction++;
	if (!digits || (arg[digits] == '.' && !fraction))
		return false;
	if (arg[i] == 's')
		i++;
	else if (unit)
		return false;
	/* 400 digits are finite text but no double: refuse, as 1e400 */
	if (arg[i] || digits > 15)
		return false;
	errno = 0;
	up = strtod(arg, &end);
	if (errno || end == arg)
		return false;
	*out = up;
	return true;
}

bool cli_parse_when(const char *arg, bool until, struct cli_when *out)
{
	int y, mo, d, h = 0, mi = 0, s = 0, n = 0;
	struct tm tm = {0};
	time_t t;

	if (*arg >= '0' && *arg <= '9' && !strchr(arg, '-')) {
		/* seconds since boot, "3600s": a bare number is refused */
		out->is_utc = false;
		return cli_parse_uptime(arg, true, &out->uptime);
	}
	if (sscanf(arg, "%4d-%2d-%2d%n", &y, &mo, &d, &n) != 3 || n != 10)
		return false;
	arg += n;
	if (*arg == 'T' || *arg == ' ') {
		int k = 0;

		if (sscanf(arg + 1, "%2d:%2d%n", &h, &mi, &k) != 2 || k != 5)
			return false;
		arg += 1 + k;
		if (*arg == ':') {
			if (sscanf(arg + 1, "%2d%n", &s, &k) != 1 || k != 2)
				return false;
			arg += 1 + k;
		} else if (until) {
			/* a minute alone, as an upper bound: its last second */
			s = 59;
		}
	} else if (until) {
		/* a day alone, as an upper bound: its last second */
		h = 23, mi = 59, s = 59;
	}
	if (*arg && strcmp(arg, "Z") && strcmp(arg, "+00:00"))
		return false;
	tm.tm_year = y - 1900;
	tm.tm_mon = mo - 1;
	tm.tm_mday = d;
	tm.tm_hour = h;
	tm.tm_min = mi;
	tm.tm_sec = s;
	t = timegm(&tm);
	/* timegm() normalises 2026-02-30: refuse what it had to move */
	if (t == (time_t)-1 || tm.tm_mday != d || tm.tm_mon != mo - 1 ||
	    tm.tm_hour != h || tm.tm_min != mi || tm.tm_sec != s)
		return false;
	out->is_utc = true;
	out->utc = (int64_t)t;
	return true;
}

bool cli_same_file(const char *path, const char *other)
{
	struct stat a, b;

	if ((strcmp(path, "-") ? stat(path, &a) : fstat(STDIN_FILENO, &a)) ||
	    (strcmp(other, "-") ? stat(other, &b) : fstat(STDIN_FILENO, &b)))
		return false;
	return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

struct oomlens_error *cli_output_check(const char *path, const char *input)
{
	struct stat st;

	if (!path || !strcmp(path, "-") || !cli_same_file(path, input))
		return NULL;
	if (stat(path, &st) == 0 && S_ISCHR(st.st_mode))
		return NULL;
	return oomlens_error_new(
		OOMLENS_ERR_USAGE,
		"-o '%s' would overwrite '%s', which this command reads", path,
		input);
}

/* -o FILE that exists and is no regular file: written into, as it is. */
static OOMLENS_MUST_CHECK struct oomlens_error *
open_direct(struct cli_output *o, const char *path)
{
	int fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);

	if (fd < 0 || !(o->f = fdopen(fd, "w"))) {
		struct oomlens_error *err = oomlens_error_errno(
			OOMLENS_ERR_IO, errno, "cannot write '%s'", path);

		if (fd >= 0)
			close(fd);
		o->f = stdout;
		return err;
	}
	o->path = path;
	o->direct = true;
	return NULL;
}

static void output_clear(struct cli_output *o)
{
	free(o->tmp);
	free(o->target);
	o->tmp = o->target = NULL;
	o->direct = false;
	o->f = stdout;
}

struct oomlens_error *cli_output_open(struct cli_output *o, const char *path)
{
	struct oomlens_error *err;
	struct stat st;
	mode_t mask;
	int fd;

	memset(o, 0, sizeof(*o));
	o->f = stdout;
	if (!path || !strcmp(path, "-"))
		return NULL;
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
		return open_direct(o, path);
	/* through a symlink: its target is replaced, the link kept */
	o->target = lstat(path, &st) == 0 && S_ISLNK(st.st_mode)
			    ? realpath(path, NULL)
			    : strdup(path);
	if (!o->target || asprintf(&o->tmp, "%s.XXXXXX", o->target) < 0) {
		err = o->target
			      ? &oomlens_error_nomem
			      : oomlens_error_errno(OOMLENS_ERR_IO, errno,
						    "cannot write '%s'", path);
		o->tmp = NULL;
		output_clear(o);
		return err;
	}
	fd = mkstemp(o->tmp);
	if (fd < 0) {
		err = oomlens_error_errno(OOMLENS_ERR_IO, errno,
					  "cannot write '%s'", path);
		output_clear(o);
		return err;
	}
	/* mkstemp() makes it 0600: a report is as readable as any file */
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask) != 0 || !(o->f = fdopen(fd, "w"))) {
		err = oomlens_error_errno(OOMLENS_ERR_IO, errno,
					  "cannot write '%s'", o->tmp);
		close(fd);
		unlink(o->tmp);
		output_clear(o);
		return err;
	}
	o->path = path;
	return NULL;
}

/* "cannot write 'FILE'" for errno e, saying when it is the size limit. */
static struct oomlens_error *write_error(const struct cli_output *o, int e)
{
	if (e == EFBIG)
		return oomlens_error_new(
			OOMLENS_ERR_IO,
			"cannot write '%s': File too large (over the file size limit, ulimit -f)%s",
			o->path, o->direct ? "" : "; nothing written");
	return oomlens_error_errno(OOMLENS_ERR_IO, e, "cannot write '%s'",
				   o->path);
}

struct oomlens_error *cli_output_close(struct cli_output *o, bool keep)
{
	struct oomlens_error *err = NULL;
	bool failed = ferror(o->f) != 0;

	if (!o->tmp && !o->direct)
		return NULL;
	if (keep &&
	    (fflush(o->f) != 0 || (!o->direct && fsync(fileno(o->f)) != 0)))
		err = write_error(o, errno);
	else if (keep && failed)
		err = write_error(o, EIO);
	if (fclose(o->f) != 0 && keep && !err)
		err = write_error(o, errno);
	if (o->tmp && keep && !err && rename(o->tmp, o->target) != 0)
		err = oomlens_error_errno(OOMLENS_ERR_IO, errno,
					  "cannot rename '%s' to '%s'", o->tmp,
					  o->target);
	if (o->tmp && (!keep || err))
		unlink(o->tmp);
	output_clear(o);
	return err;
}

struct oomlens_error *cli_output_abort(struct cli_output *o,
				       struct oomlens_error *err)
{
	bool failed = (o->tmp || o->direct) && ferror(o->f);
	const char *path = o->path;

	oomlens_error_free(cli_output_close(o, false));
	return failed ? oomlens_error_wrap(err, "-o '%s'", path) : err;
}

bool cli_colour(const struct cli_output *o)
{
	const char *no = getenv("NO_COLOR");

	return !o->tmp && !(no && *no) && isatty(fileno(o->f));
}

bool cli_parse_count(const char *cmd, const char *opt, const char *arg,
		     unsigned *out)
{
	unsigned long long n;
	char *end;

	errno = 0;
	n = strtoull(arg, &end, 10);
	if (end == arg || *end || errno || n == 0 || *arg == '-') {
		cli_print(stderr,
			  "oomlens %s: bad %s '%s' (a count, 1 or more)", cmd,
			  opt, arg);
		return false;
	}
	*out = n > CLI_COUNT_MAX ? CLI_COUNT_MAX : (unsigned)n;
	return true;
}

int cli_usage_error(const char *cmd, const char *usage)
{
	const char *end = strstr(usage, "\n\n");

	fwrite(usage, 1, end ? (size_t)(end - usage) + 1 : strlen(usage),
	       stderr);
	fprintf(stderr, "'oomlens help %s' for the options\n", cmd);
	return EXIT_TROUBLE;
}

int cli_parse_options(const struct cli_options *t, int argc, char **argv,
		      void *args)
{
	struct option longopts[t->n + t->n_extra + 1];
	char shortopts[2 * t->n + 1];
	size_t i, n = 0;
	int c, status;
	bool bad;

	for (i = 0; i < t->n; i++) {
		const struct cli_option *o = &t->rows[i];

		/* getopt_long() gives the letter, or 256 + the row's index */
		longopts[i] =
			(struct option){o->name, o->has_arg, NULL,
					o->letter ? o->letter : 256 + (int)i};
		if (!o->letter)
			continue;
		shortopts[n++] = o->letter;
		if (o->has_arg == required_argument)
			shortopts[n++] = ':';
	}
	for (size_t k = 0; k < t->n_extra; k++)
		longopts[i + k] = t->extra[k];
	longopts[i + t->n_extra] = (struct option){NULL, 0, NULL, 0};
	shortopts[n] = '\0';
	optind = 1;
	while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		if (t->other && t->other(args, c, optarg, &bad)) {
			if (bad)
				return EXIT_TROUBLE;
			continue;
		}
		for (i = 0; i < t->n; i++)
			if (longopts[i].val == c)
				break;
		if (i == t->n)
			return cli_usage_error(t->cmd, t->usage);
		status = t->rows[i].set((char *)args + t->rows[i].at, optarg);
		if (status != CLI_GO_ON)
			return status;
	}
	return CLI_GO_ON;
}

int cli_set_vmlinux(void *dump, const char *arg)
{
	struct cli_dump_options *d = dump;

	d->vmlinux = arg;
	return CLI_GO_ON;
}

int cli_set_debuginfo(void *dump, const char *arg)
{
	struct cli_dump_options *d = dump;

	d->debuginfo = arg;
	return CLI_GO_ON;
}

int cli_set_force(void *dump, const char *arg)
{
	struct cli_dump_options *d = dump;

	(void)arg;
	d->force = true;
	return CLI_GO_ON;
}

int cli_set_dump_timeout(void *dump, const char *arg)
{
	struct cli_dump_options *d = dump;

	if (cli_parse_seconds(arg, &d->dump_timeout))
		return CLI_GO_ON;
	cli_print(
		stderr,
		"oomlens %s: bad --dump-timeout '%s': whole seconds, 1 to 604800",
		d->cmd, arg);
	return EXIT_TROUBLE;
}

/* cli_parse_dump_log(): the caller's sink, and the release to give. */
struct dump_log_sink {
	const struct oomlog_sink *to;
	const char *release;
};

static OOMLENS_MUST_CHECK struct oomlens_error *
dump_log_incident(void *ctx, struct oom_incident *inc)
{
	struct dump_log_sink *s = ctx;

	if (!inc->kernel_release && s->release) {
		inc->kernel_release =
			oom_incident_str(inc, s->release, strlen(s->release));
		if (!inc->kernel_release) {
			oom_incident_free(inc);
			return &oomlens_error_nomem;
		}
	}
	return s->to->incident(s->to->ctx, inc);
}

static OOMLENS_MUST_CHECK struct oomlens_error *
dump_log_event(void *ctx, const struct oom_event *ev)
{
	struct dump_log_sink *s = ctx;

	return s->to->event(s->to->ctx, ev);
}

static void dump_log_warning(void *ctx, const char *source, uint64_t line,
			     const char *text)
{
	struct dump_log_sink *s = ctx;

	s->to->warning(s->to->ctx, source, line, text);
}

struct oomlens_error *cli_parse_dump_log(const struct dump_state *d,
					 const char *name,
					 const struct oomlog_sink *sink)
{
	struct dump_log_sink s = {
		.to = sink,
		.release = d->osrelease[0] ? d->osrelease : NULL,
	};
	struct oomlog_sink wrap = {
		.incident = dump_log_incident,
		.event = sink->event ? dump_log_event : NULL,
		.warning = sink->warning ? dump_log_warning : NULL,
		.ctx = &s,
	};

	return oomlog_parse_text(d->log, d->log_len, name, &wrap);
}
