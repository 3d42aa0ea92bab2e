//! Challenges between accounts: made (`POST /api/challenge/{username}`), listed,
//! accepted (an ordinary table with both seated and ready, whose id is the
//! challenge's), declined and canceled; each told to the other side's event
//! stream as Lichess's `ChallengeJson`.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use qiyuan_game::Seat;
use qiyuan_store::Store;
use qiyuan_table::{Command, Settings, TimeControl};
use serde::{Deserialize, Serialize};

use super::Api;
use super::events::{Source, started};
use super::forms::GameForm;
use super::games::variant_of;
use super::hub::{Challenge, Share};
use super::players::{ChallengeUser, Players};
use super::state::{Perf, Variant, color, speed_of};
use super::stream::{Error, Result, form, ok};
use crate::live::{self, TableHandle};
use crate::protocol::out::{ChallengeNote, Notification};

/// A challenge's time control as Lichess shows it.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
enum TimeControlJson {
    /// Seconds, and how Lichess writes it (`5+3`, `½+0`).
    Clock {
        limit: u64,
        increment: u64,
        show: String,
    },
    Correspondence {
        #[serde(rename = "daysPerTurn")]
        days_per_turn: u32,
    },
    Unlimited,
}

impl TimeControlJson {
    fn of(t: &TimeControl) -> Self {
        match *t {
            TimeControl::Fischer { base, increment } => TimeControlJson::Clock {
                limit: base / 1000,
                increment: increment / 1000,
                show: format!("{}+{}", show_minutes(base), increment / 1000),
            },
            TimeControl::Correspondence { days } => TimeControlJson::Correspondence {
                days_per_turn: days,
            },
            _ => TimeControlJson::Unlimited,
        }
    }
}

fn show_minutes(ms: u64) -> String {
    match ms {
        15_000 => "¼".into(),
        30_000 => "½".into(),
        45_000 => "¾".into(),
        90_000 => "1.5".into(),
        _ => (ms / 60_000).to_string(),
    }
}

/// Lichess's `ChallengeJson`.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct ChallengeJson {
    id: String,
    url: String,
    /// `created`, `declined` or `canceled`.
    status: &'static str,
    challenger: ChallengeUser,
    dest_user: ChallengeUser,
    variant: Option<Variant>,
    rated: bool,
    speed: &'static str,
    time_control: TimeControlJson,
    color: String,
    final_color: &'static str,
    perf: Perf,
    /// `in` (to the reader) or `out` (theirs), in the event stream and lists.
    #[serde(skip_serializing_if = "Option::is_none")]
    direction: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    decline_reason: Option<String>,
}

impl ChallengeJson {
    async fn of(players: Players<'_>, c: &Challenge, direction: Option<&'static str>) -> Self {
        let speed = speed_of(&c.time);
        let (challenger, dest) = (&c.challenger, &c.dest);
        let challenger = players.challenging(challenger.0, &challenger.1, &c.game, &c.time);
        let dest_user = players.challenging(dest.0, &dest.1, &c.game, &c.time);
        ChallengeJson {
            id: c.id.clone(),
            url: format!("/{}", c.id),
            status: "created",
            challenger: challenger.await,
            dest_user: dest_user.await,
            variant: variant_of(players.games, &c.game).map(|v| Variant::of(&v)),
            rated: c.rated,
            speed,
            time_control: TimeControlJson::of(&c.time),
            color: c.color.clone(),
            final_color: color(c.challenger_seat as usize),
            perf: Perf { name: speed.into() },
            direction,
            decline_reason: None,
        }
    }
}

/// An event of a challenge, for the event stream.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "type", rename_all = "camelCase")]
pub(super) enum ChallengeEvent {
    Challenge { challenge: ChallengeJson },
    ChallengeDeclined { challenge: ChallengeJson },
    ChallengeCanceled { challenge: ChallengeJson },
}

impl ChallengeEvent {
    /// `challenge`: `c`, as seen from direction `dir`.
    pub(super) async fn challenge(players: Players<'_>, c: &Challenge, dir: &'static str) -> Self {
        let challenge = ChallengeJson::of(players, c, Some(dir)).await;
        ChallengeEvent::Challenge { challenge }
    }
}

/// Notifies both sides of challenge `c` on every page they have open.
fn notify_both(
    api: &Api,
    c: &Challenge,
    kind: fn(ChallengeNote) -> Notification,
    table: Option<String>,
    reason: Option<String>,
) {
    let note = ChallengeNote {
        id: c.id.clone(),
        from: c.challenger.1.clone(),
        to: c.dest.1.clone(),
        game: c.game.clone(),
        rated: c.rated,
        time: c.time,
        color: c.color.clone(),
        table,
        reason,
    };
    api.people.notify(c.dest.0, kind(note.clone()));
    api.people.notify(c.challenger.0, kind(note));
}

/// `POST /api/challenge/{username}`.
pub async fn challenge(
    State(api): State<Arc<Api>>,
    headers: HeaderMap,
    Path(username): Path<String>,
    body: Bytes,
) -> Result<Response> {
    let caller = api.caller(&headers).await?;
    caller.require("challenge:write")?;
    let f: GameForm = form(&headers, &body)?;
    let game = f.game(&api.games)?;
    let dest = api
        .store
        .user_by_name(&crate::auth::normalize_username(&username))
        .await?
        .filter(|u| !u.guest)
        .ok_or_else(|| Error::not_found(format!("No such user {username}")))?;
    if dest.id == caller.user.id {
        return Err(Error::bad("You cannot challenge yourself"));
    }
    if crate::relations::is_blocked(&*api.store, dest.id, caller.user.id).await? {
        return Err(Error::forbidden(format!(
            "{} does not accept challenges from you",
            dest.username
        )));
    }
    if f.fen.as_ref().is_some_and(|s| !s.is_empty()) {
        return Err(Error::bad(
            "Challenges from a position are not supported here",
        ));
    }
    let rated = f.rated();
    if rated && caller.user.guest {
        return Err(Error::forbidden("Guests play casual games only"));
    }
    let dest_bot = api.store.is_bot(dest.id).await?;
    if rated && (caller.bot != dest_bot) && !api.config.bots_rated_with_humans {
        return Err(Error::bad(
            "Bot accounts play casual games only with humans here",
        ));
    }
    let time = f.time()?;
    let color = f.color.unwrap_or_else(|| "random".into());
    let challenger_seat = match color.as_str() {
        "white" => 0,
        "black" => 1,
        "random" => {
            use rand::Rng;
            rand::thread_rng().gen_range(0..2)
        }
        other => {
            return Err(Error::bad(format!(
                "color: white, black or random, not {other}"
            )));
        }
    };
    let mut c = Challenge {
        // Drawn below, under the lock: the game's id once accepted.
        id: String::new(),
        game: game.to_string(),
        challenger: (caller.user.id, caller.user.username.clone()),
        dest: (dest.id, dest.username.clone()),
        rated,
        time,
        color,
        challenger_seat,
        created_at: crate::now_ms(),
    };
    let share = api.share();
    {
        // Counted and stored under one lock, so that a burst of challenges
        // cannot pass the caps (on this node).
        let _one_at_a_time = CHALLENGING.lock().await;
        within_challenge_caps(share, &c).await?;
        c.id = challenge_id(&*api.store, share).await?;
        share.put_challenge(&c).await;
    }
    // A challenge nobody answers goes away.
    let expiry = std::time::Duration::from_secs_f64(api.config.challenge_secs.max(1.0));
    let (api2, id2) = (api.clone(), c.id.clone());
    tokio::spawn(async move {
        tokio::time::sleep(expiry).await;
        api2.share().expire_challenge(&id2).await;
    });
    notify_both(&api, &c, Notification::Challenge, None, None);
    let players = api.players();
    let to_dest = ChallengeEvent::challenge(players, &c, "in").await;
    share.tell(dest.id, &to_dest).await;
    let to_caller = ChallengeEvent::challenge(players, &c, "out").await;
    share.tell(caller.user.id, &to_caller).await;
    Ok(axum::Json(ChallengeJson::of(players, &c, None).await).into_response())
}

/// A new challenge's id, which is its game's id once accepted (as on Lichess,
/// where lichess-bot books its game slot under the challenge's id): a table
/// id (8 letters and digits, [`live::new_id`]) that no table, open or closed,
/// and no open challenge has.
async fn challenge_id(store: &dyn Store, share: Share<'_>) -> Result<String> {
    loop {
        let id = live::new_id();
        if store.table(&id).await?.is_none() && !share.challenge_open(&id).await {
            return Ok(id);
        }
    }
}

/// Challenges being counted and stored, one at a time (see [`challenge`]).
static CHALLENGING: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// Refuses challenge `c` when its challenger has `challenges_per_challenger`
/// open already, or its recipient `challenges_per_recipient` waiting (`[api]`;
/// 0: no cap).
async fn within_challenge_caps(share: Share<'_>, c: &Challenge) -> Result<()> {
    let api = share.config;
    let too_many = |message: String| {
        let mut e = Error::new(axum::http::StatusCode::TOO_MANY_REQUESTS, message);
        e.retry_after = Some(60);
        e
    };
    let (me, dest) = (c.challenger.0, c.dest.0);
    let mine = share.challenges_of(me).await;
    let open = mine.iter().filter(|x| x.challenger.0 == me).count();
    if api.challenges_per_challenger > 0 && open >= api.challenges_per_challenger {
        return Err(too_many(format!(
            "You have {open} open challenges (the most one account may): cancel one or wait for an answer"
        )));
    }
    let theirs = share.challenges_of(dest).await;
    let waiting = theirs.iter().filter(|x| x.dest.0 == dest).count();
    if api.challenges_per_recipient > 0 && waiting >= api.challenges_per_recipient {
        return Err(too_many(format!(
            "{} has {waiting} challenges waiting for an answer: try again later",
            c.dest.1
        )));
    }
    Ok(())
}

/// Lichess's `{"ok": true}` to an accepted challenge, with the game's id
/// beside it (the challenge's): the web client opens the table at once.
#[derive(Debug, Serialize)]
struct Accepted {
    ok: bool,
    game: String,
}

/// `POST /api/challenge/{id}/accept`: a table with both seated and ready,
/// whose id (the game's) is the challenge's;
/// refused (`429`, the challenge still open) when either player holds the
/// most tables one person may.
pub async fn accept(
    State(api): State<Arc<Api>>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Result<Response> {
    let caller = api.caller(&headers).await?;
    caller
        .require("challenge:write")
        .or_else(|_| caller.require("bot:play"))
        .or_else(|_| caller.require("board:play"))?;
    let share = api.share();
    let c = share
        .take_challenge(&id, |c| c.dest.0 == caller.user.id)
        .await
        .ok_or_else(|| Error::not_found("No such challenge"))?;
    let settings = Settings {
        time: c.time,
        options: serde_json::Value::Null,
        setup: qiyuan_game::Setup::Standard,
        rated: c.rated,
        takebacks: !c.rated,
    };
    let players = [c.challenger.1.as_str(), c.dest.1.as_str()];
    // The game has the challenge's id (Lichess's way: the challenge's `url`
    // is its game's), unless a table took that id meanwhile (a table made
    // elsewhere drew the same 8 characters): then a new one.
    let table_id = match api.store.table(&c.id).await {
        Ok(None) => c.id.clone(),
        _ => live::new_id(),
    };
    let made = live::create_seating_as(&api.live, table_id, &c.game, settings, &players).await;
    let (handle, _places) = match made {
        Ok(made) => made,
        Err(e) => {
            share.put_challenge(&c).await;
            return Err(e.into());
        }
    };
    let (first, second) = if c.challenger_seat == 0 {
        (&c.challenger.1, &c.dest.1)
    } else {
        (&c.dest.1, &c.challenger.1)
    };
    let cmds = vec![
        Command::Sit {
            user: first.clone(),
            seat: Seat(0),
        },
        Command::Sit {
            user: second.clone(),
            seat: Seat(1),
        },
        Command::Ready {
            user: first.clone(),
            proposal: None,
        },
        Command::Ready {
            user: second.clone(),
            proposal: None,
        },
    ];
    internal(&handle, cmds).await?;
    started(&api, &handle, Source::Friend).await;
    let table = Some(handle.id.clone());
    notify_both(&api, &c, Notification::ChallengeAccepted, table, None);
    Ok(axum::Json(Accepted {
        ok: true,
        game: handle.id,
    })
    .into_response())
}

/// `GET /api/challenge`'s answer.
#[derive(Debug, Serialize)]
struct ChallengeList {
    #[serde(rename = "in")]
    incoming: Vec<ChallengeJson>,
    out: Vec<ChallengeJson>,
}

/// `GET /api/challenge`: the caller's open challenges, `in` (to them) and `out`
/// (theirs), as Lichess lists them.
pub async fn list(State(api): State<Arc<Api>>, headers: HeaderMap) -> Result<Response> {
    let caller = api.caller(&headers).await?;
    caller.require("challenge:read")?;
    let me = caller.user.id;
    let players = api.players();
    let (mut incoming, mut out) = (Vec::new(), Vec::new());
    for c in &api.share().challenges_of(me).await {
        if c.dest.0 == me {
            incoming.push(ChallengeJson::of(players, c, Some("in")).await);
        } else {
            out.push(ChallengeJson::of(players, c, Some("out")).await);
        }
    }
    Ok(axum::Json(ChallengeList { incoming, out }).into_response())
}

async fn internal(handle: &TableHandle, cmds: Vec<Command>) -> Result<()> {
    handle.internal(cmds).await?.map_err(Error::bad)
}

/// What `POST /api/challenge/{id}/decline` takes.
#[derive(Debug, Deserialize)]
struct DeclineForm {
    reason: Option<String>,
}

/// `POST /api/challenge/{id}/decline` (by the challenged).
pub async fn decline(
    State(api): State<Arc<Api>>,
    headers: HeaderMap,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Response> {
    let caller = api.caller(&headers).await?;
    let f: DeclineForm = form(&headers, &body)?;
    let share = api.share();
    let c = share
        .take_challenge(&id, |c| c.dest.0 == caller.user.id)
        .await
        .ok_or_else(|| Error::not_found("No such challenge"))?;
    let mut challenge = ChallengeJson::of(api.players(), &c, Some("out")).await;
    challenge.status = "declined";
    let reason = f.reason.unwrap_or_else(|| "generic".into());
    challenge.decline_reason = Some(reason.clone());
    notify_both(
        &api,
        &c,
        Notification::ChallengeDeclined,
        None,
        Some(reason),
    );
    let event = ChallengeEvent::ChallengeDeclined { challenge };
    share.tell(c.challenger.0, &event).await;
    Ok(ok())
}

/// `POST /api/challenge/{id}/cancel` (by the challenger).
pub async fn cancel(
    State(api): State<Arc<Api>>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Result<Response> {
    let caller = api.caller(&headers).await?;
    let share = api.share();
    let c = share
        .take_challenge(&id, |c| c.challenger.0 == caller.user.id)
        .await
        .ok_or_else(|| Error::not_found("No such challenge"))?;
    let mut challenge = ChallengeJson::of(api.players(), &c, Some("in")).await;
    challenge.status = "canceled";
    notify_both(&api, &c, Notification::ChallengeCanceled, None, None);
    let event = ChallengeEvent::ChallengeCanceled { challenge };
    share.tell(c.dest.0, &event).await;
    Ok(ok())
}
