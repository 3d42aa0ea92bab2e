-- Points (积分) for life, per game that scores in points (Doudizhu): the sum of
-- the points of every hand a user played, and how many hands counted.
CREATE TABLE points (
    user_id    BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    game       TEXT   NOT NULL,
    points     BIGINT NOT NULL,
    hands      BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, game)
);
CREATE INDEX points_board ON points(game, points DESC);
