-- bench/floor/packed.sql: the P2 database with the least rows a store of
-- everything the issue asks could have: each incident's task-table header
-- and memory state packed into one value of one row (JSON), instead of a
-- row per column name and a row per run of counters. Tasks stay a row each.
-- Run on a copy of an ingest's database, then time it with storefloor:
--   cp DB /tmp/packed.db && sqlite3 /tmp/packed.db <bench/floor/packed.sql
--   build/bench/storefloor /tmp/packed.db /tmp/floor.db
PRAGMA foreign_keys = OFF;
ALTER TABLE incidents ADD COLUMN task_columns TEXT;
UPDATE incidents SET task_columns = (
  SELECT json_group_array(name) FROM (
    SELECT name FROM incident_columns c
    WHERE c.incident_id = incidents.id ORDER BY seq));
CREATE TABLE incident_memory (
  incident_id INTEGER PRIMARY KEY REFERENCES incidents(id) ON DELETE CASCADE,
  stats TEXT NOT NULL -- [[scope, unit, {counter: value, ...}], ...]
);
INSERT INTO incident_memory
  SELECT incident_id, json_group_array(json_array(scope, unit, json(counters)))
  FROM (SELECT * FROM incident_stats ORDER BY incident_id, seq)
  GROUP BY incident_id;
DROP VIEW v_top_tasks;
DROP VIEW v_incidents;
DROP VIEW v_counts_by_host;
DROP VIEW v_counts_by_kernel;
DROP TABLE incident_columns;
DROP TABLE incident_stats;
VACUUM;
