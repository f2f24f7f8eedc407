// SPDX-License-Identifier: MIT
/*
 * A deliberately bad model plugin for tests/e2e-plugins.sh, one way of
 * misbehaving per -DBAD_...: it crashes, loops, aborts, scores
 * OOMLENS_SCORE_INVALID, declares another ABI version, or (in an isolated
 * worker) sends its parent a verdict naming a task not in the table.
 * Otherwise it is a largest-rss model.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "include/oomlens/model.h"
#include "model/verdict.h"

#ifndef NAME
#define NAME "bad"
#endif

/* cli/plugin.c's reply record, forged */
struct forged_reply {
	uint32_t magic;
	int32_t status;
	char message[160];
	struct verdict v;
};

static void forge(void)
{
	static struct forged_reply r;
	struct stat st;

	r.magic = 0x6f6f6d70u;
	strcpy(r.v.model, NAME);
	r.v.model_version = 1;
	r.v.has_victim = true;
	r.v.victim.pid = 999999;
	for (int fd = 3; fd < 64; fd++)
		if (!fstat(fd, &st) && S_ISFIFO(st.st_mode))
			(void)!write(fd, &r, sizeof(r));
	_exit(0);
}

static int64_t score(const struct oomlens_incident_view *inc,
		     const struct oomlens_task_view *t)
{
	(void)inc;
#if defined(BAD_SEGV)
	if (t->rss >= 0)
		raise(SIGSEGV);
#elif defined(BAD_LOOP)
	for (volatile int64_t i = 0; t->rss >= 0; i++)
		;
#elif defined(BAD_ABORT)
	abort();
#elif defined(BAD_INVALID)
	return OOMLENS_SCORE_INVALID;
#elif defined(BAD_FORGE)
	forge();
#endif
	return t->rss;
}

static const struct oomlens_model model = {
#ifdef BAD_ABI
	.abi_version = 99,
#else
	.abi_version = OOMLENS_MODEL_ABI_VERSION,
#endif
	.size = sizeof(struct oomlens_model),
	.name = NAME,
	.version = 1,
	.tie = OOMLENS_TIE_FIRST_MAX,
	.inputs = OOMLENS_INPUT(OOMLENS_IN_RSS),
	.score = score,
};

const struct oomlens_model *ENTRY(void);

const struct oomlens_model *ENTRY(void)
{
	return &model;
}
