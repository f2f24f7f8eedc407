/* SPDX-License-Identifier: MIT */
#ifndef OOMLENS_PARSERS_JSONIN_H
#define OOMLENS_PARSERS_JSONIN_H

/*
 * Reading a JSON document: the one file that sees the JSON library
 * (jansson). A document is read whole into a tree of values, and the
 * tree is walked through the functions below, never through jansson's
 * types, so that the library could be swapped in this one file.
 *
 * Bounded: the input may be at most JSONIN_MAX_BYTES (the file, or what
 * standard input gives), and jansson refuses nesting deeper than its
 * JSON_PARSER_MAX_DEPTH (2048 in Debian 12's 2.14); a document past
 * either is an error, not a partial tree.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/error.h"

/* The largest input read: 64 MiB (its tree takes several times that). */
#define JSONIN_MAX_BYTES ((size_t)64 << 20)

/* A value in a loaded document; valid until jsonin_free() of its root. */
struct jsonin;

enum jsonin_kind {
	JSONIN_NULL,
	JSONIN_BOOL,
	JSONIN_INT,
	JSONIN_REAL,
	JSONIN_STRING,
	JSONIN_ARRAY,
	JSONIN_OBJECT,
};

/* "null", "a boolean", "an integer", ... for messages. */
const char *jsonin_kind_name(enum jsonin_kind k);

/*
 * Read the document in path ("-": standard input) into *root: one JSON
 * value, or JSON Lines (a value on each line; the first line that is not
 * blank a whole value) as one array of them. Errors:
 * IO (cannot open or read 'PATH'), LIMIT (larger than JSONIN_MAX_BYTES),
 * CORRUPT ("PATH:LINE:COLUMN: TEXT" from the parser: bad syntax, a
 * duplicate key, nesting too deep, an integer too big, a NUL), NOMEM.
 * name is how the messages call the input ("<stdin>" for "-").
 */
OOMLENS_MUST_CHECK struct oomlens_error *
jsonin_load(const char *path, const char *name, struct jsonin **root);

/* The same from a buffer of len bytes, named name in messages. */
OOMLENS_MUST_CHECK struct oomlens_error *
jsonin_load_buffer(const char *buf, size_t len, const char *name,
		   struct jsonin **root);

/* Free a root returned by jsonin_load(); NULL is a no-op. */
void jsonin_free(struct jsonin *root);

enum jsonin_kind jsonin_kind_of(const struct jsonin *v);

/* An object's member named key, or NULL when it has none. */
struct jsonin *jsonin_member(const struct jsonin *obj, const char *key);

/* The number of elements of an array or members of an object; else 0. */
size_t jsonin_size(const struct jsonin *v);
/* An array's element i (< jsonin_size()), or NULL. */
struct jsonin *jsonin_at(const struct jsonin *arr, size_t i);

/*
 * An object's members in their order in the document: start with *iter
 * NULL; each call gives the next key and value and returns true, or false
 * after the last. Keys are valid as the value is.
 */
bool jsonin_next(const struct jsonin *obj, void **iter, const char **key,
		 struct jsonin **value);

/* The value of an integer, a real (or an integer, as a real), a bool. */
int64_t jsonin_int(const struct jsonin *v);
double jsonin_real(const struct jsonin *v);
bool jsonin_bool(const struct jsonin *v);
/* A string's bytes (UTF-8, no NUL inside) and their count, or NULL. */
const char *jsonin_string(const struct jsonin *v, size_t *len);

#endif
