-- Duplicate events (issue 45). One secret per board, drawn from the operating
-- system when the event starts (64 hex digits), from which every table's hand of
-- the board is dealt; never sent. A board is published once every table has
-- finished it.
CREATE TABLE event_boards (
    event_id     TEXT   NOT NULL REFERENCES events(id) ON DELETE CASCADE,
    board        BIGINT NOT NULL,
    secret       TEXT   NOT NULL,
    published_at BIGINT,
    PRIMARY KEY (event_id, board)
);
-- Each table's hand of each board: the live table that plays it, then its
-- result (which deal of the board's secret was played, the points by seat of
-- the deal as a JSON array) and the stored game.
CREATE TABLE event_hands (
    event_id    TEXT   NOT NULL REFERENCES events(id) ON DELETE CASCADE,
    board       BIGINT NOT NULL,
    table_no    BIGINT NOT NULL,
    table_id    TEXT,
    game_id     TEXT,
    deal        BIGINT,
    points      TEXT,
    finished_at BIGINT,
    PRIMARY KEY (event_id, board, table_no)
);
