// SPDX-License-Identifier: MIT
/*
 * What every subcommand shares (cli/commands.h): printing with the input's
 * control characters escaped, the error line and its exit status, the
 * --format parser over reports/'s renderer table, the database path, and
 * finding a vmcore's debuginfo.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/commands.h"
#include "core/escape.h"
#include "core/scan.h"
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
