//! The account endpoints: register, log in, log out, guests, who am I, profiles.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::Json;
use axum::extract::{ConnectInfo, Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use qiyuan_store::{NewUser, StoreError, User};
use serde::{Deserialize, Serialize};

use crate::App;
use crate::auth;
use crate::error::{ApiError, ApiResult};

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

impl App {
    /// The user a request's token belongs to, if any.
    pub async fn user_of(&self, headers: &HeaderMap) -> ApiResult<Option<User>> {
        match auth::token_from_headers(headers) {
            Some(token) => self.user_of_token(&token).await,
            None => Ok(None),
        }
    }

    pub async fn user_of_token(&self, token: &str) -> ApiResult<Option<User>> {
        if token.len() > 128 {
            return Ok(None);
        }
        Ok(self.store.session_user(token, crate::now_ms()).await?)
    }

    pub async fn require_user(&self, headers: &HeaderMap) -> ApiResult<User> {
        self.user_of(headers)
            .await?
            .ok_or_else(ApiError::unauthorized)
    }

    async fn open_session(&self, user: &User, status: StatusCode) -> ApiResult<Response> {
        let token = auth::new_token();
        let now = crate::now_ms();
        let lifetime = Duration::from_secs(u64::from(self.config.session_days) * 86_400);
        self.store
            .create_session(&token, user.id, now, now + lifetime.as_millis() as i64)
            .await?;
        let cookie = auth::session_cookie(&token, lifetime, self.config.secure_cookies);
        let body = Session {
            user: user.into(),
            token,
        };
        Ok((status, [(header::SET_COOKIE, cookie)], Json(body)).into_response())
    }
}

pub async fn register(
    State(app): State<Arc<App>>,
    Json(c): Json<Credentials>,
) -> ApiResult<Response> {
    auth::validate_username(&c.username)
        .map_err(|e| ApiError::bad_request("bad_username", e.to_string()))?;
    auth::validate_password(&c.password).map_err(|e| ApiError::bad_request("bad_password", e))?;
    let password = c.password.clone();
    let hash = tokio::task::spawn_blocking(move || auth::hash_password(&password))
        .await
        .map_err(ApiError::internal)?
        .map_err(ApiError::internal)?;
    let user = app
        .store
        .create_user(NewUser {
            username: c.username.clone(),
            password_hash: Some(hash),
            guest: false,
            created_at: crate::now_ms(),
        })
        .await
        .map_err(|e| match e {
            StoreError::Conflict(_) => ApiError::new(
                StatusCode::CONFLICT,
                "username_taken",
                format!("the username {} is taken", c.username),
            ),
            e => e.into(),
        })?;
    tracing::info!(user = %user.username, "registered");
    app.open_session(&user, StatusCode::CREATED).await
}

pub async fn login(
    State(app): State<Arc<App>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Json(c): Json<Credentials>,
) -> ApiResult<Response> {
    let name_key = format!("u:{}", qiyuan_store::username_key(&c.username));
    let ip_key = format!("ip:{}", peer.ip());
    let keys = [name_key.as_str(), ip_key.as_str()];
    if let Some(wait) = app.limiter.blocked(&keys, Instant::now()) {
        return Err(ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "rate_limited",
            format!(
                "too many failed logins; try again in {} s",
                wait.as_secs() + 1
            ),
        ));
    }
    let user = app.store.user_by_name(&c.username).await?;
    let ok = match user.as_ref().and_then(|u| u.password_hash.clone()) {
        Some(hash) => {
            let password = c.password.clone();
            tokio::task::spawn_blocking(move || auth::verify_password(&password, &hash))
                .await
                .map_err(ApiError::internal)?
        }
        None => false,
    };
    match user {
        Some(user) if ok => app.open_session(&user, StatusCode::OK).await,
        _ => {
            app.limiter.fail(&keys, Instant::now());
            Err(ApiError::new(
                StatusCode::UNAUTHORIZED,
                "bad_credentials",
                "wrong username or password",
            ))
        }
    }
}

pub async fn logout(State(app): State<Arc<App>>, headers: HeaderMap) -> ApiResult<Response> {
    if let Some(token) = auth::token_from_headers(&headers) {
        app.store.delete_session(&token).await?;
    }
    Ok((
        StatusCode::NO_CONTENT,
        [(header::SET_COOKIE, auth::clear_cookie())],
    )
        .into_response())
}

/// A guest: an account without a password, for casual games.
pub async fn guest(State(app): State<Arc<App>>) -> ApiResult<Response> {
    for _ in 0..5 {
        let created = app
            .store
            .create_user(NewUser {
                username: auth::guest_name(),
                password_hash: None,
                guest: true,
                created_at: crate::now_ms(),
            })
            .await;
        match created {
            Ok(user) => return app.open_session(&user, StatusCode::CREATED).await,
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
    pub games: Vec<crate::api::GameSummary>,
}

pub async fn me(State(app): State<Arc<App>>, headers: HeaderMap) -> ApiResult<Json<Profile>> {
    let user = app.require_user(&headers).await?;
    profile_of(&app, user).await.map(Json)
}

pub async fn profile(
    State(app): State<Arc<App>>,
    Path(name): Path<String>,
) -> ApiResult<Json<Profile>> {
    let user = app
        .store
        .user_by_name(&name)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("no user {name}")))?;
    profile_of(&app, user).await.map(Json)
}

async fn profile_of(app: &App, user: User) -> ApiResult<Profile> {
    let ratings = app
        .store
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
    let games = app
        .store
        .games_of_user(user.id, 50)
        .await?
        .iter()
        .map(crate::api::GameSummary::from_row)
        .collect();
    Ok(Profile {
        user: (&user).into(),
        created_at: user.created_at,
        ratings,
        games,
    })
}
