-- Private games (单机: a table of one user's alone, against the computer or
-- hot-seat) are in no list: a user's games, their count and their exports leave
-- them out (`Store::games_of_user`). Games stored before this column were
-- private when their table's id starts with `solo`, which an ordinary table's
-- id never does.
ALTER TABLE games ADD COLUMN private BOOLEAN NOT NULL DEFAULT FALSE;
UPDATE games SET private = TRUE WHERE table_id LIKE 'solo%';
