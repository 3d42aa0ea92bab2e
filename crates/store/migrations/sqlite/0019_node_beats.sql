-- Each server node's heartbeat (see crates/store/src/beats.rs): the last time,
-- on the node's own clock (ms since the epoch), that it said it was alive. One
-- row per node, overwritten about every second. After a crash, the player to
-- move at a rebuilt table is charged up to the dead node's last heartbeat.
CREATE TABLE node_beats (
    node     TEXT   PRIMARY KEY,
    alive_at BIGINT NOT NULL
);
