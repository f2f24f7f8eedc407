// SPDX-License-Identifier: MIT
/*
 * The error struct (core/error.h): formatting, wrapping with context and
 * freeing. Invariants: no function here returns NULL; when a message cannot
 * be allocated the static oomlens_error_nomem comes back instead, and
 * wrapping or freeing it is a no-op; wrapping keeps the error's kind.
 */
#include "core/error.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/banned.h"

struct oomlens_error oomlens_error_nomem = {
	.code = OOMLENS_ERR_NOMEM,
	.message = (char *)"out of memory",
};

struct oomlens_error oomlens_error_buffer_cap = {
	.code = OOMLENS_ERR_LIMIT,
	.message = (char *)"a string buffer would exceed its cap",
};

static bool is_static(const struct oomlens_error *err)
{
	return err == &oomlens_error_nomem || err == &oomlens_error_buffer_cap;
}

static char *vformat(const char *fmt, va_list ap)
{
	char *s = NULL;

	if (vasprintf(&s, fmt, ap) < 0)
		return NULL;
	return s;
}

static OOMLENS_MUST_CHECK struct oomlens_error *
make(enum oomlens_error_code code, char *msg)
{
	struct oomlens_error *err;

	if (!msg)
		return &oomlens_error_nomem;
	err = malloc(sizeof(*err));
	if (!err) {
		free(msg);
		return &oomlens_error_nomem;
	}
	err->code = code;
	err->message = msg;
	return err;
}

struct oomlens_error *oomlens_error_new(enum oomlens_error_code code,
					const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	msg = vformat(fmt, ap);
	va_end(ap);
	return make(code, msg);
}

struct oomlens_error *oomlens_error_errno(enum oomlens_error_code code,
					  int errnum, const char *fmt, ...)
{
	va_list ap;
	char *head, *msg = NULL;

	va_start(ap, fmt);
	head = vformat(fmt, ap);
	va_end(ap);
	if (head && asprintf(&msg, "%s: %s", head, strerror(errnum)) < 0)
		msg = NULL;
	free(head);
	return make(code, msg);
}

struct oomlens_error *oomlens_error_wrap(struct oomlens_error *err,
					 const char *fmt, ...)
{
	va_list ap;
	char *ctx, *msg = NULL;

	if (err == &oomlens_error_nomem)
		return err;
	va_start(ap, fmt);
	ctx = vformat(fmt, ap);
	va_end(ap);
	if (ctx && asprintf(&msg, "%s: %s", ctx, err->message) >= 0) {
		if (is_static(err)) {
			/* a copy that can take the context */
			struct oomlens_error *copy = make(err->code, msg);

			if (copy != &oomlens_error_nomem)
				err = copy;
		} else {
			free(err->message);
			err->message = msg;
		}
	}
	free(ctx);
	return err;
}

void oomlens_error_free(struct oomlens_error *err)
{
	if (!err || is_static(err))
		return;
	free(err->message);
	free(err);
}
