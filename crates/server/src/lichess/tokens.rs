//! Personal API tokens: created with scopes by a signed-in user (`POST
//! /api/token`, or the profile page), listed and revoked by id; the store keeps
//! their SHA-256 only. Every API request authenticates with `Authorization:
//! Bearer` — a personal token (its scopes) or a session token (every scope: the
//! web client's own) — and counts against its token's rate limit. Revoking a
//! token ends the streams open with it.

use std::sync::Arc;
use std::time::Instant;

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use qiyuan_store::{NewApiToken, Store, User};
use serde::{Deserialize, Serialize};

use super::Api;
use super::stream::{Error, Result, form, ok};
use crate::auth::{self, RateLimit};

/// The scopes a token may hold.
pub const SCOPES: [&str; 6] = [
    "board:play",
    "bot:play",
    "challenge:read",
    "challenge:write",
    "preference:read",
    "email:read",
];

/// The most personal tokens one account may hold.
pub const MAX_TOKENS: usize = 50;

/// Who calls, and with what.
#[derive(Debug, Clone)]
pub struct Caller {
    pub user: User,
    /// The token's scopes; `None`: a session, which holds every scope.
    pub scopes: Option<Vec<String>>,
    /// The SHA-256 of the token used (streams end when it is revoked).
    pub token_hash: String,
    /// A bot account (`POST /api/bot/account/upgrade`).
    pub bot: bool,
}

impl Caller {
    /// Refused with Lichess's `403` unless the token holds `scope`.
    pub fn require(&self, scope: &str) -> Result<()> {
        match &self.scopes {
            Some(scopes) if !scopes.iter().any(|s| s == scope) => {
                Err(Error::forbidden(format!("Missing scope: {scope}")))
            }
            _ => Ok(()),
        }
    }

    pub fn info(&self) -> crate::live::UserInfo {
        crate::live::UserInfo {
            id: self.user.id,
            username: self.user.username.clone(),
            guest: self.user.guest,
        }
    }
}

/// The caller of an API request: its bearer token (or the session cookie)
/// checked in `store`, and one request counted against the token's limit in
/// `limiter` (`429` with Lichess's message past it).
pub async fn caller(store: &dyn Store, limiter: &RateLimit, headers: &HeaderMap) -> Result<Caller> {
    let token = auth::token_from_headers(headers).ok_or_else(Error::unauthorized)?;
    if token.len() > 128 {
        return Err(Error::unauthorized());
    }
    let hash = auth::hash_token(&token);
    let (user, scopes) = match store.api_token(&hash).await? {
        Some((row, user)) => {
            let scopes = row.scopes.split_whitespace().map(str::to_string).collect();
            (user, Some(scopes))
        }
        None => match store.session_user(&hash, crate::now_ms()).await? {
            Some(user) => (user, None),
            None => return Err(Error::unauthorized()),
        },
    };
    if let Err(wait) = limiter.hit(&hash, Instant::now()) {
        let mut e = Error::new(
            StatusCode::TOO_MANY_REQUESTS,
            "Too many requests. Try again later.",
        );
        e.retry_after = Some(wait.as_secs() + 1);
        return Err(e);
    }
    let bot = store.is_bot(user.id).await?;
    Ok(Caller {
        user,
        scopes,
        token_hash: hash,
        bot,
    })
}

/// A caller signed in with a session (the web client), not a personal token:
/// tokens are made and listed by the account's owner only.
async fn session_caller(api: &Api, headers: &HeaderMap) -> Result<Caller> {
    let caller = api.caller(headers).await?;
    if caller.scopes.is_some() {
        return Err(Error::forbidden(
            "Tokens are managed with a session (sign in), not with a token",
        ));
    }
    if caller.user.guest {
        return Err(Error::forbidden("Guests have no API tokens"));
    }
    Ok(caller)
}

/// What `POST /api/token` takes.
#[derive(Debug, Deserialize)]
struct NewToken {
    description: Option<String>,
    /// Comma- or space-separated.
    scopes: Option<String>,
}

/// A token just made: the token itself, shown this once.
#[derive(Debug, Serialize)]
struct Created {
    token_type: &'static str,
    access_token: String,
    id: String,
    description: String,
    scopes: String,
    created_at: i64,
}

/// A token as its owner's list shows it (without the token).
#[derive(Debug, Serialize)]
struct Listed {
    id: String,
    description: String,
    /// Comma-separated.
    scopes: String,
    created_at: i64,
}

/// `GET /api/token`'s answer.
#[derive(Debug, Serialize)]
struct TokenList {
    tokens: Vec<Listed>,
}

/// What `POST /api/token/test` says of a token that is valid.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct TokenInfo {
    /// Comma-separated.
    scopes: String,
    user_id: String,
    expires: Option<i64>,
}

/// Comma-separated, as Lichess lists scopes (the store keeps them by spaces).
fn scope_list(stored: &str) -> String {
    stored.split_whitespace().collect::<Vec<_>>().join(",")
}

/// `POST /api/token` (`description`, `scopes`: comma- or space-separated) →
/// `{"token_type": "Bearer", "access_token": "lip_…", "id", "description",
/// "scopes", "created_at"}`. The token is shown this once.
pub async fn create(
    State(api): State<Arc<Api>>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response> {
    let caller = session_caller(&api, &headers).await?;
    let f: NewToken = form(&headers, &body)?;
    let description = f.description.as_deref().map(str::trim).unwrap_or("");
    if description.is_empty() || description.chars().count() > 100 {
        return Err(Error::bad("description: 1 to 100 characters"));
    }
    let mut scopes: Vec<String> = Vec::new();
    for s in f
        .scopes
        .as_deref()
        .unwrap_or("")
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|s| !s.is_empty())
    {
        if !SCOPES.contains(&s) {
            return Err(Error::bad(format!(
                "unknown scope {s:?}; scopes are {}",
                SCOPES.join(", ")
            )));
        }
        if !scopes.iter().any(|x| x == s) {
            scopes.push(s.to_string());
        }
    }
    if api.store.api_tokens_of(caller.user.id).await?.len() >= MAX_TOKENS {
        return Err(Error::bad(format!(
            "At most {MAX_TOKENS} tokens per account: revoke one first"
        )));
    }
    let token = format!("lip_{}", auth::new_token());
    let id = crate::live::new_id();
    let created_at = crate::now_ms();
    api.store
        .create_api_token(&NewApiToken {
            token_hash: auth::hash_token(&token),
            id: id.clone(),
            user_id: caller.user.id,
            description: description.to_string(),
            scopes: scopes.join(" "),
            created_at,
        })
        .await?;
    tracing::info!(user = %caller.user.username, token = %id, "api token created");
    Ok(axum::Json(Created {
        token_type: "Bearer",
        access_token: token,
        id,
        description: description.to_string(),
        scopes: scopes.join(","),
        created_at,
    })
    .into_response())
}

/// `GET /api/token` → the caller's tokens, without the tokens themselves.
pub async fn list(State(api): State<Arc<Api>>, headers: HeaderMap) -> Result<Response> {
    let caller = session_caller(&api, &headers).await?;
    let rows = api.store.api_tokens_of(caller.user.id).await?;
    let tokens = rows
        .into_iter()
        .map(|r| Listed {
            scopes: scope_list(&r.scopes),
            id: r.id,
            description: r.description,
            created_at: r.created_at,
        })
        .collect();
    Ok(axum::Json(TokenList { tokens }).into_response())
}

/// `DELETE /api/token`: revokes the token the request is made with (Lichess's
/// way) → `204`.
pub async fn revoke_own(State(api): State<Arc<Api>>, headers: HeaderMap) -> Result<Response> {
    let caller = api.caller(&headers).await?;
    if caller.scopes.is_none() {
        return Err(Error::bad("Not a personal API token"));
    }
    let rows = api.store.api_tokens_of(caller.user.id).await?;
    if let Some(row) = rows.iter().find(|r| r.token_hash == caller.token_hash) {
        api.store.delete_api_token(caller.user.id, &row.id).await?;
        super::hub::revoked(&api.authority, &caller.token_hash).await;
    }
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// `DELETE /api/token/{id}`: revokes one of the caller's tokens → `204`; `404`.
pub async fn revoke_id(
    State(api): State<Arc<Api>>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Result<Response> {
    let caller = api.caller(&headers).await?;
    match api.store.delete_api_token(caller.user.id, &id).await? {
        Some(hash) => {
            tracing::info!(user = %caller.user.username, token = %id, "api token revoked");
            super::hub::revoked(&api.authority, &hash).await;
            Ok(StatusCode::NO_CONTENT.into_response())
        }
        None => Err(Error::not_found("No such token")),
    }
}

/// The most tokens one `POST /api/token/test` may ask about (Lichess's cap).
pub const MAX_TESTED: usize = 1000;

/// `POST /api/token/test` (Lichess's token introspection, which lichess-bot
/// calls before anything else): the body is tokens separated by commas, as
/// plain text (lichess-bot and berserk send it so); no authentication. The
/// answer is an object keyed by token: `{"scopes": "board:play,…", "userId",
/// "expires": null}`, or `null` for a token that is unknown, revoked, logged
/// out or a banned account's. A session token holds every scope. Counted
/// against no token's limit (it names no caller); the server's limits on
/// bodies and connections hold.
pub async fn test(State(api): State<Arc<Api>>, body: Bytes) -> Result<Response> {
    let text = std::str::from_utf8(&body).map_err(|_| Error::bad("tokens: UTF-8 text"))?;
    let tokens: Vec<&str> = text
        .split(',')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .collect();
    if tokens.len() > MAX_TESTED {
        return Err(Error::bad(format!("At most {MAX_TESTED} tokens at once")));
    }
    let mut out = std::collections::BTreeMap::new();
    for token in tokens {
        let info = if token.len() > 128 {
            None
        } else {
            let hash = auth::hash_token(token);
            match api.store.api_token(&hash).await? {
                Some((row, user)) => Some(TokenInfo {
                    scopes: scope_list(&row.scopes),
                    user_id: user.username.to_lowercase(),
                    expires: None,
                }),
                None => match api.store.session_user(&hash, crate::now_ms()).await? {
                    Some(user) => Some(TokenInfo {
                        scopes: SCOPES.join(","),
                        user_id: user.username.to_lowercase(),
                        expires: None,
                    }),
                    None => None,
                },
            }
        };
        out.insert(token, info);
    }
    Ok(axum::Json(out).into_response())
}

/// `POST /api/bot/account/upgrade`: the account becomes a bot account, for
/// life; refused for an account that has played a game (as on Lichess).
pub async fn upgrade(State(api): State<Arc<Api>>, headers: HeaderMap) -> Result<Response> {
    let caller = api.caller(&headers).await?;
    caller.require("bot:play")?;
    if caller.user.guest {
        return Err(Error::forbidden("Guests cannot become bots"));
    }
    if caller.bot {
        return Ok(ok());
    }
    if !api.store.games_of_user(caller.user.id, 1).await?.is_empty() {
        return Err(Error::bad(
            "This account has already played games: it cannot become a bot account",
        ));
    }
    api.store.make_bot(caller.user.id, crate::now_ms()).await?;
    tracing::info!(user = %caller.user.username, "upgraded to a bot account");
    Ok(ok())
}
