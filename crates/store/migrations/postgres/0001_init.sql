-- qiyuan's schema on PostgreSQL. Times are milliseconds since the Unix epoch.
CREATE TABLE users (
    id            BIGSERIAL PRIMARY KEY,
    username      TEXT    NOT NULL,
    username_key  TEXT    NOT NULL UNIQUE,
    password_hash TEXT,
    guest         BOOLEAN NOT NULL DEFAULT FALSE,
    created_at    BIGINT  NOT NULL
);

CREATE TABLE sessions (
    token      TEXT   PRIMARY KEY,
    user_id    BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);
CREATE INDEX sessions_user ON sessions(user_id);

CREATE TABLE ratings (
    user_id    BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    pool       TEXT   NOT NULL,
    rating     DOUBLE PRECISION NOT NULL,
    deviation  DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games      BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, pool)
);

-- A table in the lobby. Its log is every accepted command; replaying the log
-- rebuilds it. `open` tables are rebuilt when the server starts.
CREATE TABLE tables (
    id         TEXT    PRIMARY KEY,
    game       TEXT    NOT NULL,
    config     TEXT    NOT NULL,
    open       BOOLEAN NOT NULL,
    created_at BIGINT  NOT NULL
);
CREATE INDEX tables_open ON tables(open);

-- One game played at a table (a table plays several: rematches).
CREATE TABLE games (
    id         TEXT    PRIMARY KEY,
    table_id   TEXT    NOT NULL REFERENCES tables(id),
    number     BIGINT  NOT NULL,
    game       TEXT    NOT NULL,
    settings   TEXT    NOT NULL,
    status     TEXT    NOT NULL,
    rated      BOOLEAN NOT NULL,
    started_at BIGINT  NOT NULL,
    ended_at   BIGINT,
    result     TEXT,
    record     TEXT
);
CREATE INDEX games_table ON games(table_id);

CREATE TABLE game_players (
    game_id     TEXT   NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seat        BIGINT NOT NULL,
    user_id     BIGINT REFERENCES users(id),
    name        TEXT   NOT NULL,
    rating      BIGINT,
    rating_diff BIGINT,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX game_players_user ON game_players(user_id);

CREATE TABLE table_log (
    table_id TEXT   NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    version  BIGINT NOT NULL,
    at_ms    BIGINT NOT NULL,
    entry    TEXT   NOT NULL,
    PRIMARY KEY (table_id, version)
);
