//! The events' HTTP API (see docs/protocol.md, "Events"): list, create and
//! change events (organisers), register, withdraw and request byes (players),
//! name arbiters (the organiser) and act as one, read an event with its
//! pairings, standings, crosstable and report, and its TRF file.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use qiyuan_store::{Store, StoreError, User};
use serde::Deserialize;
use serde_json::{Value, json};

use super::{EventConfig, EventData, load};
use crate::App;
use crate::authority::{admin_only, has_role};
use crate::error::{ApiError, ApiResult, Json, Query};
use crate::registry::Games;

/// Whether `user` holds `role` now: read from the store at every act, so a
/// role taken away stops acting at once.
async fn event_or_404(store: &dyn Store, id: &str) -> Result<EventData, ApiError> {
    load(store, id)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("no event {id}")))
}

/// The event's organiser, while they still hold the organiser role.
async fn organiser_only(store: &dyn Store, ev: &EventData, user: &User) -> Result<(), ApiError> {
    if ev.row.organiser != user.id || !has_role(store, user, "organiser").await? {
        return Err(ApiError::forbidden(
            "not_organiser",
            "only the event's organiser may change it",
        ));
    }
    Ok(())
}

/// `403 arbiter_plays`: an arbiter of an event neither plays in it nor acts
/// on a game of their own.
pub(super) fn arbiter_plays(message: &str) -> ApiError {
    ApiError::forbidden("arbiter_plays", message)
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ListQuery {
    #[serde(default)]
    status: Option<String>,
    #[serde(default)]
    game: Option<String>,
}

/// `GET /api/events?status=&game=`: events, newest first.
pub async fn list(
    State(app): State<Arc<App>>,
    Query(q): Query<ListQuery>,
) -> ApiResult<Json<Value>> {
    let rows = app.store.events_list(q.status.as_deref(), 200).await?;
    let mut out = Vec::new();
    for row in rows {
        if q.game.as_ref().is_some_and(|g| *g != row.game) {
            continue;
        }
        let config: Value = serde_json::from_str(&row.config).unwrap_or(Value::Null);
        out.push(json!({
            "id": row.id,
            "name": config["name"],
            "game": row.game,
            "status": row.status,
            "end": ended(&row),
            "rounds": config["rounds"],
            "starts_at": config["starts_at"],
            "time": config["time"],
        }));
    }
    Ok(Json(Value::Array(out)))
}

/// `POST /api/events`: an organiser creates an event.
pub async fn create(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Json(config): Json<EventConfig>,
) -> ApiResult<Response> {
    let user = app.accounts.require_user(&headers).await?;
    if !has_role(&*app.store, &user, "organiser").await? {
        return Err(ApiError::forbidden(
            "not_organiser",
            "only an organiser may create events",
        ));
    }
    config.check(&app.games)?;
    let now = crate::now_ms();
    let id = crate::live::new_id();
    let row = qiyuan_store::EventRow {
        id: id.clone(),
        organiser: user.id,
        game: config.game.clone(),
        config: serde_json::to_string(&config).map_err(ApiError::internal)?,
        status: "registering".into(),
        created_at: now,
        end_reason: None,
        updated_at: now,
    };
    app.store.create_event(&row).await?;
    Ok((
        StatusCode::CREATED,
        Json(json!({"id": id, "url": format!("/event/{id}")})),
    )
        .into_response())
}

/// `PATCH /api/event/{id}`: the organiser replaces the settings before the
/// event starts (the name, the schedule and the players' chat also after).
pub async fn change(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Path(id): Path<String>,
    Json(config): Json<EventConfig>,
) -> ApiResult<Json<Value>> {
    let user = app.accounts.require_user(&headers).await?;
    let ev = event_or_404(&*app.store, &id).await?;
    organiser_only(&*app.store, &ev, &user).await?;
    config.check(&app.games)?;
    // Paused and resumed by their own endpoints only.
    let mut config = config;
    config.paused = ev.config.paused;
    if ev.row.status != "registering" {
        // Once under way only what does not change the games may change.
        let mut same = config.clone();
        same.name = ev.config.name.clone();
        same.schedule = ev.config.schedule.clone();
        same.players_chat = ev.config.players_chat;
        if same != ev.config {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                "event_started",
                "once the event has started only its name, schedule and players' chat may change",
            ));
        }
    }
    let text = serde_json::to_string(&config).map_err(ApiError::internal)?;
    app.store
        .update_event(&id, &text, &ev.row.status, crate::now_ms())
        .await?;
    Ok(Json(json!({"id": id})))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArbiterReq {
    user: String,
    /// `table` (监局裁判, the default) or `chief` (裁判长).
    #[serde(default = "table_role")]
    role: String,
}

fn table_role() -> String {
    "table".into()
}

/// `POST /api/event/{id}/arbiters`: the organiser names an arbiter (an
/// account with the arbiter role) as a table arbiter or the chief arbiter.
pub async fn add_arbiter(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Path(id): Path<String>,
    Json(req): Json<ArbiterReq>,
) -> ApiResult<Json<Value>> {
    let user = app.accounts.require_user(&headers).await?;
    let ev = event_or_404(&*app.store, &id).await?;
    organiser_only(&*app.store, &ev, &user).await?;
    let arbiter = app
        .store
        .user_by_name(&req.user)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("no account {}", req.user)))?;
    if !has_role(&*app.store, &arbiter, "arbiter").await? {
        return Err(ApiError::bad_request(
            "not_arbiter",
            format!("{} does not hold the arbiter role", arbiter.username),
        ));
    }
    if ev.player(arbiter.id).is_some() {
        return Err(arbiter_plays(&format!(
            "{} is registered in this event: a player cannot arbitrate it",
            arbiter.username
        )));
    }
    if req.role != "table" && req.role != "chief" {
        return Err(ApiError::bad_request(
            "bad_role",
            "an arbiter's role is table or chief",
        ));
    }
    // One chief arbiter: naming another makes the previous one a table
    // arbiter.
    if req.role == "chief" {
        for old in ev.chiefs.iter().filter(|c| **c != arbiter.id) {
            app.store.add_arbiter(&id, *old, "table").await?;
        }
    }
    app.store.add_arbiter(&id, arbiter.id, &req.role).await?;
    Ok(Json(
        json!({"id": id, "arbiter": arbiter.username, "role": req.role}),
    ))
}

/// `409 event_finished`: a finished event changes no more.
fn finished() -> ApiError {
    ApiError::new(
        StatusCode::CONFLICT,
        "event_finished",
        "the event has finished",
    )
}

/// The event `id` for its organiser to run: not finished.
async fn to_run(app: &App, headers: &HeaderMap, id: &str) -> Result<EventData, ApiError> {
    let user = app.accounts.require_user(headers).await?;
    let ev = event_or_404(&*app.store, id).await?;
    organiser_only(&*app.store, &ev, &user).await?;
    if ev.row.status == "finished" {
        return Err(finished());
    }
    Ok(ev)
}

/// The event `id` for its organiser to run before its start: `409
/// event_started`, saying `why`, once it has started.
async fn before_start(
    app: &App,
    headers: &HeaderMap,
    id: &str,
    why: &str,
) -> Result<EventData, ApiError> {
    let ev = to_run(app, headers, id).await?;
    if ev.row.status != "registering" {
        return Err(ApiError::new(StatusCode::CONFLICT, "event_started", why));
    }
    Ok(ev)
}

/// Stores `config` as event `ev`'s settings, its status unchanged.
async fn store_config(app: &App, ev: &EventData, config: &EventConfig) -> Result<(), ApiError> {
    let text = serde_json::to_string(config).map_err(ApiError::internal)?;
    app.store
        .update_event(&ev.row.id, &text, &ev.row.status, crate::now_ms())
        .await?;
    Ok(())
}

/// What the organiser's controls answer: the event's state after the act.
fn run_state(ev: &EventData, config: &EventConfig, status: &str) -> Json<Value> {
    Json(run_json(ev, config, status))
}

fn run_json(ev: &EventData, config: &EventConfig, status: &str) -> Value {
    json!({
        "id": ev.row.id,
        "status": status,
        "paused": config.paused,
        "rounds": config.rounds,
        "paired": ev.paired(),
        "registration_opens": config.registration_opens,
        "registration_closes": config.registration_closes,
        "starts_at": config.starts_at,
    })
}

/// `POST /api/event/{id}/open`: the organiser opens registration now (before
/// the start): registration opens at once and a closing time already past is
/// dropped.
pub async fn open_registration(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    let ev = before_start(
        &app,
        &headers,
        &id,
        "the event has started: late entries follow late_entry_until_round",
    )
    .await?;
    let now = crate::now_ms();
    let mut config = ev.config.clone();
    config.registration_opens = Some(now);
    if config.registration_closes.is_some_and(|t| t <= now) {
        config.registration_closes = None;
    }
    store_config(&app, &ev, &config).await?;
    Ok(run_state(&ev, &config, &ev.row.status))
}

/// `POST /api/event/{id}/start`: the organiser starts the event now (round 1
/// is paired at the schedule's next tick); a paused schedule is resumed.
pub async fn start(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    let ev = before_start(&app, &headers, &id, "the event has started already").await?;
    let now = crate::now_ms();
    let mut config = ev.config.clone();
    config.starts_at = now;
    config.paused = false;
    if let super::Schedule::Fixed { times } = &mut config.schedule
        && let Some(first) = times.first_mut()
    {
        *first = (*first).min(now);
    }
    store_config(&app, &ev, &config).await?;
    Ok(run_state(&ev, &config, &ev.row.status))
}

/// `POST /api/event/{id}/pause` and `/resume`: the organiser pauses the
/// schedule (no round is paired, a round being played goes on) or resumes
/// it (the next round follows as the schedule says, at once if it is due).
pub async fn pause(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    set_paused(&app, &headers, &id, true).await
}

pub async fn resume(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    set_paused(&app, &headers, &id, false).await
}

async fn set_paused(
    app: &App,
    headers: &HeaderMap,
    id: &str,
    paused: bool,
) -> ApiResult<Json<Value>> {
    let ev = to_run(app, headers, id).await?;
    let mut config = ev.config.clone();
    config.paused = paused;
    store_config(app, &ev, &config).await?;
    Ok(run_state(&ev, &config, &ev.row.status))
}

/// `POST /api/event/{id}/rounds`: the organiser adds a round (at most 50).
pub async fn add_round(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    let ev = to_run(&app, &headers, &id).await?;
    let mut config = ev.config.clone();
    config.rounds += 1;
    config.check(&app.games)?;
    store_config(&app, &ev, &config).await?;
    Ok(run_state(&ev, &config, &ev.row.status))
}

/// `POST /api/event/{id}/end`: the organiser ends the event: at once when no
/// round is being played (reason `organiser`), else no round follows the one
/// being played, and the event ends with it (reason `rounds_played`).
pub async fn end(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    let ev = to_run(&app, &headers, &id).await?;
    let paired = ev.paired();
    let mut config = ev.config.clone();
    if paired > 0 {
        // No round after those paired, whatever the schedule does next.
        config.rounds = paired as u32;
        store_config(&app, &ev, &config).await?;
    }
    if let Some(round) = ev.current() {
        let mut state = run_json(&ev, &config, &ev.row.status);
        state["ends_after_round"] = json!(round.round);
        return Ok(Json(state));
    }
    let now = crate::now_ms();
    let msg = crate::protocol::out::EventEndedMsg {
        event: ev.row.id.clone(),
        name: ev.config.name.clone(),
        reason: "organiser".into(),
        rounds: paired,
        detail: format!("the organiser ended the event after {paired} rounds"),
        at: now,
    };
    let stored = serde_json::to_string(&msg).map_err(ApiError::internal)?;
    if app.store.end_event(&ev.row.id, &stored, now).await? {
        tracing::info!(event = %ev.row.id, rounds = paired, "event ended by its organiser");
        let mut told: Vec<i64> = ev.players.iter().map(|p| p.user_id).collect();
        told.push(ev.row.organiser);
        told.extend(&ev.arbiters);
        told.sort_unstable();
        told.dedup();
        for user in told {
            app.hall.notify(
                user,
                crate::protocol::out::Notification::EventEnded(msg.clone()),
            );
        }
    }
    Ok(run_state(&ev, &config, "finished"))
}

/// `GET /api/event/{id}/presence`: for the event's organiser and arbiters,
/// each player's presence now (before a round: who is here), on every node.
pub async fn presence(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    let user = app.accounts.require_user(&headers).await?;
    let ev = event_or_404(&*app.store, &id).await?;
    let organiser =
        ev.row.organiser == user.id && has_role(&*app.store, &user, "organiser").await?;
    let arbiter = ev.arbiters.contains(&user.id) && has_role(&*app.store, &user, "arbiter").await?;
    if !organiser && !arbiter {
        return Err(ApiError::forbidden(
            "not_event_staff",
            "only the event's organiser and arbiters see its players' presence",
        ));
    }
    let people: Vec<(i64, &str)> = ev
        .players
        .iter()
        .map(|p| (p.user_id, p.username.as_str()))
        .collect();
    let seen = crate::relations_of(&app).presence_of(&people);
    let players: Vec<Value> = ev
        .players
        .iter()
        .zip(seen)
        .map(|(p, seen)| {
            let here = seen != crate::protocol::relations::Presence::Offline;
            json!({
                "user": p.username,
                "online": here,
                "presence": seen,
                "withdrawn": p.withdrawn,
                "disqualified": p.disqualified,
            })
        })
        .collect();
    Ok(Json(json!({"id": id, "players": players})))
}

/// The rating a player enters with: their rating in the event's pool.
async fn rating_of(
    store: &dyn Store,
    games: &Games,
    ev: &EventData,
    user: &User,
) -> Result<i64, ApiError> {
    let pool = games
        .get(&ev.config.game)
        .map(|g| g.pool(ev.config.time.speed()))
        .unwrap_or_default();
    Ok(store
        .rating(user.id, &pool)
        .await?
        .map(|r| r.rating.round() as i64)
        .unwrap_or(qiyuan_rating::DEFAULT_RATING as i64))
}

/// `POST /api/event/{id}/register`: the player enters (a late entry once the
/// event has started, while it allows them).
pub async fn register(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    let user = app.accounts.require_user(&headers).await?;
    if user.guest {
        return Err(ApiError::forbidden(
            "guest",
            "guests cannot enter events: register an account",
        ));
    }
    if has_role(&*app.store, &user, "banned").await? {
        return Err(ApiError::forbidden("banned", "this account is banned"));
    }
    let ev = event_or_404(&*app.store, &id).await?;
    if ev.arbiters.contains(&user.id) {
        return Err(arbiter_plays(
            "you are an arbiter of this event: an arbiter cannot play in it",
        ));
    }
    let now = crate::now_ms();
    let closed = || {
        ApiError::new(
            StatusCode::CONFLICT,
            "registration_closed",
            "registration is closed",
        )
    };
    let joined_round = match ev.row.status.as_str() {
        "registering" => {
            if ev.config.registration_opens.is_some_and(|t| now < t)
                || ev.config.registration_closes.is_some_and(|t| now > t)
            {
                return Err(closed());
            }
            1
        }
        "running" => {
            let next = ev.paired() + 1;
            match ev.config.late_entry_until_round {
                Some(until) if next <= i64::from(until) => next,
                _ => return Err(closed()),
            }
        }
        _ => return Err(closed()),
    };
    let rating = rating_of(&*app.store, &app.games, &ev, &user).await?;
    match &ev.config.entry {
        super::Entry::Open => {}
        super::Entry::Rating { min, max } => {
            if min.is_some_and(|m| rating < m) || max.is_some_and(|m| rating > m) {
                return Err(ApiError::forbidden(
                    "rating_out_of_range",
                    format!("your rating {rating} is outside the event's range"),
                ));
            }
        }
        super::Entry::Invitation { users } => {
            if !users.iter().any(|u| u.eq_ignore_ascii_case(&user.username)) {
                return Err(ApiError::forbidden(
                    "not_invited",
                    "this event is by invitation",
                ));
            }
        }
    }
    let rank = match app
        .store
        .add_event_player(&id, user.id, Some(rating), joined_round, now)
        .await
    {
        Ok(rank) => rank,
        Err(StoreError::Conflict(_)) => {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                "already_registered",
                "you are registered already",
            ));
        }
        Err(e) => return Err(e.into()),
    };
    Ok(Json(
        json!({"id": id, "start_rank": rank, "joined_round": joined_round, "rating": rating}),
    ))
}

/// `POST /api/event/{id}/withdraw`: the player leaves: no later pairings (a
/// game being played goes on).
pub async fn withdraw(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    let user = app.accounts.require_user(&headers).await?;
    let ev = event_or_404(&*app.store, &id).await?;
    let p = ev
        .player(user.id)
        .ok_or_else(|| ApiError::not_found("you are not registered"))?;
    app.store
        .set_event_player(&id, user.id, true, p.disqualified)
        .await?;
    Ok(Json(json!({"id": id, "withdrawn": true})))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ByeReq {
    round: i64,
    /// `half` or `zero`.
    kind: String,
}

/// `POST /api/event/{id}/bye`: the player asks not to be paired in a round
/// not yet paired, for half a point or none.
pub async fn bye(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Path(id): Path<String>,
    Json(req): Json<ByeReq>,
) -> ApiResult<Json<Value>> {
    let user = app.accounts.require_user(&headers).await?;
    let ev = event_or_404(&*app.store, &id).await?;
    if ev.config.kind.at_tables_of_three() {
        return Err(ApiError::bad_request(
            "bad_event",
            "byes are for Swiss events (at tables of three the lowest sit out by the rules)",
        ));
    }
    if ev.player(user.id).is_none() {
        return Err(ApiError::not_found("you are not registered"));
    }
    if req.round <= ev.paired() || req.round > i64::from(ev.config.rounds) {
        return Err(ApiError::bad_request(
            "bad_round",
            format!(
                "byes are for rounds {} to {} (not yet paired)",
                ev.paired() + 1,
                ev.config.rounds
            ),
        ));
    }
    let kind = match req.kind.as_str() {
        "half" => "H",
        "zero" => "Z",
        _ => return Err(ApiError::bad_request("bad_bye", "a bye is half or zero")),
    };
    app.store.request_bye(&id, user.id, req.round, kind).await?;
    Ok(Json(
        json!({"id": id, "round": req.round, "kind": req.kind}),
    ))
}

/// `POST /api/event/{id}/action`: an arbiter of the event acts.
pub async fn action(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Path(id): Path<String>,
    Json(req): Json<super::arbiter::ActionRequest>,
) -> ApiResult<Json<super::arbiter::ActionDone>> {
    let user = app.accounts.require_user(&headers).await?;
    Ok(Json(
        super::arbiter::act(&*app.store, &app.hall, &user, &id, req).await?,
    ))
}

/// Why an event ended (null while it has not): the stored reason.
fn ended(row: &qiyuan_store::EventRow) -> Value {
    row.end_reason
        .as_deref()
        .and_then(|r| serde_json::from_str(r).ok())
        .unwrap_or(Value::Null)
}

/// `GET /api/event/{id}`: the event, its players, pairings per round (with
/// their tables), standings, crosstable and the arbiters' report.
pub async fn show(State(app): State<Arc<App>>, Path(id): Path<String>) -> ApiResult<Json<Value>> {
    let ev = event_or_404(&*app.store, &id).await?;
    Ok(Json(view(&*app.store, &ev).await?))
}

/// The event `id` as `GET /api/event/{id}` shows it (`None`: no such event).
pub async fn public_view(store: &dyn Store, id: &str) -> Result<Option<Value>, ApiError> {
    match load(store, id).await? {
        Some(ev) => Ok(Some(view(store, &ev).await?)),
        None => Ok(None),
    }
}

async fn view(store: &dyn Store, ev: &EventData) -> Result<Value, ApiError> {
    let players: Vec<Value> = ev
        .players
        .iter()
        .map(|p| {
            json!({
                "user": p.username,
                "start_rank": p.start_rank,
                "rating": p.rating,
                "joined_round": p.joined_round,
                "withdrawn": p.withdrawn,
                "disqualified": p.disqualified,
            })
        })
        .collect();
    let result = |s: &Option<String>| match s.as_deref() {
        None => Value::Null,
        Some(s) => Value::String(s.to_string()),
    };
    let rounds: Vec<Value> = ev
        .rounds
        .iter()
        .map(|r| {
            let games: Vec<Value> = ev
                .games_of(r.round)
                .map(|g| {
                    json!({
                        "board": g.board,
                        "white": ev.name_of(g.white),
                        "black": g.black.map(|b| ev.name_of(b)),
                        "table": g.table_id,
                        "link": g.table_id.as_ref().map(|t| format!("/table/{t}")),
                        "white_result": result(&g.white_result),
                        "black_result": result(&g.black_result),
                    })
                })
                .collect();
            let byes: Vec<Value> = ev
                .byes
                .iter()
                .filter(|b| b.round == r.round)
                .map(|b| json!({"user": ev.name_of(b.user_id), "kind": b.kind}))
                .collect();
            let mut round = json!({
                "round": r.round,
                "starts_at": r.starts_at,
                "finished_at": r.finished_at,
                "games": games,
                "byes": byes,
            });
            if ev.config.kind.at_tables_of_three() {
                round["tables"] = tables_of_round(ev, r.round);
            }
            round
        })
        .collect();
    let mut names = std::collections::HashMap::new();
    for a in &ev.arbiters {
        if let Some(u) = store.user(*a).await? {
            names.insert(*a, u.username);
        }
    }
    let rows = store.event_actions(&ev.row.id).await?;
    // A table arbiter's referrals, each with the chief's decision (null:
    // open).
    let referrals: Vec<Value> = rows
        .iter()
        .filter(|a| a.kind == "refer")
        .map(|r| {
            let decision = rows
                .iter()
                .find(|d| d.kind == "decide" && super::arbiter::referral_of(d) == Some(r.id))
                .map(|d| {
                    let detail: Value = d
                        .detail
                        .as_deref()
                        .and_then(|x| serde_json::from_str(x).ok())
                        .unwrap_or(Value::Null);
                    json!({
                        "id": d.id,
                        "text": d.reason,
                        "by": names.get(&d.arbiter).cloned(),
                        "action": detail["action"],
                        "action_id": detail["action_id"],
                        "at": d.at,
                    })
                });
            json!({
                "id": r.id,
                "player": ev.name_of(r.user_id),
                "by": names.get(&r.arbiter).cloned(),
                "text": r.reason,
                "round": r.round,
                "board": r.board,
                "at": r.at,
                "open": decision.is_none(),
                "decision": decision,
            })
        })
        .collect();
    let actions: Vec<Value> = rows
        .into_iter()
        .map(|a| {
            let detail: Value = a
                .detail
                .as_deref()
                .and_then(|d| serde_json::from_str(d).ok())
                .unwrap_or(Value::Null);
            // The server's own acts (the late-arrival forfeit) are the
            // system's: `by` says who acted, `system` or `arbiter`.
            let system = detail["system"] == true;
            json!({
                "id": a.id,
                "kind": a.kind,
                "player": ev.name_of(a.user_id),
                "by": if system { "system" } else { "arbiter" },
                "arbiter": if system { None } else { names.get(&a.arbiter).cloned() },
                // A result's change: before (null: none yet) and after, as
                // records write it (`1-0`), and the TRF codes after.
                "result": if detail["after"].is_null() { Value::Null } else {
                    json!({
                        "before": detail["before"],
                        "after": detail["after"],
                        "white": detail["white"],
                        "black": detail["black"],
                    })
                },
                "reason": a.reason,
                "round": a.round,
                "board": a.board,
                "at": a.at,
            })
        })
        .collect();
    let organiser = store.user(ev.row.organiser).await?.map(|u| u.username);
    let three = ev.config.kind.at_tables_of_three();
    Ok(json!({
        "id": ev.row.id,
        "status": ev.row.status,
        // Why it ended, once it has: {reason, rounds, detail, at}.
        "end": ended(&ev.row),
        "organiser": organiser,
        "arbiters": ev.arbiters.iter().filter_map(|a| names.get(a)).collect::<Vec<_>>(),
        // Each arbiter's role: `table` (监局裁判) or `chief` (裁判长).
        "arbiter_roles": ev.arbiters.iter().filter_map(|a| names.get(a).map(|n| json!({
            "user": n,
            "role": if ev.chiefs.contains(a) { "chief" } else { "table" },
        }))).collect::<Vec<_>>(),
        "chief": ev.chiefs.first().and_then(|c| names.get(c)),
        "referrals": referrals,
        "config": ev.config,
        "current_round": ev.current().map(|r| r.round),
        "players": players,
        "rounds": rounds,
        "standings": if ev.config.kind == super::EventKind::Duplicate {
            ev.duplicate_standings()
        } else if three {
            serde_json::to_value(ev.card_standings()).map_err(ApiError::internal)?
        } else {
            serde_json::to_value(ev.standings()).map_err(ApiError::internal)?
        },
        "crosstable": if three { json!([]) } else {
            serde_json::to_value(ev.crosstable()).map_err(ApiError::internal)?
        },
        "actions": actions,
    }))
}

/// A round's tables of three: each table's players in seat order, its hands
/// (seats, table, scores by seat; never the deal) and its players' scores
/// over the round's hands.
fn tables_of_round(ev: &EventData, round: i64) -> Value {
    let tables: Vec<Value> = ev
        .tables
        .iter()
        .filter(|t| t.round == round)
        .map(|t| {
            let seats = super::seats_of(&t.seats);
            let mut total: std::collections::HashMap<i64, i64> =
                seats.iter().map(|u| (*u, 0)).collect();
            let hands: Vec<Value> = ev
                .hands
                .iter()
                .filter(|h| h.round == round && h.board == t.board)
                .map(|h| {
                    // A duplicate board nobody may see yet: its hand is only
                    // a number (its seats are the schedule's, no secret).
                    if ev.config.kind == super::EventKind::Duplicate
                        && !ev.published((h.hand - 1).max(0) as usize)
                    {
                        return json!({"hand": h.hand, "finished": h.scores.is_some()});
                    }
                    let hs = super::seats_of(&h.seats);
                    let scores: Option<Vec<i64>> = h
                        .scores
                        .as_deref()
                        .and_then(|s| serde_json::from_str(s).ok());
                    if let Some(sc) = &scores {
                        for (u, s) in hs.iter().zip(sc) {
                            *total.entry(*u).or_default() += s;
                        }
                    }
                    json!({
                        "hand": h.hand,
                        "seats": hs.iter().map(|u| ev.name_of(*u)).collect::<Vec<_>>(),
                        "table": h.table_id,
                        "link": h.table_id.as_ref().map(|t| format!("/table/{t}")),
                        "scores": scores,
                    })
                })
                .collect();
            json!({
                "board": t.board,
                "players": seats.iter().map(|u| ev.name_of(*u)).collect::<Vec<_>>(),
                "round_scores": seats.iter().map(|u| total.get(u).copied().unwrap_or(0)).collect::<Vec<_>>(),
                "hands": hands,
            })
        })
        .collect();
    Value::Array(tables)
}

/// `GET /event/{id}.trf`: the event's TRF-16 file now.
/// Any other `/event/...` path is the web client's event page.
pub async fn trf(
    State(app): State<Arc<App>>,
    Path(file): Path<String>,
    uri: axum::http::Uri,
    headers: axum::http::HeaderMap,
) -> ApiResult<Response> {
    if let Some(id) = file.strip_suffix(".csv") {
        let ev = duplicate_or_404(&*app.store, id).await?;
        return Ok((
            [(header::CONTENT_TYPE, "text/csv; charset=utf-8")],
            ev.duplicate_csv(),
        )
            .into_response());
    }
    if let Some(id) = file.strip_suffix(".json") {
        let ev = duplicate_or_404(&*app.store, id).await?;
        return Ok(Json(comparison(&*app.store, &ev).await?).into_response());
    }
    let Some(id) = file.strip_suffix(".trf") else {
        return Ok(crate::web::serve(uri, headers).await);
    };
    let ev = event_or_404(&*app.store, id).await?;
    if ev.config.kind.at_tables_of_three() {
        return Err(ApiError::bad_request(
            "bad_event",
            "a TRF file is a Swiss event's",
        ));
    }
    Ok((
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        ev.trf(),
    )
        .into_response())
}

async fn duplicate_or_404(store: &dyn Store, id: &str) -> Result<EventData, ApiError> {
    let ev = event_or_404(store, id).await?;
    if ev.config.kind != super::EventKind::Duplicate {
        return Err(ApiError::not_found("not a duplicate event"));
    }
    Ok(ev)
}

/// A duplicate event's comparison and standings over its published boards:
/// `GET /event/{id}.json` (docs/api.md). A board not yet finished at every
/// table is only its number.
async fn comparison(store: &dyn Store, ev: &EventData) -> Result<Value, ApiError> {
    let mut records = std::collections::HashMap::new();
    for h in &ev.hands {
        if h.round == 1
            && ev.published((h.hand - 1).max(0) as usize)
            && let Some(table) = &h.table_id
            && let Some(game) = store.game(table).await?
            && let Some(record) = game.record.as_deref()
            && let Ok(record) = serde_json::from_str::<Value>(record)
        {
            records.insert(table.clone(), record);
        }
    }
    let mut out = ev.comparison(&|t: &str| records.get(t).cloned());
    out["event"] = json!(ev.row.id);
    out["name"] = json!(ev.config.name);
    out["status"] = json!(ev.row.status);
    out["standings"] = ev.duplicate_standings();
    Ok(out)
}

// ---- the operator's basics, for accounts with the admin role ----

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoleReq {
    user: String,
    role: String,
    /// Grant (default) or take away.
    #[serde(default = "yes")]
    grant: bool,
}

fn yes() -> bool {
    true
}

/// `POST /api/admin/role`: an admin grants or takes away a role (`organiser`,
/// `arbiter`, `banned`, `muted`; `admin` only from the command line). A ban
/// ends the account's sessions and closes its sockets and API streams at once,
/// on every node.
pub async fn admin_role(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Json(req): Json<RoleReq>,
) -> ApiResult<Json<Value>> {
    admin_only(&*app.store, &app.accounts.require_user(&headers).await?).await?;
    if req.role == "admin" || !super::ROLES.contains(&req.role.as_str()) {
        return Err(ApiError::bad_request(
            "bad_role",
            "roles: organiser, arbiter, banned, muted",
        ));
    }
    let user = app
        .store
        .user_by_name(&req.user)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("no account {}", req.user)))?;
    if req.grant {
        super::grant(&*app.store, &user.username, &req.role)
            .await
            .map_err(|e| ApiError::bad_request("bad_role", e.to_string()))?;
        if req.role == "banned" {
            app.authority
                .end(crate::authority::Ended::Banned { user: user.id })
                .await;
        }
    } else {
        app.store.revoke_role(user.id, &req.role).await?;
    }
    Ok(Json(
        json!({"user": user.username, "roles": app.store.roles(user.id).await?}),
    ))
}

/// `POST /api/admin/table/{id}/close`: an admin closes a table: a game being
/// played there ends without result, and the table is not rebuilt again (it
/// leaves the lobby once nobody is at it).
pub async fn admin_close_table(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    admin_only(&*app.store, &app.accounts.require_user(&headers).await?).await?;
    app.store
        .table(&id)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("no table {id}")))?;
    let ended = super::hall::internal(
        &app.tables,
        &id,
        vec![qiyuan_table::Command::Decide {
            decision: qiyuan_table::Decision::Void,
        }],
    )
    .await
    .is_ok();
    app.store.close_table(&id).await?;
    Ok(Json(
        json!({"table": id, "closed": true, "game_ended": ended}),
    ))
}

/// `GET /api/events/me`: the event roles the caller holds (the web client
/// offers the organiser's pages to organisers).
pub async fn my_roles(State(app): State<Arc<App>>, headers: HeaderMap) -> ApiResult<Json<Value>> {
    let user = app.accounts.require_user(&headers).await?;
    let roles = app.store.roles(user.id).await?;
    let has = |r: &str| roles.iter().any(|x| x == r);
    Ok(Json(json!({
        "organiser": has("organiser") && !user.guest,
        "arbiter": has("arbiter") && !user.guest,
    })))
}

/// `GET /api/events/my-game`: the caller's game being played in a running
/// event, if any (the banner on every page of the web client).
pub async fn my_game(State(app): State<Arc<App>>, headers: HeaderMap) -> ApiResult<Json<Value>> {
    let user = app.accounts.require_user(&headers).await?;
    for row in app.store.events_list(Some("running"), 200).await? {
        let Some(ev) = load(&*app.store, &row.id).await? else {
            continue;
        };
        let Some(round) = ev.current() else { continue };
        if ev.config.kind.at_tables_of_three() {
            // The hand being played at the player's table of three.
            let hand = ev.hands.iter().find_map(|h| {
                let seat = super::seats_of(&h.seats)
                    .iter()
                    .position(|u| *u == user.id)?;
                (h.round == round.round && h.scores.is_none() && h.table_id.is_some())
                    .then_some((h, seat))
            });
            if let Some((h, seat)) = hand {
                return Ok(Json(json!({
                    "event": ev.row.id,
                    "name": ev.config.name,
                    "round": h.round,
                    "board": h.board,
                    "hand": h.hand,
                    "table": h.table_id,
                    "seat": seat,
                })));
            }
            continue;
        }
        let game = ev.games_of(round.round).find(|g| {
            (g.white == user.id || g.black == Some(user.id))
                && g.black.is_some()
                && g.white_result.is_none()
                && g.table_id.is_some()
        });
        if let Some(g) = game {
            return Ok(Json(json!({
                "event": ev.row.id,
                "name": ev.config.name,
                "round": g.round,
                "board": g.board,
                "table": g.table_id,
                "seat": if g.white == user.id { 0 } else { 1 },
            })));
        }
    }
    Ok(Json(Value::Null))
}
