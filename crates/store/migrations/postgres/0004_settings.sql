-- Each account's client settings (board theme, sounds, language, ...), as the
-- JSON object the web client keeps; guests keep theirs in the browser only.
CREATE TABLE user_settings (
    user_id    BIGINT NOT NULL PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    settings   TEXT   NOT NULL,
    updated_at BIGINT NOT NULL
);
