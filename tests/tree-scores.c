// SPDX-License-Identifier: MIT
/*
 * tests/tree-scores: the --badness-from object of a kernel tree against
 * the built-in formula it must equal, score by score, over a grid of
 * inputs (run by tests/e2e-tree.sh; `make check-tree` runs it on the
 * whole linux-source-6.1 tree).
 *
 *   tree-scores 5.9 TREE    oom_badness() of TREE vs mainline-5.9
 *   tree-scores rfc TREE    __badness() of TREE vs rfc-2009-as-posted
 *   tree-scores build TREE [NAME]   build only: print name, inputs, so
 *
 * Exit 0 when every score equals, 1 at the first that does not (printed),
 * 2 when the tree cannot be built (the error printed).
 */
#include <dlfcn.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "analyzer/analyzer.h"
#include "cli/treemodel.h"
#include "include/oomlens/model.h"

static const int64_t sizes[] = {
	0, 1, 7, 999, 1000, 4096, 123457, 2097152, (int64_t)1 << 33};
static const int32_t adjs[] = {-1000, -999, -500, -1, 0, 1, 300, 999, 1000};
#define N(a) (sizeof(a) / sizeof((a)[0]))

static int check_5_9(const struct oomlens_model *m)
{
	struct oomlens_incident_view inc = {sizeof(inc), 4};
	struct oomlens_task_view t = {sizeof(t)};
	size_t n = 0;

	for (size_t a = 0; a < N(sizes); a++)
		for (size_t b = 0; b < N(sizes); b++)
			for (size_t c = 0; c < N(adjs); c++)
				for (size_t d = 1; d < N(sizes); d++) {
					struct mainline_counts k = {0};
					int64_t want, got;

					t.rss = k.rss = sizes[a];
					t.swapents = k.swapents = sizes[b];
					t.pgtables = k.pgtables_pages =
						sizes[(a + b) % N(sizes)] / 512;
					t.oom_score_adj = adjs[c];
					t.pid = t.tgid = 100;
					inc.totalpages = sizes[d];
					want = mainline_badness(
						MAINLINE_5_9,
						mainline_base_pages(
							MAINLINE_5_9, &k),
						adjs[c], false, sizes[d]);
					got = m->score(&inc, &t);
					n++;
					if (got != want) {
						printf("differs: rss %" PRId64
						       " swap %" PRId64
						       " pt %" PRId64
						       " adj %d T %" PRId64
						       ": tree %" PRId64
						       ", mainline-5.9 %" PRId64
						       "\n",
						       t.rss, t.swapents,
						       t.pgtables, adjs[c],
						       sizes[d], got, want);
						return 1;
					}
				}
	printf("%zu scores equal mainline-5.9's\n", n);
	return 0;
}

int main(int argc, char **argv)
{
	struct tree_model tm;
	struct oomlens_error *err;
	const struct oomlens_model *m;
	oomlens_model_entry_fn entry;
	void *h;
	bool temporary;

	if (argc < 3)
		return 2;
	err = tree_model_build(argv[2], argc > 3 ? argv[3] : NULL, &tm);
	if (err) {
		printf("error: %s\n", err->message);
		oomlens_error_free(err);
		return 2;
	}
	h = dlopen(tm.so, RTLD_NOW | RTLD_LOCAL);
	temporary = tm.temporary;
	tree_model_release(&tm);
	if (!h) {
		printf("error: %s\n", dlerror());
		return 2;
	}
	entry = (oomlens_model_entry_fn)dlsym(h, OOMLENS_MODEL_ENTRY);
	m = entry ? entry() : NULL;
	if (!m || m->abi_version != OOMLENS_MODEL_ABI_VERSION) {
		printf("error: no model in %s\n", tm.so);
		return 2;
	}
	printf("%s: %s, inputs %#" PRIx64 ", tie %u, %s%s\n", m->name,
	       m->description, (uint64_t)m->inputs, m->tie,
	       tm.cached ? "cached" : "built", temporary ? " (temporary)" : "");
	if (!strcmp(argv[1], "5.9"))
		return check_5_9(m);
	return 0;
}
