// SPDX-License-Identifier: MIT
/*
 * The incident, kill and event rows bound and read by walking the field
 * tables of model/fields.h: db/store.c binds them with db_bind_fields(),
 * db/load.c reads them back from SQL that db_fields_stmt() builds from the
 * same table, so a field cannot be stored in one column and read from
 * another.
 *
 * Invariant: every column a table names exists in the schema's latest
 * migration (db/migrations.c); a new field of the model needs a migration
 * first, then a row in model/fields.c.
 */
#include "db/internal.h"

#include <stddef.h>

#include "core/strbuf.h"
#include "core/banned.h"

void db_bind_fields(struct db_bind *b, const struct field_table *t,
		    const void *base)
{
	for (size_t i = 0; i < t->n; i++) {
		const struct field *f = &t->rows[i];

		if (!f->column)
			continue;
		if (f->type == FIELD_DOUBLE)
			db_bind_real(b, field_double(f, base),
				     field_known(f, base));
		else if (field_is_text(f))
			db_bind_str(b, field_str(f, base));
		else
			db_bind_int(b, field_int(f, base));
	}
}

int db_cells_fields(struct db_cell *v, const struct field_table *t,
		    const void *base)
{
	int n = 0;

	for (size_t i = 0; i < t->n; i++) {
		const struct field *f = &t->rows[i];

		if (!f->column)
			continue;
		if (f->type == FIELD_DOUBLE)
			db_rows_cell_real(&v[n++], field_double(f, base),
					  field_known(f, base));
		else if (field_is_text(f))
			db_rows_cell_str(&v[n++], field_str(f, base));
		else
			db_rows_cell_int(&v[n++], field_int(f, base));
	}
	return n;
}

int db_fields_ncol(const struct field_table *t)
{
	int n = 0;

	for (size_t i = 0; i < t->n; i++)
		n += t->rows[i].column != NULL;
	return n;
}

/* ", <prefix>c1, <prefix>c2..." of a field table's stored columns. */
static OOMLENS_MUST_CHECK struct oomlens_error *
columns(struct strbuf *sb, const char *col_prefix, const struct field_table *t)
{
	struct oomlens_error *err = NULL;

	for (size_t i = 0; i < t->n && !err; i++)
		if (t->rows[i].column)
			err = strbuf_addf(sb, ", %s%s", col_prefix,
					  t->rows[i].column);
	return err;
}

struct oomlens_error *db_fields_columns(struct strbuf *sb,
					const struct field_table *t)
{
	return columns(sb, "", t);
}

/*
 * "INSERT INTO table(lead, f...) VALUES (?, ...)" or "SELECT lead, f... tail"
 * for a field table; col_prefix qualifies the SELECT's columns.
 */
static OOMLENS_MUST_CHECK struct oomlens_error *
fields_sql(struct strbuf *sb, bool insert, const char *head, int n_lead,
	   const char *col_prefix, const struct field_table *t,
	   const char *tail)
{
	struct oomlens_error *err = strbuf_adds(sb, head);
	int n = n_lead + db_fields_ncol(t);
	int j;

	if (!err)
		err = columns(sb, col_prefix, t);
	if (!err && insert) {
		err = strbuf_adds(sb, ") VALUES (?");
		for (j = 1; j < n && !err; j++)
			err = strbuf_adds(sb, ", ?");
		if (!err)
			err = strbuf_adds(sb, ")");
	}
	if (!err && tail)
		err = strbuf_adds(sb, tail);
	return err;
}

struct oomlens_error *db_fields_stmt(struct db *db, enum db_stmt_id id,
				     bool insert, const char *head, int n_lead,
				     const char *col_prefix,
				     const struct field_table *t,
				     const char *tail, sqlite3_stmt **out)
{
	struct strbuf sb = STRBUF_INIT(1 << 16);
	struct oomlens_error *err;

	if (db->stmt[id]) {
		*out = db->stmt[id];
		return NULL;
	}
	err = fields_sql(&sb, insert, head, n_lead, col_prefix, t, tail);
	if (!err)
		err = db_stmt(db, id, sb.buf, out);
	strbuf_release(&sb);
	return err;
}
