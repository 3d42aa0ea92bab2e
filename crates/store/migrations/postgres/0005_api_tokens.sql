-- Personal API tokens (the Lichess-compatible API): the store keeps the SHA-256
-- of each token, never the token; `id` names a token for listing and revoking
-- without showing it. `scopes` is a space-separated list (`board:play bot:play`).
CREATE TABLE api_tokens (
    token_hash  TEXT   PRIMARY KEY,
    id          TEXT   NOT NULL UNIQUE,
    user_id     BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    description TEXT   NOT NULL,
    scopes      TEXT   NOT NULL,
    created_at  BIGINT NOT NULL
);
CREATE INDEX api_tokens_user ON api_tokens(user_id);

-- Accounts upgraded to bot accounts (`POST /api/bot/account/upgrade`): for
-- life, as on Lichess.
CREATE TABLE bot_accounts (
    user_id     BIGINT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    upgraded_at BIGINT NOT NULL
);
