-- Invitations to a table: one to a named person (to_user), or a link that
-- seats whoever opens it first (to_user NULL). Each is answered once: open,
-- then accepted (taken_by sits at the table), declined (with its reason) or
-- withdrawn.
CREATE TABLE invitations (
    token      TEXT PRIMARY KEY,
    table_id   TEXT NOT NULL,
    from_user  BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    to_user    BIGINT REFERENCES users(id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL,
    state      TEXT NOT NULL DEFAULT 'open',
    reason     TEXT,
    taken_by   BIGINT REFERENCES users(id) ON DELETE SET NULL,
    answered_at BIGINT
);
CREATE INDEX invitations_table ON invitations(table_id);
CREATE INDEX invitations_to ON invitations(to_user);
