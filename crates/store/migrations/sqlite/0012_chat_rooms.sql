-- Chat beyond the table (issue #43): timed mutes, and reports of a person
-- (from their profile) in the same queue as reports of a line. Lines of the
-- game rooms, events and private messages are kept in chat_lines like a
-- table's, under their place's key.
CREATE TABLE mutes (
    id       INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id  BIGINT NOT NULL REFERENCES users(id),
    until    BIGINT NOT NULL,
    by_user  BIGINT NOT NULL REFERENCES users(id),
    -- An event's arbiter's mute: the event.
    event_id TEXT,
    reason   TEXT   NOT NULL,
    at       BIGINT NOT NULL
);
CREATE INDEX mutes_user ON mutes(user_id, until);

-- A report names a line, or (line_id NULL) a person.
CREATE TABLE chat_reports_new (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    line_id     BIGINT REFERENCES chat_lines(id) ON DELETE CASCADE,
    person      BIGINT REFERENCES users(id),
    reporter    BIGINT NOT NULL REFERENCES users(id),
    reason      TEXT   NOT NULL,
    at          BIGINT NOT NULL,
    resolved_at BIGINT,
    resolved_by BIGINT REFERENCES users(id),
    UNIQUE (line_id, reporter)
);
INSERT INTO chat_reports_new (id, line_id, reporter, reason, at, resolved_at, resolved_by)
    SELECT id, line_id, reporter, reason, at, resolved_at, resolved_by FROM chat_reports;
DROP TABLE chat_reports;
ALTER TABLE chat_reports_new RENAME TO chat_reports;
CREATE INDEX chat_reports_open ON chat_reports(resolved_at, id);
CREATE UNIQUE INDEX chat_reports_person_open ON chat_reports(person, reporter)
    WHERE person IS NOT NULL AND resolved_at IS NULL;
CREATE INDEX event_games_table ON event_games(table_id);
