// SPDX-License-Identifier: MIT
/*
 * Sources (parsers/source.h): every stream of log text below a path,
 * through libarchive (the only file that sees it), without extracting
 * anything to disk: plain and compressed files, tar archives and
 * sosreports, directories, FIFOs and standard input. Invariants: what is
 * read is bounded (decompression-bomb ratios, entry sizes); links inside a
 * walk are not followed; a stream that is no log is skipped and said.
 */
#include "parsers/source.h"

#include <archive.h>
#include <archive_entry.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model/dumpkind.h"
#include "core/banned.h"

#define BLOCK_SIZE ((size_t)1 << 20)
#define SNIFF_BYTES DUMP_SNIFF_BYTES
#define MAX_DEPTH 64

struct stdin_ahead;

struct walk {
	source_fn *fn;
	source_skip_fn *skip;
	void *ctx;
	struct source_stats *stats;
	source_claim_fn *claim;
	/* the pipe being read, its head read ahead */
	struct stdin_ahead *ahead;
	/*
	 * Inside an unpacked sosreport: where its root's name starts in the
	 * paths below it, and its host ("" when unknown).
	 */
	size_t sos_base;
	bool in_sos;
	char host[256];
};

/* Entry names worth reading inside an archive (fnmatch, basename or path). */
static const char *const wanted_names[] = {
	"messages", "messages-*", "messages.*",	 "kern.log",	 "kern.log.*",
	"syslog",   "syslog.*",	  "syslog-*",	 "dmesg",	 "dmesg*",
	"*.log",    "*.log.*",	  "journalctl*", "journal*.txt", "*.txt",
	"journal*", "*.json",	  "*.export",
};

/* A sosreport's kernel logs, by their path from its root's name on. */
static bool sos_entry_wanted(const char *name, const char *base)
{
	return (strstr(name, "/var/log/") && (!fnmatch("messages*", base, 0) ||
					      !fnmatch("kern.log*", base, 0) ||
					      !fnmatch("syslog*", base, 0))) ||
	       (strstr(name, "sos_commands/kernel/") &&
		!fnmatch("dmesg*", base, 0)) ||
	       (strstr(name, "sos_commands/logs/") &&
		!fnmatch("journalctl*", base, 0));
}

bool source_entry_wanted(const char *name)
{
	const char *base = strrchr(name, '/');
	size_t i;

	base = base ? base + 1 : name;
	if (!*base)
		return false;
	/* a sosreport: its kernel logs only */
	if (strstr(name, "sosreport") || strstr(name, "sos_commands/"))
		return sos_entry_wanted(name, base);
	for (i = 0; i < sizeof(wanted_names) / sizeof(wanted_names[0]); i++)
		if (!fnmatch(wanted_names[i], base, 0))
			return true;
	return false;
}

/*
 * Names the kdump tools give dumps: vmcore, vmcore.flat and
 * vmcore-incomplete (RHEL's kdump, makedumpfile -F over ssh), and
 * dump.YYYYMMDDHHMM (Debian's kdump-tools).
 */
static bool dump_name(const char *name)
{
	const char *base = strrchr(name, '/');
	size_t digits;

	base = base ? base + 1 : name;
	if (!strcmp(base, "vmcore") || !strcmp(base, "vmcore.flat") ||
	    !strcmp(base, "vmcore-incomplete"))
		return true;
	if (strncmp(base, "dump.", 5))
		return false;
	digits = strspn(base + 5, "0123456789");
	return digits >= 8 && !base[5 + digits];
}

/*
 * Binary data: among the first bytes that are not NUL (a log cut by a
 * crash may hold runs of them), more than one in 16 is a control
 * character no log line has (tab, line and form feeds, carriage return
 * and ESC are allowed). Random data has about one in ten; a log with a
 * few hostile bytes in a process name stays far below.
 */
static bool looks_binary(const unsigned char *h, size_t n)
{
	size_t ctl = 0, bytes = 0;

	for (size_t i = 0; i < n; i++) {
		unsigned char c = h[i];

		if (!c)
			continue;
		bytes++;
		ctl += (c < 0x20 && (c < '\t' || c > '\r') && c != 0x1b) ||
		       c == 0x7f;
	}
	return bytes >= 64 && ctl * 16 > bytes;
}

/*
 * Why the data named name, starting with head (n bytes), is not a log to
 * read, in why (cap bytes); false when it may be one. *failed says whether
 * it is input that oomlens could not read (a kernel dump, which needs its
 * debuginfo and a file: in_file says whether it is one) rather than
 * something passed over (a program, a database, binary data).
 */
static bool not_a_log(const unsigned char *h, size_t n, const char *name,
		      bool in_file, char *why, size_t cap, bool *failed)
{
	const char *dump = dump_kind(h, n);

	*failed = true;
	if (dump && in_file) {
		snprintf(
			why, cap,
			"a kdump vmcore (%s), not a log: give --vmlinux FILE or --debuginfo DIR to read it",
			dump);
		return true;
	}
	if (dump) {
		snprintf(
			why, cap,
			"a kdump vmcore (%s): oomlens reads a dump only from a plain file (extract or save it first), with --vmlinux FILE or --debuginfo DIR",
			dump);
		return true;
	}
	if (dump_name(name)) {
		snprintf(
			why, cap,
			"named like a kdump vmcore, but it has no dump header (damaged or incomplete?)");
		return true;
	}
	*failed = false;
	if (n >= 18 && !memcmp(h, "\177ELF", 4))
		snprintf(
			why, cap, "%s, not a log",
			(h[16] | h[17]) == 4 /* ET_CORE */
				? "an ELF core file of a process, not of a kernel"
				: "an ELF file (a program or library)");
	else if (n >= 16 && !memcmp(h, "SQLite format 3", 16))
		snprintf(why, cap, "an SQLite database, not a log");
	else if (n >= 8 && !memcmp(h, "LPKSHHRH", 8))
		snprintf(
			why, cap,
			"a binary systemd journal, not a log: read it through journalctl --file");
	else if (looks_binary(h, n))
		snprintf(why, cap, "binary data, not a log");
	else
		return false;
	return true;
}

/* not_a_log(), and if so the input is skipped with the reason. */
static bool skip_not_a_log(struct walk *w, const unsigned char *h, size_t n,
			   const char *name, bool in_file)
{
	char why[256];
	bool failed;

	if (!not_a_log(h, n, name, in_file, why, sizeof(why), &failed))
		return false;
	if (w->skip)
		w->skip(w->ctx, name, why, failed);
	w->stats->skipped++;
	return true;
}

struct entry_reader {
	struct archive *a;
	int64_t file_size; /* the compressed file's, or -1 */
	int64_t floor; /* SOURCE_INFLATE_FLOOR or its override */
	/* the first bytes, read ahead to judge them, then handed out */
	unsigned char head[SNIFF_BYTES];
	size_t head_len, head_pos;
	int head_errno; /* the read ahead's error, returned after head */
	struct linesrc *lines; /* told why a read failed */
	bool failed; /* a read failed: the archive is not read further */
	char why[256]; /* why */
};

static int64_t inflate_floor(void)
{
	const char *env = getenv("OOMLENS_INFLATE_FLOOR_MB");
	char *end;
	long long mb;

	if (!env || !*env)
		return SOURCE_INFLATE_FLOOR;
	mb = strtoll(env, &end, 10);
	return *end || mb <= 0 || mb > (1LL << 40) ? SOURCE_INFLATE_FLOOR
						   : (int64_t)mb << 20;
}

static ssize_t archive_reader(void *ctx, void *buf, size_t n)
{
	struct entry_reader *r = ctx;
	la_ssize_t got = archive_read_data(r->a, buf, n);
	int64_t out = archive_filter_bytes(r->a, 0);
	int64_t limit = INT64_MAX;

	if (r->file_size > 0 && r->file_size < INT64_MAX / SOURCE_INFLATE_RATIO)
		limit = r->file_size * SOURCE_INFLATE_RATIO;
	if (limit < r->floor)
		limit = r->floor;
	if (got < 0) {
		errno = archive_errno(r->a) > 0 ? archive_errno(r->a) : EIO;
		snprintf(r->why, sizeof(r->why), "%s",
			 archive_error_string(r->a) ? archive_error_string(r->a)
						    : strerror(errno));
		r->failed = true;
		return -1;
	}
	if (out > limit) {
		/* a decompression bomb: stop reading it */
		snprintf(r->why, sizeof(r->why),
			 "inflates past %dx its size and past %lld MiB: a "
			 "decompression bomb, not read further",
			 SOURCE_INFLATE_RATIO, (long long)(r->floor >> 20));
		errno = EFBIG;
		r->failed = true;
		return -1;
	}
	return (ssize_t)got;
}

/* "sosreport-HOST-..." names its host; "" otherwise. */
static void host_from_name(const char *path, char *host, size_t n)
{
	const char *base = strrchr(path, '/'), *p, *end;

	base = base ? base + 1 : path;
	host[0] = '\0';
	p = strstr(base, "sosreport-");
	if (!p)
		return;
	p += strlen("sosreport-");
	end = strchr(p, '-');
	if (!end)
		end = p + strcspn(p, ".");
	if (end > p)
		snprintf(host, n, "%.*s", (int)(end - p), p);
}

/*
 * archive_reader() behind the bytes read ahead; a failed read tells the
 * line source why.
 */
static ssize_t peeked_reader(void *ctx, void *buf, size_t n)
{
	struct entry_reader *r = ctx;
	ssize_t got;

	if (r->head_pos < r->head_len) {
		size_t k = r->head_len - r->head_pos;

		k = k < n ? k : n;
		memcpy(buf, r->head + r->head_pos, k);
		r->head_pos += k;
		return (ssize_t)k;
	}
	if (r->head_errno) {
		errno = r->head_errno;
		got = -1;
	} else {
		got = archive_reader(ctx, buf, n);
	}
	if (got < 0 && r->failed)
		r->lines->read_error = r->why;
	return got;
}

/*
 * Hand one archive entry to fn. A read that fails (a corrupt or cut
 * archive, a decompression bomb) fails the stream with the reason, which fn
 * reports as it reports any unreadable file; *failed then tells the caller
 * not to report the archive again.
 */
static OOMLENS_MUST_CHECK struct oomlens_error *
read_stream(struct walk *w, struct archive *a, struct source_stream *s,
	    int64_t file_size, bool *failed)
{
	struct entry_reader r = {
		.a = a, .file_size = file_size, .floor = inflate_floor()};
	struct oomlens_error *err;
	struct linesrc lines;

	*failed = false;
	while (r.head_len < sizeof(r.head)) {
		ssize_t got = archive_reader(&r, r.head + r.head_len,
					     sizeof(r.head) - r.head_len);

		if (got < 0)
			r.head_errno = errno ? errno : EIO;
		if (got <= 0)
			break;
		r.head_len += (size_t)got;
	}
	if (!r.head_errno &&
	    skip_not_a_log(w, r.head, r.head_len, s->name, false))
		return NULL;
	err = linesrc_init_reader(&lines, s->name, peeked_reader, &r);
	if (err)
		return err;
	r.lines = &lines;
	s->lines = &lines;
	w->stats->streams++;
	err = w->fn(w->ctx, s);
	linesrc_close(&lines);
	*failed = r.failed;
	return err;
}

/* The host a sosreport's "hostname" file names: its first word. */
static void host_from_text(char *buf, size_t got, char *host, size_t n)
{
	size_t len;

	buf[got] = '\0';
	len = strcspn(buf, "\r\n \t");
	if (len)
		snprintf(host, n, "%.*s", (int)len, buf);
}

/* Read the small "hostname" entry of a sosreport. */
static void read_hostname(struct archive *a, char *host, size_t n)
{
	char buf[256];
	la_ssize_t got = archive_read_data(a, buf, sizeof(buf) - 1);

	if (got > 0)
		host_from_text(buf, (size_t)got, host, n);
}

/*
 * Does the file start like something libarchive must open (a compressed
 * file or an archive)? Plain text is read directly: one copy fewer.
 */
/*
 * Does data start like something libarchive must open (a compressed file
 * or an archive)? Plain text is read directly: one copy fewer.
 */
static bool head_is_packed(const unsigned char *head, size_t got)
{
	static const struct {
		size_t off, len;
		const char *magic;
	} magics[] = {
		{0, 2, "\x1f\x8b"}, /* gzip */
		{0, 6,
		 "\xfd"
		 "7zXZ\0"}, /* xz */
		{0, 4, "\x28\xb5\x2f\xfd"}, /* zstd */
		{0, 3, "BZh"}, /* bzip2 */
		{0, 4, "\x04\x22\x4d\x18"}, /* lz4 */
		{0, 4, "PK\x03\x04"}, /* zip */
		{0, 6, "7z\xbc\xaf\x27\x1c"}, /* 7z */
		{257, 5, "ustar"}, /* tar */
		{0, 2, "\x1f\x9d"}, /* compress */
	};
	size_t i;

	for (i = 0; i < sizeof(magics) / sizeof(magics[0]); i++)
		if (got >= magics[i].off + magics[i].len &&
		    !memcmp(head + magics[i].off, magics[i].magic,
			    magics[i].len))
			return true;
	return false;
}

static bool looks_packed(const char *path)
{
	unsigned char head[512];
	ssize_t got;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return true; /* libarchive will say why */
	got = read(fd, head, sizeof(head));
	close(fd);
	return got < 0 || head_is_packed(head, (size_t)got);
}

/*
 * Standard input cannot be peeked at and read again: its first bytes are
 * read ahead, judged, then handed out before the rest of the pipe.
 */
struct stdin_ahead {
	int fd;
	unsigned char head[SNIFF_BYTES];
	size_t len, pos;
	char block[65536];
};

static ssize_t stdin_read(struct stdin_ahead *in, void *buf, size_t n)
{
	ssize_t r;

	if (in->pos < in->len) {
		size_t k = in->len - in->pos < n ? in->len - in->pos : n;

		memcpy(buf, in->head + in->pos, k);
		in->pos += k;
		return (ssize_t)k;
	}
	do
		r = read(in->fd, buf, n);
	while (r < 0 && errno == EINTR);
	return r;
}

static ssize_t stdin_lines_reader(void *ctx, void *buf, size_t n)
{
	return stdin_read(ctx, buf, n);
}

static la_ssize_t stdin_archive_reader(struct archive *a, void *ctx,
				       const void **buf)
{
	struct stdin_ahead *in = ctx;
	ssize_t r = stdin_read(in, in->block, sizeof(in->block));

	if (r < 0)
		archive_set_error(a, errno, "%s", strerror(errno));
	*buf = in->block;
	return r;
}

/* A plain text file, read without libarchive. */
static OOMLENS_MUST_CHECK struct oomlens_error *
walk_plain(struct walk *w, const char *path, int64_t size)
{
	struct source_stream s = {0};
	struct oomlens_error *err;
	struct linesrc lines;
	unsigned char head[SNIFF_BYTES];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t got = fd < 0 ? -1 : pread(fd, head, sizeof(head), 0);

	if (fd >= 0)
		close(fd);
	if (got > 0 && skip_not_a_log(w, head, (size_t)got, path, true)) {
		w->stats->files++;
		return NULL;
	}
	err = linesrc_open(&lines, path);
	if (err == &oomlens_error_nomem)
		return err; /* not the file's fault: no skip */
	if (err) {
		if (w->skip)
			w->skip(w->ctx, path, err->message, true);
		w->stats->skipped++;
		oomlens_error_free(err);
		return NULL;
	}
	w->stats->files++;
	w->stats->streams++;
	w->stats->bytes += size > 0 ? (uint64_t)size : 0;
	s.name = path;
	s.path = path;
	s.format = "plain";
	s.host = w->host[0] ? w->host : NULL;
	s.size = size;
	s.lines = &lines;
	err = w->fn(w->ctx, &s);
	linesrc_close(&lines);
	return err;
}

/*
 * An archive entry passed over by its name: still, a kernel dump is told
 * by its header and reported (an entry passed over is decompressed anyway,
 * so reading its first bytes costs little).
 */
static void skip_entry(struct walk *w, struct archive *a, const char *name)
{
	unsigned char head[SNIFF_BYTES];
	size_t len = 0;

	while (len < sizeof(head)) {
		la_ssize_t got =
			archive_read_data(a, head + len, sizeof(head) - len);

		if (got <= 0)
			break;
		len += (size_t)got;
	}
	if (!dump_kind(head, len) || !skip_not_a_log(w, head, len, name, false))
		w->stats->skipped++;
}

static OOMLENS_MUST_CHECK struct oomlens_error *
walk_file(struct walk *w, const char *path, int64_t size)
{
	struct archive *a = archive_read_new();
	struct archive_entry *entry;
	struct oomlens_error *err = NULL;
	char name[4096], format[64], host[256];
	bool failed = false;
	int rc;

	if (!a)
		return &oomlens_error_nomem;
	archive_read_support_filter_all(a);
	archive_read_support_format_tar(a);
	archive_read_support_format_gnutar(a);
	archive_read_support_format_zip(a);
	archive_read_support_format_raw(a);
	if (w->ahead)
		rc = archive_read_open(a, w->ahead, NULL, stdin_archive_reader,
				       NULL);
	else
		rc = archive_read_open_filename(a, path, BLOCK_SIZE);
	if (rc != ARCHIVE_OK) {
		if (w->skip)
			w->skip(w->ctx, path,
				archive_error_string(a)
					? archive_error_string(a)
					: "cannot open",
				true);
		w->stats->skipped++;
		archive_read_free(a);
		return NULL;
	}
	w->stats->files++;
	w->stats->bytes += size > 0 ? (uint64_t)size : 0;
	if (w->host[0])
		snprintf(host, sizeof(host), "%s", w->host);
	else
		host_from_name(path, host, sizeof(host));
	while ((rc = archive_read_next_header(a, &entry)) == ARCHIVE_OK) {
		const char *fmt = archive_format_name(a);
		const char *filter = archive_filter_name(a, 0);
		const char *ename = archive_entry_pathname(entry);
		bool raw = archive_format(a) == ARCHIVE_FORMAT_RAW;
		struct source_stream s = {0};
		bool plain = !filter || !strcmp(filter, "none");

		if (raw) {
			snprintf(format, sizeof(format), "%s",
				 plain ? "plain" : filter);
			snprintf(name, sizeof(name), "%s",
				 strcmp(path, "-") ? path : "<stdin>");
		} else {
			const char *base;

			if (!ename)
				ename = "?";
			base = strrchr(ename, '/');
			base = base ? base + 1 : ename;
			snprintf(format, sizeof(format), "%s%s%s",
				 strstr(fmt ? fmt : "", "ZIP") ? "zip" : "tar",
				 plain ? "" : ".", plain ? "" : filter);
			snprintf(name, sizeof(name), "%s:%s", path, ename);
			if (archive_entry_filetype(entry) != AE_IFREG) {
				if (archive_entry_filetype(entry) != AE_IFDIR &&
				    w->skip && source_entry_wanted(ename)) {
					w->skip(w->ctx, name,
						"not a regular file in the archive",
						false);
					w->stats->skipped++;
				}
				continue;
			}
			if (!strcmp(base, "hostname") &&
			    strchr(ename, '/') == strrchr(ename, '/')) {
				read_hostname(a, host, sizeof(host));
				continue;
			}
			/* a dump is named, then told by its header */
			if (!source_entry_wanted(ename) && !dump_name(ename)) {
				skip_entry(w, a, name);
				continue;
			}
		}
		s.name = name;
		s.path = path;
		s.format = format;
		s.host = host[0] ? host : NULL;
		s.size = raw ? size : (int64_t)archive_entry_size(entry);
		err = read_stream(w, a, &s, size, &failed);
		if (err || failed)
			break;
	}
	if (!err && !failed && rc != ARCHIVE_EOF && rc != ARCHIVE_OK) {
		if (w->skip)
			w->skip(w->ctx, path,
				archive_error_string(a)
					? archive_error_string(a)
					: "corrupt archive",
				true);
	}
	archive_read_free(a);
	return err;
}

/*
 * A pipe: standard input ("-", named "<stdin>") or a FIFO named on the
 * command line (a process substitution among them), read once, front to
 * back: empty, plain text, or something libarchive opens.
 */
static OOMLENS_MUST_CHECK struct oomlens_error *
walk_pipe(struct walk *w, int fd, const char *path, const char *name)
{
	struct stdin_ahead *in = calloc(1, sizeof(*in));
	struct oomlens_error *err = NULL;
	ssize_t r = 1;

	if (!in)
		return &oomlens_error_nomem;
	in->fd = fd;
	while (in->len < sizeof(in->head) && r > 0) {
		do
			r = read(fd, in->head + in->len,
				 sizeof(in->head) - in->len);
		while (r < 0 && errno == EINTR);
		if (r > 0)
			in->len += (size_t)r;
	}
	if (r < 0) {
		if (w->skip)
			w->skip(w->ctx, name, strerror(errno), true);
		w->stats->skipped++;
	} else if (!in->len) {
		w->stats->files++; /* empty: nothing to read */
	} else if (head_is_packed(in->head, in->len)) {
		w->ahead = in;
		err = walk_file(w, path, -1);
		w->ahead = NULL;
	} else if (skip_not_a_log(w, in->head, in->len, name, false)) {
		w->stats->files++;
	} else {
		struct source_stream s = {0};
		struct linesrc lines;

		err = linesrc_init_reader(&lines, name, stdin_lines_reader, in);
		if (!err) {
			w->stats->files++;
			w->stats->streams++;
			s.name = name;
			s.path = path;
			s.format = "plain";
			s.size = -1;
			s.lines = &lines;
			err = w->fn(w->ctx, &s);
			linesrc_close(&lines);
		}
	}
	free(in);
	return err;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

/* Where the last component of path starts, trailing slashes ignored. */
static size_t base_offset(const char *path)
{
	size_t end = strlen(path), i;

	while (end > 1 && path[end - 1] == '/')
		end--;
	for (i = end; i > 0 && path[i - 1] != '/'; i--)
		;
	return i;
}

/*
 * An unpacked sosreport, recognised as its tarball is: named sosreport-*,
 * or holding sos_commands/.
 */
static bool is_sosreport_dir(const char *path)
{
	struct stat st;
	char *sub;
	bool yes;

	if (!strncmp(path + base_offset(path), "sosreport-", 10))
		return true;
	if (asprintf(&sub, "%s/sos_commands", path) < 0)
		return false;
	yes = stat(sub, &st) == 0 && S_ISDIR(st.st_mode);
	free(sub);
	return yes;
}

/* Its host: its hostname file's first word, else its name's. */
static void sos_dir_host(const char *path, char *host, size_t n)
{
	char *file, buf[256];
	ssize_t got = -1;
	int fd = -1;

	host_from_name(path + base_offset(path), host, n);
	if (asprintf(&file, "%s/hostname", path) < 0)
		return;
	fd = open(file, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW);
	free(file);
	if (fd < 0)
		return;
	got = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (got > 0)
		host_from_text(buf, (size_t)got, host, n);
}

/*
 * A file of an unpacked sosreport is read as in its tarball: its kernel
 * logs, and a dump (by its name or its header), which is then reported.
 */
static bool sos_file_wanted(const struct walk *w, const char *path)
{
	const char *rel = path + w->sos_base, *base = strrchr(rel, '/');
	unsigned char head[SNIFF_BYTES];
	ssize_t got;
	int fd;

	if (sos_entry_wanted(rel, base ? base + 1 : rel) || dump_name(rel))
		return true;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return false;
	got = pread(fd, head, sizeof(head), 0);
	close(fd);
	return got > 0 && dump_kind(head, (size_t)got);
}

static OOMLENS_MUST_CHECK struct oomlens_error *
walk_path(struct walk *w, const char *path, int depth);

/* A folder's entries, in name order; an unpacked sosreport as its tarball. */
static OOMLENS_MUST_CHECK struct oomlens_error *
walk_dir(struct walk *w, const char *path, int depth)
{
	struct oomlens_error *err = NULL;
	struct dirent **names;
	size_t old_base = w->sos_base;
	bool old_in = w->in_sos;
	char old_host[sizeof(w->host)];
	int n, i;

	n = scandir(path, &names, NULL, by_name);
	if (n < 0) {
		if (w->skip)
			w->skip(w->ctx, path, strerror(errno), true);
		w->stats->skipped++;
		return NULL;
	}
	memcpy(old_host, w->host, sizeof(old_host));
	if (is_sosreport_dir(path)) {
		w->in_sos = true;
		w->sos_base = base_offset(path);
		sos_dir_host(path, w->host, sizeof(w->host));
	}
	for (i = 0; i < n; i++) {
		char *child = NULL;

		if (!err && strcmp(names[i]->d_name, ".") &&
		    strcmp(names[i]->d_name, "..")) {
			if (asprintf(&child, "%s/%s", path, names[i]->d_name) <
			    0)
				err = &oomlens_error_nomem;
			else
				err = walk_path(w, child, depth + 1);
			free(child);
		}
		free(names[i]);
	}
	free(names);
	w->sos_base = old_base;
	w->in_sos = old_in;
	memcpy(w->host, old_host, sizeof(old_host));
	return err;
}

/*
 * What the user names (depth 0) is followed, as grep does: a symbolic link,
 * a FIFO or a process substitution is read; anything else not read is a
 * failure. Inside a folder, links and special files are passed over.
 */
static OOMLENS_MUST_CHECK struct oomlens_error *
walk_path(struct walk *w, const char *path, int depth)
{
	struct oomlens_error *err = NULL;
	struct stat st;

	if (!strcmp(path, "-"))
		return walk_pipe(w, STDIN_FILENO, "-", "<stdin>");
	if ((depth ? lstat(path, &st) : stat(path, &st)) != 0) {
		if (w->skip)
			w->skip(w->ctx, path, strerror(errno), true);
		w->stats->skipped++;
		return NULL;
	}
	if (S_ISREG(st.st_mode) && st.st_size == 0) {
		w->stats->files++; /* nothing to read, and libarchive would balk */
		return NULL;
	}
	if (S_ISREG(st.st_mode) && w->claim) {
		bool claimed = false;

		err = w->claim(w->ctx, path, &claimed);
		if (err || claimed)
			return err;
	}
	if (S_ISREG(st.st_mode) && w->in_sos && !sos_file_wanted(w, path)) {
		w->stats->skipped++; /* as in its tarball */
		return NULL;
	}
	if (S_ISREG(st.st_mode))
		return looks_packed(path)
			       ? walk_file(w, path, (int64_t)st.st_size)
			       : walk_plain(w, path, (int64_t)st.st_size);
	if (S_ISFIFO(st.st_mode) && !depth) {
		int fd = open(path, O_RDONLY | O_CLOEXEC);

		if (fd < 0) {
			if (w->skip)
				w->skip(w->ctx, path, strerror(errno), true);
			w->stats->skipped++;
			return NULL;
		}
		err = walk_pipe(w, fd, path, path);
		close(fd);
		return err;
	}
	if (S_ISDIR(st.st_mode) && depth <= MAX_DEPTH)
		return walk_dir(w, path, depth);
	if (w->skip)
		w->skip(w->ctx, path,
			S_ISLNK(st.st_mode) ? "symbolic link (not followed)"
			: S_ISDIR(st.st_mode)
				? "folders nested too deep (not read)"
				: "not a regular file, folder or pipe (not read)",
			!depth);
	w->stats->skipped++;
	return NULL;
}

struct oomlens_error *source_walk(const char *path, source_fn *fn,
				  source_skip_fn *skip, void *ctx,
				  struct source_stats *stats)
{
	struct source_stats local = {0};
	struct walk w = {.fn = fn,
			 .skip = skip,
			 .ctx = ctx,
			 .stats = stats ? stats : &local};

	return walk_path(&w, path, 0);
}

struct oomlens_error *source_walk_claim(const char *path, source_fn *fn,
					source_skip_fn *skip,
					source_claim_fn *claim, void *ctx,
					struct source_stats *stats)
{
	struct source_stats local = {0};
	struct walk w = {.fn = fn,
			 .skip = skip,
			 .ctx = ctx,
			 .stats = stats ? stats : &local,
			 .claim = claim};

	return walk_path(&w, path, 0);
}
