-- Events of three-seat games (issue 45): a round's tables of three, written
-- with the round in one transaction (grouped once: the round's primary key),
-- and each hand played at a table, dealt once (the hand's primary key), with
-- its seats in order, the deal its creator gave (null: a fresh secret deal),
-- its game's table and each seat's score once it ended.
CREATE TABLE event_tables (
    event_id TEXT   NOT NULL REFERENCES events(id) ON DELETE CASCADE,
    round    BIGINT NOT NULL,
    board    BIGINT NOT NULL,
    seats    TEXT   NOT NULL,
    PRIMARY KEY (event_id, round, board)
);

CREATE TABLE event_hands (
    event_id   TEXT   NOT NULL REFERENCES events(id) ON DELETE CASCADE,
    round      BIGINT NOT NULL,
    board      BIGINT NOT NULL,
    hand       BIGINT NOT NULL,
    seats      TEXT   NOT NULL,
    deal       TEXT,
    table_id   TEXT,
    scores     TEXT,
    started_at BIGINT NOT NULL,
    PRIMARY KEY (event_id, round, board, hand)
);
