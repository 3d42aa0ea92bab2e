-- Table chat (issue #43): every line kept for moderation, pruned after the
-- configured retention unless a report of it is still open, and the reports
-- of lines that admins list and resolve.
CREATE TABLE chat_lines (
    id       BIGSERIAL PRIMARY KEY,
    table_id TEXT   NOT NULL,
    room     TEXT   NOT NULL,
    user_id  BIGINT NOT NULL REFERENCES users(id),
    username TEXT   NOT NULL,
    text     TEXT   NOT NULL,
    at       BIGINT NOT NULL
);
CREATE INDEX chat_lines_table ON chat_lines(table_id, id);
CREATE INDEX chat_lines_at ON chat_lines(at);

CREATE TABLE chat_reports (
    id          BIGSERIAL PRIMARY KEY,
    line_id     BIGINT NOT NULL REFERENCES chat_lines(id) ON DELETE CASCADE,
    reporter    BIGINT NOT NULL REFERENCES users(id),
    reason      TEXT   NOT NULL,
    at          BIGINT NOT NULL,
    resolved_at BIGINT,
    resolved_by BIGINT REFERENCES users(id),
    UNIQUE (line_id, reporter)
);
CREATE INDEX chat_reports_open ON chat_reports(resolved_at, id);
