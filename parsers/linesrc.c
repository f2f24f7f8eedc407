// SPDX-License-Identifier: MIT
/*
 * Line sources (parsers/linesrc.h): lines out of a byte reader with one
 * buffer of bounded size, whatever the input. Invariants: line numbers and
 * byte offsets stay exact across refills, skips and cut lines; a line over
 * LINESRC_MAX_LINE is delivered cut, the rest skipped.
 */
#include "parsers/linesrc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/scan.h"
#include "core/banned.h"

#define READ_CHUNK ((size_t)256 << 10)

static ssize_t fd_read(void *ctx, void *buf, size_t n)
{
	struct linesrc *src = ctx;
	ssize_t r;

	do
		r = read(src->fd, buf, n);
	while (r < 0 && errno == EINTR);
	return r;
}

struct oomlens_error *linesrc_init_reader(struct linesrc *src, const char *name,
					  linesrc_read_fn *read_fn, void *ctx)
{
	memset(src, 0, sizeof(*src));
	src->fd = -1;
	src->name = name;
	src->read = read_fn;
	src->ctx = ctx;
	src->size = LINESRC_MAX_LINE + READ_CHUNK;
	src->buf = malloc(src->size);
	if (!src->buf)
		return &oomlens_error_nomem;
	return NULL;
}

struct oomlens_error *linesrc_open(struct linesrc *src, const char *path)
{
	struct oomlens_error *err;
	struct stat st;
	int fd;

	if (strcmp(path, "-") == 0) {
		fd = STDIN_FILENO;
	} else {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return oomlens_error_errno(OOMLENS_ERR_IO, errno,
						   "cannot open '%s'", path);
	}
	if (fstat(fd, &st))
		st.st_mode = 0;
	if (S_ISDIR(st.st_mode)) {
		if (fd != STDIN_FILENO)
			close(fd);
		return oomlens_error_new(OOMLENS_ERR_IO,
					 "cannot read '%s': is a directory",
					 path);
	}
	err = linesrc_init_reader(src, path, fd_read, NULL);
	if (err) {
		if (fd != STDIN_FILENO)
			close(fd);
		return err;
	}
	src->ctx = src;
	src->fd = fd;
	src->own_fd = fd != STDIN_FILENO;
	src->finite = S_ISREG(st.st_mode);
	return NULL;
}

void linesrc_close(struct linesrc *src)
{
	if (src->own_fd && src->fd >= 0)
		close(src->fd);
	free(src->buf);
	src->buf = NULL;
	src->fd = -1;
}

/* Refill after moving the unread bytes to the front. */
static OOMLENS_MUST_CHECK struct oomlens_error *fill(struct linesrc *src)
{
	ssize_t r;

	if (src->start) {
		memmove(src->buf, src->buf + src->start, src->end - src->start);
		src->end -= src->start;
		src->start = 0;
	}
	r = src->read(src->ctx, src->buf + src->end, src->size - src->end);
	if (r < 0 && src->read_error)
		return oomlens_error_new(
			OOMLENS_ERR_IO, "cannot read '%s' at byte %llu: %s",
			src->name, (unsigned long long)(src->offset + src->end),
			src->read_error);
	if (r < 0)
		return oomlens_error_errno(
			OOMLENS_ERR_IO, errno, "cannot read '%s' at byte %llu",
			src->name,
			(unsigned long long)(src->offset + src->end));
	if (r == 0)
		src->eof = true;
	src->end += (size_t)r;
	return NULL;
}

static void emit(struct linesrc *src, struct line *line, size_t len,
		 size_t consumed, bool cut)
{
	line->text = src->buf + src->start;
	line->len = len;
	line->lineno = ++src->lineno;
	line->offset = src->offset;
	line->cut = cut;
	line->nuls = src->nuls;
	src->nuls = 0;
	src->start += consumed;
	src->offset += consumed;
}

/* Pass over [start, to): the line after it is numbered on. */
static void skip_bytes(struct linesrc *src, size_t to, uint64_t *skipped)
{
	size_t lines =
		scan_count_newlines(src->buf + src->start, to - src->start);

	src->lineno += lines;
	*skipped += lines;
	src->offset += to - src->start;
	src->start = to;
}

/*
 * The first line in [p, p+len) holding a literal of set: its start, or NULL;
 * with *lines, the number of lines before it (or in the whole range).
 */
static const char *find_line(const char *p, size_t len,
			     const struct scan_set *set, size_t *lines)
{
	const char *hit = scan_set_find(set, p, len, lines);

	if (!hit)
		return NULL;
	while (hit > p && hit[-1] != '\n')
		hit--;
	return hit;
}

/* Pass over [start, to), which holds `lines` whole lines. */
static void pass_lines(struct linesrc *src, size_t to, size_t lines,
		       uint64_t *skipped)
{
	src->lineno += lines;
	*skipped += lines;
	src->offset += to - src->start;
	src->start = to;
}

struct oomlens_error *linesrc_skip_to(struct linesrc *src,
				      const struct scan_set *set,
				      uint64_t *skipped)
{
	struct oomlens_error *err;

	*skipped = 0;
	if (src->skipping)
		return NULL; /* inside a cut line: let linesrc_next() finish it */
	for (;;) {
		const char *base = src->buf + src->start;
		size_t avail = src->end - src->start;
		const char *last_nl = avail ? memrchr(base, '\n', avail) : NULL;
		/* search whole lines only; the unfinished one waits for data */
		size_t whole = last_nl ? (size_t)(last_nl + 1 - base) : 0;
		size_t lines;
		const char *line =
			find_line(base, src->eof ? avail : whole, set, &lines);

		if (line) {
			pass_lines(src, (size_t)(line - src->buf), lines,
				   skipped);
			return NULL;
		}
		if (src->eof) {
			if (last_nl)
				skip_bytes(src,
					   (size_t)(last_nl + 1 - src->buf),
					   skipped);
			return NULL;
		}
		if (whole)
			pass_lines(src, (size_t)(last_nl + 1 - src->buf), lines,
				   skipped);
		if (src->end - src->start >= LINESRC_MAX_LINE)
			return NULL; /* a huge line: linesrc_next() cuts it */
		if ((err = fill(src)))
			return err;
		if (src->eof && src->start == src->end)
			return NULL;
	}
}

struct oomlens_error *linesrc_peek(struct linesrc *src, size_t want,
				   const char **p, size_t *n)
{
	struct oomlens_error *err;

	if (want > LINESRC_MAX_LINE)
		want = LINESRC_MAX_LINE;
	while (src->end - src->start < want && !src->eof)
		if ((err = fill(src)))
			return err;
	*p = src->buf + src->start;
	*n = src->end - src->start < want ? src->end - src->start : want;
	return NULL;
}

/* A control byte no log line has (as source.c judges binary data). */
static bool control_byte(unsigned char c)
{
	return (c && c < 0x20 && (c < '\t' || c > '\r') && c != 0x1b) ||
	       c == 0x7f;
}

struct oomlens_error *linesrc_skip_binary(struct linesrc *src,
					  linesrc_judge_fn *binary,
					  size_t block, uint64_t limit,
					  bool *all)
{
	struct oomlens_error *err;
	size_t pend = 0, n, to; /* pend: bytes at start judged binary */
	const char *p, *nl;
	uint64_t dummy = 0;

	*all = false;
	if (src->offset || src->lineno || !block ||
	    block > LINESRC_MAX_LINE / 2)
		return oomlens_error_new(
			OOMLENS_ERR_USAGE,
			"linesrc_skip_binary() past the start");
	for (;;) {
		while (src->end - src->start < pend + block && !src->eof)
			if ((err = fill(src)))
				return err;
		n = src->end - src->start - pend;
		n = n < block ? n : block;
		p = src->buf + src->start + pend;
		if (!n || src->offset + pend > limit) {
			/* binary to the end, or as far as it is worth looking */
			skip_bytes(src, src->start + pend, &dummy);
			src->binary_head = src->offset;
			*all = true;
			return NULL;
		}
		if (!binary((const unsigned char *)p, n))
			break;
		skip_bytes(src, src->start + pend, &dummy);
		pend = n;
	}
	if (!pend)
		return NULL; /* text from the start */
	/* the text goes on after the line holding the garbage's last byte */
	p = src->buf + src->start;
	for (to = pend; to > 0 && !control_byte((unsigned char)p[to - 1]);)
		to--;
	nl = memchr(p + to, '\n', src->end - src->start - to);
	to = nl ? (size_t)(nl - p) + 1 : pend;
	skip_bytes(src, src->start + to, &dummy);
	src->binary_head = src->offset;
	return NULL;
}

struct oomlens_error *linesrc_peek_all(struct linesrc *src, size_t max,
				       const char **p, size_t *n, bool *whole)
{
	struct oomlens_error *err;
	size_t avail;

	if (max > LINESRC_MAX_LINE)
		max = LINESRC_MAX_LINE;
	/* the buffer holds more than max: one byte past it tells the end */
	while (src->end - src->start <= max && !src->eof)
		if ((err = fill(src)))
			return err;
	avail = src->end - src->start;
	*p = src->buf + src->start;
	*n = avail < max ? avail : max;
	*whole = src->eof && avail <= max;
	return NULL;
}

struct oomlens_error *linesrc_take(struct linesrc *src, size_t n,
				   const char **p, size_t *got)
{
	struct oomlens_error *err;

	if (src->skipping)
		return oomlens_error_new(OOMLENS_ERR_USAGE,
					 "linesrc_take() inside a cut line");
	if ((err = linesrc_peek(src, n, p, got)))
		return err;
	src->lineno += scan_count_newlines(*p, *got);
	src->start += *got;
	src->offset += *got;
	return NULL;
}

/*
 * A line over-long for the NUL bytes at its start: drop the run (as far as
 * it is read), so that the text after it is read as the line.
 */
static OOMLENS_MUST_CHECK struct oomlens_error *drop_nuls(struct linesrc *src)
{
	const char *p = src->buf + src->start, *end = src->buf + src->end;
	size_t run;

	while (p < end && !*p)
		p++;
	run = (size_t)(p - (src->buf + src->start));
	src->nuls += run;
	src->start += run;
	src->offset += run;
	if (!src->finite && src->nuls > LINESRC_MAX_NULS)
		return oomlens_error_new(
			OOMLENS_ERR_LIMIT,
			"cannot read '%s': NUL bytes from byte %llu to %llu and no line in them: not a log, read no further",
			src->name,
			(unsigned long long)(src->offset - src->nuls),
			(unsigned long long)src->offset);
	return NULL;
}

struct oomlens_error *linesrc_next(struct linesrc *src, struct line *line,
				   bool *got)
{
	struct oomlens_error *err;
	size_t scanned = 0;

	for (;;) {
		char *base = src->buf + src->start;
		size_t avail = src->end - src->start;
		char *nl = memchr(base + scanned, '\n', avail - scanned);

		if (src->skipping) {
			/* the tail of an over-long line: drop it */
			size_t drop = nl ? (size_t)(nl - base) + 1 : avail;

			src->start += drop;
			src->offset += drop;
			if (nl)
				src->skipping = false;
			else if (src->eof)
				break;
			else if ((err = fill(src)))
				return err;
			scanned = 0;
			continue;
		}
		if (src->nuls && avail && !*base) {
			/* the rest of a run being dropped */
			if ((err = drop_nuls(src)))
				return err;
			scanned = 0;
			continue;
		}
		if (nl && (size_t)(nl - base) <= LINESRC_MAX_LINE) {
			emit(src, line, (size_t)(nl - base),
			     (size_t)(nl - base) + 1, false);
			*got = true;
			return NULL;
		}
		if (avail >= LINESRC_MAX_LINE && !*base) {
			if ((err = drop_nuls(src)))
				return err;
			scanned = 0;
			continue;
		}
		if (avail >= LINESRC_MAX_LINE) {
			/* lines that end in CR alone: end this one at its last */
			char *cr = memrchr(base, '\r', LINESRC_MAX_LINE);

			if (cr && cr > base) {
				size_t n = (size_t)(cr - base) + 1;

				emit(src, line, n, n, false);
				*got = true;
				return NULL;
			}
			emit(src, line, LINESRC_MAX_LINE, LINESRC_MAX_LINE,
			     true);
			src->skipping = true;
			*got = true;
			return NULL;
		}
		if (src->eof) {
			if (!avail && !src->nuls)
				break;
			emit(src, line, avail, avail, false);
			*got = true;
			return NULL;
		}
		scanned = avail;
		if ((err = fill(src)))
			return err;
	}
	*got = false;
	return NULL;
}
