-- bench/floor/tasks-only.sql: the P2 database reduced to its sources,
-- incidents and task rows: what storing the task tables alone costs, with
-- nothing of the memory state, headers, kills or sightings.
--   cp DB /tmp/tasks.db && sqlite3 /tmp/tasks.db <bench/floor/tasks-only.sql
--   build/bench/storefloor /tmp/tasks.db /tmp/floor.db
PRAGMA foreign_keys = OFF;
DELETE FROM incident_columns;
DELETE FROM incident_stats;
DELETE FROM kills;
DELETE FROM incident_sightings;
DELETE FROM events;
VACUUM;
