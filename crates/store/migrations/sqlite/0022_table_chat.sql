-- A table's players' chat switched off (issue #43): each row is one person
-- (the table's owner or a player seated there) asking the players' room of
-- the table to be closed. The room is closed while anyone whose ask holds
-- (the owner, or a person seated there now) asks it; the server decides who
-- that is. No foreign key to tables: a table's id is its key in chat_lines too.
CREATE TABLE table_chat_off (
    table_id TEXT   NOT NULL,
    user_id  BIGINT NOT NULL REFERENCES users(id),
    at       BIGINT NOT NULL,
    PRIMARY KEY (table_id, user_id)
);
