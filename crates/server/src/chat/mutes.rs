//! Timed mutes: an admin mutes anyone (`POST /api/admin/mute`, lifted with
//! `POST /api/admin/unmute`, which also takes the untimed `muted` role away);
//! an event's arbiter mutes a player of their event (`POST
//! /api/event/{id}/mute`, lifted with `POST /api/event/{id}/unmute`, which
//! lifts that event's mutes only). A mute silences every chat the person can
//! write to — tables, games' rooms, events' rooms, private messages, and the
//! Lichess-compatible API's game chat — until its end, which the store reads
//! in each line's insert (the line kept only if its writer is not muted then;
//! the API's game chat asks `crate::authority::is_muted`): a mute holds from
//! the moment it is stored, on every node. The muted person is
//! told on every page (a `muted` notification).

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::HeaderMap;
use qiyuan_store::{NewMute, User};
use serde::{Deserialize, Serialize};

use crate::App;
use crate::authority::{admin_only, has_role};
use crate::error::{ApiError, ApiResult, Json};
use crate::protocol::out::Notification;

/// The longest mute, in seconds: a year.
const LONGEST: u64 = 365 * 24 * 3600;

/// The refusal of a muted person's line.
pub fn refusal(until: i64) -> ApiError {
    let message = if until == i64::MAX {
        "you are muted: your chat lines are not delivered".to_string()
    } else {
        let secs = (until - crate::now_ms()).max(0) / 1000 + 1;
        format!("you are muted for {secs} s more: your chat lines are not delivered")
    };
    ApiError::forbidden("muted", message)
}

/// A mute asked for: whom, for how long, why.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MuteReq {
    user: String,
    /// How long, in seconds (1 to a year).
    seconds: u64,
    #[serde(default)]
    reason: String,
}

/// An unmute asked for.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnmuteReq {
    user: String,
}

/// What a mute or an unmute did: the person, and when their mute ends now
/// (`None`: they are not muted).
#[derive(Debug, Serialize)]
pub struct MuteDone {
    user: String,
    until: Option<i64>,
}

async fn account(app: &App, name: &str) -> ApiResult<User> {
    app.store
        .user_by_name(&crate::auth::normalize_username(name))
        .await?
        .ok_or_else(|| ApiError::not_found(format!("no user {name}")))
}

/// Keeps the mute and tells the person.
async fn mute(
    app: &App,
    by: &User,
    req: MuteReq,
    event: Option<&str>,
) -> ApiResult<Json<MuteDone>> {
    if req.seconds == 0 || req.seconds > LONGEST {
        return Err(ApiError::bad_request(
            "bad_mute",
            format!("a mute lasts 1 to {LONGEST} seconds"),
        ));
    }
    let reason = super::plain(&req.reason);
    if reason.chars().count() > super::MAX_REASON {
        return Err(ApiError::bad_request(
            "too_large",
            format!("a reason has at most {} characters", super::MAX_REASON),
        ));
    }
    let user = account(app, &req.user).await?;
    let now = crate::now_ms();
    let until = now + (req.seconds * 1000) as i64;
    app.store
        .add_mute(&NewMute {
            user: user.id,
            until,
            by: by.id,
            event: event.map(str::to_owned),
            reason: reason.clone(),
            at: now,
        })
        .await?;
    tracing::info!(user = %user.username, by = %by.username, until, "muted");
    let until = crate::authority::muted_until(&*app.store, user.id).await?;
    if let Some(until) = until {
        app.chat
            .notifier
            .notify(user.id, Notification::Muted { until, reason });
    }
    Ok(Json(MuteDone {
        user: user.username,
        until,
    }))
}

/// `POST /api/admin/mute` `{"user", "seconds", "reason"}`: an admin mutes
/// anyone.
pub async fn admin_mute(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Json(req): Json<MuteReq>,
) -> ApiResult<Json<MuteDone>> {
    let admin = app.accounts.require_user(&headers).await?;
    admin_only(&*app.store, &admin).await?;
    mute(&app, &admin, req, None).await
}

/// `POST /api/admin/unmute` `{"user"}`: an admin lifts every mute of a
/// person, the `muted` role too.
pub async fn admin_unmute(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Json(req): Json<UnmuteReq>,
) -> ApiResult<Json<MuteDone>> {
    let admin = app.accounts.require_user(&headers).await?;
    admin_only(&*app.store, &admin).await?;
    let user = account(&app, &req.user).await?;
    app.store.lift_mutes(user.id, None, crate::now_ms()).await?;
    app.store.revoke_role(user.id, "muted").await?;
    Ok(Json(MuteDone {
        user: user.username,
        until: None,
    }))
}

/// The caller, who must be an arbiter of `event` (named by its organiser and
/// holding the role); and the person named `name`, who must play in it.
async fn arbiter_and_player(
    app: &App,
    headers: &HeaderMap,
    event: &str,
    name: &str,
) -> ApiResult<(User, User)> {
    let arbiter = app.accounts.require_user(headers).await?;
    let ev = crate::events::load(&*app.store, event)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("no event {event}")))?;
    if !ev.arbiters.contains(&arbiter.id) || !has_role(&*app.store, &arbiter, "arbiter").await? {
        return Err(ApiError::forbidden(
            "not_arbiter",
            "only an arbiter of this event may do that",
        ));
    }
    let user = account(app, name).await?;
    if ev.player(user.id).is_none() {
        return Err(ApiError::bad_request(
            "not_in_event",
            format!("{} does not play in this event", user.username),
        ));
    }
    Ok((arbiter, user))
}

/// `POST /api/event/{id}/mute` `{"user", "seconds", "reason"}`: an arbiter
/// of the event mutes one of its players (everywhere, for that long).
pub async fn event_mute(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Path(id): Path<String>,
    Json(req): Json<MuteReq>,
) -> ApiResult<Json<MuteDone>> {
    let (arbiter, _) = arbiter_and_player(&app, &headers, &id, &req.user).await?;
    mute(&app, &arbiter, req, Some(&id)).await
}

/// `POST /api/event/{id}/unmute` `{"user"}`: an arbiter of the event lifts
/// the event's mutes of one of its players (an admin's stay).
pub async fn event_unmute(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Path(id): Path<String>,
    Json(req): Json<UnmuteReq>,
) -> ApiResult<Json<MuteDone>> {
    let (_, user) = arbiter_and_player(&app, &headers, &id, &req.user).await?;
    app.store
        .lift_mutes(user.id, Some(&id), crate::now_ms())
        .await?;
    let until = crate::authority::muted_until(&*app.store, user.id).await?;
    Ok(Json(MuteDone {
        user: user.username,
        until,
    }))
}
