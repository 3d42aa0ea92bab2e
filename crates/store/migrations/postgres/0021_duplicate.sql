-- Duplicate events (issue 45). One secret per board, drawn from the operating
-- system when the event starts (64 hex digits), from which every table's hand of
-- the board is dealt; never sent. A board is published once every table has
-- finished it. Each table's hand of a board is an event_hands row (0020) whose
-- deal is the board's secret.
CREATE TABLE event_boards (
    event_id     TEXT   NOT NULL REFERENCES events(id) ON DELETE CASCADE,
    board        BIGINT NOT NULL,
    secret       TEXT   NOT NULL,
    published_at BIGINT,
    PRIMARY KEY (event_id, board)
);
