-- Leases on live tables for several nodes (see crates/store/src/lease.rs): the node
-- that owns a table, until when, and the fencing token that every log append of
-- the owner carries. A table's token only grows: each acquisition takes the next.
CREATE TABLE table_leases (
    table_id   TEXT   PRIMARY KEY,
    node       TEXT   NOT NULL,
    token      BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);
CREATE INDEX table_leases_node ON table_leases(node);
