/* SPDX-License-Identifier: MIT */
/*
 * The settings of every connection oomlens opens for writing, after
 * "PRAGMA foreign_keys = ON" and once the file is known to be SQLite and
 * oomlens's. A header of its own, so that bench/storefloor.c measures SQLite
 * with exactly these.
 */
#ifndef OOMLENS_DB_SETTINGS_H
#define OOMLENS_DB_SETTINGS_H

static const char *const db_settings[] = {
	"PRAGMA journal_mode = WAL",
	"PRAGMA synchronous = NORMAL",
	/* fewer checkpoints (and their fsyncs) during an ingest */
	"PRAGMA wal_autocheckpoint = 16384",
	"PRAGMA cache_size = -16384",
	/* savepoints journal in memory, not in temporary files */
	"PRAGMA temp_store = MEMORY",
};

#endif
