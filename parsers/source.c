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
#include <ctype.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/scan.h"
#include "model/dumpkind.h"
#include "model/incident.h"
#include "parsers/when.h"
#include "core/banned.h"

#define BLOCK_SIZE ((size_t)1 << 20)
#define SNIFF_BYTES DUMP_SNIFF_BYTES
/*
 * What a stream read ahead holds (judged on its first SNIFF_BYTES): enough
 * for an empty tar archive as GNU tar writes it (10240 NUL bytes) to be
 * seen whole.
 */
#define HEAD_BYTES ((size_t)16384)
/*
 * Binary data before a log is looked past this far: a stream that holds
 * no text block in its first BINARY_LOOK bytes is binary data.
 */
#define BINARY_LOOK ((uint64_t)64 << 20)
/* An empty tar file on disk is told up to this size (tar -b 2048). */
#define EMPTY_TAR_MAX ((int64_t)1 << 20)
#define MAX_DEPTH 64
/*
 * Archives and compressed files read inside one another: a case tarball
 * (1) holding a sosreport (2) holding a rotated kern.log.1.gz (3), and one
 * more level to spare. Each level holds one decompressor's state (xz -9:
 * 64 MiB at most), so this also bounds memory.
 */
#define MAX_NEST SOURCE_MAX_NEST
/* Symbolic links followed one after another, at most (a loop ends). */
#define LINK_HOPS 8
/* A sos 4 report's manifest, from its root; the bytes of it read. */
#define SOS_MANIFEST "sos_reports/manifest.json"
#define MANIFEST_BYTES ((size_t)16384)

struct stdin_ahead;

/*
 * What a sosreport's sos_reports/manifest.json says of its name (sos 4:
 * the cmdline it ran with): "sosreport-{host}{-label}{-case}-{date}-{rand}"
 * with the label and case id sanitised as sos does. known: a manifest was
 * read, so a part it does not name is the host's.
 */
struct sos_ids {
	bool known;
	char case_id[64], label[64];
};

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
	const char *host_source; /* "hostname" or "name" when host is set */
	int64_t ref_time; /* its date from its name, or 0 */
	/* realpath() of the folder named, and of the sosreport being read */
	char *root, *sos_real;
};

/* Entry names worth reading inside an archive (fnmatch, basename or path). */
static const char *const wanted_names[] = {
	"messages", "messages-*", "messages.*",	 "kern.log",	 "kern.log.*",
	"syslog",   "syslog.*",	  "syslog-*",	 "dmesg",	 "dmesg*",
	"*.log",    "*.log.*",	  "journalctl*", "journal*.txt", "*.txt",
	"journal*", "*.json",	  "*.export",	 "*.journal",	 "*.journal~",
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
		!fnmatch("journalctl*", base, 0)) ||
	       /* sos --all-logs copies journald's files */
	       (strstr(name, "/var/log/journal/") &&
		(!fnmatch("*.journal", base, 0) ||
		 !fnmatch("*.journal~", base, 0)));
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
		      bool in_file, char *why, size_t cap, bool *failed,
		      bool *binary)
{
	const char *dump = dump_kind(h, n);

	*failed = true;
	*binary = false;
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
			"a kdump vmcore (%s): oomlens reads a dump only from a plain file (extract or save it first, then name that file)",
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
		return false; /* a binary journal: parsers/journal.h reads it */
	else if ((*binary = looks_binary(h, n)))
		snprintf(why, cap, "binary data, not a log");
	else
		return false;
	return true;
}

/*
 * not_a_log(), and if so the input is skipped with the reason; but with
 * binary_head, a head of binary data only sets *binary_head: the caller
 * looks further (text_after_binary()).
 */
static bool skip_not_a_log(struct walk *w, const unsigned char *h, size_t n,
			   const char *name, bool in_file, bool *binary_head)
{
	char why[256];
	bool failed, binary;

	if (!not_a_log(h, n, name, in_file, why, sizeof(why), &failed, &binary))
		return false;
	if (binary && binary_head) {
		*binary_head = true;
		return false;
	}
	if (w->skip)
		w->skip(w->ctx, name, why, failed);
	w->stats->skipped++;
	return true;
}

/* linesrc_judge_fn for looks_binary(). */
static bool binary_block(const unsigned char *p, size_t n)
{
	return looks_binary(p, n);
}

/*
 * A stream whose head is binary data: garbage before a log? Its blocks of
 * SNIFF_BYTES are judged one by one, up to BINARY_LOOK bytes, and the log
 * after the binary ones is read (the parser says how much was skipped).
 * False, and the stream skipped as binary data, when no text comes.
 */
static bool text_after_binary(struct walk *w, struct linesrc *lines,
			      const char *name)
{
	struct oomlens_error *err;
	bool all;

	err = linesrc_skip_binary(lines, binary_block, SNIFF_BYTES, BINARY_LOOK,
				  &all);
	if (!err && !all)
		return true;
	if (w->skip)
		w->skip(w->ctx, name,
			err ? err->message : "binary data, not a log",
			err != NULL);
	w->stats->skipped++;
	oomlens_error_free(err);
	return false;
}

/* The bytes of a head judged by not_a_log(). */
static size_t sniffed(size_t head_len)
{
	return head_len < SNIFF_BYTES ? head_len : SNIFF_BYTES;
}

/*
 * An empty tar archive: NUL bytes only, two blocks of 512 or more, whole
 * blocks (the end-of-archive marker, padded to the record size: 10240
 * bytes with GNU tar's default). A log's unwritten tail after a crash is
 * also NUL bytes, but not a whole stream of them in whole blocks.
 */
static bool empty_tar(const unsigned char *p, size_t n)
{
	if (n < 1024 || n % 512)
		return false;
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

/*
 * A stream read through lines whose head (n bytes) is all NUL bytes: an
 * empty tar archive written with a record larger than the head? Read on,
 * up to EMPTY_TAR_MAX, to see the whole stream; nothing is consumed.
 */
static bool empty_tar_lines(struct linesrc *lines, const unsigned char *h,
			    size_t n)
{
	const char *p;
	size_t len;
	bool whole;

	if (!empty_tar(h, n) ||
	    linesrc_peek_all(lines, (size_t)EMPTY_TAR_MAX, &p, &len, &whole))
		return false;
	return whole && empty_tar((const unsigned char *)p, len);
}

/* The file at path (size bytes) is an empty tar archive. */
static bool empty_tar_file(const char *path, int64_t size)
{
	unsigned char *buf;
	ssize_t got;
	bool yes;
	int fd;

	if (size < 1024 || size > EMPTY_TAR_MAX || size % 512)
		return false;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	buf = malloc((size_t)size);
	got = buf ? pread(fd, buf, (size_t)size, 0) : -1;
	yes = got == size && empty_tar(buf, (size_t)size);
	free(buf);
	close(fd);
	return yes;
}

struct entry_reader {
	struct archive *a;
	int64_t file_size; /* the compressed file's, or -1 */
	int64_t floor; /* SOURCE_INFLATE_FLOOR or its override */
	/* the first bytes, read ahead to judge them, then handed out */
	unsigned char head[HEAD_BYTES];
	size_t head_len, head_pos;
	int head_errno; /* the read ahead's error, returned after head */
	struct linesrc *lines; /* told why a read failed */
	bool failed; /* a read failed: the archive is not read further */
	char why[256]; /* why */
};

/*
 * One archive being read: a file on disk (nest 1), or an entry of another
 * archive holding a tarball or a compressed file.
 */
struct level {
	struct level *parent;
	const char *name; /* "x.tar" or "x.tar:inner.tar.gz", for messages */
	const char *path; /* the file on disk */
	int64_t size; /* bytes of the archive as stored (its entry's size) */
	int nest;
	int64_t index; /* its entry's position in parent (headers read) */
	int64_t entries; /* headers read of it so far */
	bool from_pipe; /* the file is a pipe: it cannot be read twice */
	int64_t mtime; /* of the file or the entry; 0: unknown */
	char top[256]; /* the first component of its first entry's path */
	bool top_seen, sos_like, prepassed;
	char host[256];
	const char *host_source; /* "hostname", "name", or NULL */
	bool inherited; /* host is the outer archive's: its own comes first */
	int64_t name_date; /* the date its name or top directory states */
	/* what its host was read from when that is its name */
	char name_src[256];
	bool name_any_dated;
	/* where its hostname entry, a symbolic link, points; links followed */
	char host_link[1024];
	int link_hops;
	struct sos_ids ids; /* its manifest's */
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

/* A date "YYYY-MM-DD" or "YYYYMMDD" at p, as the epoch of its last second. */
static bool name_date(const char *p, int64_t *date)
{
	struct scan t = scan_of(p, strlen(p));
	unsigned y, m, d;
	struct tm tm = {0};

	if (!scan_digits(&t, 4, &y))
		return false;
	if (scan_char(&t, '-')) {
		if (!scan_digits(&t, 2, &m) || !scan_char(&t, '-') ||
		    !scan_digits(&t, 2, &d))
			return false;
	} else if (!scan_digits(&t, 2, &m) || !scan_digits(&t, 2, &d)) {
		return false;
	}
	if (y < 1990 || y > 2199 || m < 1 || m > 12 || d < 1 || d > 31)
		return false;
	tm.tm_year = (int)y - 1900;
	tm.tm_mon = (int)m - 1;
	tm.tm_mday = (int)d;
	tm.tm_hour = 23;
	tm.tm_min = tm.tm_sec = 59;
	*date = (int64_t)timegm(&tm);
	return true;
}

/* A host name: letters, digits, '-', '.' and '_', from a letter or digit. */
static bool host_ok(const char *p, size_t n)
{
	size_t i;

	if (!n || n > 253 || !isalnum((unsigned char)p[0]))
		return false;
	for (i = 0; i < n; i++)
		if (!isalnum((unsigned char)p[i]) && !strchr("-._", p[i]))
			return false;
	return true;
}

/* p[0..*len) without a "-" + part suffix, if it has one. */
static void strip_part(const char *p, size_t *len, const char *part)
{
	size_t k = strlen(part);

	if (k && *len > k + 1 && p[*len - k - 1] == '-' &&
	    !memcmp(p + *len - k, part, k))
		*len -= k + 1;
}

/*
 * The end of the host in "sosreport-HOST[-CASE]-DATE": before the case id
 * and label the manifest names, else before a case number (5 digits or
 * more), which cannot be told from a host's own numeric part.
 */
static const char *sos_host_end(const char *p, const char *end,
				const struct sos_ids *ids)
{
	const char *dash = end - 1;
	size_t len = (size_t)(end - p);

	if (ids && ids->known) {
		strip_part(p, &len, ids->case_id);
		strip_part(p, &len, ids->label);
		return p + len;
	}
	while (dash > p && *dash != '-')
		dash--;
	if (dash > p && end - dash - 1 >= 5 &&
	    strspn(dash + 1, "0123456789") >= (size_t)(end - dash - 1))
		return dash;
	return end;
}

static bool name_host(const char *name, bool any_dated,
		      const struct sos_ids *ids, char *host, size_t n,
		      int64_t *date);

/*
 * The JSON string value of key (quotes and all) in text, decoded into out
 * (n bytes): escapes kept as the character they escape, \uXXXX as '?'.
 */
static bool json_field(const char *text, const char *key, char *out, size_t n)
{
	const char *p = strstr(text, key);
	size_t len = 0;

	if (!p)
		return false;
	for (p += strlen(key); isspace((unsigned char)*p); p++)
		;
	if (*p++ != ':')
		return false;
	while (isspace((unsigned char)*p))
		p++;
	if (*p++ != '"')
		return false;
	for (; *p && *p != '"'; p++) {
		char c = *p;

		if (c == '\\') {
			c = *++p;
			if (!c)
				return false;
			if (c == 'u') {
				c = '?';
				for (int k = 0; k < 4 && p[1]; k++)
					p++;
			} else if (c != '"' && c != '\\' && c != '/') {
				c = ' ';
			}
		}
		if (len + 1 >= n)
			return false;
		out[len++] = c;
	}
	if (*p != '"')
		return false;
	out[len] = '\0';
	return true;
}

/* word's value as sos puts it in a name (its sanitize_filename()). */
static void sos_sanitized(const char *word, size_t len, char *out, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < len && k + 1 < n; i++)
		if (isalnum((unsigned char)word[i]) || strchr("-.,", word[i]))
			out[k++] = word[i];
	out[k] = '\0';
}

/*
 * The case id and label of a sos 4 manifest (the text of
 * sos_reports/manifest.json): its "cmdline" names them as given to sos
 * (--case-id X or --ticket-number X; --label X or its old name --name X;
 * or OPTION=X). False when it has no cmdline.
 */
static bool manifest_ids(const char *text, struct sos_ids *ids)
{
	static const struct {
		const char *option;
		bool is_case;
	} options[] = {{"--case-id", true},
		       {"--ticket-number", true},
		       {"--label", false},
		       {"--name", false}};
	char cmdline[4096];
	const char *p = cmdline;

	if (!json_field(text, "\"cmdline\"", cmdline, sizeof(cmdline)))
		return false;
	memset(ids, 0, sizeof(*ids));
	ids->known = true;
	while (*p) {
		size_t len = strcspn(p, " "), i;
		const char *value = NULL;
		size_t vlen = 0;

		for (i = 0; i < sizeof(options) / sizeof(options[0]); i++) {
			size_t k = strlen(options[i].option);

			if (len == k && !strncmp(p, options[i].option, k) &&
			    p[len]) {
				value = p + len + 1;
				vlen = strcspn(value, " ");
			} else if (len > k &&
				   !strncmp(p, options[i].option, k) &&
				   p[k] == '=') {
				value = p + k + 1;
				vlen = len - k - 1;
			}
			if (value)
				break;
		}
		if (value) {
			if (options[i].is_case)
				sos_sanitized(value, vlen, ids->case_id,
					      sizeof(ids->case_id));
			else
				sos_sanitized(value, vlen, ids->label,
					      sizeof(ids->label));
		}
		p += len;
		while (*p == ' ')
			p++;
	}
	return true;
}

/*
 * path made canonical into out (n bytes): "a/./b//c/../d" is "a/b/d".
 * False if it is absolute, climbs out of its root, is empty or does not
 * fit.
 */
static bool norm_path(const char *path, char *out, size_t n)
{
	size_t len = 0;
	const char *p = path;

	if (*p == '/')
		return false;
	while (*p) {
		size_t c = strcspn(p, "/");

		if (c == 2 && p[0] == '.' && p[1] == '.') {
			if (!len)
				return false;
			while (len && out[len - 1] != '/')
				len--;
			if (len)
				len--;
		} else if (c && !(c == 1 && p[0] == '.')) {
			if (len + 1 + c >= n)
				return false;
			if (len)
				out[len++] = '/';
			memcpy(out + len, p, c);
			len += c;
		}
		p += c + (p[c] == '/');
	}
	out[len] = '\0';
	return len > 0;
}

bool source_name_host(const char *name, bool any_dated, char *host, size_t n,
		      int64_t *date)
{
	return name_host(name, any_dated, NULL, host, n, date);
}

static bool name_host(const char *name, bool any_dated,
		      const struct sos_ids *ids, char *host, size_t n,
		      int64_t *date)
{
	const char *p = name, *end = NULL, *q;
	int64_t when = 0;
	size_t len;

	host[0] = '\0';
	*date = 0;
	if (!strncmp(p, "scc_", 4) || !strncmp(p, "nts_", 4)) {
		/* supportconfig: scc_HOST_YYMMDD_HHMM */
		p += 4;
		for (q = p; (q = strchr(q, '_')); q++)
			if (strspn(q + 1, "0123456789") == 6 && q[7] == '_' &&
			    strspn(q + 8, "0123456789") == 4) {
				char ymd[16];

				end = q;
				snprintf(ymd, sizeof(ymd), "20%.6s", q + 1);
				name_date(ymd, &when);
				break;
			}
	} else {
		/* sosreport-HOST[-CASE]-DATE-..., or HOST-DATE */
		if (!strncmp(p, "sosreport-", 10))
			p += 10;
		else if (!any_dated)
			return false;
		for (q = p; (q = strchr(q, '-')); q++)
			if (q > p && name_date(q + 1, &when)) {
				end = q;
				break;
			}
		/* a case id (and a label) before the date */
		if (end && p == name + 10)
			end = sos_host_end(p, end, ids);
		/* sos 3 without a date: up to the name's next dash or dot */
		if (!end && p == name + 10)
			end = p + strcspn(p, "-.");
		/* sos 3: HOST.CASE */
		if (end && p == name + 10) {
			const char *dot = memrchr(p, '.', (size_t)(end - p));

			if (dot && end - dot - 1 >= 5 &&
			    strspn(dot + 1, "0123456789") >=
				    (size_t)(end - dot - 1))
				end = dot;
		}
	}
	if (!end)
		return false;
	len = (size_t)(end - p);
	if (!host_ok(p, len) || len >= n)
		return false;
	memcpy(host, p, len);
	host[len] = '\0';
	*date = when;
	return true;
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
	if (got < 0 && r->failed && r->lines)
		r->lines->read_error = r->why;
	return got;
}

static struct oomlens_error *walk_archive(struct walk *w, struct archive *a,
					  struct level *lv);
static struct archive *archive_reader_new(void);
static size_t base_offset(const char *path);
static bool head_is_packed(const unsigned char *head, size_t got);

/* Report an archive libarchive cannot open or read, with its reason. */
static void skip_archive(struct walk *w, struct archive *a, const char *name,
			 const char *fallback)
{
	if (w->skip)
		w->skip(w->ctx, name,
			archive_error_string(a) ? archive_error_string(a)
						: fallback,
			true);
}

/*
 * The levels an opened archive counts for against MAX_NEST: one per
 * compression (libarchive stacks a filter per layer: a .gz of a .gz),
 * and one for a tar without any.
 */
static int archive_layers(struct archive *a)
{
	int n = archive_filter_count(a), layers = 0;

	for (int i = 0; i < n; i++)
		layers += archive_filter_code(a, i) != ARCHIVE_FILTER_NONE;
	return layers ? layers : 1;
}

/* An archive or compressed file too deep inside others: passed over. */
static void skip_too_deep(struct walk *w, const char *name)
{
	char why[80];

	snprintf(
		why, sizeof(why),
		"archives or compressed files nested deeper than %d (not read)",
		MAX_NEST);
	if (w->skip)
		w->skip(w->ctx, name, why, false);
	w->stats->skipped++;
}

/* A nested archive reads its bytes from the entry of the outer one. */
struct nest_ctx {
	struct entry_reader *r;
	char block[65536];
};

static la_ssize_t nest_read(struct archive *a, void *ctx, const void **buf)
{
	struct nest_ctx *n = ctx;
	ssize_t got = peeked_reader(n->r, n->block, sizeof(n->block));

	if (got < 0)
		archive_set_error(a, errno ? errno : EIO, "%s",
				  n->r->failed ? n->r->why : strerror(errno));
	*buf = n->block;
	return (la_ssize_t)got;
}

/*
 * An entry that is itself a tarball or a compressed file: read as an
 * archive of its own, one level deeper, past MAX_NEST passed over.
 */
static struct oomlens_error *walk_nested(struct walk *w, struct level *lv,
					 struct entry_reader *r,
					 const struct source_stream *s)
{
	struct level child = {.parent = lv,
			      .name = s->name,
			      .path = lv->path,
			      .size = s->size,
			      .nest = lv->nest + 1,
			      .index = lv->entries,
			      .from_pipe = lv->from_pipe,
			      .mtime = lv->mtime,
			      .host_source = lv->host_source,
			      .inherited = true,
			      .name_date = lv->name_date};
	struct nest_ctx *n;
	struct archive *a;
	struct oomlens_error *err;

	if (lv->nest >= MAX_NEST) {
		skip_too_deep(w, s->name);
		return NULL;
	}
	n = malloc(sizeof(*n));
	a = n ? archive_reader_new() : NULL;
	if (!a) {
		free(n);
		return &oomlens_error_nomem;
	}
	n->r = r;
	memcpy(child.host, lv->host, sizeof(child.host));
	err = NULL;
	if (archive_read_open(a, n, NULL, nest_read, NULL) != ARCHIVE_OK) {
		skip_archive(w, a, s->name, "cannot open");
		w->stats->skipped++;
	} else if ((child.nest = lv->nest + archive_layers(a)) > MAX_NEST) {
		skip_too_deep(w, s->name);
	} else {
		err = walk_archive(w, a, &child);
	}
	archive_read_free(a);
	free(n);
	return err;
}

/*
 * Hand one archive entry to fn, or read it as an archive when it is one.
 * A read that fails (a corrupt or cut archive, a decompression bomb) fails
 * the stream with the reason, which fn reports as it reports any
 * unreadable file; *failed then tells the caller not to report the archive
 * again.
 */
static OOMLENS_MUST_CHECK struct oomlens_error *
read_stream(struct walk *w, struct archive *a, struct source_stream *s,
	    struct level *lv, bool *failed)
{
	struct entry_reader r = {
		.a = a, .file_size = lv->size, .floor = inflate_floor()};
	struct oomlens_error *err;
	struct linesrc lines;
	bool binary_head = false;

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
	if (!r.head_errno && head_is_packed(r.head, r.head_len)) {
		err = walk_nested(w, lv, &r, s);
		*failed = r.failed;
		return err;
	}
	if (!r.head_errno && r.head_len < sizeof(r.head) &&
	    !dump_name(s->name) && empty_tar(r.head, r.head_len))
		return NULL;
	if (!r.head_errno && skip_not_a_log(w, r.head, sniffed(r.head_len),
					    s->name, false, &binary_head))
		return NULL;
	err = linesrc_init_reader(&lines, s->name, peeked_reader, &r);
	if (err)
		return err;
	r.lines = &lines;
	s->lines = &lines;
	if ((binary_head && !text_after_binary(w, &lines, s->name)) ||
	    empty_tar_lines(&lines, r.head, r.head_len)) {
		linesrc_close(&lines);
		*failed = r.failed;
		return NULL;
	}
	w->stats->streams++;
	err = w->fn(w->ctx, s);
	linesrc_close(&lines);
	*failed = r.failed;
	return err;
}

/* The host a sosreport's "hostname" file names: its first word. */
static bool host_from_text(char *buf, size_t got, char *host, size_t n)
{
	size_t len;

	buf[got] = '\0';
	len = strcspn(buf, "\r\n \t");
	if (!host_ok(buf, len) || len >= n)
		return false;
	memcpy(host, buf, len);
	host[len] = '\0';
	return true;
}

/* Read the small "hostname" entry of a sosreport into lv. */
static void read_hostname(struct archive *a, struct level *lv)
{
	char buf[256];
	la_ssize_t got = archive_read_data(a, buf, sizeof(buf) - 1);

	if (got > 0 &&
	    host_from_text(buf, (size_t)got, lv->host, sizeof(lv->host))) {
		lv->host_source = "hostname";
		lv->inherited = false;
	}
}

/* Has the archive's own hostname entry been read? */
static bool host_from_entry(const struct level *lv)
{
	return !lv->inherited && lv->host_source &&
	       !strcmp(lv->host_source, "hostname");
}

/* An entry's path without a leading "./". */
static const char *entry_path(struct archive_entry *e)
{
	const char *p = archive_entry_pathname(e);

	if (!p)
		return "?";
	while (p[0] == '.' && p[1] == '/')
		p += 2;
	return p;
}

/* Is this the archive's "hostname" entry: at its root, or its top's? */
static bool is_hostname_entry(const struct level *lv, const char *ename)
{
	size_t t = strlen(lv->top);

	if (!strcmp(ename, "hostname"))
		return true;
	return t && !strncmp(ename, lv->top, t) &&
	       !strcmp(ename + t, "/hostname");
}

/*
 * A link's target: the link's directory joined to where it points, made
 * canonical into out (n bytes). False if it leaves the archive's top
 * directory (or the archive, when it has none), is absolute, or does not
 * fit. Hops are counted by the caller, so a loop ends.
 */
static bool link_target(const struct level *lv, const char *link,
			const char *to, char *out, size_t n)
{
	const char *slash = strrchr(link, '/');
	size_t t = strlen(lv->top);
	char joined[2048];

	if (!to || !*to || *to == '/')
		return false;
	if ((size_t)snprintf(joined, sizeof(joined), "%.*s%s%s",
			     slash ? (int)(slash - link) : 0, link,
			     slash ? "/" : "", to) >= sizeof(joined) ||
	    !norm_path(joined, out, n))
		return false;
	return !t || (!strncmp(out, lv->top, t) && out[t] == '/');
}

/*
 * The archive's hostname entry, or what it links to (sos 4 writes the root
 * "hostname" as a link to sos_commands/host/hostname): read into lv, or
 * its link followed (at most LINK_HOPS, inside the archive). Other entries
 * with "hostname" in their names (etc/hostname, hostnamectl_status) are
 * no such entry. True if e is one (it is then no log).
 */
static bool host_entry(struct archive *a, struct level *lv,
		       struct archive_entry *e, const char *ename)
{
	char canon[1024];
	bool target = lv->host_link[0] &&
		      norm_path(ename, canon, sizeof(canon)) &&
		      !strcmp(canon, lv->host_link);

	if (!target && !is_hostname_entry(lv, ename))
		return false;
	if (host_from_entry(lv))
		return true;
	if (archive_entry_filetype(e) == AE_IFLNK) {
		if (lv->link_hops++ >= LINK_HOPS ||
		    !link_target(lv, ename, archive_entry_symlink(e),
				 lv->host_link, sizeof(lv->host_link)))
			lv->host_link[0] = '\0'; /* not followed */
		return true;
	}
	if (archive_entry_filetype(e) == AE_IFREG)
		read_hostname(a, lv);
	return true;
}

/* Is this the archive's sos_reports/manifest.json (sos 4)? */
static bool is_manifest_entry(const struct level *lv, const char *ename)
{
	size_t t = strlen(lv->top);

	if (!strcmp(ename, SOS_MANIFEST))
		return true;
	return t && !strncmp(ename, lv->top, t) && ename[t] == '/' &&
	       !strcmp(ename + t + 1, SOS_MANIFEST);
}

/* The host its name states, again, now that the manifest is known. */
static void host_from_name(struct level *lv)
{
	char host[256];
	int64_t date;

	if (lv->inherited || !lv->host_source ||
	    strcmp(lv->host_source, "name") || !lv->name_src[0])
		return;
	if (name_host(lv->name_src, lv->name_any_dated, &lv->ids, host,
		      sizeof(host), &date))
		snprintf(lv->host, sizeof(lv->host), "%s", host);
}

/* The manifest entry, read (its first MANIFEST_BYTES) into lv->ids. */
static void read_manifest(struct archive *a, struct level *lv)
{
	char *buf = malloc(MANIFEST_BYTES);
	size_t len = 0;

	if (!buf)
		return;
	while (len < MANIFEST_BYTES - 1) {
		la_ssize_t got = archive_read_data(a, buf + len,
						   MANIFEST_BYTES - 1 - len);

		if (got <= 0)
			break;
		len += (size_t)got;
	}
	buf[len] = '\0';
	if (manifest_ids(buf, &lv->ids))
		host_from_name(lv);
	free(buf);
}

/*
 * Look for lv's hostname entry (and its manifest) in a from where it
 * stands (depth d of the chain of levels from the file down to lv) on:
 * the archive read a second time, down through the entries that hold lv.
 */
static void find_hostname(struct archive *a, struct level *const *chain, int d,
			  int n)
{
	struct level *lv = chain[n - 1];
	struct archive_entry *e;
	int64_t index = 0;

	while (archive_read_next_header(a, &e) == ARCHIVE_OK) {
		const char *ename = entry_path(e);

		if (d == n - 1) {
			if (!lv->ids.known && is_manifest_entry(lv, ename) &&
			    archive_entry_filetype(e) == AE_IFREG)
				read_manifest(a, lv);
			else if (host_entry(a, lv, e, ename) &&
				 host_from_entry(lv))
				return;
		} else if (index == chain[d + 1]->index) {
			struct entry_reader r = {.a = a,
						 .file_size =
							 chain[d + 1]->size,
						 .floor = inflate_floor()};
			struct nest_ctx *nc = malloc(sizeof(*nc));
			struct archive *in = nc ? archive_reader_new() : NULL;

			if (in) {
				nc->r = &r;
				if (archive_read_open(in, nc, NULL, nest_read,
						      NULL) == ARCHIVE_OK)
					find_hostname(in, chain, d + 1, n);
				archive_read_free(in);
			}
			free(nc);
			return;
		}
		index++;
	}
}

/*
 * A sosreport may store its hostname entry after its logs: before the
 * first log is handed out, the archive is read once more for it (not a
 * pipe's, which cannot be read twice).
 */
static void prepass_hostname(struct level *lv)
{
	struct level *chain[MAX_NEST + 1], *l;
	struct archive *a;
	int n = 0, i;

	lv->prepassed = true;
	if (lv->from_pipe)
		return;
	for (l = lv; l && n <= MAX_NEST; l = l->parent)
		n++;
	for (l = lv, i = n - 1; l && i >= 0; l = l->parent, i--)
		chain[i] = l;
	/* a link to an entry before it is followed on the next pass */
	for (int pass = 0; pass < LINK_HOPS && !host_from_entry(lv) &&
			   (!pass || lv->host_link[0]);
	     pass++) {
		a = archive_reader_new();
		if (!a)
			return;
		if (archive_read_open_filename(a, chain[0]->path, BLOCK_SIZE) ==
		    ARCHIVE_OK)
			find_hostname(a, chain, 0, n);
		archive_read_free(a);
	}
}

/* What the first entry tells of the archive: its top directory's name. */
static void see_top(struct level *lv, const char *ename)
{
	const char *slash = strchr(ename, '/');
	size_t len = slash ? (size_t)(slash - ename) : 0;
	char host[256];
	int64_t date;

	lv->top_seen = true;
	if (!len || len >= sizeof(lv->top))
		return;
	memcpy(lv->top, ename, len);
	lv->top[len] = '\0';
	if (!strncmp(lv->top, "sosreport-", 10))
		lv->sos_like = true;
	if (!source_name_host(lv->top, true, host, sizeof(host), &date))
		return;
	if (date)
		lv->name_date = date;
	if (!lv->host_source || lv->inherited) {
		snprintf(lv->host, sizeof(lv->host), "%s", host);
		lv->host_source = "name";
		lv->inherited = false;
		snprintf(lv->name_src, sizeof(lv->name_src), "%s", lv->top);
		lv->name_any_dated = true;
		host_from_name(lv);
	}
}

/* Entry names of archives read inside an archive (a case's tarballs). */
static bool archive_named(const char *ename)
{
	static const char *const names[] = {
		"*.tar",  "*.tar.*", "*.tgz",  "*.txz", "*.tbz",
		"*.tbz2", "*.tzst",  "*.tlz4", "*.zip",
	};
	const char *base = strrchr(ename, '/');
	size_t i;

	base = base ? base + 1 : ename;
	/* not what a sosreport collects: its own logs only */
	for (const char *p = ename; p && p < base;
	     p = strchr(p, '/'), p = p ? p + 1 : p)
		if (!strncmp(p, "sosreport-", 10) ||
		    !strncmp(p, "sos_commands/", 13))
			return false;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!fnmatch(names[i], base, 0))
			return true;
	return false;
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
	unsigned char head[HEAD_BYTES];
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
walk_plain(struct walk *w, const char *path, int64_t size, int64_t mtime)
{
	struct source_stream s = {0};
	struct oomlens_error *err;
	struct linesrc lines;
	unsigned char head[SNIFF_BYTES];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t got = fd < 0 ? -1 : pread(fd, head, sizeof(head), 0);
	bool binary_head = false;

	if (fd >= 0)
		close(fd);
	if (got > 0 &&
	    skip_not_a_log(w, head, (size_t)got, path, true, &binary_head)) {
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
	if (binary_head && !text_after_binary(w, &lines, path)) {
		linesrc_close(&lines);
		w->stats->files++;
		return NULL;
	}
	w->stats->files++;
	w->stats->streams++;
	w->stats->bytes += size > 0 ? (uint64_t)size : 0;
	s.name = path;
	s.path = path;
	s.format = "plain";
	s.host = w->host[0] ? w->host : NULL;
	s.host_source = s.host ? w->host_source : NULL;
	s.ref_time = w->ref_time ? w->ref_time : mtime;
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
	if (!dump_kind(head, len) ||
	    !skip_not_a_log(w, head, len, name, false, NULL))
		w->stats->skipped++;
}

static struct archive *archive_reader_new(void)
{
	struct archive *a = archive_read_new();

	if (!a)
		return NULL;
	archive_read_support_filter_all(a);
	archive_read_support_format_tar(a);
	archive_read_support_format_gnutar(a);
	archive_read_support_format_zip(a);
	archive_read_support_format_raw(a);
	/* a compressed file of nothing (an empty rotated log): no entry */
	archive_read_support_format_empty(a);
	return a;
}

/* The reference time for dates without a year: a name's date, else mtime. */
static int64_t level_ref(const struct level *lv)
{
	return lv->name_date ? lv->name_date : lv->mtime;
}

/* Every entry of an opened archive: its logs to fn, its archives walked. */
static struct oomlens_error *walk_archive(struct walk *w, struct archive *a,
					  struct level *lv)
{
	struct archive_entry *entry;
	struct oomlens_error *err = NULL;
	char name[4096], format[64];
	bool failed = false;
	int rc;

	while ((rc = archive_read_next_header(a, &entry)) == ARCHIVE_OK) {
		const char *fmt = archive_format_name(a);
		const char *filter = archive_filter_name(a, 0);
		const char *ename = entry_path(entry);
		bool raw = archive_format(a) == ARCHIVE_FORMAT_RAW;
		struct source_stream s = {0};
		bool plain = !filter || !strcmp(filter, "none");
		if (raw) {
			snprintf(format, sizeof(format), "%s",
				 plain ? "plain" : filter);
			snprintf(name, sizeof(name), "%s",
				 strcmp(lv->name, "-") ? lv->name : "<stdin>");
		} else {
			if (!lv->top_seen)
				see_top(lv, ename);
			snprintf(format, sizeof(format), "%s%s%s",
				 strstr(fmt ? fmt : "", "ZIP") ? "zip" : "tar",
				 plain ? "" : ".", plain ? "" : filter);
			/* named as stored, "./" and all */
			snprintf(name, sizeof(name), "%s:%s", lv->name,
				 archive_entry_pathname(entry)
					 ? archive_entry_pathname(entry)
					 : "?");
			if (host_entry(a, lv, entry, ename))
				goto next;
			if (!lv->ids.known && is_manifest_entry(lv, ename) &&
			    archive_entry_filetype(entry) == AE_IFREG) {
				read_manifest(a, lv);
				goto next;
			}
			if (archive_entry_filetype(entry) != AE_IFREG) {
				if (archive_entry_filetype(entry) != AE_IFDIR &&
				    w->skip && source_entry_wanted(ename)) {
					w->skip(w->ctx, name,
						"not a regular file in the archive",
						false);
					w->stats->skipped++;
				}
				goto next;
			}
			/* a dump is named, then told by its header */
			if (!source_entry_wanted(ename) && !dump_name(ename) &&
			    !archive_named(ename)) {
				skip_entry(w, a, name);
				goto next;
			}
			if (lv->sos_like && !lv->prepassed &&
			    !host_from_entry(lv))
				prepass_hostname(lv);
		}
		s.name = name;
		s.path = lv->path;
		s.format = format;
		s.host = lv->host[0] ? lv->host : NULL;
		s.host_source = s.host ? lv->host_source : NULL;
		s.size = raw ? lv->size : (int64_t)archive_entry_size(entry);
		s.ref_time = level_ref(lv);
		if (!raw && !lv->name_date && archive_entry_mtime_is_set(entry))
			s.ref_time = (int64_t)archive_entry_mtime(entry);
		err = read_stream(w, a, &s, lv, &failed);
		if (err || failed)
			break;
	next:
		lv->entries++;
	}
	if (!err && !failed && rc != ARCHIVE_EOF && rc != ARCHIVE_OK) {
		skip_archive(w, a, lv->name, "corrupt archive");
	}
	return err;
}

static OOMLENS_MUST_CHECK struct oomlens_error *
walk_file(struct walk *w, const char *path, int64_t size, int64_t mtime)
{
	struct archive *a = archive_reader_new();
	struct oomlens_error *err;
	struct level *lv;
	const char *base = path + base_offset(path);
	int rc;

	if (!a)
		return &oomlens_error_nomem;
	if (w->ahead)
		rc = archive_read_open(a, w->ahead, NULL, stdin_archive_reader,
				       NULL);
	else
		rc = archive_read_open_filename(a, path, BLOCK_SIZE);
	if (rc != ARCHIVE_OK) {
		skip_archive(w, a, path, "cannot open");
		w->stats->skipped++;
		archive_read_free(a);
		return NULL;
	}
	if (archive_layers(a) > MAX_NEST) {
		skip_too_deep(w, path);
		archive_read_free(a);
		return NULL;
	}
	lv = calloc(1, sizeof(*lv));
	if (!lv) {
		archive_read_free(a);
		return &oomlens_error_nomem;
	}
	w->stats->files++;
	w->stats->bytes += size > 0 ? (uint64_t)size : 0;
	lv->name = path;
	lv->path = path;
	lv->size = size;
	lv->nest = archive_layers(a);
	lv->from_pipe = w->ahead != NULL;
	lv->mtime = mtime;
	lv->name_date = w->ref_time;
	if (w->host[0]) {
		snprintf(lv->host, sizeof(lv->host), "%s", w->host);
		lv->host_source = w->host_source;
	} else {
		char host[256];
		int64_t date;

		/* the file's name: sosreport-HOST-..., scc_HOST_... */
		if (source_name_host(base, false, host, sizeof(host), &date)) {
			snprintf(lv->host, sizeof(lv->host), "%s", host);
			lv->host_source = "name";
			lv->name_date = date;
			snprintf(lv->name_src, sizeof(lv->name_src), "%s",
				 base);
		}
	}
	if (!strncmp(base, "sosreport", 9))
		lv->sos_like = true;
	err = walk_archive(w, a, lv);
	archive_read_free(a);
	free(lv);
	return err;
}

/*
 * The reference time of a pipe's dates without a year (parsers/when.h),
 * as a file's is its mtime: the date a name states, else the pipe's own
 * mtime (its last write: now, for a pipe being read), else the clock.
 */
static int64_t pipe_ref_time(const struct walk *w, int fd)
{
	struct stat st;

	if (w->ref_time)
		return w->ref_time;
	if (!fstat(fd, &st) && st.st_mtime > 0)
		return (int64_t)st.st_mtime;
	return (int64_t)time(NULL);
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
	bool binary_head = false;
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
	} else if (!in->len || (in->len < sizeof(in->head) &&
				empty_tar(in->head, in->len))) {
		w->stats->files++; /* empty: nothing to read */
	} else if (head_is_packed(in->head, in->len)) {
		w->ahead = in;
		err = walk_file(w, path, -1, 0);
		w->ahead = NULL;
	} else if (skip_not_a_log(w, in->head, sniffed(in->len), name, false,
				  &binary_head)) {
		w->stats->files++;
	} else {
		struct source_stream s = {0};
		struct linesrc lines;

		err = linesrc_init_reader(&lines, name, stdin_lines_reader, in);
		if (!err &&
		    ((binary_head && !text_after_binary(w, &lines, name)) ||
		     empty_tar_lines(&lines, in->head, in->len))) {
			linesrc_close(&lines);
			w->stats->files++;
		} else if (!err) {
			w->stats->files++;
			w->stats->streams++;
			s.name = name;
			s.path = path;
			s.format = "plain";
			s.size = -1;
			s.lines = &lines;
			s.ref_time = pipe_ref_time(w, fd);
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

/*
 * Open path/rel for reading if it is a regular file inside path, symbolic
 * links followed (realpath(): a loop fails); -1 otherwise.
 */
static int open_inside(const char *path, const char *rel)
{
	char *file = NULL, *real = NULL, *root = realpath(path, NULL);
	size_t n = root ? strlen(root) : 0;
	struct stat st;
	int fd = -1;

	if (root && asprintf(&file, "%s/%s", path, rel) >= 0)
		real = realpath(file, NULL);
	if (real && !strncmp(real, root, n) && real[n] == '/')
		fd = open(real, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW);
	if (fd >= 0 && (fstat(fd, &st) || !S_ISREG(st.st_mode))) {
		close(fd);
		fd = -1;
	}
	free(root);
	free(file);
	free(real);
	return fd;
}

/* Up to n - 1 bytes of path/rel (inside path) into buf, NUL-ended. */
static ssize_t read_inside(const char *path, const char *rel, char *buf,
			   size_t n)
{
	int fd = open_inside(path, rel);
	ssize_t got;

	if (fd < 0)
		return -1;
	got = read(fd, buf, n - 1);
	close(fd);
	buf[got > 0 ? got : 0] = '\0';
	return got;
}

/*
 * Its host: its hostname file's first word (a link followed if it stays
 * inside: sos 4 links it into sos_commands/), else its name's less the
 * case id and label its manifest names; and the date its name states.
 */
static void sos_dir_host(struct walk *w, const char *path)
{
	struct sos_ids ids = {0};
	char buf[256], *manifest = malloc(MANIFEST_BYTES);
	ssize_t got;

	w->host[0] = '\0';
	w->host_source = NULL;
	if (manifest &&
	    read_inside(path, SOS_MANIFEST, manifest, MANIFEST_BYTES) > 0)
		manifest_ids(manifest, &ids);
	free(manifest);
	if (name_host(path + base_offset(path), true, &ids, w->host,
		      sizeof(w->host), &w->ref_time) &&
	    w->host[0])
		w->host_source = "name";
	got = read_inside(path, "hostname", buf, sizeof(buf));
	if (got > 0 &&
	    host_from_text(buf, (size_t)got, w->host, sizeof(w->host)))
		w->host_source = "hostname";
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
	const char *old_source = w->host_source;
	int64_t old_ref = w->ref_time;
	char *old_real = w->sos_real, *sos_real = NULL;
	int n, i;

	n = scandir(path, &names, NULL, by_name);
	if (n < 0) {
		if (w->skip)
			w->skip(w->ctx, path, strerror(errno), true);
		w->stats->skipped++;
		return NULL;
	}
	memcpy(old_host, w->host, sizeof(old_host));
	if (is_sosreport_dir(path) && (sos_real = realpath(path, NULL))) {
		w->in_sos = true;
		w->sos_base = base_offset(path);
		w->sos_real = sos_real;
		sos_dir_host(w, path);
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
	if (sos_real)
		free(sos_real);
	w->sos_real = old_real;
	w->sos_base = old_base;
	w->in_sos = old_in;
	memcpy(w->host, old_host, sizeof(old_host));
	w->host_source = old_source;
	w->ref_time = old_ref;
	return err;
}

/*
 * Does the link at path (inside an unpacked sosreport) point at a name the
 * report's walk reads: its next hop, a kernel log of the report?
 */
static bool link_read_there(const struct walk *w, const char *path)
{
	const char *rel = path + w->sos_base, *slash = strrchr(rel, '/');
	char to[1024], joined[2048], canon[2048];
	ssize_t n = readlink(path, to, sizeof(to) - 1);

	if (n <= 0 || !slash)
		return false;
	to[n] = '\0';
	if ((size_t)snprintf(joined, sizeof(joined), "%.*s/%s",
			     (int)(slash - rel), rel, to) >= sizeof(joined) ||
	    !norm_path(joined, canon, sizeof(canon)))
		return false;
	slash = strrchr(canon, '/');
	return sos_entry_wanted(canon, slash ? slash + 1 : canon);
}

/*
 * A symbolic link inside a folder, followed where it stays inside the
 * folder named and leads to a file the walk would not read under its own
 * name: a kernel log of an unpacked sosreport linked from a name it reads
 * (sos keeps links as it finds them). A link to anything the walk reads
 * anyway (a file, a folder) is passed over: it is read there, once. A
 * link out of the folder, or one that leads nowhere (dangling, a loop), is
 * passed over and said.
 */
static OOMLENS_MUST_CHECK struct oomlens_error *walk_link(struct walk *w,
							  const char *path)
{
	char *real = realpath(path, NULL);
	size_t n = w->root ? strlen(w->root) : 0, k;
	struct stat st;

	if (!real || !w->root || strncmp(real, w->root, n) ||
	    (real[n] != '/' && real[n])) {
		if (w->skip)
			w->skip(w->ctx, path,
				real ? "symbolic link (not followed): it leads out of the folder"
				     : "symbolic link (not followed): it leads nowhere (dangling, or a loop)",
				false);
		w->stats->skipped++;
		free(real);
		return NULL;
	}
	k = w->sos_real ? strlen(w->sos_real) : 0;
	if (w->in_sos && !strncmp(real, w->sos_real, k) && real[k] == '/' &&
	    !stat(real, &st) && S_ISREG(st.st_mode) && st.st_size &&
	    sos_file_wanted(w, path) && !link_read_there(w, path)) {
		free(real);
		return looks_packed(path)
			       ? walk_file(w, path, (int64_t)st.st_size,
					   (int64_t)st.st_mtime)
			       : walk_plain(w, path, (int64_t)st.st_size,
					    (int64_t)st.st_mtime);
	}
	w->stats->skipped++;
	free(real);
	return NULL;
}

/*
 * What the user names (depth 0) is followed, as grep does: a symbolic link,
 * a FIFO or a process substitution is read; anything else not read is a
 * failure. Inside a folder, links are followed as walk_link() says;
 * special files are passed over.
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
	if (S_ISREG(st.st_mode) &&
	    (st.st_size == 0 ||
	     (!dump_name(path) && empty_tar_file(path, (int64_t)st.st_size)))) {
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
			       ? walk_file(w, path, (int64_t)st.st_size,
					   (int64_t)st.st_mtime)
			       : walk_plain(w, path, (int64_t)st.st_size,
					    (int64_t)st.st_mtime);
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
	if (S_ISDIR(st.st_mode) && depth <= MAX_DEPTH) {
		bool top = !depth && !w->root;

		if (top)
			w->root = realpath(path, NULL);
		err = walk_dir(w, path, depth);
		if (top) {
			free(w->root);
			w->root = NULL;
		}
		return err;
	}
	if (S_ISLNK(st.st_mode))
		return walk_link(w, path);
	/*
	 * A FIFO met in a folder is not opened: nothing may ever write it,
	 * and the walk would wait for ever (one named is read, as above).
	 */
	if (w->skip)
		w->skip(w->ctx, path,
			S_ISDIR(st.st_mode)
				? "folders nested too deep (not read)"
			: S_ISFIFO(st.st_mode)
				? "a FIFO (named pipe) inside a folder: not opened (name it on the command line to read it)"
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

/* A literal of when.h or a host source, copied into the incident's pool. */
static struct oomlens_error *set_str(struct oom_incident *inc,
				     const char **field, const char *s)
{
	*field = s ? oom_incident_str(inc, s, strlen(s)) : NULL;
	return s && !*field ? &oomlens_error_nomem : NULL;
}

/*
 * A syslog date's year from a linux-next release ("-next-20210611"):
 * the log was written after the kernel was built, and before a year has
 * passed. Where the reference's year (*t, if read) disagrees, as a copied
 * file's mtime does, the release decides. True when it gave *t.
 */
static bool release_dated(const struct oom_incident *inc, bool read, int64_t *t,
			  enum when_source *src)
{
	int64_t floor, after;

	if (!inc->prefix_style || strcmp(inc->prefix_style, "syslog") ||
	    !when_release_date(inc->kernel_release, &floor) ||
	    !when_parse_after(inc->wallclock, strlen(inc->wallclock), floor,
			      &after))
		return false;
	if (read && *t >= floor - 86400 && *t <= floor + 366 * 86400)
		return false;
	*t = after;
	*src = WHEN_SYSLOG;
	return true;
}

void source_stamp_learn(struct source_stream *s, const struct oom_incident *inc)
{
	const char *ts = inc->time_source;

	if (!inc->has_uptime || !ts ||
	    !strcmp(ts, when_source_name(WHEN_UPTIME_ONLY)) ||
	    !strcmp(ts, when_source_name(WHEN_BOOT_UPTIME)) ||
	    !strcmp(ts, when_source_name(WHEN_SYSLOG_UPTIME)))
		return;
	s->has_boot = true;
	s->boot = (double)inc->time_utc - inc->uptime;
	s->boot_year_assumed = !strcmp(ts, when_source_name(WHEN_SYSLOG));
}

struct oomlens_error *source_stamp(struct source_stream *s,
				   struct oom_incident *inc)
{
	struct oomlens_error *err = NULL;
	enum when_source src = WHEN_NONE;
	int64_t t = 0;
	bool read;

	if (s->host && s->host_source) {
		err = set_str(inc, &inc->host, s->host);
		if (!err)
			err = set_str(inc, &inc->host_source, s->host_source);
	} else if (inc->host) {
		err = set_str(inc, &inc->host_source, "syslog");
	}
	if (err)
		return err;
	read = inc->wallclock &&
	       when_parse(inc->wallclock, strlen(inc->wallclock),
			  inc->prefix_style, s->ref_time, &t, &src);
	if (inc->wallclock && release_dated(inc, read, &t, &src))
		read = true;
	if (read) {
		inc->time_utc = t;
		if (inc->has_uptime) {
			s->has_boot = true;
			s->boot = (double)t - inc->uptime;
			s->boot_year_assumed = src == WHEN_SYSLOG;
		}
	} else if (inc->has_uptime && s->has_boot) {
		inc->time_utc = (int64_t)(s->boot + inc->uptime + 0.5);
		src = s->boot_year_assumed ? WHEN_SYSLOG_UPTIME
					   : WHEN_BOOT_UPTIME;
	} else if (inc->has_uptime) {
		src = WHEN_UPTIME_ONLY;
	}
	return set_str(inc, &inc->time_source, when_source_name(src));
}
