-- Relations between people: who follows whom (two who follow each other are
-- friends, 好友) and who blocks whom. A block ends both follows between the two
-- and refuses new ones; a blocked person cannot challenge the blocker.
CREATE TABLE follows (
    user_id    BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    followed   BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, followed)
);
CREATE INDEX follows_followed ON follows(followed);

CREATE TABLE blocks (
    user_id    BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    blocked    BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, blocked)
);
CREATE INDEX blocks_blocked ON blocks(blocked);
