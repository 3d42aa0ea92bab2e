-- Roles an operator grants (organiser, arbiter, and the admin marks banned,
-- muted), and Swiss events: their players, requested byes, rounds (paired once:
-- the primary key), the games of each round and the arbiters' actions.
CREATE TABLE user_roles (
    user_id    BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    role       TEXT   NOT NULL,
    granted_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, role)
);

CREATE TABLE events (
    id         TEXT   PRIMARY KEY,
    organiser  BIGINT NOT NULL REFERENCES users(id),
    game       TEXT   NOT NULL,
    config     TEXT   NOT NULL,
    status     TEXT   NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX events_status ON events(status);

CREATE TABLE event_arbiters (
    event_id TEXT   NOT NULL REFERENCES events(id) ON DELETE CASCADE,
    user_id  BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    PRIMARY KEY (event_id, user_id)
);

CREATE TABLE event_players (
    event_id     TEXT    NOT NULL REFERENCES events(id) ON DELETE CASCADE,
    user_id      BIGINT  NOT NULL REFERENCES users(id),
    start_rank   BIGINT  NOT NULL,
    rating       BIGINT,
    joined_round BIGINT  NOT NULL,
    withdrawn    BOOLEAN NOT NULL DEFAULT FALSE,
    disqualified BOOLEAN NOT NULL DEFAULT FALSE,
    joined_at    BIGINT  NOT NULL,
    PRIMARY KEY (event_id, user_id),
    UNIQUE (event_id, start_rank)
);

CREATE TABLE event_byes (
    event_id TEXT   NOT NULL REFERENCES events(id) ON DELETE CASCADE,
    user_id  BIGINT NOT NULL REFERENCES users(id),
    round    BIGINT NOT NULL,
    kind     TEXT   NOT NULL,
    PRIMARY KEY (event_id, user_id, round)
);

CREATE TABLE event_rounds (
    event_id    TEXT   NOT NULL REFERENCES events(id) ON DELETE CASCADE,
    round       BIGINT NOT NULL,
    starts_at   BIGINT NOT NULL,
    checked_at  BIGINT,
    finished_at BIGINT,
    PRIMARY KEY (event_id, round)
);

CREATE TABLE event_games (
    event_id     TEXT   NOT NULL REFERENCES events(id) ON DELETE CASCADE,
    round        BIGINT NOT NULL,
    board        BIGINT NOT NULL,
    white        BIGINT NOT NULL REFERENCES users(id),
    black        BIGINT REFERENCES users(id),
    table_id     TEXT,
    white_result TEXT,
    black_result TEXT,
    PRIMARY KEY (event_id, round, board)
);

CREATE TABLE event_actions (
    id       BIGSERIAL PRIMARY KEY,
    event_id TEXT   NOT NULL REFERENCES events(id) ON DELETE CASCADE,
    round    BIGINT,
    board    BIGINT,
    user_id  BIGINT NOT NULL REFERENCES users(id),
    arbiter  BIGINT NOT NULL REFERENCES users(id),
    kind     TEXT   NOT NULL,
    reason   TEXT   NOT NULL,
    at       BIGINT NOT NULL
);
CREATE INDEX event_actions_event ON event_actions(event_id, id);
