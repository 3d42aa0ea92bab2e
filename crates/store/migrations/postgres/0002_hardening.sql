-- Sessions are kept as the SHA-256 of their token from now on: the tokens stored
-- in clear before this are live logins in any backup, so they end here.
DELETE FROM sessions;

-- Usernames are unique by their confusable skeleton too (see username_skeleton);
-- existing rows are filled in by the store when it opens.
ALTER TABLE users ADD COLUMN skeleton TEXT;
CREATE UNIQUE INDEX users_skeleton ON users(skeleton);
