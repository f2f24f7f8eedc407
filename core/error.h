/* SPDX-License-Identifier: MIT */
#ifndef OOMLENS_CORE_ERROR_H
#define OOMLENS_CORE_ERROR_H

/*
 * Errors: one struct, returned.
 *
 * A function that can fail returns `struct oomlens_error *`: NULL on success,
 * otherwise an error the caller owns and must release with
 * oomlens_error_free() (which accepts NULL and the static out-of-memory
 * error). Out-parameters are written only on success.
 *
 * Messages are lowercase, say what failed first and quote the subject:
 * "cannot open 'x.log': No such file or directory". Context is added on the
 * way up with oomlens_error_wrap(): "x.log:12: task row has 3 columns".
 */

#include <stdarg.h>

/*
 * On every function that returns an error: a caller that drops the result
 * gets a warning (an error under DEVELOPER=1), since a dropped error is a
 * failure nobody hears of and, when it was allocated, a leak.
 */
#define OOMLENS_MUST_CHECK __attribute__((warn_unused_result))

/*
 * What kind of failure an error is, set where it arises and kept by
 * oomlens_error_wrap(): callers branch on it, never on the message. An
 * input that cannot be read (IO) or is not what it claims (CORRUPT) is
 * that input's fault and can be skipped; a database that fails (DB) stops
 * whatever writes to it.
 */
enum oomlens_error_code {
	OOMLENS_ERR_NOMEM = 1, /* out of memory */
	OOMLENS_ERR_IO, /* reading an input failed: open, read, decompress */
	OOMLENS_ERR_CORRUPT, /* an input is not what it claims to be */
	OOMLENS_ERR_USAGE, /* bad command line or API use */
	OOMLENS_ERR_LIMIT, /* a safety cap was reached */
	OOMLENS_ERR_MISSING, /* the input needs more than was given */
	OOMLENS_ERR_DB, /* the database failed: SQLite, its file, its lock */
};

struct oomlens_error {
	enum oomlens_error_code code;
	char *message; /* owned; for the static nomem error, a literal */
};

/* The static out-of-memory error: never freed, safe to return anywhere. */
extern struct oomlens_error oomlens_error_nomem;
/*
 * The static error of a string buffer grown past its cap (core/strbuf.h),
 * code LIMIT: never freed either, so a caller that ignores it leaks nothing.
 * oomlens_error_wrap() returns a heap copy of it with the context.
 */
extern struct oomlens_error oomlens_error_buffer_cap;

/* A new error with a printf-style message. Never returns NULL. */
OOMLENS_MUST_CHECK struct oomlens_error *
oomlens_error_new(enum oomlens_error_code code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Like oomlens_error_new(), appending ": strerror(errnum)". */
OOMLENS_MUST_CHECK struct oomlens_error *
oomlens_error_errno(enum oomlens_error_code code, int errnum, const char *fmt,
		    ...) __attribute__((format(printf, 3, 4)));

/*
 * Prefix context to err's message ("ctx: message") and return err. If err is
 * the static nomem error it is returned unchanged; another static error is
 * copied first, and the copy returned. err may not be NULL.
 */
OOMLENS_MUST_CHECK struct oomlens_error *
oomlens_error_wrap(struct oomlens_error *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Release err; NULL and the static nomem error are no-ops. */
void oomlens_error_free(struct oomlens_error *err);

#endif
