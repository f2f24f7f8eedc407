/* SPDX-License-Identifier: MIT */
#ifndef OOMLENS_CLI_TREEMODEL_H
#define OOMLENS_CLI_TREEMODEL_H

/*
 * --badness-from PATH (docs/badness-from.md): a kernel tree's own badness
 * function, as it is written, made into a model plugin
 * (include/oomlens/model.h). cli/treemodel.c takes the function the
 * tree's OOM scan calls (__badness() of the 2009 RFC, oom_badness() from
 * 2.6.36, badness() before) out of its mm/oom_kill.c with the static
 * helpers and structs it uses, writes one C unit of it, the kernel shim
 * (cli/treeshim/kernel.h) and a wrapper from the plugin's views to the
 * function's arguments, and compiles that with the system's cc into a
 * shared object, cached by the content hash of the unit. The plugin
 * loader (cli/plugin.c) loads the object like any --model-plugin.
 */

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/error.h"

struct tree_model {
	char so[PATH_MAX]; /* the plugin object, to load */
	char name[32]; /* the model's name: tree:6.1.192, or --model-name */
	char function[32]; /* "oom_badness" */
	char file[PATH_MAX]; /* the mm/oom_kill.c read */
	unsigned line; /* the function's line in it */
	uint64_t inputs; /* OOMLENS_INPUT() bits the function reads */
	bool cached; /* so was in the cache already */
	bool temporary; /* so is in a private temporary directory (the cache
			   was unusable): tree_model_release() removes it */
	char tmpdir[PATH_MAX];
};

/*
 * Build (or find in the cache) the model of the kernel tree or
 * mm/oom_kill.c at path. name: the model's name, or NULL for
 * "tree:VERSION.PATCHLEVEL.SUBLEVEL" from the tree's Makefile (or
 * "tree:" and the unit's hash without one). Errors: IO naming the file;
 * MISSING when the file has no badness function, or the function uses a
 * kernel name the shim does not provide ("mm/oom_kill.c:232: ... uses
 * 'foo', which the kernel shim does not provide"); CORRUPT for any other
 * error cc reports, with its file and line; USAGE for a bad name; NOMEM.
 * out is written on success only.
 */
OOMLENS_MUST_CHECK struct oomlens_error *
tree_model_build(const char *path, const char *name, struct tree_model *out);

/* Removes a temporary object (after it was loaded); t stays valid. */
void tree_model_release(struct tree_model *t);

#endif
