-- The table log's foreign key to `tables`, dropped on PostgreSQL. Its check ran a
-- query per appended row and took a row lock on the table's row (a lock record
-- in the WAL and the page dirtied): about twelve thousand a second at ten
-- thousand moves, a sixth of PostgreSQL's own CPU in the one-node benchmark
-- (docs/benchmarks.md, session 17). The server writes a table's row before
-- anything of its log, and never deletes a table; SQLite keeps the key (its
-- check is a lookup in the same process).
ALTER TABLE table_log DROP CONSTRAINT IF EXISTS table_log_table_id_fkey;
