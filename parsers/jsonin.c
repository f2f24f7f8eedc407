// SPDX-License-Identifier: MIT
/*
 * The JSON reader of parsers/jsonin.h over jansson, the only file that
 * includes <jansson.h>. Why jansson (Debian's libjansson-dev) and not
 * json-c: its parse error gives the line and the column of the fault
 * (json-c's tokener gives only a byte offset), it refuses duplicate keys
 * when asked (JSON_REJECT_DUPLICATES: an edited scenario that states a
 * key twice is an error, not a silent choice), refuses "\u0000" in
 * strings, bounds the nesting depth, and keeps an object's members in
 * document order. Invariants: the whole input is in memory at most once,
 * capped at JSONIN_MAX_BYTES; a struct jsonin is a json_t.
 */
#include "parsers/jsonin.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/banned.h"

const char *jsonin_kind_name(enum jsonin_kind k)
{
	switch (k) {
	case JSONIN_NULL:
		return "null";
	case JSONIN_BOOL:
		return "a boolean";
	case JSONIN_INT:
		return "an integer";
	case JSONIN_REAL:
		return "a real number";
	case JSONIN_STRING:
		return "a string";
	case JSONIN_ARRAY:
		return "an array";
	case JSONIN_OBJECT:
		break;
	}
	return "an object";
}

static const json_t *J(const struct jsonin *v)
{
	return (const json_t *)(const void *)v;
}

static struct jsonin *V(json_t *j)
{
	return (struct jsonin *)(void *)j;
}

/* All of fd, at most JSONIN_MAX_BYTES, into a new *buf of *len bytes. */
static OOMLENS_MUST_CHECK struct oomlens_error *
read_all(int fd, const char *name, char **buf, size_t *len)
{
	size_t cap = 1 << 16, n = 0;
	char *b = malloc(cap), *bigger;
	ssize_t got;

	while (b) {
		if (n == cap) {
			if (cap > JSONIN_MAX_BYTES)
				break;
			cap *= 2;
			bigger = realloc(b, cap);
			if (!bigger)
				break;
			b = bigger;
		}
		got = read(fd, b + n, cap - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			int e = errno;

			free(b);
			return oomlens_error_errno(OOMLENS_ERR_IO, e,
						   "cannot read '%s'", name);
		}
		if (got == 0) {
			if (n > JSONIN_MAX_BYTES)
				break;
			*buf = b;
			*len = n;
			return NULL;
		}
		n += (size_t)got;
	}
	if (!b || n <= JSONIN_MAX_BYTES) {
		free(b);
		return &oomlens_error_nomem;
	}
	free(b);
	return oomlens_error_new(OOMLENS_ERR_LIMIT,
				 "'%s' is larger than %zu MiB, the most "
				 "analyze --input reads: split it",
				 name, JSONIN_MAX_BYTES >> 20);
}

static struct oomlens_error *parse_error(const char *name,
					 const json_error_t *e, int line)
{
	if (json_error_code(e) == json_error_out_of_memory)
		return &oomlens_error_nomem;
	return oomlens_error_new(OOMLENS_ERR_CORRUPT,
				 "%s:%d:%d: not valid JSON: %s", name, line,
				 e->column, e->text);
}

static bool blank(const char *s, size_t n)
{
	while (n && (*s == ' ' || *s == '\t' || *s == '\r'))
		s++, n--;
	return n == 0;
}

/*
 * JSON Lines (analyze --format jsonl): one value a line, read as one
 * array of them; an error names its own line. NULL in *out when the
 * first line that is not blank is no value by itself: no JSON Lines.
 */
static OOMLENS_MUST_CHECK struct oomlens_error *
load_lines(const char *buf, size_t len, const char *name, json_t **out)
{
	json_t *all = json_array(), *j;
	size_t start = 0, end;
	int line = 0;
	json_error_t e;

	*out = NULL;
	if (!all)
		return &oomlens_error_nomem;
	for (; start < len; start = end + 1) {
		const char *nl = memchr(buf + start, '\n', len - start);

		end = nl ? (size_t)(nl - buf) : len;
		line++;
		if (blank(buf + start, end - start))
			continue;
		j = json_loadb(buf + start, end - start, JSON_REJECT_DUPLICATES,
			       &e);
		if (!j && !json_array_size(all)) {
			json_decref(all);
			return NULL;
		}
		if (!j || json_array_append_new(all, j)) {
			json_decref(all);
			return j ? &oomlens_error_nomem
				 : parse_error(name, &e, line);
		}
	}
	*out = all;
	return NULL;
}

struct oomlens_error *jsonin_load_buffer(const char *buf, size_t len,
					 const char *name, struct jsonin **root)
{
	struct oomlens_error *err;
	json_error_t e;
	json_t *j;

	if (len > JSONIN_MAX_BYTES)
		return oomlens_error_new(
			OOMLENS_ERR_LIMIT,
			"'%s' is larger than %zu MiB, the most "
			"analyze --input reads: split it",
			name, JSONIN_MAX_BYTES >> 20);
	j = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &e);
	if (!j && json_error_code(&e) == json_error_end_of_input_expected) {
		err = load_lines(buf, len, name, &j);
		if (err)
			return err;
	}
	if (!j)
		return parse_error(name, &e, e.line);
	*root = V(j);
	return NULL;
}

struct oomlens_error *jsonin_load(const char *path, const char *name,
				  struct jsonin **root)
{
	struct oomlens_error *err;
	bool is_stdin = !strcmp(path, "-");
	int fd = is_stdin ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
	char *buf = NULL;
	size_t len = 0;

	if (fd < 0)
		return oomlens_error_errno(OOMLENS_ERR_IO, errno,
					   "cannot read '%s'", name);
	err = read_all(fd, name, &buf, &len);
	if (!is_stdin)
		close(fd);
	if (err)
		return err;
	err = jsonin_load_buffer(buf, len, name, root);
	free(buf);
	return err;
}

void jsonin_free(struct jsonin *root)
{
	json_decref((json_t *)(void *)root);
}

enum jsonin_kind jsonin_kind_of(const struct jsonin *v)
{
	switch (json_typeof(J(v))) {
	case JSON_OBJECT:
		return JSONIN_OBJECT;
	case JSON_ARRAY:
		return JSONIN_ARRAY;
	case JSON_STRING:
		return JSONIN_STRING;
	case JSON_INTEGER:
		return JSONIN_INT;
	case JSON_REAL:
		return JSONIN_REAL;
	case JSON_TRUE:
	case JSON_FALSE:
		return JSONIN_BOOL;
	case JSON_NULL:
		break;
	}
	return JSONIN_NULL;
}

struct jsonin *jsonin_member(const struct jsonin *obj, const char *key)
{
	return V(json_object_get(J(obj), key));
}

size_t jsonin_size(const struct jsonin *v)
{
	if (json_is_array(J(v)))
		return json_array_size(J(v));
	return json_is_object(J(v)) ? json_object_size(J(v)) : 0;
}

struct jsonin *jsonin_at(const struct jsonin *arr, size_t i)
{
	return V(json_array_get(J(arr), i));
}

bool jsonin_next(const struct jsonin *obj, void **iter, const char **key,
		 struct jsonin **value)
{
	json_t *o = (json_t *)(uintptr_t)J(obj);

	if (!json_is_object(o))
		return false;
	*iter = *iter ? json_object_iter_next(o, *iter) : json_object_iter(o);
	if (!*iter)
		return false;
	*key = json_object_iter_key(*iter);
	*value = V(json_object_iter_value(*iter));
	return true;
}

int64_t jsonin_int(const struct jsonin *v)
{
	return (int64_t)json_integer_value(J(v));
}

double jsonin_real(const struct jsonin *v)
{
	return json_number_value(J(v));
}

bool jsonin_bool(const struct jsonin *v)
{
	return json_is_true(J(v));
}

const char *jsonin_string(const struct jsonin *v, size_t *len)
{
	if (!json_is_string(J(v)))
		return NULL;
	*len = json_string_length(J(v));
	return json_string_value(J(v));
}
