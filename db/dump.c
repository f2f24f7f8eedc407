// SPDX-License-Identifier: MIT
/* What a vmcore read of each process, stored beside its incident. */
#include "db/internal.h"

#include <stdio.h>

#include "core/banned.h"

struct oomlens_error *db_store_dump_fields(struct db *db, int64_t incident_id,
					   const struct dump_state *d,
					   const char *vmcore)
{
	static const char sql[] =
		"INSERT OR REPLACE INTO task_dump_fields"
		" (incident_id, pid, field, value, provenance)"
		" VALUES (?, ?, ?, ?, ?)";
	struct oomlens_error *err;
	sqlite3_stmt *st = NULL;
	char read[600], derived[600], unreadable[600];

	err = db_stmt(db, DB_ST_DUMP_FIELD, sql, &st);
	if (err)
		return err;
	snprintf(read, sizeof(read), "read from %s", vmcore);
	snprintf(derived, sizeof(derived), "derived from %s", vmcore);
	snprintf(unreadable, sizeof(unreadable), "unreadable in %s", vmcore);
	for (size_t i = 0; i < d->n_tasks && !err; i++) {
		const struct dump_task *t = &d->tasks[i];
		struct db_bind b;

		if (t->f[DT_TGID].prov != DUMP_READ)
			continue;
		db_bind_start(&b, st, 0);
		db_bind_int(&b, incident_id);
		db_bind_int(&b, t->f[DT_TGID].v);
		db_bind_str(&b, "comm");
		b.i++;
		db_bind_rc(&b, sqlite3_bind_text(st, b.i, t->comm, -1,
						 SQLITE_STATIC));
		db_bind_str(&b, read);
		err = db_step_done(db, &b, st);
		for (int f = 0; f < DT_FIELD_COUNT && !err; f++) {
			const struct dump_val *x = &t->f[f];

			if (x->prov == DUMP_ABSENT)
				continue;
			db_bind_start(&b, st, 0);
			db_bind_int(&b, incident_id);
			db_bind_int(&b, t->f[DT_TGID].v);
			db_bind_str(&b, dump_task_field_info[f].name);
			db_bind_int(&b, x->prov == DUMP_UNREADABLE
						? OOM_VAL_NONE
						: x->v);
			db_bind_str(&b, x->prov == DUMP_READ	  ? read
					: x->prov == DUMP_DERIVED ? derived
								  : unreadable);
			err = db_step_done(db, &b, st);
		}
	}
	return err;
}
