// SPDX-License-Identifier: MIT
/*
 * Journal exports (parsers/journal.h): the JSON forms and the export form,
 * decoded into the few fields the OOM parser uses.
 *
 * The JSON decoder is written here rather than taken from a library
 * (json-c and jansson are in Debian): an entry is one flat object of ~25
 * fields of which 9 matter, and a general parser would build every value
 * of every entry on the heap to throw most away; this one decodes the
 * wanted values into capped buffers and only walks past the others, so
 * memory stays bounded by LINESRC_MAX_LINE per value whatever the input.
 * It accepts what journalctl writes (strings, arrays of byte values or of
 * strings, null, numbers, nested values skipped to a bounded depth) and
 * \uXXXX escapes with surrogate pairs; a lone surrogate becomes U+FFFD.
 *
 * Invariants: every buffer has a cap; nothing is read past a line's or a
 * field's end; malformed input costs one entry and a warning.
 */
#include "parsers/journal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/scan.h"
#include "core/strbuf.h"
#include "core/banned.h"

#define SNIFF_MAGIC "LPKSHHRH"
/* json-pretty objects are gathered over lines up to this size. */
#define MAX_OBJECT ((size_t)4 << 20)
#define MAX_DEPTH 16
#define SMALL_FIELD ((size_t)4096)

enum field {
	F_MESSAGE,
	F_HOSTNAME,
	F_IDENTIFIER,
	F_BOOT_ID,
	F_TRANSPORT,
	F_PID,
	F_PRIORITY,
	F_SOURCE_MONO,
	F_MONO,
	F_REALTIME,
	F_COUNT
};

static const char *const field_names[F_COUNT] = {
	[F_MESSAGE] = "MESSAGE",
	[F_HOSTNAME] = "_HOSTNAME",
	[F_IDENTIFIER] = "SYSLOG_IDENTIFIER",
	[F_BOOT_ID] = "_BOOT_ID",
	[F_TRANSPORT] = "_TRANSPORT",
	[F_PID] = "_PID",
	[F_PRIORITY] = "PRIORITY",
	[F_SOURCE_MONO] = "_SOURCE_MONOTONIC_TIMESTAMP",
	[F_MONO] = "__MONOTONIC_TIMESTAMP",
	[F_REALTIME] = "__REALTIME_TIMESTAMP",
};

struct reader {
	struct linesrc *src;
	journal_entry_fn *fn;
	journal_warn_fn *warn;
	void *ctx;
	struct strbuf val[F_COUNT];
	bool seen[F_COUNT], cut[F_COUNT];
	bool any; /* the entry has a field */
	uint64_t lineno, offset; /* of the entry, or of its MESSAGE */
	struct strbuf obj; /* a json-pretty object being gathered */
	bool untransported; /* warned of a "kernel" entry without _TRANSPORT */
};

static void warnf(struct reader *r, uint64_t line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void warnf(struct reader *r, uint64_t line, const char *fmt, ...)
{
	char text[256];
	va_list ap;

	if (!r->warn)
		return;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	r->warn(r->ctx, line, text);
}

/* ---- sniffing ---------------------------------------------------------- */

static bool is_name_char(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* [p, p+n) is a field name: upper-case letters, digits, '_'. */
static bool is_field_name(const char *p, size_t n)
{
	size_t i;

	if (!n || n > 64 || (p[0] >= '0' && p[0] <= '9'))
		return false;
	for (i = 0; i < n; i++)
		if (!is_name_char(p[i]))
			return false;
	return true;
}

enum journal_format journal_sniff(const char *head, size_t n)
{
	static const char *const json_keys[] = {
		"\"__CURSOR\"",
		"\"__REALTIME_TIMESTAMP\"",
		"\"_TRANSPORT\"",
		"\"MESSAGE\"",
	};
	static const char *const export_marks[] = {
		"\n__REALTIME_TIMESTAMP=",
		"\nMESSAGE=",
		"\nMESSAGE\n",
		"\n_TRANSPORT=",
	};
	struct scan s = scan_of(head, n);
	const char *name, *eol;
	size_t i;

	if (n >= 8 && !memcmp(head, SNIFF_MAGIC, 8))
		return JOURNAL_BINARY;
	scan_spaces(&s);
	while (scan_char(&s, '\n') || scan_char(&s, '\r'))
		scan_spaces(&s);
	scan_char(&s, '\x1e'); /* json-seq */
	scan_lit(&s, "data: "); /* json-sse */
	if (scan_char(&s, '{')) {
		for (i = 0; i < sizeof(json_keys) / sizeof(json_keys[0]); i++)
			if (scan_find(s.p, scan_left(&s), json_keys[i]))
				return JOURNAL_JSON;
		return JOURNAL_NOT;
	}
	/* export: a first line "NAME=..." or "NAME", and a journal's field */
	name = head;
	eol = memchr(head, '\n', n);
	if (!eol)
		return JOURNAL_NOT;
	{
		const char *eq = memchr(name, '=', (size_t)(eol - name));

		if (!is_field_name(name, (size_t)((eq ? eq : eol) - name)))
			return JOURNAL_NOT;
	}
	if (scan_starts(head, n, "__CURSOR=") ||
	    scan_starts(head, n, "__REALTIME_TIMESTAMP="))
		return JOURNAL_EXPORT;
	for (i = 0; i < sizeof(export_marks) / sizeof(export_marks[0]); i++)
		if (scan_find(head, n, export_marks[i]))
			return JOURNAL_EXPORT;
	return JOURNAL_NOT;
}

/* ---- entries ----------------------------------------------------------- */

static void entry_reset(struct reader *r)
{
	size_t i;

	for (i = 0; i < F_COUNT; i++) {
		strbuf_reset(&r->val[i]);
		r->seen[i] = r->cut[i] = false;
	}
	r->any = false;
}

static enum field field_of(const char *name, size_t n)
{
	size_t i;

	for (i = 0; i < F_COUNT; i++)
		if (strlen(field_names[i]) == n &&
		    !memcmp(field_names[i], name, n))
			return (enum field)i;
	return F_COUNT;
}

static bool number_of(const struct reader *r, enum field f, uint64_t *out)
{
	struct scan s = scan_of(r->val[f].buf, r->val[f].len);

	return r->seen[f] && scan_u64(&s, out) && scan_eof(&s);
}

static bool value_is(const struct reader *r, enum field f, const char *text)
{
	return r->seen[f] && r->val[f].len == strlen(text) &&
	       !memcmp(r->val[f].buf, text, r->val[f].len);
}

/* The entry is complete: hand it on if it has a message. */
static OOMLENS_MUST_CHECK struct oomlens_error *entry_end(struct reader *r)
{
	struct journal_entry e = {0};
	uint64_t v;
	enum field f;
	struct oomlens_error *err = NULL;

	for (f = 0; f < F_COUNT; f++)
		if (r->cut[f])
			warnf(r, r->lineno,
			      "journal field %s longer than %zu bytes: cut",
			      field_names[f], r->val[f].cap);
	if (r->seen[F_MESSAGE]) {
		e.message = r->val[F_MESSAGE].buf;
		e.message_len = r->val[F_MESSAGE].len;
		e.hostname =
			r->seen[F_HOSTNAME] ? r->val[F_HOSTNAME].buf : NULL;
		e.identifier =
			r->seen[F_IDENTIFIER] ? r->val[F_IDENTIFIER].buf : NULL;
		e.boot_id = r->seen[F_BOOT_ID] ? r->val[F_BOOT_ID].buf : NULL;
		e.pid = number_of(r, F_PID, &v) && v <= INT32_MAX ? (int64_t)v
								  : -1;
		e.priority =
			number_of(r, F_PRIORITY, &v) && v <= 7 ? (int)v : -1;
		/*
		 * The transport is journald's own word for where an entry
		 * came from; SYSLOG_IDENTIFIER is the sender's (logger -t
		 * kernel writes "kernel" from user space).
		 */
		e.kernel = value_is(r, F_TRANSPORT, "kernel");
		if (!r->seen[F_TRANSPORT] &&
		    value_is(r, F_IDENTIFIER, "kernel") && !r->untransported) {
			r->untransported = true;
			warnf(r, r->lineno,
			      "journal entries tagged \"kernel\" without a _TRANSPORT field (journalctl --output-fields?): not read as the kernel's");
		}
		e.has_source_mono =
			number_of(r, F_SOURCE_MONO, &e.source_mono_usec);
		e.has_mono = number_of(r, F_MONO, &e.mono_usec);
		e.has_realtime = number_of(r, F_REALTIME, &e.realtime_usec);
		e.lineno = r->lineno;
		e.offset = r->offset;
		err = r->fn(r->ctx, &e);
	}
	entry_reset(r);
	return err;
}

/* Append what fits under the cap; *cut when something did not. */
static OOMLENS_MUST_CHECK struct oomlens_error *
add_capped(struct strbuf *sb, const void *p, size_t n, bool *cut)
{
	if (n > sb->cap - sb->len) {
		*cut = true;
		n = sb->cap - sb->len;
	}
	return n ? strbuf_add(sb, p, n) : NULL;
}

/* ---- JSON -------------------------------------------------------------- */

struct json {
	const char *p, *end;
	struct oomlens_error *err; /* out of memory */
};

static void json_ws(struct json *j)
{
	while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' ||
				 *j->p == '\n' || *j->p == '\r'))
		j->p++;
}

static bool json_lit(struct json *j, const char *lit)
{
	size_t n = strlen(lit);

	if ((size_t)(j->end - j->p) < n || memcmp(j->p, lit, n))
		return false;
	j->p += n;
	return true;
}

static int hex4(const char *p)
{
	int v = 0, i;

	for (i = 0; i < 4; i++) {
		char c = p[i];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= c - '0';
		else if (c >= 'a' && c <= 'f')
			v |= c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			v |= c - 'A' + 10;
		else
			return -1;
	}
	return v;
}

/* out: the UTF-8 bytes of code point cp (at most U+10FFFF); their count. */
static size_t utf8_of(unsigned cp, char out[4])
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xc0 | cp >> 6);
		out[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xe0 | cp >> 12);
		out[1] = (char)(0x80 | (cp >> 6 & 0x3f));
		out[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | cp >> 18);
	out[1] = (char)(0x80 | (cp >> 12 & 0x3f));
	out[2] = (char)(0x80 | (cp >> 6 & 0x3f));
	out[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/*
 * A string, j->p just after its opening quote: decoded into out (NULL:
 * walked past), j->p left after the closing quote. False if malformed.
 */
static bool json_string(struct json *j, struct strbuf *out, bool *cut)
{
	while (j->p < j->end) {
		const char *run = j->p;
		char u[4];
		int cp, lo;

		while (j->p < j->end && *j->p != '"' && *j->p != '\\')
			j->p++;
		if (out && j->p > run && !j->err)
			j->err =
				add_capped(out, run, (size_t)(j->p - run), cut);
		if (j->p >= j->end)
			return false;
		if (*j->p++ == '"')
			return true;
		if (j->p >= j->end)
			return false;
		switch (*j->p++) {
		case '"':
			u[0] = '"';
			break;
		case '\\':
			u[0] = '\\';
			break;
		case '/':
			u[0] = '/';
			break;
		case 'b':
			u[0] = '\b';
			break;
		case 'f':
			u[0] = '\f';
			break;
		case 'n':
			u[0] = '\n';
			break;
		case 'r':
			u[0] = '\r';
			break;
		case 't':
			u[0] = '\t';
			break;
		case 'u':
			if (j->end - j->p < 4 || (cp = hex4(j->p)) < 0)
				return false;
			j->p += 4;
			if (cp >= 0xd800 && cp <= 0xdbff &&
			    j->end - j->p >= 6 && j->p[0] == '\\' &&
			    j->p[1] == 'u' && (lo = hex4(j->p + 2)) >= 0xdc00 &&
			    lo <= 0xdfff) {
				j->p += 6;
				cp = 0x10000 + ((cp - 0xd800) << 10) +
				     (lo - 0xdc00);
			} else if (cp >= 0xd800 && cp <= 0xdfff) {
				cp = 0xfffd; /* a lone surrogate */
			}
			if (out && !j->err)
				j->err = add_capped(
					out, u, utf8_of((unsigned)cp, u), cut);
			continue;
		default:
			return false;
		}
		if (out && !j->err)
			j->err = add_capped(out, u, 1, cut);
	}
	return false;
}

/* A number's text, or a literal: copied as written. */
static bool json_scalar(struct json *j, struct strbuf *out, bool *cut,
			bool *is_null)
{
	const char *start = j->p;

	if (json_lit(j, "null")) {
		*is_null = true;
		return true;
	}
	if (json_lit(j, "true") || json_lit(j, "false"))
		;
	else {
		while (j->p < j->end &&
		       ((*j->p >= '0' && *j->p <= '9') || *j->p == '-' ||
			*j->p == '+' || *j->p == '.' || *j->p == 'e' ||
			*j->p == 'E'))
			j->p++;
		if (j->p == start)
			return false;
	}
	if (out && !j->err)
		j->err = add_capped(out, start, (size_t)(j->p - start), cut);
	return true;
}

static bool json_value(struct json *j, struct strbuf *out, bool *cut,
		       bool *is_null, int depth);

/*
 * An array: of byte values (a value that is not UTF-8) into out as bytes;
 * of strings or arrays (a field given more than once) the first into out.
 */
static bool json_array(struct json *j, struct strbuf *out, bool *cut, int depth)
{
	bool first = true, bytes = false, null;

	json_ws(j);
	if (j->p < j->end && *j->p == ']') {
		j->p++;
		return true;
	}
	for (;;) {
		json_ws(j);
		if (j->p >= j->end)
			return false;
		if (first && out && *j->p >= '0' && *j->p <= '9')
			bytes = true;
		if (bytes) {
			struct scan s = scan_of(j->p, (size_t)(j->end - j->p));
			uint64_t b;
			char c;

			if (!scan_u64(&s, &b) || b > 255)
				return false;
			j->p = s.p;
			c = (char)b;
			if (out && !j->err)
				j->err = add_capped(out, &c, 1, cut);
		} else if (!json_value(j, first ? out : NULL, cut, &null,
				       depth + 1)) {
			return false;
		}
		first = false;
		json_ws(j);
		if (j->p < j->end && *j->p == ',') {
			j->p++;
			continue;
		}
		if (j->p < j->end && *j->p == ']') {
			j->p++;
			return true;
		}
		return false;
	}
}

/* An object walked past (no field of an entry is one, but be lenient). */
static bool json_skip_object(struct json *j, int depth)
{
	bool cut = false, null;

	json_ws(j);
	if (j->p < j->end && *j->p == '}') {
		j->p++;
		return true;
	}
	for (;;) {
		json_ws(j);
		if (j->p >= j->end || *j->p++ != '"' ||
		    !json_string(j, NULL, &cut))
			return false;
		json_ws(j);
		if (j->p >= j->end || *j->p++ != ':' ||
		    !json_value(j, NULL, &cut, &null, depth + 1))
			return false;
		json_ws(j);
		if (j->p < j->end && *j->p == ',') {
			j->p++;
			continue;
		}
		if (j->p < j->end && *j->p == '}') {
			j->p++;
			return true;
		}
		return false;
	}
}

static bool json_value(struct json *j, struct strbuf *out, bool *cut,
		       bool *is_null, int depth)
{
	*is_null = false;
	if (depth > MAX_DEPTH)
		return false;
	json_ws(j);
	if (j->p >= j->end)
		return false;
	switch (*j->p) {
	case '"':
		j->p++;
		return json_string(j, out, cut);
	case '[':
		j->p++;
		return json_array(j, out, cut, depth);
	case '{':
		j->p++;
		return json_skip_object(j, depth);
	default:
		return json_scalar(j, out, cut, is_null);
	}
}

/* One entry object in [p, p+n); false (nothing handed on) if malformed. */
static OOMLENS_MUST_CHECK struct oomlens_error *
json_entry(struct reader *r, const char *p, size_t n, bool *ok)
{
	struct json j = {p, p + n, NULL};
	struct strbuf key;
	bool cut = false;

	*ok = false;
	strbuf_init(&key, 256);
	entry_reset(r);
	json_ws(&j);
	if (j.p >= j.end || *j.p++ != '{')
		goto out;
	json_ws(&j);
	if (j.p < j.end && *j.p == '}') {
		j.p++;
		*ok = true;
		goto out;
	}
	for (;;) {
		enum field f;
		bool null, kcut = false;

		json_ws(&j);
		strbuf_reset(&key);
		if (j.p >= j.end || *j.p++ != '"' ||
		    !json_string(&j, &key, &kcut))
			goto out;
		f = kcut ? F_COUNT : field_of(key.buf, key.len);
		json_ws(&j);
		if (j.p >= j.end || *j.p++ != ':')
			goto out;
		if (f < F_COUNT) {
			strbuf_reset(&r->val[f]);
			if (!json_value(&j, &r->val[f], &r->cut[f], &null, 1))
				goto out;
			r->seen[f] = !null;
		} else if (!json_value(&j, NULL, &cut, &null, 1)) {
			goto out;
		}
		if (j.err)
			goto out;
		json_ws(&j);
		if (j.p < j.end && *j.p == ',') {
			j.p++;
			continue;
		}
		if (j.p < j.end && *j.p == '}') {
			j.p++;
			break;
		}
		goto out;
	}
	json_ws(&j);
	*ok = j.p == j.end;
out:
	strbuf_release(&key);
	if (j.err) {
		entry_reset(r);
		return j.err;
	}
	if (!*ok) {
		entry_reset(r);
		return NULL;
	}
	return entry_end(r);
}

/* A line of a JSON export: an entry, a piece of a json-pretty one, noise. */
static OOMLENS_MUST_CHECK struct oomlens_error *
json_line(struct reader *r, const struct line *l, uint64_t *noise)
{
	const char *p = l->text;
	size_t n = l->len;
	struct oomlens_error *err;
	bool ok;

	scan_trim(&p, &n);
	if (n && *p == '\x1e') { /* json-seq */
		p++;
		n--;
	}
	if (scan_starts(p, n, "data: ")) { /* json-sse */
		p += 6;
		n -= 6;
	}
	if (r->obj.len || (n == 1 && *p == '{')) {
		/* json-pretty: gather the object's lines */
		bool cut = false;

		if (!r->obj.len) {
			r->lineno = l->lineno;
			r->offset = l->offset;
		}
		if ((err = add_capped(&r->obj, p, n, &cut)) ||
		    (err = add_capped(&r->obj, "\n", 1, &cut)))
			return err;
		if (cut) {
			warnf(r, r->lineno,
			      "journal entry longer than %zu bytes: skipped",
			      r->obj.cap);
			strbuf_reset(&r->obj);
			return NULL;
		}
		if (!(n == 1 && *p == '}'))
			return NULL;
		err = json_entry(r, r->obj.buf, r->obj.len, &ok);
		strbuf_reset(&r->obj);
	} else if (!n) {
		return NULL;
	} else if (*p == '{') {
		r->lineno = l->lineno;
		r->offset = l->offset;
		if (l->cut) {
			warnf(r, l->lineno,
			      "journal entry longer than %zu bytes: skipped",
			      (size_t)LINESRC_MAX_LINE);
			return NULL;
		}
		err = json_entry(r, p, n, &ok);
	} else {
		if (++*noise <= 3)
			warnf(r, l->lineno,
			      "not a journal entry in a JSON export: skipped");
		return NULL;
	}
	if (!err && !ok)
		warnf(r, r->lineno, "malformed journal entry: skipped");
	return err;
}

static OOMLENS_MUST_CHECK struct oomlens_error *read_json(struct reader *r)
{
	struct oomlens_error *err;
	struct line l;
	uint64_t noise = 0;
	bool got;

	strbuf_init(&r->obj, MAX_OBJECT);
	while (!(err = linesrc_next(r->src, &l, &got)) && got)
		if ((err = json_line(r, &l, &noise)))
			break;
	if (!err && r->obj.len)
		warnf(r, r->lineno, "journal entry cut short by the end");
	strbuf_release(&r->obj);
	return err;
}

/* ---- export ------------------------------------------------------------ */

/* Take n bytes into out (NULL: pass over them); *short_read at the end. */
static OOMLENS_MUST_CHECK struct oomlens_error *
take_into(struct reader *r, uint64_t n, struct strbuf *out, bool *cut,
	  bool *short_read)
{
	struct oomlens_error *err;
	const char *p;
	size_t got;

	*short_read = false;
	while (n) {
		size_t want =
			n > LINESRC_MAX_LINE ? LINESRC_MAX_LINE : (size_t)n;

		if ((err = linesrc_take(r->src, want, &p, &got)))
			return err;
		if (out && (err = add_capped(out, p, got, cut)))
			return err;
		n -= got;
		if (got < want) {
			*short_read = true;
			return NULL;
		}
	}
	return NULL;
}

/* "NAME" then a 64-bit little-endian length, the bytes, '\n'. */
static OOMLENS_MUST_CHECK struct oomlens_error *
binary_field(struct reader *r, enum field f, const struct line *l, bool *stop)
{
	struct oomlens_error *err;
	const char *p;
	size_t got, i;
	uint64_t len = 0;
	bool short_read;

	*stop = false;
	if ((err = linesrc_take(r->src, 8, &p, &got)))
		return err;
	for (i = 0; i < got; i++)
		len |= (uint64_t)(unsigned char)p[i] << (8 * i);
	if (got < 8) {
		warnf(r, l->lineno, "journal export cut inside a field");
		*stop = true;
		return NULL;
	}
	if (f < F_COUNT)
		strbuf_reset(&r->val[f]);
	err = take_into(r, len, f < F_COUNT ? &r->val[f] : NULL,
			f < F_COUNT ? &r->cut[f] : NULL, &short_read);
	if (err)
		return err;
	if (short_read) {
		warnf(r, l->lineno, "journal export cut inside a field");
		*stop = true;
		return NULL;
	}
	if (f < F_COUNT)
		r->seen[f] = true;
	if ((err = linesrc_take(r->src, 1, &p, &got)))
		return err;
	if (got == 1 && *p != '\n') {
		warnf(r, l->lineno,
		      "journal export field of %llu bytes not followed by a newline: read no further",
		      (unsigned long long)len);
		*stop = true;
	}
	return NULL;
}

static OOMLENS_MUST_CHECK struct oomlens_error *read_export(struct reader *r)
{
	struct oomlens_error *err;
	struct line l;
	uint64_t noise = 0;
	bool got, stop = false;

	while (!stop && !(err = linesrc_next(r->src, &l, &got)) && got) {
		const char *eq = memchr(l.text, '=', l.len);
		size_t nl = eq ? (size_t)(eq - l.text) : l.len;
		enum field f;

		if (!l.len) {
			if ((err = entry_end(r)))
				return err;
			continue;
		}
		if (!is_field_name(l.text, nl)) {
			if (++noise <= 3)
				warnf(r, l.lineno,
				      "not a field of a journal export: skipped");
			continue;
		}
		if (!r->any) {
			r->any = true;
			r->lineno = l.lineno;
			r->offset = l.offset;
		}
		f = field_of(l.text, nl);
		if (f == F_MESSAGE) {
			r->lineno = l.lineno;
			r->offset = l.offset;
		}
		if (!eq) {
			if ((err = binary_field(r, f, &l, &stop)))
				return err;
			continue;
		}
		if (f < F_COUNT) {
			strbuf_reset(&r->val[f]);
			r->seen[f] = true;
			r->cut[f] |= l.cut;
			if ((err = add_capped(&r->val[f], eq + 1,
					      l.len - nl - 1, &r->cut[f])))
				return err;
		}
	}
	if (!err && r->any)
		err = entry_end(r);
	return err;
}

struct oomlens_error *journal_read(struct linesrc *src, enum journal_format f,
				   journal_entry_fn *fn, journal_warn_fn *warn,
				   void *ctx)
{
	struct reader r = {.src = src, .fn = fn, .warn = warn, .ctx = ctx};
	struct oomlens_error *err;
	size_t i;

	if (f == JOURNAL_BINARY)
		return journalfile_read(src, fn, warn, ctx);
	for (i = 0; i < F_COUNT; i++)
		strbuf_init(&r.val[i],
			    i == F_MESSAGE ? LINESRC_MAX_LINE : SMALL_FIELD);
	err = f == JOURNAL_JSON ? read_json(&r) : read_export(&r);
	for (i = 0; i < F_COUNT; i++)
		strbuf_release(&r.val[i]);
	return err;
}
