// SPDX-License-Identifier: MIT
/*
 * What the kernel itself chose in an incident, for the runners to compare
 * their victims with: its selected or killed pid, or the rule it followed
 * instead of its badness (oom_kill_allocating_task, panic_on_oom, no
 * killable task, a report cut before the kill).
 *
 * Invariants: pure; reads the incident only; calls nothing in analyzer/.
 */
#include "analyzer/internal.h"

#include <string.h>

#include "core/banned.h"

size_t analyzer_row_of_pid(const struct oom_incident *inc, int64_t pid)
{
	size_t i;

	for (i = 0; i < inc->n_tasks; i++)
		if (inc->tasks[i].col[TASK_PID] == pid)
			return i;
	return inc->n_tasks;
}

/* Does a kill or selection message name the allocating-task rule? */
static bool allocating_task_rule(const char *message)
{
	return message && strstr(message, "(oom_kill_allocating_task)");
}

const char *analyzer_kernel_rule(const struct oom_incident *inc)
{
	const struct oom_kill *k = oom_incident_victim(inc);

	if ((inc->selected.present &&
	     allocating_task_rule(inc->selected.message)) ||
	    (k && allocating_task_rule(k->message)))
		return "oom_kill_allocating_task";
	if (inc->selected.present || k)
		return NULL;
	if (inc->panic && strstr(inc->panic, "panic_on_oom"))
		return "panic_on_oom";
	if (inc->no_killable || inc->panic)
		return inc->trigger.order == -1 ? "sysrq: no eligible task"
						: "no killable task";
	return "report cut before kill";
}

size_t analyzer_kernel_row(const struct oom_incident *inc, const bool *cand)
{
	size_t n = inc->n_tasks, row = n;

	if (analyzer_kernel_rule(inc))
		return n;
	if (inc->selected.present)
		row = analyzer_row_of_pid(inc, inc->selected.pid);
	if ((row == n || !cand[row]) && inc->has_victim)
		row = analyzer_row_of_pid(inc, inc->kills[0].pid);
	return row < n && cand[row] ? row : n;
}

bool analyzer_is_kernels_choice(const struct oom_incident *inc, int64_t pid)
{
	if (analyzer_kernel_rule(inc))
		return false;
	return (inc->selected.present && inc->selected.pid == pid) ||
	       (inc->has_victim && inc->kills[0].pid == pid);
}
