// SPDX-License-Identifier: MIT
/*
 * --badness-from: a kernel tree's badness function as a model plugin
 * (cli/treemodel.h says what; docs/badness-from.md says how to use it).
 *
 * Steps: read mm/oom_kill.c (and the tree's Makefile for its version);
 * find the entry (the first of entries[] the file defines) with
 * core/csrc.h; take the static functions it calls and the structs it
 * names, transitively, in the file's order; write the unit: model.h, the
 * shim, each piece under a #line of its place in the tree, and the
 * wrapper; hash it; use the cached object of that hash, or compile one
 * with cc; turn cc's first error into a message with the tree's file
 * and line.
 *
 * Trust: the tree is the user's own code and runs in the plugin like any
 * --model-plugin. The cache is used only when its directories and the
 * object are the user's and writable by nobody else, and the object
 * carries the hash it was built for; otherwise the object is built in a
 * private temporary directory, removed after loading.
 */
#include "cli/treemodel.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/csrc.h"
#include "core/fdio.h"
#include "core/strbuf.h"
#include "include/oomlens/model.h"
#include "parsers/digest.h"
#include "core/banned.h"

#define TREE_MAX_SOURCE (8u << 20) /* mm/oom_kill.c is ~40 KiB */
#define TREE_MAX_PIECES 32
#define TREE_MAX_PARAMS 8
#define TREE_MAX_UNIT (4u << 20)
#define TREE_MAX_DIAG (64u << 10)
#define TREE_KEY_MARK "oomlens-badness-from:"

/* model.h and cli/treeshim/kernel.h, as text (made by the Makefile) */
static const char shim_text[] =
#include "treeshim.inc"
	;

/*
 * The functions a tree's OOM scan scores with, the first the file
 * defines wins: the RFC's tree still has oom_badness(), for
 * /proc/PID/oom_score, but its select_bad_process() calls __badness().
 */
static const struct {
	const char *name;
	const char *kernels;
} entries[] = {
	{"__badness", "the 2009 RFC (kernel/patches 0006, 6.1 port)"},
	{"oom_badness", "2.6.36 and later"},
	{"badness", "2.6.35 and earlier"},
};

/*
 * The names of the shim that read an input: a function that uses one
 * declares that input (and only the inputs it uses are asked for). A
 * field counts after '->' or '.' only (a local `oom_adj` reads nothing).
 */
#define FIELD true
static const struct {
	const char *ident;
	oomlens_inputs_t in;
	bool field;
} input_names[] = {
	{"get_mm_rss", OOMLENS_INPUT(OOMLENS_IN_RSS)},
	{"MM_FILEPAGES", OOMLENS_INPUT(OOMLENS_IN_RSS_PARTS)},
	{"MM_ANONPAGES", OOMLENS_INPUT(OOMLENS_IN_RSS_PARTS)},
	{"MM_SHMEMPAGES", OOMLENS_INPUT(OOMLENS_IN_RSS_PARTS)},
	{"MM_SWAPENTS", OOMLENS_INPUT(OOMLENS_IN_SWAP)},
	{"mm_pgtables_bytes", OOMLENS_INPUT(OOMLENS_IN_PGTABLES)},
	{"oom_score_adj", OOMLENS_INPUT(OOMLENS_IN_OOM_SCORE_ADJ), FIELD},
	{"oom_adj", OOMLENS_INPUT(OOMLENS_IN_OOM_ADJ), FIELD},
	{"total_vm", OOMLENS_INPUT(OOMLENS_IN_TOTAL_VM), FIELD},
	{"shared_vm", OOMLENS_INPUT(OOMLENS_IN_SHARED_VM), FIELD},
	{"_low_rss", OOMLENS_INPUT(OOMLENS_IN_LOW_RSS), FIELD},
	{"has_capability_noaudit", OOMLENS_INPUT(OOMLENS_IN_CAPS)},
	{"has_capability", OOMLENS_INPUT(OOMLENS_IN_CAPS)},
	{"start_time",
	 OOMLENS_INPUT(OOMLENS_IN_RUN_TIME) | OOMLENS_INPUT(OOMLENS_IN_UPTIME),
	 FIELD},
	{"utime",
	 OOMLENS_INPUT(OOMLENS_IN_CPU_TIME) | OOMLENS_INPUT(OOMLENS_IN_HZ),
	 FIELD},
	{"stime",
	 OOMLENS_INPUT(OOMLENS_IN_CPU_TIME) | OOMLENS_INPUT(OOMLENS_IN_HZ),
	 FIELD},
	{"last_vm_expansion",
	 OOMLENS_INPUT(OOMLENS_IN_QUIET) | OOMLENS_INPUT(OOMLENS_IN_UPTIME) |
		 OOMLENS_INPUT(OOMLENS_IN_HZ),
	 FIELD},
	{"jiffies",
	 OOMLENS_INPUT(OOMLENS_IN_UPTIME) | OOMLENS_INPUT(OOMLENS_IN_HZ)},
	{"HZ", OOMLENS_INPUT(OOMLENS_IN_HZ)},
	{"jiffies_to_msecs", OOMLENS_INPUT(OOMLENS_IN_HZ)},
	{"task_nice", OOMLENS_INPUT(OOMLENS_IN_NICE)},
	{"totalram_pages", OOMLENS_INPUT(OOMLENS_IN_MEMINFO)},
	{"total_swap_pages", OOMLENS_INPUT(OOMLENS_IN_MEMINFO)},
	{"get_nr_swap_pages", OOMLENS_INPUT(OOMLENS_IN_MEMINFO)},
};

#define N_INPUT_NAMES (sizeof(input_names) / sizeof(input_names[0]))

/* The entry's parameters by name: the expression the wrapper passes. */
static const struct {
	const char *name;
	const char *expr;
	oomlens_inputs_t in;
} param_names[] = {
	{"totalpages", "(unsigned long)inc->totalpages",
	 OOMLENS_INPUT(OOMLENS_IN_TOTALPAGES)},
	{"uptime", "(unsigned long)inc->uptime_s",
	 OOMLENS_INPUT(OOMLENS_IN_UPTIME)},
	{"constraint", "oomlens_constraint(inc)",
	 OOMLENS_INPUT(OOMLENS_IN_CONSTRAINT)},
	{"memcg", "NULL", 0},
	{"nodemask", "NULL", 0},
	{"mems_intersect", "t->mems_intersect != 0",
	 OOMLENS_INPUT(OOMLENS_IN_MEMS)},
	/* the RFC lab's boot switch, oom_rfc=posted by default */
	{"intended", "false", 0},
};

/* What was taken from the file. */
struct tree_unit {
	const char *src; /* the file's text */
	size_t n;
	const char *file; /* as the messages and #line name it */
	size_t entry; /* entries[] row */
	struct csrc_def def; /* the entry */
	struct csrc_def piece[TREE_MAX_PIECES]; /* entry, helpers, structs */
	size_t n_pieces;
	oomlens_inputs_t inputs;
	bool returns_unsigned;
	const char *args[TREE_MAX_PARAMS];
	size_t n_args;
	enum oomlens_tie tie;
};

static bool have_piece(const struct tree_unit *u, size_t start)
{
	for (size_t i = 0; i < u->n_pieces; i++)
		if (u->piece[i].start == start)
			return true;
	return false;
}

static char *dup_token(const struct csrc_lex *x, const struct csrc_tok *t,
		       char *buf, size_t size)
{
	size_t n = t->len < size - 1 ? t->len : size - 1;

	memcpy(buf, x->s + t->at, n);
	buf[n] = '\0';
	return buf;
}

static OOMLENS_MUST_CHECK struct oomlens_error *
add_piece(struct tree_unit *u, const struct csrc_def *d, unsigned depth);

/*
 * The static functions that d calls and the structs it names, that the
 * file defines: added (with theirs) before d.
 */
static struct oomlens_error *add_uses(struct tree_unit *u,
				      const struct csrc_def *d, unsigned depth)
{
	struct csrc_lex x;
	struct csrc_tok t, prev = {CSRC_EOF, 0, 0, 0};
	char name[64];

	csrc_lex_init(&x, u->src, d->end);
	x.i = d->start;
	x.line = d->line;
	while ((t = csrc_next(&x)).kind != CSRC_EOF) {
		struct csrc_def h;
		struct csrc_lex y = x;
		struct csrc_tok next = csrc_next(&y);
		struct oomlens_error *err = NULL;

		if (t.kind != CSRC_IDENT || t.at == d->name)
			goto next;
		dup_token(&x, &t, name, sizeof(name));
		if (csrc_is(&x, &prev, "struct")) {
			if (csrc_find_struct(u->src, u->n, name, &h))
				err = add_piece(u, &h, depth + 1);
		} else if (csrc_is(&y, &next, "(") &&
			   csrc_find_func(u->src, u->n, name, &h) &&
			   h.is_static) {
			err = add_piece(u, &h, depth + 1);
		}
		if (err)
			return err;
	next:
		prev = t;
	}
	return NULL;
}

static struct oomlens_error *add_piece(struct tree_unit *u,
				       const struct csrc_def *d, unsigned depth)
{
	if (have_piece(u, d->start))
		return NULL;
	if (u->n_pieces >= TREE_MAX_PIECES || depth > TREE_MAX_PIECES)
		return oomlens_error_new(OOMLENS_ERR_LIMIT,
					 "%s:%u: more than %d helpers", u->file,
					 d->line, TREE_MAX_PIECES);
	u->piece[u->n_pieces++] = *d;
	return add_uses(u, d, depth);
}

static int by_start(const void *a, const void *b)
{
	const struct csrc_def *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/* The inputs the pieces name (input_names[]). */
static void infer_inputs(struct tree_unit *u)
{
	for (size_t i = 0; i < u->n_pieces; i++) {
		struct csrc_lex x;
		struct csrc_tok t, prev = {CSRC_EOF, 0, 0, 0};

		csrc_lex_init(&x, u->src, u->piece[i].end);
		x.i = u->piece[i].start;
		while ((t = csrc_next(&x)).kind != CSRC_EOF) {
			bool member = csrc_is(&x, &prev, ".") ||
				      (csrc_is(&x, &prev, ">") && t.at >= 2 &&
				       u->src[prev.at - 1] == '-');

			for (size_t k = 0; k < N_INPUT_NAMES; k++)
				if (t.kind == CSRC_IDENT &&
				    (member || !input_names[k].field) &&
				    csrc_is(&x, &t, input_names[k].ident))
					u->inputs |= input_names[k].in;
			prev = t;
		}
	}
}

/* One parameter: its last identifier names it; a task_struct * is p. */
static struct oomlens_error *map_param(struct tree_unit *u, const char *name,
				       bool is_task, unsigned line)
{
	if (u->n_args >= TREE_MAX_PARAMS)
		return oomlens_error_new(OOMLENS_ERR_LIMIT,
					 "%s:%u: %s() has too many parameters",
					 u->file, line, entries[u->entry].name);
	if (is_task) {
		u->args[u->n_args++] = "&task";
		return NULL;
	}
	for (size_t k = 0; k < sizeof(param_names) / sizeof(param_names[0]);
	     k++)
		if (!strcmp(name, param_names[k].name)) {
			u->args[u->n_args++] = param_names[k].expr;
			u->inputs |= param_names[k].in;
			return NULL;
		}
	return oomlens_error_new(
		OOMLENS_ERR_MISSING,
		"%s:%u: %s() takes '%s', which --badness-from cannot pass "
		"(docs/badness-from.md)",
		u->file, line, entries[u->entry].name, name);
}

/* The entry's parameters and return type. */
static struct oomlens_error *read_signature(struct tree_unit *u)
{
	struct csrc_lex x;
	struct csrc_tok t, last = {CSRC_EOF, 0, 0, 0};
	unsigned depth = 0;
	bool task = false;
	char name[64] = "";

	csrc_lex_init(&x, u->src, u->def.body);
	x.i = u->def.start;
	x.line = u->def.line;
	while ((t = csrc_next(&x)).kind != CSRC_EOF && t.at < u->def.name)
		if (csrc_is(&x, &t, "unsigned"))
			u->returns_unsigned = true;
	while ((t = csrc_next(&x)).kind != CSRC_EOF) {
		struct oomlens_error *err;

		if (csrc_is(&x, &t, "(") && ++depth == 1)
			continue;
		if (csrc_is(&x, &t, ")") && --depth)
			continue;
		if (depth == 1 && t.kind == CSRC_IDENT) {
			task |= csrc_is(&x, &t, "task_struct");
			last = t;
			continue;
		}
		if (depth > 1 || !(depth == 0 || csrc_is(&x, &t, ",")))
			continue;
		if (last.kind == CSRC_IDENT && !csrc_is(&x, &last, "void")) {
			dup_token(&x, &last, name, sizeof(name));
			err = map_param(u, name, task, t.line);
			if (err)
				return err;
		}
		last.kind = CSRC_EOF;
		task = false;
		if (!depth)
			break;
	}
	return NULL;
}

/*
 * Which of equal maxima the tree's scan keeps: the last (in the table's
 * order) where oom_evaluate_task() skips only a lower score (`points <
 * oc->chosen_points`, 5.3+) or the RFC walks the list newest first with
 * a strict '>'; else the first.
 */
static enum oomlens_tie tree_tie(const char *src, size_t n)
{
	struct csrc_lex x;
	struct csrc_tok t, p[4] = {{CSRC_EOF, 0, 0, 0}};

	csrc_lex_init(&x, src, n);
	while ((t = csrc_next(&x)).kind != CSRC_EOF) {
		if (csrc_is(&x, &t, "for_each_process_reverse"))
			return OOMLENS_TIE_LAST_MAX;
		/* < oc - > chosen_points */
		if (csrc_is(&x, &t, "chosen_points") &&
		    csrc_is(&x, &p[0], ">") && csrc_is(&x, &p[1], "-") &&
		    p[2].kind == CSRC_IDENT && csrc_is(&x, &p[3], "<"))
			return OOMLENS_TIE_LAST_MAX;
		memmove(&p[1], &p[0], 3 * sizeof(p[0]));
		p[0] = t;
	}
	return OOMLENS_TIE_FIRST_MAX;
}

/* Finds the entry and everything it needs. */
static struct oomlens_error *take_function(struct tree_unit *u)
{
	struct oomlens_error *err;
	size_t i;

	for (i = 0; i < sizeof(entries) / sizeof(entries[0]); i++)
		if (csrc_find_func(u->src, u->n, entries[i].name, &u->def))
			break;
	if (i == sizeof(entries) / sizeof(entries[0]))
		return oomlens_error_new(
			OOMLENS_ERR_MISSING,
			"'%s' defines no __badness(), oom_badness() or "
			"badness()",
			u->file);
	u->entry = i;
	err = add_piece(u, &u->def, 0);
	if (err)
		return err;
	qsort(u->piece, u->n_pieces, sizeof(u->piece[0]), by_start);
	infer_inputs(u);
	u->tie = tree_tie(u->src, u->n);
	return read_signature(u);
}

/* The wrapper: the views into the shim's structs, the call, the score. */
static const char wrapper_head[] =
	"__thread struct oomlens_shim oomlens_shim;\n"
	"\n"
	"static __maybe_unused enum oom_constraint\n"
	"oomlens_constraint(const struct oomlens_incident_view *inc)\n"
	"{\n"
	"\tswitch (inc->constraint) {\n"
	"\tcase OOMLENS_CONSTRAINT_CPUSET: return CONSTRAINT_CPUSET;\n"
	"\tcase OOMLENS_CONSTRAINT_MEMORY_POLICY:\n"
	"\t\treturn CONSTRAINT_MEMORY_POLICY;\n"
	"\tcase OOMLENS_CONSTRAINT_MEMCG: return CONSTRAINT_MEMCG;\n"
	"\tcase OOMLENS_CONSTRAINT_LOWMEM: return CONSTRAINT_LOWMEM;\n"
	"\tdefault: return CONSTRAINT_NONE;\n"
	"\t}\n"
	"}\n"
	"\n"
	"static int64_t oomlens_score(const struct oomlens_incident_view *inc,\n"
	"\t\t\t     const struct oomlens_task_view *t)\n"
	"{\n"
	"\tstruct signal_struct sig = {0};\n"
	"\tstruct mm_struct mm = {0};\n"
	"\tstruct task_struct task = {0};\n"
	"\n"
	"\toomlens_shim.inc = inc;\n"
	"\toomlens_shim.t = t;\n"
	"\toomlens_shim.bug_line = 0;\n"
	"\tif ((OOMLENS_TREE_INPUTS & OOMLENS_INPUT(OOMLENS_IN_HZ)) &&\n"
	"\t    !inc->hz)\n"
	"\t\treturn OOMLENS_SCORE_INVALID;\n"
	"\tsig.oom_score_adj = (short)t->oom_score_adj;\n"
	"\tsig.oom_adj = t->oom_adj;\n"
	"\tmm.total_vm = (unsigned long)t->total_vm;\n"
	"\tmm.shared_vm = t->shared_vm;\n"
	"\tmm.rss_stat[MM_FILEPAGES] = t->rss_file;\n"
	"\tmm.rss_stat[MM_ANONPAGES] = t->rss_anon;\n"
	"\tmm.rss_stat[MM_SHMEMPAGES] = t->rss_shmem;\n"
	"\tmm.rss_stat[MM_SWAPENTS] = t->swapents;\n"
	"\tmm.oomlens_rss = (unsigned long)t->rss;\n"
	"\tmm.pgtables_bytes = (unsigned long)t->pgtables * PAGE_SIZE;\n"
	"\tmm._low_rss.counter = (long)t->low_rss;\n"
	"\tif (OOMLENS_TREE_INPUTS & OOMLENS_INPUT(OOMLENS_IN_QUIET))\n"
	"\t\tmm.last_vm_expansion =\n"
	"\t\t\tt->quiet_posted_s != t->quiet_s\n"
	"\t\t\t\t? jiffies /* posted: equal jiffies wrap */\n"
	"\t\t\t\t: jiffies - t->quiet_s * HZ;\n"
	"\ttask.pid = (pid_t)t->pid;\n"
	"\ttask.tgid = (pid_t)t->tgid;\n"
	"\ttask.mm = &mm;\n"
	"\ttask.signal = &sig;\n"
	"\ttask.start_time =\n"
	"\t\t(u64)(inc->uptime_s - t->run_time_s) * NSEC_PER_SEC;\n"
	"\ttask.utime = t->cpu_jiffies;\n"
	"\ttask.nice = t->nice;\n"
	"\ttask.oomlens_caps = t->caps;\n";

static const char wrapper_tail[] =
	"\n"
	"static const struct oomlens_model oomlens_tree_model = {\n"
	"\t.abi_version = OOMLENS_MODEL_ABI_VERSION,\n"
	"\t.size = sizeof(struct oomlens_model),\n"
	"\t.name = OOMLENS_TREE_NAME,\n"
	"\t.version = OOMLENS_TREE_VERSION,\n"
	"\t.tie = OOMLENS_TREE_TIE,\n"
	"\t.inputs = OOMLENS_TREE_INPUTS,\n"
	"\t.description = OOMLENS_TREE_DESCRIPTION,\n"
	"\t.score = oomlens_score,\n"
	"};\n"
	"\n"
	"__attribute__((visibility(\"default\"))) const struct oomlens_model *\n"
	"oomlens_model_v1(void);\n"
	"const struct oomlens_model *oomlens_model_v1(void)\n"
	"{\n"
	"\treturn &oomlens_tree_model;\n"
	"}\n";

/* A C string literal of s (a path or a name): only printable ASCII. */
static void add_c_string(struct strbuf *sb, const char *s)
{
	strbuf_adds(sb, "\"");
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			strbuf_addf(sb, "\\%c", *s);
		else if (*s < ' ' || *s > '~')
			strbuf_addf(sb, "\\%03o", (unsigned char)*s);
		else
			strbuf_add(sb, s, 1);
	}
	strbuf_adds(sb, "\"");
}

/* The call of the entry and the conversion of what it returns. */
static void add_call(struct strbuf *sb, const struct tree_unit *u)
{
	strbuf_addf(sb, "\t%s r = %s(",
		    u->returns_unsigned ? "unsigned long" : "long",
		    entries[u->entry].name);
	for (size_t i = 0; i < u->n_args; i++)
		strbuf_addf(sb, "%s%s", i ? ", " : "", u->args[i]);
	strbuf_adds(sb, ");\n\n\tif (oomlens_shim.bug_line)\n"
			"\t\treturn OOMLENS_SCORE_INVALID;\n");
	if (u->returns_unsigned)
		strbuf_adds(sb, "\treturn r > (unsigned long)INT64_MAX ? "
				"INT64_MAX : (int64_t)r;\n}\n");
	else
		strbuf_adds(sb, "\treturn r == LONG_MIN ? "
				"OOMLENS_SCORE_INELIGIBLE : (int64_t)r;\n}\n");
}

/*
 * The model's version: a number from the text of the pieces (the entry,
 * its helpers and structs), so that a tree edited under the same name is
 * a new version, whose verdicts rescore stores without --force, while an
 * edit elsewhere in the file changes nothing. 1..2^28.
 */
static int source_version(const struct tree_unit *u)
{
	struct content_digest *d = content_digest_start();
	char hex[CONTENT_DIGEST_HEX];
	unsigned long v;

	if (!d)
		return 1; /* out of memory: the file's own hash still keys it */
	for (size_t i = 0; i < u->n_pieces; i++)
		content_digest_add(d, u->src + u->piece[i].start,
				   u->piece[i].end - u->piece[i].start);
	if (!content_digest_end(d, hex))
		return 1;
	hex[7] = '\0';
	v = strtoul(hex, NULL, 16);
	return (int)v + 1;
}

/*
 * The unit: the shim, the pieces each under the #line of its place in
 * the file (so that cc's messages name the tree's lines), the wrapper.
 * key: the content hash the object will carry, filled in after (the
 * hash is of the unit without it).
 */
static struct oomlens_error *write_unit(struct strbuf *sb,
					const struct tree_unit *u,
					const char *name,
					const char *description)
{
	strbuf_adds(sb, "/* written by oomlens --badness-from; see "
			"docs/badness-from.md */\n");
	strbuf_adds(sb, shim_text);
	strbuf_adds(sb, "#define OOMLENS_TREE_NAME ");
	add_c_string(sb, name);
	strbuf_adds(sb, "\n#define OOMLENS_TREE_DESCRIPTION ");
	add_c_string(sb, description);
	strbuf_addf(sb, "\n#define OOMLENS_TREE_VERSION %d\n",
		    source_version(u));
	strbuf_addf(sb, "#define OOMLENS_TREE_TIE %d\n", (int)u->tie);
	strbuf_addf(sb,
		    "#define OOMLENS_TREE_INPUTS ((oomlens_inputs_t)%#llx)\n",
		    (unsigned long long)u->inputs);
	for (size_t i = 0; i < u->n_pieces; i++) {
		const struct csrc_def *d = &u->piece[i];

		strbuf_addf(sb, "#line %u ", d->line);
		add_c_string(sb, u->file);
		strbuf_adds(sb, "\n");
		strbuf_add(sb, u->src + d->start, d->end - d->start);
		strbuf_adds(sb, "\n");
	}
	strbuf_adds(sb, "#line 1 \"<oomlens --badness-from wrapper>\"\n");
	strbuf_adds(sb, wrapper_head);
	add_call(sb, u);
	strbuf_adds(sb, wrapper_tail);
	return strbuf_error(sb);
}

/* The whole of a file, up to max bytes; caller frees *text. */
static struct oomlens_error *read_all(const char *path, size_t max, char **text,
				      size_t *n)
{
	struct strbuf sb = STRBUF_INIT(max);
	char block[65536];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t got;

	if (fd < 0)
		return oomlens_error_errno(OOMLENS_ERR_IO, errno,
					   "cannot open '%s'", path);
	while ((got = read(fd, block, sizeof(block))) > 0)
		if (strbuf_add(&sb, block, (size_t)got))
			break;
	close(fd);
	if (got < 0) {
		strbuf_release(&sb);
		return oomlens_error_new(OOMLENS_ERR_IO, "cannot read '%s'",
					 path);
	}
	if (strbuf_error(&sb)) {
		strbuf_release(&sb);
		return oomlens_error_new(OOMLENS_ERR_LIMIT,
					 "'%s' is larger than %zu bytes", path,
					 max);
	}
	*text = strbuf_detach(&sb, n);
	return NULL;
}

/* "VERSION = 6" of a Makefile's first lines: the number, or -1. */
static long makefile_number(const char *mk, const char *var)
{
	size_t n = strlen(var);

	for (const char *l = mk; l && *l;
	     l = strchr(l, '\n'), l = l ? l + 1 : l)
		if (!strncmp(l, var, n) && (l[n] == ' ' || l[n] == '=')) {
			const char *p = l + n;
			long v = 0;

			while (*p == ' ' || *p == '=')
				p++;
			if (*p < '0' || *p > '9')
				return -1;
			while (*p >= '0' && *p <= '9' && v < 100000)
				v = v * 10 + (*p++ - '0');
			return v;
		}
	return -1;
}

/* name = "tree:V.P.S" of the tree's Makefile; false without one. */
static bool tree_version(const char *root, char *name, size_t size)
{
	char path[PATH_MAX], *mk = NULL;
	size_t n;
	long v, p, s;
	struct oomlens_error *err;

	if ((size_t)snprintf(path, sizeof(path), "%s/Makefile", root) >=
	    sizeof(path))
		return false;
	err = read_all(path, 1u << 20, &mk, &n);
	if (err) {
		oomlens_error_free(err);
		return false;
	}
	v = makefile_number(mk, "VERSION");
	p = makefile_number(mk, "PATCHLEVEL");
	s = makefile_number(mk, "SUBLEVEL");
	free(mk);
	if (v < 0 || p < 0)
		return false;
	snprintf(name, size, "tree:%ld.%ld.%ld", v, p, s < 0 ? 0 : s);
	return true;
}

/*
 * path: a tree (its mm/oom_kill.c) or the file itself; root: the tree
 * around the file (two levels up from mm/oom_kill.c, else its directory).
 */
static struct oomlens_error *locate(const char *path, char *file, char *root)
{
	struct stat st;
	const char *tail = "mm/oom_kill.c";
	size_t n = strlen(path), k = strlen(tail);

	if (stat(path, &st))
		return oomlens_error_errno(OOMLENS_ERR_IO, errno,
					   "cannot open '%s'", path);
	if (n + k + 2 >= PATH_MAX)
		return oomlens_error_new(OOMLENS_ERR_USAGE,
					 "path too long: '%s'", path);
	if (S_ISDIR(st.st_mode)) {
		snprintf(file, PATH_MAX, "%s/%s", path, tail);
		snprintf(root, PATH_MAX, "%s", path);
		return NULL;
	}
	snprintf(file, PATH_MAX, "%s", path);
	snprintf(root, PATH_MAX, "%s", path);
	if (n >= k && !strcmp(path + n - k, tail) &&
	    (n == k || path[n - k - 1] == '/'))
		root[n - k] = '\0';
	else if (strrchr(root, '/'))
		strrchr(root, '/')[1] = '\0';
	else
		snprintf(root, PATH_MAX, ".");
	if (!root[0])
		snprintf(root, PATH_MAX, ".");
	return NULL;
}

/* A valid model name: 1..31 of [a-z0-9.:-]. */
static bool good_name(const char *s)
{
	size_t n = strlen(s);

	if (!n || n > 31)
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') ||
		      *s == '.' || *s == '-' || *s == ':'))
			return false;
	return true;
}

/* ---- the cache, and cc */

/* Is dir a directory of ours that nobody else may write? */
static bool private_dir(const char *dir)
{
	struct stat st;

	return !lstat(dir, &st) && S_ISDIR(st.st_mode) &&
	       st.st_uid == geteuid() && !(st.st_mode & 022);
}

/* mkdir (0700) if missing, then private_dir(). */
static bool make_private_dir(const char *dir)
{
	if (mkdir(dir, 0700) && errno != EEXIST)
		return false;
	return private_dir(dir);
}

/*
 * dir = $XDG_CACHE_HOME/oomlens/badness-from (or ~/.cache/...), made if
 * need be; false when it cannot be made or is not private.
 */
static bool cache_dir(char *dir, size_t size)
{
	const char *xdg = getenv("XDG_CACHE_HOME");
	const char *home = getenv("HOME");
	char base[PATH_MAX];

	if (xdg && xdg[0] == '/')
		snprintf(base, sizeof(base), "%s", xdg);
	else if (home && home[0] == '/')
		snprintf(base, sizeof(base), "%s/.cache", home);
	else
		return false;
	if (mkdir(base, 0700) && errno != EEXIST)
		return false;
	if ((size_t)snprintf(dir, size, "%s/oomlens", base) >= size ||
	    !make_private_dir(dir))
		return false;
	if ((size_t)snprintf(dir, size, "%s/oomlens/badness-from", base) >=
	    size)
		return false;
	return make_private_dir(dir);
}

/*
 * Does the cached object at so hold what key was built into, and is it a
 * regular file of ours that nobody else may write?
 */
static bool cached_object_good(const char *so, const char *key)
{
	char mark[CONTENT_DIGEST_HEX + 32], *text = NULL;
	struct stat st;
	size_t n;
	bool good;
	int fd = open(so, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0)
		return false;
	good = !fstat(fd, &st) && S_ISREG(st.st_mode) &&
	       st.st_uid == geteuid() && !(st.st_mode & 022) &&
	       st.st_size < (off_t)TREE_MAX_SOURCE;
	close(fd);
	if (!good)
		return false;
	snprintf(mark, sizeof(mark), "%s%s", TREE_KEY_MARK, key);
	if (read_all(so, TREE_MAX_SOURCE, &text, &n))
		return false; /* LIMIT or IO: static enough to drop */
	good = memmem(text, n, mark, strlen(mark)) != NULL;
	free(text);
	return good;
}

/* Writes n bytes to a new file path (mode 0600). */
static struct oomlens_error *write_new(const char *path, const char *data,
				       size_t n)
{
	int fd = open(path,
		      O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC,
		      0600);
	bool ok;

	if (fd < 0)
		return oomlens_error_errno(OOMLENS_ERR_IO, errno,
					   "cannot create '%s'", path);
	ok = fd_io_all(fd, (void *)data, n, true);
	if (close(fd) || !ok) {
		unlink(path);
		return oomlens_error_new(OOMLENS_ERR_IO, "cannot write '%s'",
					 path);
	}
	return NULL;
}

/* cc, or $CC when it is one word. */
static const char *compiler(void)
{
	const char *cc = getenv("CC");

	return cc && *cc && !strpbrk(cc, " \t") ? cc : "cc";
}

/*
 * Runs cc on src into out, its messages into diag. The kernel builds
 * with -fno-strict-overflow and -fno-strict-aliasing, and so does this;
 * a name the shim lacks is an error, not an implicit int.
 */
static struct oomlens_error *run_cc(const char *src, const char *out,
				    const char *diag, int *status)
{
	const char *argv[] = {compiler(),
			      "-std=gnu11",
			      "-O2",
			      "-fPIC",
			      "-shared",
			      "-fno-strict-overflow",
			      "-fno-strict-aliasing",
			      "-fvisibility=hidden",
			      "-Werror=implicit-function-declaration",
			      "-Werror=implicit-int",
			      "-Werror=int-conversion",
			      "-Werror=incompatible-pointer-types",
			      "-Werror=return-type",
			      "-o",
			      out,
			      src,
			      NULL};
	pid_t pid = fork();

	if (pid < 0)
		return oomlens_error_errno(OOMLENS_ERR_IO, errno,
					   "cannot run %s", argv[0]);
	if (!pid) {
		int fd = open(diag, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
			      0600);

		if (fd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
			_exit(126);
		setenv("LC_ALL", "C", 1);
		execvp(argv[0], (char *const *)argv);
		_exit(127);
	}
	while (waitpid(pid, status, 0) < 0)
		if (errno != EINTR)
			return oomlens_error_errno(OOMLENS_ERR_IO, errno,
						   "cannot wait for %s",
						   argv[0]);
	if (WIFEXITED(*status) && WEXITSTATUS(*status) >= 126)
		return oomlens_error_new(OOMLENS_ERR_MISSING,
					 "cannot run '%s': --badness-from "
					 "needs a C compiler",
					 argv[0]);
	return NULL;
}

/* The text between the first pair of quotes of msg, into q. */
static bool quoted(const char *msg, char *q, size_t size)
{
	const char *a = strchr(msg, '\''), *b = a ? strchr(a + 1, '\'') : NULL;

	if (!b || (size_t)(b - a - 1) >= size)
		return false;
	memcpy(q, a + 1, (size_t)(b - a - 1));
	q[b - a - 1] = '\0';
	return true;
}

/*
 * cc's first error as oomlens's: a name the shim does not provide names
 * it and the tree's line (MISSING); anything else is cc's message with
 * its place (CORRUPT).
 */
static struct oomlens_error *diagnose(const struct tree_unit *u, char *diag)
{
	char *line = strstr(diag, ": error: "), *start, *eol, *member;
	char what[96];
	const char *fn = entries[u->entry].name;

	if (!line)
		return oomlens_error_new(OOMLENS_ERR_CORRUPT,
					 "%s: cc failed on %s(): %.300s",
					 u->file, fn, diag);
	*line = '\0';
	start = strrchr(diag, '\n') ? strrchr(diag, '\n') + 1 : diag;
	line += strlen(": error: ");
	eol = strchr(line, '\n');
	if (eol)
		*eol = '\0';
	/* FILE:LINE:COL: drop the column */
	if (strrchr(start, ':'))
		*strrchr(start, ':') = '\0';
	/* "'struct mm_struct' has no member named 'foo'": foo */
	member = strstr(line, "has no member named '");
	if (member) {
		member = strchr(member, '\'');
		if (!quoted(member, what, sizeof(what)))
			member = NULL;
	}
	if (strstr(line, " [-W"))
		*strstr(line, " [-W") = '\0';
	if ((member || quoted(line, what, sizeof(what))) &&
	    (strstr(line, "implicit declaration of function") ||
	     strstr(line, "undeclared") || strstr(line, "unknown type name") ||
	     strstr(line, "has no member named") ||
	     strstr(line, "incomplete type")))
		return oomlens_error_new(
			OOMLENS_ERR_MISSING,
			"%s: %s() uses '%s', which the kernel shim of "
			"--badness-from does not provide (cc: %s; "
			"docs/badness-from.md)",
			start, fn, what, line);
	return oomlens_error_new(OOMLENS_ERR_CORRUPT, "%s: cc: %s", start,
				 line);
}

/* Compiles unit (src_path) into so, through a temporary name. */
static struct oomlens_error *compile(const struct tree_unit *u, const char *dir,
				     const char *key, const struct strbuf *unit,
				     char *so)
{
	char src[PATH_MAX], tmp[PATH_MAX], diag[PATH_MAX], *text = NULL;
	struct oomlens_error *err;
	int status = 0;
	size_t n;

	snprintf(src, sizeof(src), "%s/%s.c", dir, key);
	snprintf(tmp, sizeof(tmp), "%s/%s.so.%ld", dir, key, (long)getpid());
	snprintf(diag, sizeof(diag), "%s/%s.log.%ld", dir, key, (long)getpid());
	err = write_new(src, unit->buf, unit->len);
	if (!err)
		err = run_cc(src, tmp, diag, &status);
	if (!err && !(WIFEXITED(status) && !WEXITSTATUS(status))) {
		err = read_all(diag, TREE_MAX_DIAG, &text, &n);
		if (!err)
			err = diagnose(u, text);
		free(text);
	}
	if (!err && rename(tmp, so))
		err = oomlens_error_errno(OOMLENS_ERR_IO, errno,
					  "cannot rename '%s'", tmp);
	unlink(diag);
	unlink(tmp);
	return err;
}

/* The object of key: from the cache, else built there or privately. */
static struct oomlens_error *place_object(const struct tree_unit *u,
					  const char *key,
					  const struct strbuf *unit,
					  struct tree_model *m)
{
	char dir[PATH_MAX];
	const char *tmp = getenv("TMPDIR");
	struct oomlens_error *err;

	if (cache_dir(dir, sizeof(dir))) {
		if ((size_t)snprintf(m->so, sizeof(m->so), "%s/%s.so", dir,
				     key) >= sizeof(m->so))
			return oomlens_error_new(OOMLENS_ERR_LIMIT,
						 "cache path too long: '%s'",
						 dir);
		if (cached_object_good(m->so, key)) {
			m->cached = true;
			return NULL;
		}
		unlink(m->so);
		err = compile(u, dir, key, unit, m->so);
		if (!err || err->code != OOMLENS_ERR_IO)
			return err; /* built, or the tree's own error */
		oomlens_error_free(err);
	}
	/* no usable cache: a private directory, removed after loading */
	snprintf(m->tmpdir, sizeof(m->tmpdir), "%s/oomlens-tree.XXXXXX",
		 tmp && tmp[0] == '/' ? tmp : "/tmp");
	if (!mkdtemp(m->tmpdir))
		return oomlens_error_errno(OOMLENS_ERR_IO, errno,
					   "cannot create '%s'", m->tmpdir);
	m->temporary = true;
	if ((size_t)snprintf(m->so, sizeof(m->so), "%s/%s.so", m->tmpdir,
			     key) >= sizeof(m->so))
		return oomlens_error_new(OOMLENS_ERR_LIMIT,
					 "path too long: '%s'", m->tmpdir);
	return compile(u, m->tmpdir, key, unit, m->so);
}

/* The model's name: --model-name's, the tree's version, or the hash's. */
static struct oomlens_error *model_name(const char *name, const char *root,
					const struct tree_unit *u, char *out,
					size_t size)
{
	char hex[CONTENT_DIGEST_HEX];

	if (name) {
		if (!good_name(name))
			return oomlens_error_new(
				OOMLENS_ERR_USAGE,
				"bad model name '%s': 1 to 31 of a-z, 0-9, "
				"'.', ':' and '-'",
				name);
		snprintf(out, size, "%s", name);
	} else if (!tree_version(root, out, size)) {
		content_digest_bytes(u->src, u->n, hex);
		snprintf(out, size, "tree:%.8s", hex);
	}
	return NULL;
}

struct oomlens_error *tree_model_build(const char *path, const char *name,
				       struct tree_model *out)
{
	struct tree_model m;
	struct tree_unit u;
	struct strbuf unit = STRBUF_INIT(TREE_MAX_UNIT);
	char root[PATH_MAX], key[CONTENT_DIGEST_HEX], *src = NULL;
	char desc[PATH_MAX + 64];
	struct oomlens_error *err;

	memset(&m, 0, sizeof(m));
	memset(&u, 0, sizeof(u));
	err = locate(path, m.file, root);
	if (!err)
		err = read_all(m.file, TREE_MAX_SOURCE, &src, &u.n);
	if (err)
		return err;
	u.src = src;
	u.file = m.file;
	err = take_function(&u);
	if (!err)
		err = model_name(name, root, &u, m.name, sizeof(m.name));
	if (err)
		goto out;
	snprintf(desc, sizeof(desc), "%s() of %s:%u", entries[u.entry].name,
		 m.file, u.def.line);
	err = write_unit(&unit, &u, m.name, desc);
	if (err)
		goto out;
	content_digest_bytes(unit.buf, unit.len, key);
	strbuf_addf(&unit,
		    "\n__attribute__((used)) static const char "
		    "oomlens_tree_key[] = \"%s%s\";\n",
		    TREE_KEY_MARK, key);
	err = strbuf_error(&unit);
	if (!err)
		err = place_object(&u, key, &unit, &m);
	if (err)
		goto out;
	snprintf(m.function, sizeof(m.function), "%s", entries[u.entry].name);
	m.line = u.def.line;
	m.inputs = u.inputs;
	*out = m;
out:
	strbuf_release(&unit);
	free(src);
	return err;
}

void tree_model_release(struct tree_model *t)
{
	char src[PATH_MAX];
	size_t n = strlen(t->so);

	if (!t->temporary)
		return;
	/* KEY.so and the unit KEY.c beside it */
	snprintf(src, sizeof(src), "%.*s.c", (int)(n > 3 ? n - 3 : 0), t->so);
	unlink(src);
	unlink(t->so);
	rmdir(t->tmpdir);
	t->temporary = false;
}
