// SPDX-License-Identifier: MIT
/*
 * Unit tests of core/: string buffers, pools and arrays at their caps,
 * cursor scanning, literal search, errors with context, escaping.
 */
#include <stdlib.h>
#include <string.h>

#include "core/array.h"
#include "core/csrc.h"
#include "core/error.h"
#include "core/escape.h"
#include "core/nametab.h"
#include "core/scan.h"
#include "core/strbuf.h"
#include "core/strpool.h"
#include "tests/suites.h"

START_TEST(strbuf_grows_until_its_cap)
{
	struct strbuf sb = STRBUF_INIT(10);
	struct oomlens_error *err;

	ck_assert_str_eq(sb.buf, "");
	ck_assert_ptr_null(strbuf_adds(&sb, "hello"));
	ck_assert_ptr_null(strbuf_addf(&sb, "%d", 1234));
	ck_assert_str_eq(sb.buf, "hello1234");
	err = strbuf_adds(&sb, "xy");
	ck_assert_ptr_nonnull(err);
	ck_assert_int_eq(err->code, OOMLENS_ERR_LIMIT);
	ck_assert_str_eq(sb.buf, "hello1234"); /* unchanged on failure */
	oomlens_error_free(err);
	strbuf_reset(&sb); /* a fresh start clears the error */
	ck_assert_ptr_null(strbuf_adds(&sb, "0123456789"));
	ck_assert_uint_eq(sb.len, 10);
	strbuf_release(&sb);
	ck_assert_uint_eq(sb.len, 0);
}
END_TEST

/* The first failure sticks: later appends do nothing, checked once. */
START_TEST(strbuf_errors_are_sticky)
{
	struct strbuf sb = STRBUF_INIT(8);
	struct oomlens_error *err;

	ck_assert_ptr_null(strbuf_error(&sb));
	strbuf_adds(&sb, "abc");
	strbuf_adds(&sb, "defghi"); /* 9 bytes: over the cap */
	strbuf_adds(&sb, "d"); /* would fit, but the text has a hole */
	strbuf_addf(&sb, "%d", 7);
	ck_assert_ptr_eq(strbuf_grow(&sb, 0), strbuf_error(&sb));
	err = strbuf_error(&sb);
	ck_assert_ptr_nonnull(err);
	ck_assert_int_eq(err->code, OOMLENS_ERR_LIMIT);
	ck_assert_str_eq(sb.buf, "abc");
	/* static: freeing is a no-op, wrapping gives a copy with context */
	oomlens_error_free(err);
	err = oomlens_error_wrap(err, "%s", "x.log:3");
	ck_assert_ptr_ne(err, strbuf_error(&sb));
	ck_assert_int_eq(err->code, OOMLENS_ERR_LIMIT);
	ck_assert_str_eq(err->message,
			 "x.log:3: a string buffer would exceed its cap");
	oomlens_error_free(err);
	strbuf_release(&sb);
	ck_assert_ptr_null(strbuf_error(&sb));
	ck_assert_ptr_null(strbuf_adds(&sb, "12345678"));
	strbuf_release(&sb);
}
END_TEST

START_TEST(scan_chains_and_does_not_move_on_failure)
{
	const char *t = "[ 1234]  -17 x";
	struct scan s = scan_of(t, strlen(t));
	int64_t pid, adj;
	uint64_t u;

	ck_assert(scan_char(&s, '[') && scan_spaces(&s) && scan_i64(&s, &pid) &&
		  scan_char(&s, ']') && scan_space1(&s) && scan_i64(&s, &adj));
	ck_assert_int_eq(pid, 1234);
	ck_assert_int_eq(adj, -17);
	ck_assert(!scan_u64(&s, &u));
	ck_assert(scan_space1(&s) && scan_lit(&s, "x") && scan_eof(&s));

	/* overflow is a failure, not a wrap */
	s = scan_of("99999999999999999999", 20);
	ck_assert(!scan_u64(&s, &u));
	ck_assert_uint_eq(scan_left(&s), 20);
	s = scan_of("-9223372036854775808", 20);
	ck_assert(scan_i64(&s, &pid));
	ck_assert_int_eq(pid, INT64_MIN);
	s = scan_of("18446744073709551615", 20);
	ck_assert(scan_u64(&s, &u) && scan_eof(&s));
	ck_assert_uint_eq(u, UINT64_MAX);
	s = scan_of("18446744073709551616", 20);
	ck_assert(!scan_u64(&s, &u));
	s = scan_of("18446744073709551620", 20);
	ck_assert(!scan_u64(&s, &u));
}
END_TEST

/*
 * scan_find_n() against memmem: needles of every length up to 20 at every
 * place of haystacks up to 80 bytes, among near misses (same first and last
 * byte). Each haystack is allocated to its exact size, so that a sanitizer
 * build catches a load past its end.
 */
START_TEST(scan_find_is_memmem)
{
	const char *needle = "abcdefghijklmnopqrst";
	size_t len, n, at;

	for (len = 0; len <= 80; len++) {
		char *h = malloc(len ? len : 1);

		ck_assert_ptr_nonnull(h);
		for (n = 1; n <= 20; n++) {
			for (at = 0; at + n <= len + n; at++) {
				size_t i;

				/* near misses everywhere, the needle at `at` */
				for (i = 0; i < len; i++)
					h[i] = i % n == 0	? needle[0]
					       : i % n == n - 1 ? needle[n - 1]
								: 'x';
				if (at + n <= len)
					memcpy(h + at, needle, n);
				ck_assert_ptr_eq(scan_find_n(h, len, needle, n),
						 memmem(h, len, needle, n));
			}
		}
		ck_assert_ptr_eq(scan_find_n(h, len, needle, 0), h);
		free(h);
	}
	{
		const char *t = "a#01b#012#012";

		ck_assert_ptr_eq(scan_find(t, 13, "#012"), t + 5);
		ck_assert_ptr_null(scan_find(t, 8, "#012"));
	}
}
END_TEST

/* The first place where a literal of lit starts, and the newlines before. */
static const char *naive_set_find(const char *const *lit, size_t n,
				  const char *p, size_t len, size_t *newlines)
{
	size_t i, k, lines = 0;

	for (i = 0; i < len; i++) {
		for (k = 0; k < n; k++) {
			size_t m = strlen(lit[k]);

			if (m <= len - i && memcmp(p + i, lit[k], m) == 0) {
				*newlines = lines;
				return p + i;
			}
		}
		lines += p[i] == '\n';
	}
	*newlines = lines;
	return NULL;
}

/* A plain byte loop: what the word and SSE2 counts must agree with. */
static size_t newlines_by_bytes(const char *p, size_t len)
{
	size_t i, n = 0;

	for (i = 0; i < len; i++)
		n += p[i] == '\n';
	return n;
}

/*
 * scan_count_newlines() and scan_count_newlines_wide() against the byte
 * loop: random buffers at every alignment of 16 and every length 0..200,
 * and large ones (all newlines: a byte lane summed past 255; random).
 */
START_TEST(scan_count_newlines_is_the_byte_loop)
{
	size_t big = ((size_t)1 << 20) + 7, align, len, i;
	char *buf = malloc(big + 32);
	unsigned seed = 7;

	ck_assert_ptr_nonnull(buf);
	for (align = 0; align < 16; align++) {
		for (len = 0; len <= 200; len++) {
			char *p = buf + align;

			for (i = 0; i < len; i++)
				p[i] = rand_r(&seed) % 3 ? (char)rand_r(&seed)
							 : '\n';
			ck_assert_uint_eq(scan_count_newlines(p, len),
					  newlines_by_bytes(p, len));
			ck_assert_uint_eq(scan_count_newlines_wide(p, len),
					  newlines_by_bytes(p, len));
		}
	}
	memset(buf, '\n', big + 32);
	ck_assert_uint_eq(scan_count_newlines_wide(buf + 3, big), big);
	ck_assert_uint_eq(scan_count_newlines(buf + 3, big), big);
	for (i = 0; i < big + 32; i++)
		buf[i] = rand_r(&seed) % 5 ? (char)rand_r(&seed) : '\n';
	ck_assert_uint_eq(scan_count_newlines_wide(buf + 5, big),
			  newlines_by_bytes(buf + 5, big));
	ck_assert_uint_eq(scan_count_newlines(buf + 5, big),
			  newlines_by_bytes(buf + 5, big));
	free(buf);
}
END_TEST

/*
 * scan_set_find() against a plain loop, every way this CPU runs: sets with
 * windows of 1 to 4 bytes, with more distinct windows than buckets and
 * literals sharing one; texts of every length up to 300 bytes (exactly
 * allocated, for the sanitizer) of bytes that pass the filter often
 * (letters of the literals, nibble look-alikes, newlines), with a literal
 * planted at every place or none.
 */
START_TEST(scan_set_find_is_the_plain_search)
{
	static const char *const sets[][SCAN_SET_MAX + 1] = {
		{"oom-kill", "Kill process", "kill process", "vmalloc error",
		 "fork-bomb", "pids controller", "Killed ", "sending SIG",
		 "by the OOM killer", "INFO: task", "page allocation failure",
		 NULL},
		{"ab", "abc", "b\x81", "\xff\x01", NULL},
		{"qqq", "zzz", "abc", "q\nz", NULL},
		{"!", "Kk", NULL},
		/* literals inside literals, a newline inside one */
		{"qqqqqqZZZZ", "qqqZ", "\n\nZZZY", NULL},
		{"aaaa", "aaab", "abab", "baba", "bbbb", "abba", "baab", "bbba",
		 "abbb", "aabb", "bbaa", "ba\naa", "aab!", "!!!!", "aaaaa",
		 NULL},
	};
	static const char alphabet[] = "abKkil-oSIGO \n!\x81\xff\x01zq"
				       "processZY";
	enum scan_set_way ways[] = {SCAN_SET_BEST, SCAN_SET_BYTES,
				    SCAN_SET_AVX2, SCAN_SET_AVX512_VBMI};
	unsigned seed = 1;
	size_t si, len, w, ran = 0;

	for (si = 0; si < sizeof(sets) / sizeof(sets[0]); si++) {
		struct scan_set set;
		size_t n = 0;

		while (sets[si][n])
			n++;
		ck_assert(scan_set_init(&set, sets[si], n));
		for (len = 0; len <= 300; len++) {
			char *h = malloc(len ? len : 1);
			size_t at;

			ck_assert_ptr_nonnull(h);
			for (at = 0; at <= len; at += 1 + len / 40) {
				const char *want, *got;
				size_t i, want_nl, got_nl;

				for (i = 0; i < len; i++) {
					seed = seed * 1103515245 + 12345;
					h[i] = alphabet[(seed >> 16) %
							(sizeof(alphabet) - 1)];
				}
				if (at < len) {
					const char *l = sets[si][at % n];
					size_t m = strlen(l);

					memcpy(h + at, l,
					       m < len - at ? m : len - at);
				}
				want = naive_set_find(sets[si], n, h, len,
						      &want_nl);
				for (w = 0; w < sizeof(ways) / sizeof(ways[0]);
				     w++) {
					if (!scan_set_find_way(ways[w], &set, h,
							       len, &got_nl,
							       &got))
						continue;
					ran++;
					ck_assert_msg(got == want,
						      "set %zu len %zu way %d",
						      si, len, (int)ways[w]);
					ck_assert_uint_eq(got_nl, want_nl);
				}
			}
			free(h);
		}
	}
	ck_assert_uint_gt(ran, 0);
	{
		struct scan_set set;
		const char *const empty[] = {"a", ""};
		const char *const many[SCAN_SET_MAX + 1] = {
			"a", "b", "c", "d", "e", "f", "g", "h", "i",
			"j", "k", "l", "m", "n", "o", "p", "q"};

		ck_assert(!scan_set_init(&set, empty, 2));
		ck_assert_uint_eq(set.n, 0);
		ck_assert(!scan_set_init(&set, many, SCAN_SET_MAX + 1));
		ck_assert(!scan_set_init(&set, many, 0));
		ck_assert(scan_set_init(&set, many, SCAN_SET_MAX));
		ck_assert_ptr_eq(scan_set_find(&set, "xyz\n\n.", 6, &len),
				 NULL);
		ck_assert_uint_eq(len, 2);
	}
	{
		/* "qqqZ" is inside "qqqqqqZZZZ", which starts first */
		struct scan_set set;
		const char *t = "x\nqqqqqqZZZZ";
		size_t nl;

		ck_assert(scan_set_init(&set, sets[4], 3));
		ck_assert_ptr_eq(scan_set_find(&set, t, 12, &nl), t + 2);
		ck_assert_uint_eq(nl, 1);
	}
}
END_TEST

START_TEST(error_wrap_adds_context)
{
	struct oomlens_error *err =
		oomlens_error_new(OOMLENS_ERR_CORRUPT, "row has %d columns", 3);

	err = oomlens_error_wrap(err, "%s:%d", "dmesg.txt", 12);
	ck_assert_str_eq(err->message, "dmesg.txt:12: row has 3 columns");
	oomlens_error_free(err);
	/* the static nomem error survives wrapping and freeing */
	ck_assert_ptr_eq(oomlens_error_wrap(&oomlens_error_nomem, "x"),
			 &oomlens_error_nomem);
	oomlens_error_free(&oomlens_error_nomem);
	oomlens_error_free(NULL);
}
END_TEST

START_TEST(strpool_and_array_respect_caps)
{
	struct strpool pool = STRPOOL_INIT(16);
	int *arr = NULL;
	size_t alloc = 0;
	struct oomlens_error *err;

	ck_assert_str_eq(strpool_dup(&pool, "abcdef", 3), "abc");
	ck_assert_ptr_null(strpool_dup(&pool, "0123456789abcdef", 16));
	/* the cap refuses a copy; only a failed malloc() is out of memory */
	ck_assert(!pool.nomem);
	pool.nomem = true;
	strpool_release(&pool);
	ck_assert(!pool.nomem);
	ck_assert_ptr_null(
		array_grow((void **)&arr, &alloc, 5, sizeof(*arr), 10));
	ck_assert_uint_ge(alloc, 5);
	err = array_grow((void **)&arr, &alloc, 11, sizeof(*arr), 10);
	ck_assert_ptr_nonnull(err);
	ck_assert_int_eq(err->code, OOMLENS_ERR_LIMIT);
	oomlens_error_free(err);
	free(arr);
}
END_TEST

/* Every control character, in every form, comes out visible; UTF-8 stays. */
static const struct {
	const char *in, *out;
} escapes[] = {
	{"java", "java"},
	{"\x1b]0;owned\x07", "\\x1b]0;owned\\x07"}, /* OSC title, BEL */
	{"\x1b[2J\x1b[H", "\\x1b[2J\\x1b[H"}, /* CSI clear screen */
	{"ab\bc\r\n\t", "ab\\x08c\\x0d\\x0a\\x09"},
	{"del\x7f", "del\\x7f"},
	{"c1-utf8\xc2\x9b"
	 "31m\xc2\x85",
	 "c1-utf8\\u009b31m\\u0085"},
	{"c1-raw\x9b"
	 "31m\x90",
	 "c1-raw\\x9b31m\\x90"},
	{"latin1 caf\xe9", "latin1 caf\\xe9"},
	{"cut \xe2\x82", "cut \\xe2\\x82"},
	{"overlong \xc0\xaf", "overlong \\xc0\\xaf"},
	{"back\\slash", "back\\\\slash"},
	{"Web Content", "Web Content"},
	{"\xd0\xbc\xd0\xbe\xd0\xb9 \xc2\xa0nbsp",
	 "\xd0\xbc\xd0\xbe\xd0\xb9 \xc2\xa0nbsp"},
	{"\xe6\x97\xa5\xe6\x9c\xac \xf0\x9f\x90\xa7",
	 "\xe6\x97\xa5\xe6\x9c\xac \xf0\x9f\x90\xa7"},
	/* bidi overrides and isolates reorder what follows (issue 23 item 12) */
	{"x\xe2\x80\xae"
	 "dmetsys",
	 "x\\u202edmetsys"},
	{"\xe2\x80\xaa\xe2\x80\xab\xe2\x80\xac\xe2\x80\xad",
	 "\\u202a\\u202b\\u202c\\u202d"},
	{"\xe2\x81\xa6\xe2\x81\xa7\xe2\x81\xa8\xe2\x81\xa9",
	 "\\u2066\\u2067\\u2068\\u2069"},
	/* their neighbours stay: the marks LRM, RLM, and U+206A on */
	{"\xe2\x80\x8e\xe2\x80\xa9\xe2\x80\xaf\xe2\x81\xa5\xe2\x81\xaa",
	 "\xe2\x80\x8e\xe2\x80\xa9\xe2\x80\xaf\xe2\x81\xa5\xe2\x81\xaa"},
	{"", ""},
};

START_TEST(escape_makes_controls_visible)
{
	struct strpool pool = STRPOOL_INIT(1 << 20);
	struct strbuf sb = STRBUF_INIT(1 << 20);
	const char *in = escapes[_i].in, *want = escapes[_i].out;
	const char *got = escape_str(&pool, in);
	size_t i;

	ck_assert_str_eq(got, want);
	/* nothing to escape: the very string, no copy */
	ck_assert(escape_needed(in, strlen(in)) == (got != in));
	ck_assert_ptr_null(escape_add(&sb, in, strlen(in)));
	ck_assert_str_eq(sb.buf, want);
	for (i = 0; i < sb.len; i++) {
		unsigned char c = (unsigned char)sb.buf[i];

		ck_assert_msg(c >= 0x20 && c != 0x7f, "control byte in '%s'",
			      sb.buf);
	}
	strbuf_release(&sb);
	strpool_release(&pool);
}
END_TEST

/*
 * A copy that cannot be made leaves a mark on the pool, so that a renderer
 * which escapes many strings can tell once, at the end, that its text says
 * "(out of memory)" somewhere instead of a name.
 */
START_TEST(escape_failure_marks_the_pool)
{
	struct strpool pool = STRPOOL_INIT(8);

	ck_assert_str_eq(escape_str(&pool, "ok"), "ok");
	ck_assert(!pool.nomem);
	ck_assert_str_eq(escape_str(&pool, "a\x1b[31mb"), "(out of memory)");
	ck_assert(pool.nomem);
	strpool_release(&pool);
	ck_assert(!pool.nomem);
	/* a plain copy over the cap is no escaped text lost: no mark */
	ck_assert_ptr_null(strpool_dups(&pool, "123456789"));
	ck_assert(!pool.nomem);
	strpool_release(&pool);
}
END_TEST

/* Columns are characters: wide ones count two, colour sequences none. */
START_TEST(text_width_counts_characters)
{
	const char *cjk = "\xe6\x95\xb0\xe6\x8d\xae"; /* two wide ones */
	const char *s = "a\x1b[1;31m\xc3\xa9\x1b[0mz"; /* a, e acute, z */
	size_t w = 99;

	ck_assert_uint_eq(text_width("abc", 3), 3);
	ck_assert_uint_eq(text_width(cjk, 6), 4);
	ck_assert_uint_eq(text_width(s, strlen(s)), 3);
	ck_assert_uint_eq(text_width("e\xcc\x81", 3), 1); /* combining */
	ck_assert_uint_eq(text_width("\xff", 1), 1); /* invalid: one */
	/* never half a character, never half a colour sequence */
	ck_assert_uint_eq(text_fit(cjk, 6, 3, &w), 3);
	ck_assert_uint_eq(w, 2);
	ck_assert_uint_eq(text_fit(s, strlen(s), 1, &w), 1 + 7);
	ck_assert_uint_eq(text_fit(s, strlen(s), 2, &w), 1 + 7 + 2 + 4);
	ck_assert_uint_eq(w, 2);
	ck_assert_uint_eq(text_fit("abc", 3, 0, NULL), 0);
}
END_TEST

/* In pieces, as a signal handler writes it: no escape is ever cut. */
START_TEST(escape_some_fills_without_cutting)
{
	const char *in = "ab\x1b[31m\xc2\x9b\xe6\x97\xa5";
	char out[8], all[64] = "";
	size_t n = strlen(in), used, len, at = 0;

	while (n) {
		used = escape_some(in, n, out, 6, &len);
		ck_assert_uint_gt(used, 0);
		ck_assert_uint_le(len, 6);
		memcpy(all + at, out, len);
		at += len;
		in += used;
		n -= used;
	}
	ck_assert_str_eq(all, "ab\\x1b[31m\\u009b\xe6\x97\xa5");
	ck_assert_uint_eq(escape_some("\x1b", 1, out, 3, &len), 0);
	ck_assert_uint_eq(len, 0);
}
END_TEST

/* A NUL inside the counted bytes is escaped too. */
START_TEST(escape_counts_bytes_not_c_strings)
{
	struct strbuf sb = STRBUF_INIT(64);

	ck_assert(escape_needed("a\0b", 3));
	ck_assert_ptr_null(escape_add(&sb, "a\0b", 3));
	ck_assert_str_eq(sb.buf, "a\\x00b");
	strbuf_release(&sb);
	ck_assert_ptr_null(escape_str(NULL, NULL));
}
END_TEST

/* core/csrc.c: definitions found past what only looks like them */
static const char csrc_text[] =
	"/* oom_badness(void) { not here } */\n"
	"#define oom_badness(x) { (x) }\n"
	"#define LONG \\\n"
	"\toom_badness(p) {\n"
	"long oom_badness(struct task_struct *p, unsigned long t);\n"
	"static const char *s = \"oom_badness() {\\\"\";\n"
	"static char c = '{';\n"
	"struct helper_in {\n"
	"\tlong a; /* } */\n"
	"};\n"
	"#endif /* oom_badness(x) { */\n"
	"/* a comment that /* } */ // oom_badness() {\n"
	"static noinline bool __maybe_unused\n"
	"helper(struct task_struct *p) __releases(x)\n"
	"{\n"
	"\treturn p->flags & 1; /* { */\n"
	"}\n"
	"\n"
	"/**\n"
	" * oom_badness - the one\n"
	" */\n"
	"long oom_badness(struct task_struct *p,\n"
	"\t\t unsigned long totalpages)\n"
	"{\n"
	"\tif (helper(p)) { return '}'; }\n"
	"\treturn \"}\"[0];\n"
	"}\n";

START_TEST(csrc_finds_definitions_not_lookalikes)
{
	const char *t = csrc_text;
	size_t n = strlen(t);
	struct csrc_def d;

	ck_assert(csrc_find_func(t, n, "oom_badness", &d));
	ck_assert_uint_eq(d.line, 22);
	ck_assert(!strncmp(t + d.start,
			   "long oom_badness(struct task_struct *p,\n", 40));
	ck_assert(!d.is_static);
	ck_assert_int_eq(t[d.body], '{');
	ck_assert_uint_eq(d.end, n - 1); /* past the last '}' */
	ck_assert(csrc_find_func(t, n, "helper", &d));
	ck_assert(d.is_static);
	ck_assert_uint_eq(d.line, 13);
	ck_assert(!strncmp(t + d.body, "{\n\treturn p->flags", 18));
	ck_assert(csrc_find_struct(t, n, "helper_in", &d));
	ck_assert_uint_eq(d.line, 8);
	ck_assert(!strncmp(t + d.end - 3, "\n};", 3));
	ck_assert(!csrc_find_func(t, n, "LONG", &d));
	ck_assert(!csrc_find_func(t, n, "s", &d));
	ck_assert(!csrc_find_func(t, n, "task_struct", &d));
	ck_assert(!csrc_find_struct(t, n, "task_struct", &d));
}
END_TEST

/* Cut anywhere, the text gives no definition past its end, and no crash. */
START_TEST(csrc_cut_text_finds_nothing_past_the_cut)
{
	const char *t = csrc_text;
	size_t n = strlen(t), cut;
	struct csrc_def d;

	for (cut = 0; cut < n; cut++)
		if (csrc_find_func(t, cut, "oom_badness", &d))
			ck_assert_uint_le(d.end, cut);
	ck_assert(!csrc_find_func(t, n - 2, "oom_badness", &d));
	ck_assert(!csrc_find_func("f() { \"}", 8, "f", &d));
	ck_assert(!csrc_find_func("f() { /* } */", 13, "f", &d));
	ck_assert(csrc_find_func("f() { '\\'' }", 12, "f", &d));
}
END_TEST

/*
 * The name table against a plain list: random names (prefixes of each
 * other among them) in two keys, replaced by rank, across every growth.
 */
#define NT_NAMES 3000
START_TEST(nametab_is_the_plain_lookup)
{
	static char names[NT_NAMES][12];
	static uint64_t want[2][NT_NAMES];
	struct nametab t = NAMETAB_INIT(2 * NT_NAMES);
	struct nametab_ent *e;
	unsigned seed = 7;

	for (size_t i = 0; i < NT_NAMES; i++) {
		size_t len = 1 + (unsigned)rand_r(&seed) % 10;

		for (size_t j = 0; j < len; j++)
			names[i][j] = (char)('a' + rand_r(&seed) % 3);
		names[i][len] = '\0';
	}
	for (size_t i = 0; i < NT_NAMES; i++)
		for (uint16_t k = 0; k < 2; k++) {
			size_t first = 0;

			while (strcmp(names[first], names[i]))
				first++;
			ck_assert_ptr_null(nametab_get(&t, "zz", 2, k));
			ck_assert(!nametab_slot(&t, names[i], strlen(names[i]),
						k, &e));
			if (e->name && e->rank >= (i & 3))
				continue;
			nametab_fill(&t, e, names[i], k, i * 2 + k,
				     (uint16_t)(i & 3), 0);
			want[k][first] = i * 2 + k;
		}
	for (size_t i = 0; i < NT_NAMES; i++)
		for (uint16_t k = 0; k < 2; k++) {
			const struct nametab_ent *g;
			size_t first = 0;

			while (strcmp(names[first], names[i]))
				first++;
			g = nametab_get(&t, names[i], strlen(names[i]), k);
			ck_assert_ptr_nonnull(g);
			ck_assert_uint_eq(g->val, want[k][first]);
			ck_assert_uint_eq(g->key, k);
			/* a prefix of the name is another name */
			g = nametab_get(&t, names[i], strlen(names[i]) - 1, k);
			ck_assert(!g ||
				  strlen(g->name) == strlen(names[i]) - 1);
		}
	ck_assert_uint_le(t.n * 2, t.cap);
	nametab_release(&t);
	ck_assert_ptr_null(nametab_get(&t, "a", 1, 0));
}
END_TEST

START_TEST(nametab_refuses_more_than_its_max)
{
	struct nametab t = NAMETAB_INIT(3);
	static const char *const n[] = {"one", "two", "three", "four"};
	struct nametab_ent *e;
	struct oomlens_error *err;

	ck_assert(!nametab_reserve(&t, 3));
	ck_assert_uint_eq(t.cap, 1024);
	for (size_t i = 0; i < 3; i++) {
		ck_assert(!nametab_slot(&t, n[i], strlen(n[i]), 0, &e));
		nametab_fill(&t, e, n[i], 0, i, 0, 0);
	}
	/* a name it has is found; a fourth is refused */
	ck_assert(!nametab_slot(&t, "two", 3, 0, &e));
	ck_assert_uint_eq(e->val, 1);
	err = nametab_slot(&t, n[3], 4, 0, &e);
	ck_assert_ptr_nonnull(err);
	ck_assert_int_eq(err->code, OOMLENS_ERR_LIMIT);
	oomlens_error_free(err);
	err = nametab_reserve(&t, 4);
	ck_assert_ptr_nonnull(err);
	oomlens_error_free(err);
	ck_assert_uint_eq(t.n, 3);
	nametab_release(&t);
}
END_TEST

Suite *core_suite(void)
{
	Suite *s = suite_create("core");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, strbuf_grows_until_its_cap);
	tcase_add_test(tc, strbuf_errors_are_sticky);
	tcase_add_test(tc, escape_failure_marks_the_pool);
	tcase_add_test(tc, text_width_counts_characters);
	tcase_add_test(tc, scan_chains_and_does_not_move_on_failure);
	tcase_add_test(tc, scan_find_is_memmem);
	tcase_add_test(tc, scan_count_newlines_is_the_byte_loop);
	tcase_add_test(tc, scan_set_find_is_the_plain_search);
	tcase_add_test(tc, error_wrap_adds_context);
	tcase_add_test(tc, strpool_and_array_respect_caps);
	tcase_add_loop_test(tc, escape_makes_controls_visible, 0,
			    sizeof(escapes) / sizeof(escapes[0]));
	tcase_add_test(tc, escape_counts_bytes_not_c_strings);
	tcase_add_test(tc, escape_some_fills_without_cutting);
	tcase_add_test(tc, csrc_finds_definitions_not_lookalikes);
	tcase_add_test(tc, csrc_cut_text_finds_nothing_past_the_cut);
	tcase_add_test(tc, nametab_is_the_plain_lookup);
	tcase_add_test(tc, nametab_refuses_more_than_its_max);
	suite_add_tcase(s, tc);
	return s;
}
