//! The account endpoints: register, log in, log out (here or everywhere), guests,
//! who am I, profiles; and [`Accounts`], which they share and which tells the
//! other handlers who a request comes from.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::Router;
use axum::extract::{ConnectInfo, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use qiyuan_store::{NewUser, Store, StoreError, User};
use serde::{Deserialize, Serialize};

use crate::Config;
use crate::auth;
use crate::authority::Authority;
use crate::error::{ApiError, ApiResult, Json};
use crate::registry::Games;

#[derive(Debug, Deserialize)]
pub struct Credentials {
    pub username: String,
    pub password: String,
}

/// What a client learns about itself on login.
#[derive(Debug, Serialize)]
pub struct Session {
    pub user: PublicUser,
    /// The bearer token (also set as the session cookie).
    pub token: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct PublicUser {
    pub id: i64,
    pub username: String,
    pub guest: bool,
}

impl From<&User> for PublicUser {
    fn from(u: &User) -> Self {
        PublicUser {
            id: u.id,
            username: u.username.clone(),
            guest: u.guest,
        }
    }
}

/// What the account endpoints share, and who a request comes from: its
/// session token looked up in the store. The route handlers reach it as
/// `accounts.accounts` (`user_of`, `require_user`), not through the whole `App`.
pub struct Accounts {
    store: Arc<dyn Store>,
    /// The games hosted here (a profile's points).
    games: Games,
    /// How long a session lasts.
    session_days: u32,
    /// Whether the session cookie is always `Secure`.
    secure_cookies: bool,
    login_attempts_per_minute: u32,
    login_failures_per_address: u32,
    limiter: auth::LoginLimiter,
    /// The password hashers: a bounded number of argon2 runs at once.
    pub hashers: auth::Hashers,
    /// Guests created per address per hour.
    guests: auth::RateLimit,
    /// Accounts registered per address per hour.
    registrations: auth::RateLimit,
    proxies: auth::Proxies,
    /// What a logout ends.
    authority: Authority,
}

impl Accounts {
    pub fn new(config: &Config, store: Arc<dyn Store>, games: Games, authority: Authority) -> Self {
        const HOUR: Duration = Duration::from_secs(3600);
        Accounts {
            store,
            games,
            session_days: config.session_days,
            secure_cookies: config.secure_cookies,
            login_attempts_per_minute: config.login_attempts_per_minute,
            login_failures_per_address: config.login_failures_per_address,
            limiter: auth::LoginLimiter::new(),
            hashers: auth::Hashers::new(
                config.password_hashes_at_once,
                Duration::from_millis(config.hash_queue_ms),
            ),
            guests: auth::RateLimit::new(config.guests_per_address_per_hour, HOUR),
            registrations: auth::RateLimit::new(config.registrations_per_address_per_hour, HOUR),
            proxies: auth::Proxies::new(&config.trusted_proxies),
            authority,
        }
    }

    /// The user a request's token belongs to, if any.
    pub async fn user_of(&self, headers: &HeaderMap) -> ApiResult<Option<User>> {
        match auth::token_from_headers(headers) {
            Some(token) => self.user_of_token(&token).await,
            None => Ok(None),
        }
    }

    /// The user a session token belongs to, if any.
    pub async fn user_of_token(&self, token: &str) -> ApiResult<Option<User>> {
        if token.len() > 128 {
            return Ok(None);
        }
        Ok(self
            .store
            .session_user(&auth::hash_token(token), crate::now_ms())
            .await?)
    }

    /// The user a request's token belongs to; `401` without one.
    pub async fn require_user(&self, headers: &HeaderMap) -> ApiResult<User> {
        self.user_of(headers)
            .await?
            .ok_or_else(ApiError::unauthorized)
    }
}

/// The account endpoints, sharing the [`Accounts`].
pub fn routes<S: Clone + Send + Sync + 'static>(accounts: Arc<Accounts>) -> Router<S> {
    Router::new()
        .route("/api/account/register", post(register))
        .route("/api/account/login", post(login))
        .route("/api/account/logout", post(logout))
        .route("/api/account/logout-everywhere", post(logout_everywhere))
        .route("/api/account/guest", post(guest))
        .route("/api/account/me", get(me))
        .route("/api/account/settings", get(settings).put(put_settings))
        .with_state(accounts)
}

/// The key under which a request's client address is limited.
fn address_of(proxies: &auth::Proxies, peer: SocketAddr, headers: &HeaderMap) -> String {
    auth::address_key(proxies.client_ip(peer.ip(), headers))
}

/// A new session for `user`, lasting `days`: the token in the body and in the
/// cookie (`Secure` if `secure`).
async fn open_session(
    store: &dyn Store,
    days: u32,
    user: &User,
    status: StatusCode,
    secure: bool,
) -> ApiResult<Response> {
    let token = auth::new_token();
    let now = crate::now_ms();
    let lifetime = Duration::from_secs(u64::from(days) * 86_400);
    store
        .create_session(
            &auth::hash_token(&token),
            user.id,
            now,
            now + lifetime.as_millis() as i64,
        )
        .await?;
    let cookie = auth::session_cookie(&token, lifetime, secure);
    let body = Session {
        user: user.into(),
        token,
    };
    Ok((status, [(header::SET_COOKIE, cookie)], Json(body)).into_response())
}

/// Whether the session cookie gets `Secure`: `always` (configured), or a
/// trusted proxy says the client came over https.
fn secure(always: bool, proxies: &auth::Proxies, peer: SocketAddr, headers: &HeaderMap) -> bool {
    always || proxies.says_https(peer.ip(), headers)
}

pub async fn register(
    State(accounts): State<Arc<Accounts>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    Json(c): Json<Credentials>,
) -> ApiResult<Response> {
    let username = auth::normalize_username(&c.username);
    auth::validate_username(&username)
        .map_err(|e| ApiError::bad_request("bad_username", e.to_string()))?;
    auth::validate_password(&c.password).map_err(|e| ApiError::bad_request("bad_password", e))?;
    accounts
        .registrations
        .hit(
            &address_of(&accounts.proxies, peer, &headers),
            Instant::now(),
        )
        .map_err(|wait| {
            auth::rate_limited("too many accounts registered from this address", wait)
        })?;
    let hash = accounts.hashers.hash(c.password).await?;
    let user = accounts
        .store
        .create_user(NewUser {
            username: username.clone(),
            password_hash: Some(hash),
            guest: false,
            created_at: crate::now_ms(),
        })
        .await
        .map_err(|e| match e {
            StoreError::Conflict(_) => ApiError::new(
                StatusCode::CONFLICT,
                "username_taken",
                format!("the username {username} is taken or looks like one that is"),
            ),
            e => e.into(),
        })?;
    tracing::info!(user = %user.username, "registered");
    open_session(
        &*accounts.store,
        accounts.session_days,
        &user,
        StatusCode::CREATED,
        secure(accounts.secure_cookies, &accounts.proxies, peer, &headers),
    )
    .await
}

/// Logs in. Failures are counted per (username, address) and per address — an
/// attempt counts from the moment it is admitted — so a burst cannot pass the
/// limit and an attacker elsewhere cannot lock the owner out.
pub async fn login(
    State(accounts): State<Arc<Accounts>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    Json(c): Json<Credentials>,
) -> ApiResult<Response> {
    let username = auth::normalize_username(&c.username);
    let address = address_of(&accounts.proxies, peer, &headers);
    let name_key: String = qiyuan_store::username_key(&username)
        .chars()
        .take(40)
        .collect();
    let pair_key = format!("u:{name_key}@{address}");
    let address_key = format!("ip:{address}");
    let keys = [
        (pair_key.as_str(), accounts.login_attempts_per_minute, true),
        (
            address_key.as_str(),
            accounts.login_failures_per_address,
            false,
        ),
    ];
    let attempt = accounts
        .limiter
        .begin(&keys, Instant::now())
        .map_err(|wait| auth::rate_limited("too many failed logins", wait))?;
    let user = match username.chars().count() {
        0..=40 => accounts.store.user_by_name(&username).await?,
        _ => None,
    };
    let hash = user.as_ref().and_then(|u| u.password_hash.clone());
    let ok = accounts.hashers.verify(c.password, hash).await?;
    match user {
        Some(user) if ok => {
            attempt.succeeded();
            // An account the operator banned (`qiyuan admin ban`) cannot log in.
            if accounts
                .store
                .roles(user.id)
                .await?
                .iter()
                .any(|r| r == "banned")
            {
                return Err(ApiError::forbidden("banned", "this account is banned"));
            }
            open_session(
                &*accounts.store,
                accounts.session_days,
                &user,
                StatusCode::OK,
                secure(accounts.secure_cookies, &accounts.proxies, peer, &headers),
            )
            .await
        }
        _ => {
            attempt.failed(Instant::now());
            Err(ApiError::new(
                StatusCode::UNAUTHORIZED,
                "bad_credentials",
                "wrong username or password",
            ))
        }
    }
}

/// Ends the request's session and closes, at once, every WebSocket and API
/// stream opened with it (on every node).
pub async fn logout(
    State(accounts): State<Arc<Accounts>>,
    headers: HeaderMap,
) -> ApiResult<Response> {
    if let Some(token) = auth::token_from_headers(&headers) {
        let hash = auth::hash_token(&token);
        accounts.store.delete_session(&hash).await?;
        accounts
            .authority
            .end(crate::authority::Ended::Token { hash })
            .await;
    }
    Ok((
        StatusCode::NO_CONTENT,
        [(header::SET_COOKIE, auth::clear_cookie())],
    )
        .into_response())
}

/// Ends every session of the caller's account and closes all its WebSockets
/// and the API streams opened with a session (on every node; `sockets` counts
/// this node's). Personal API tokens live on: they are revoked one by one.
pub async fn logout_everywhere(
    State(accounts): State<Arc<Accounts>>,
    headers: HeaderMap,
) -> ApiResult<Response> {
    let user = accounts.require_user(&headers).await?;
    let sessions = accounts.store.delete_user_sessions(user.id).await?;
    let ended = crate::authority::Ended::Sessions { user: user.id };
    let sockets = accounts.authority.end(ended).await;
    tracing::info!(user = %user.username, sessions, sockets, "logged out everywhere");
    Ok((
        StatusCode::OK,
        [(header::SET_COOKIE, auth::clear_cookie())],
        Json(serde_json::json!({"sessions": sessions, "sockets": sockets})),
    )
        .into_response())
}

/// A guest: an account without a password, for casual games.
pub async fn guest(
    State(accounts): State<Arc<Accounts>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
) -> ApiResult<Response> {
    accounts
        .guests
        .hit(
            &address_of(&accounts.proxies, peer, &headers),
            Instant::now(),
        )
        .map_err(|wait| auth::rate_limited("too many guests from this address", wait))?;
    for _ in 0..5 {
        let created = accounts
            .store
            .create_user(NewUser {
                username: auth::guest_name(),
                password_hash: None,
                guest: true,
                created_at: crate::now_ms(),
            })
            .await;
        match created {
            Ok(user) => {
                return open_session(
                    &*accounts.store,
                    accounts.session_days,
                    &user,
                    StatusCode::CREATED,
                    secure(accounts.secure_cookies, &accounts.proxies, peer, &headers),
                )
                .await;
            }
            Err(StoreError::Conflict(_)) => continue,
            Err(e) => return Err(e.into()),
        }
    }
    Err(ApiError::internal("no free guest name after five tries"))
}

#[derive(Debug, Serialize)]
pub struct RatingView {
    pub pool: String,
    pub rating: i64,
    pub deviation: f64,
    pub provisional: bool,
    pub games: i64,
}

#[derive(Debug, Serialize)]
pub struct Profile {
    pub user: PublicUser,
    pub created_at: i64,
    pub ratings: Vec<RatingView>,
    /// Points (积分) for life, one `<game>_points` block per game that keeps
    /// them (accounts only: guests keep none).
    #[serde(flatten)]
    pub points: std::collections::BTreeMap<String, PointsView>,
    pub games: Vec<crate::api::GameSummary>,
}

/// A player's points for life in one game, with the title they hold.
#[derive(Debug, Serialize)]
pub struct PointsView {
    pub points: i64,
    pub title: &'static str,
    pub hands: i64,
}

pub async fn me(
    State(accounts): State<Arc<Accounts>>,
    headers: HeaderMap,
) -> ApiResult<Json<Profile>> {
    let user = accounts.require_user(&headers).await?;
    profile_of(&*accounts.store, &accounts.games, user)
        .await
        .map(Json)
}

/// The profile of the account named `name` (`404` for none), or of a
/// computer player by its name (`GET /api/user/{name}` shows it).
pub async fn profile(store: &dyn Store, hosted: &Games, name: String) -> ApiResult<Profile> {
    // A computer player has no account: its profile is its name, with no
    // ratings and no games kept.
    if crate::bots::is_bot(&name) && crate::bots::level_of(&name).is_some() {
        return Ok(Profile {
            user: PublicUser {
                id: 0,
                username: name,
                guest: false,
            },
            created_at: 0,
            ratings: Vec::new(),
            points: Default::default(),
            games: Vec::new(),
        });
    }
    let user = store
        .user_by_name(&auth::normalize_username(&name))
        .await?
        .ok_or_else(|| ApiError::not_found(format!("no user {name}")))?;
    profile_of(store, hosted, user).await
}

/// A user's profile: ratings, each game's points, recent public games.
async fn profile_of(store: &dyn Store, hosted: &Games, user: User) -> ApiResult<Profile> {
    let ratings = store
        .ratings(user.id)
        .await?
        .into_iter()
        .map(|r| RatingView {
            provisional: r.deviation > qiyuan_rating::PROVISIONAL_DEVIATION,
            rating: r.rating.round() as i64,
            deviation: (r.deviation * 10.0).round() / 10.0,
            pool: r.pool,
            games: r.games,
        })
        .collect();
    let games = store
        .games_of_user(user.id, 50)
        .await?
        .iter()
        // Private games (单机) are in no profile.
        .filter(|g| !crate::live::TableKind::of_stored(&g.table_id).is_private())
        .map(crate::api::GameSummary::from_row)
        .collect();
    let mut points = std::collections::BTreeMap::new();
    if !user.guest {
        for game in hosted.all() {
            let Some(title) = game.points_title(0) else {
                continue;
            };
            let row = store.points(user.id, game.name).await?;
            let view = match row {
                Some(r) => PointsView {
                    title: game.points_title(r.points).unwrap_or(title),
                    points: r.points,
                    hands: r.hands,
                },
                None => PointsView {
                    points: 0,
                    title,
                    hands: 0,
                },
            };
            points.insert(format!("{}_points", game.name), view);
        }
    }
    Ok(Profile {
        user: (&user).into(),
        created_at: user.created_at,
        ratings,
        points,
        games,
    })
}

/// The most a client's settings may hold, serialised.
pub const MAX_SETTINGS_BYTES: usize = 4096;

/// `GET /api/account/settings`: the caller's client settings as last saved
/// (`{"settings": {...}}`), or `{"settings": null}` before any.
pub async fn settings(
    State(accounts): State<Arc<Accounts>>,
    headers: HeaderMap,
) -> ApiResult<Json<serde_json::Value>> {
    let user = accounts.require_user(&headers).await?;
    let saved = accounts
        .store
        .user_settings(user.id)
        .await?
        .and_then(|text| serde_json::from_str::<serde_json::Value>(&text).ok())
        .filter(serde_json::Value::is_object);
    Ok(Json(serde_json::json!({ "settings": saved })))
}

/// `PUT /api/account/settings` with a JSON object: replaces the caller's client
/// settings. The server keeps the object as it is (it never reads it); anything
/// but an object is `422 bad_message`, more than [`MAX_SETTINGS_BYTES`] is `413
/// too_large`.
pub async fn put_settings(
    State(accounts): State<Arc<Accounts>>,
    headers: HeaderMap,
    Json(body): Json<serde_json::Value>,
) -> ApiResult<Json<serde_json::Value>> {
    let user = accounts.require_user(&headers).await?;
    if !body.is_object() {
        return Err(ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "bad_message",
            "settings are a JSON object",
        ));
    }
    let text = body.to_string();
    if text.len() > MAX_SETTINGS_BYTES {
        return Err(ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "too_large",
            format!("settings are at most {MAX_SETTINGS_BYTES} bytes"),
        ));
    }
    accounts
        .store
        .set_user_settings(user.id, &text, crate::now_ms())
        .await?;
    Ok(Json(serde_json::json!({ "settings": body })))
}
