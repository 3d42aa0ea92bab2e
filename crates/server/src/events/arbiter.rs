//! Arbiters' actions on an event's games (seed 002), by role. A table arbiter
//! (监局裁判) watches the games: warning (警告), foul (犯规; the third in a game
//! loses it, by the table's rule), violation (违例; the third loses), a
//! position restored (第3条8: an illegal move found later), time added to or
//! removed from a clock, the clocks stopped and started again, and a case
//! referred to the chief. The chief arbiter (裁判长) may do all that, and
//! decides: a grave violation (情节严重: also disqualified), adjudication or
//! the correction of a result, forfeit, disqualification from the event
//! (取消比赛资格: no later pairings; a game in progress is lost), and the
//! decision on a referral (with one of those actions, or none). Until the
//! organiser names a chief, every arbiter of the event has the chief's powers.
//!
//! Only an arbiter of the event who still holds the arbiter role may act (the
//! role is read at each act), and never on a game they play. Every action has
//! a reason and a time, is stored in the event report, goes to both players'
//! sockets (`event.action`; a referral and its decision go to the arbiters
//! instead), and the ones that touch a live game are table commands, so they
//! are in the game's log and its events as well. An action on a live game
//! keeps the number of moves played when it happened (`ply` in its detail):
//! the game's record writes it there as a comment.
//!
//! At tables of three (points and duplicate events) the player's game is
//! their hand of the round: the hand being played at their table, else their
//! last hand of the round. The acts on a live game act on the hand's table as
//! on a board's; the chief's decisions are the hand's (a forfeit loses it as
//! the game scores a concession, `--` voids it); a finished hand's score
//! stands (no correction); a disqualified player's hand under way is played
//! out for them by the computer (托管). docs/card-events.md.

use qiyuan_game::Seat;
use qiyuan_store::{EventActionRow, EventGameRow, EventHandRow, Store, User, UserId};
use qiyuan_table::{Command, Decision};
use serde::Deserialize;

use super::hall::Hall;
use super::{EventData, load, seats_of};
use crate::error::ApiError;
use crate::protocol::ServerMsg;
use crate::protocol::out::{EventActionMsg, Notification};

/// An arbiter's request.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ActionRequest {
    /// `warning`, `foul`, `violation`, `adjudicate`, `forfeit`, `disqualify`.
    pub kind: String,
    /// The player it concerns (for `decide`: the referral's, if omitted).
    #[serde(default)]
    pub player: String,
    pub reason: String,
    /// The round (default: the current one, or the last).
    #[serde(default)]
    pub round: Option<i64>,
    /// For `adjudicate`: the result as White's and Black's points, `1-0`,
    /// `0-1` or `1/2-1/2` (a finished game's result is corrected).
    #[serde(default)]
    pub result: Option<String>,
    /// For `violation`: grave (情节严重) — the player is also disqualified.
    #[serde(default)]
    pub grave: bool,
    /// For `restore`: the number of moves of the game to keep (the position
    /// after them is restored).
    #[serde(default)]
    pub ply: Option<u32>,
    /// For `restore`: each seat's main time from then on, in seconds (White,
    /// Black); none: the clocks stand as they are.
    #[serde(default)]
    pub clocks: Option<Vec<f64>>,
    /// For `clock`: seconds added to the player's main time (negative:
    /// removed).
    #[serde(default)]
    pub seconds: Option<f64>,
    /// For `decide`: the referral decided (the `id` of its `refer` action).
    #[serde(default)]
    pub referral: Option<i64>,
    /// For `decide`: the chief's action taken with the decision, on the
    /// referral's player (`warning`, `foul`, `violation`, `adjudicate`,
    /// `forfeit`, `disqualify`, ...), with this request's `result`/`grave`.
    #[serde(default)]
    pub action: Option<String>,
}

/// The acts only the chief arbiter may do.
fn chief_only(req: &ActionRequest) -> bool {
    matches!(
        req.kind.as_str(),
        "adjudicate" | "forfeit" | "disqualify" | "decide"
    ) || (req.kind == "violation" && req.grave)
}

/// `403 chief_only`: a table arbiter asked for a chief arbiter's act.
fn not_chief(kind: &str) -> ApiError {
    ApiError::forbidden(
        "chief_only",
        format!("only the chief arbiter may {kind}; a table arbiter refers the case (refer)"),
    )
}

/// What the action did.
#[derive(Debug, Clone, serde::Serialize)]
pub struct ActionDone {
    pub id: i64,
    pub kind: String,
    pub round: Option<i64>,
    pub board: Option<i64>,
    pub table: Option<String>,
}

/// Does what an arbiter asks: the tables through `hall`, the event's rows in
/// `store`.
pub async fn act(
    store: &dyn Store,
    hall: &Hall,
    arbiter: &User,
    event: &str,
    req: ActionRequest,
) -> Result<ActionDone, ApiError> {
    let ev = load(store, event)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("no event {event}")))?;
    if !ev.arbiters.contains(&arbiter.id)
        || !crate::authority::has_role(store, arbiter, "arbiter").await?
    {
        return Err(ApiError::forbidden(
            "not_arbiter",
            "only an arbiter of this event may do that",
        ));
    }
    // Until the organiser names a chief, every arbiter of the event has the
    // chief's powers (an event with one arbiter; events from before roles).
    if chief_only(&req) && !ev.chiefs.is_empty() && !ev.chiefs.contains(&arbiter.id) {
        return Err(not_chief(&req.kind));
    }
    // A decision answers an open referral, about the referral's player.
    let mut req = req;
    let mut referral: Option<EventActionRow> = None;
    if req.kind == "decide" {
        let id = req.referral.ok_or_else(|| {
            ApiError::bad_request("bad_action", "decide names the referral it decides")
        })?;
        let actions = store.event_actions(&ev.row.id).await?;
        let r = actions
            .iter()
            .find(|a| a.id == id && a.kind == "refer")
            .cloned()
            .ok_or_else(|| ApiError::not_found(format!("no referral {id} in this event")))?;
        if actions
            .iter()
            .any(|a| a.kind == "decide" && referral_of(a) == Some(id))
        {
            return Err(ApiError::new(
                axum::http::StatusCode::CONFLICT,
                "referral_decided",
                format!("referral {id} is already decided"),
            ));
        }
        if req.player.is_empty() {
            req.player = ev.name_of(r.user_id);
        }
        if req.round.is_none() {
            req.round = r.round;
        }
        if let Some(a) = req.action.as_deref()
            && matches!(a, "decide" | "refer")
        {
            return Err(ApiError::bad_request(
                "bad_action",
                "a decision's action is one arbiters take on a player",
            ));
        }
        referral = Some(r);
    }
    if req.reason.trim().is_empty() || req.reason.chars().count() > 500 {
        return Err(ApiError::bad_request(
            "bad_reason",
            "every action has a reason (1 to 500 characters)",
        ));
    }
    let player = ev
        .players
        .iter()
        .find(|p| p.username == req.player)
        .cloned()
        .ok_or_else(|| ApiError::not_found(format!("{} does not play here", req.player)))?;
    let round = req.round.unwrap_or_else(|| ev.paired());
    let target = if ev.config.kind.at_tables_of_three() {
        hand_of(&ev, round, player.user_id).map(Target::Hand)
    } else {
        ev.games_of(round)
            .find(|g| g.white == player.user_id || g.black == Some(player.user_id))
            .cloned()
            .map(Target::Board)
    };
    // An arbiter who is a player here (registered before this was refused)
    // judges nobody in a game of theirs, themselves included.
    if player.user_id == arbiter.id
        || target
            .as_ref()
            .is_some_and(|t| t.seats().contains(&arbiter.id))
    {
        return Err(super::api::arbiter_plays(
            "an arbiter cannot act on a game they play",
        ));
    }
    let seat = target.as_ref().and_then(|t| t.seat_of(player.user_id));
    let game = match &target {
        Some(Target::Board(g)) => Some(g.clone()),
        _ => None,
    };
    let hand = match &target {
        Some(Target::Hand(h)) => Some(h.clone()),
        _ => None,
    };
    let live = |t: &Option<Target>| t.as_ref().and_then(Target::live);
    let need_game = || {
        ApiError::new(
            axum::http::StatusCode::CONFLICT,
            "no_game",
            format!("{} has no game being played in round {round}", req.player),
        )
    };
    // The board's result before and after, where the action changes it.
    let mut detail: Option<serde_json::Value> = None;
    // The moves played when the action touched a live game (the record's
    // comment goes there).
    let ply = match live(&target) {
        Some(t) => hall.moves(&t).await,
        None => None,
    };
    match req.kind.as_str() {
        "restore" => {
            let table = live(&target).ok_or_else(need_game)?;
            let seats = target.as_ref().map_or(2, |t| t.seats().len());
            let keep = req
                .ply
                .ok_or_else(|| ApiError::bad_request("bad_action", "restore names a ply"))?;
            let clocks = match &req.clocks {
                None => None,
                Some(c) => Some(
                    c.iter()
                        .map(|s| secs_ms(*s, false))
                        .collect::<Option<Vec<_>>>()
                        .filter(|c| c.len() == seats)
                        .ok_or_else(|| {
                            ApiError::bad_request(
                                "bad_action",
                                format!(
                                    "clocks: {seats} times in seconds (one per seat), 0 to a day"
                                ),
                            )
                        })?,
                ),
            };
            hall.command(
                &table,
                vec![Command::Restore {
                    ply: keep,
                    clocks: clocks.clone(),
                }],
            )
            .await?;
            detail = Some(serde_json::json!({"restored": keep, "clocks": clocks}));
        }
        "clock" => {
            let table = live(&target).ok_or_else(need_game)?;
            let seat = seat.ok_or_else(need_game)?;
            let delta = req
                .seconds
                .filter(|s| *s != 0.0)
                .and_then(|s| secs_ms(s.abs(), true).map(|ms| (ms as i64) * s.signum() as i64))
                .ok_or_else(|| {
                    ApiError::bad_request(
                        "bad_action",
                        "seconds: the time added (negative: removed), at most a day",
                    )
                })?;
            hall.command(&table, vec![Command::AdjustClock { seat, delta }])
                .await?;
            detail = Some(serde_json::json!({"delta_ms": delta}));
        }
        "pause" | "resume" => {
            let table = live(&target).ok_or_else(need_game)?;
            let cmd = if req.kind == "pause" {
                Command::Pause
            } else {
                Command::Unpause
            };
            hall.command(&table, vec![cmd]).await?;
        }
        // A table arbiter's case for the chief: nothing changes yet.
        "refer" => detail = Some(serde_json::json!({"open": true})),
        "decide" => {
            let id = referral.as_ref().map(|r| r.id);
            let mut done = None;
            if let Some(kind) = req.action.clone() {
                let mut sub = req.clone();
                sub.kind = kind;
                sub.referral = None;
                sub.action = None;
                done = Some(Box::pin(act(store, hall, arbiter, event, sub)).await?);
            }
            detail = Some(serde_json::json!({
                "referral": id,
                "action": done.as_ref().map(|d| d.kind.clone()),
                "action_id": done.as_ref().map(|d| d.id),
            }));
        }
        "warning" | "foul" | "violation" => {
            let table = live(&target).ok_or_else(need_game)?;
            let seat = seat.ok_or_else(need_game)?;
            let cmd = match req.kind.as_str() {
                "warning" => Command::Warn {
                    seat,
                    reason: req.reason.clone(),
                },
                "foul" => Command::Foul {
                    seat,
                    reason: Some(req.reason.clone()),
                },
                _ => Command::Violation {
                    seat,
                    reason: req.reason.clone(),
                },
            };
            hall.command(&table, vec![cmd]).await?;
            if req.kind == "violation" && req.grave {
                detail = disqualify(store, hall, &ev, player.user_id, round).await?;
            }
        }
        // A hand at a table of three: voided while it is played (`--`, 0
        // each); a finished hand's score stands.
        "adjudicate" if hand.is_some() => {
            let h = hand.clone().ok_or_else(need_game)?;
            if req.result.as_deref() != Some("--") {
                return Err(ApiError::bad_request(
                    "bad_result",
                    "at a table of three a hand being played is adjudicated `--` only (void: 0 each); a seat's loss is a forfeit",
                ));
            }
            let table = live(&target).ok_or_else(|| hand_over(&h, "adjudicated"))?;
            hall.command(
                &table,
                vec![Command::Decide {
                    decision: Decision::Void,
                }],
            )
            .await?;
            detail = Some(serde_json::json!({"void": true}));
        }
        // The player's seat loses the hand being played, as the game scores
        // a concession.
        "forfeit" if hand.is_some() => {
            let h = hand.clone().ok_or_else(need_game)?;
            let table = live(&target).ok_or_else(|| hand_over(&h, "forfeited"))?;
            let seat = seat.ok_or_else(need_game)?;
            hall.command(
                &table,
                vec![Command::Decide {
                    decision: Decision::Loses {
                        seat,
                        forfeit: true,
                    },
                }],
            )
            .await?;
            detail = Some(serde_json::json!({"seat": seat.0}));
        }
        "adjudicate" => {
            let g = game.clone().ok_or_else(need_game)?;
            let black = g.black.ok_or_else(need_game)?;
            let (w, b, decision) = match req.result.as_deref() {
                Some("1-0") => (
                    "1",
                    "0",
                    Decision::Loses {
                        seat: Seat(1),
                        forfeit: false,
                    },
                ),
                Some("0-1") => (
                    "0",
                    "1",
                    Decision::Loses {
                        seat: Seat(0),
                        forfeit: false,
                    },
                ),
                Some("1/2-1/2") => ("=", "=", Decision::Draw),
                Some("+-") => (
                    "+",
                    "-",
                    Decision::Loses {
                        seat: Seat(1),
                        forfeit: true,
                    },
                ),
                Some("-+") => (
                    "-",
                    "+",
                    Decision::Loses {
                        seat: Seat(0),
                        forfeit: true,
                    },
                ),
                Some("--") => ("-", "-", Decision::Void),
                _ => {
                    return Err(ApiError::bad_request(
                        "bad_result",
                        "result is 1-0, 0-1, 1/2-1/2, +-, -+ or --",
                    ));
                }
            };
            let _ = black;
            let table = live(&target);
            store
                .set_event_result(&ev.row.id, g.round, g.board, Some(w), Some(b))
                .await?;
            detail = Some(correction(&g, w, b));
            match table {
                Some(table) => {
                    let _ = hall
                        .command(&table, vec![Command::Decide { decision }])
                        .await;
                }
                // A finished game: its own result, record and ratings follow.
                None => {
                    let mut g = g.clone();
                    g.white_result = Some(w.into());
                    g.black_result = Some(b.into());
                    super::record::amend(store, &hall.env.games, &ev, &g).await?;
                }
            }
        }
        "forfeit" => {
            let g = game.clone().ok_or_else(need_game)?;
            detail = forfeit(store, hall, &ev, &g, player.user_id, true).await?;
        }
        "disqualify" => detail = disqualify(store, hall, &ev, player.user_id, round).await?,
        other => {
            return Err(ApiError::bad_request(
                "bad_action",
                format!(
                    "unknown action {other:?} (warning, foul, violation, restore, clock, pause, resume, refer, adjudicate, forfeit, disqualify, decide)"
                ),
            ));
        }
    }
    if let Some(ply) = ply {
        let mut d = detail.take().unwrap_or_else(|| serde_json::json!({}));
        d["ply"] = serde_json::Value::from(ply);
        detail = Some(d);
    }
    // A hand's act says which hand of the table's round (its record's
    // comments are found by it).
    if let Some(h) = &hand {
        let mut d = detail.take().unwrap_or_else(|| serde_json::json!({}));
        d["hand"] = serde_json::Value::from(h.hand);
        detail = Some(d);
    }
    let at = crate::now_ms();
    let action = EventActionRow {
        id: 0,
        round: target.as_ref().map(Target::round),
        board: target.as_ref().map(Target::board),
        user_id: player.user_id,
        arbiter: arbiter.id,
        kind: req.kind.clone(),
        reason: req.reason.clone(),
        at,
        detail: detail.as_ref().map(|d| d.to_string()),
    };
    let id = super::record_action(store, &ev.row.id, action).await?;
    // A hand this act ended: its record gets the act as well (the director
    // may have stamped it when the end was heard, before the act was
    // stored; stamping again writes what is missing).
    if let Some(h) = &hand
        && matches!(req.kind.as_str(), "forfeit" | "adjudicate")
        && let Err(e) = super::record::amend_hand(store, &ev, h).await
    {
        let hand_number = h.hand;
        tracing::warn!(event = %ev.row.id, round = h.round, hand_number, "cannot stamp the hand's record: {}", e.message);
    }
    let table = target.as_ref().and_then(|t| t.table().map(str::to_string));
    let msg = EventActionMsg {
        event: ev.row.id.clone(),
        kind: req.kind.clone(),
        player: player.username.clone(),
        arbiter: arbiter.username.clone(),
        reason: req.reason.clone(),
        round: target.as_ref().map(Target::round),
        board: target.as_ref().map(Target::board),
        table: table.clone(),
        at,
    };
    // Everyone at the game hears it (the player alone without a game); a
    // referral and its decision are the arbiters' business: the chief hears
    // of a referral, the referring arbiter of its decision.
    let mut told = vec![player.user_id];
    if req.kind == "refer" {
        told = if ev.chiefs.is_empty() {
            ev.arbiters.clone()
        } else {
            ev.chiefs.clone()
        };
    } else if let Some(r) = &referral {
        told = vec![r.arbiter];
    } else if let Some(t) = &target {
        // A computer's place (0) hears nothing.
        told.extend(t.seats().into_iter().filter(|u| *u != 0));
    }
    told.sort_unstable();
    told.dedup();
    for user in told {
        hall.tell(user, &ServerMsg::EventAction(msg.clone()));
        hall.notify(
            user,
            Notification::Arbiter {
                action: msg.clone(),
            },
        );
    }
    Ok(ActionDone {
        id,
        kind: req.kind,
        round: target.as_ref().map(Target::round),
        board: target.as_ref().map(Target::board),
        table,
    })
}

/// The game an act is about: a Swiss board, or a hand at a table of three.
#[derive(Debug, Clone)]
enum Target {
    Board(EventGameRow),
    Hand(EventHandRow),
}

impl Target {
    fn round(&self) -> i64 {
        match self {
            Target::Board(g) => g.round,
            Target::Hand(h) => h.round,
        }
    }

    /// The board's number, or the hand's table's number in its round.
    fn board(&self) -> i64 {
        match self {
            Target::Board(g) => g.board,
            Target::Hand(h) => h.board,
        }
    }

    fn table(&self) -> Option<&str> {
        match self {
            Target::Board(g) => g.table_id.as_deref(),
            Target::Hand(h) => h.table_id.as_deref(),
        }
    }

    /// The table of the game, while it is being played (a board without a
    /// result, not a bye; a hand without scores).
    fn live(&self) -> Option<String> {
        let playing = match self {
            Target::Board(g) => g.black.is_some() && g.white_result.is_none(),
            Target::Hand(h) => h.scores.is_none(),
        };
        playing.then(|| self.table().map(str::to_string)).flatten()
    }

    /// The players by seat (0: no player, a bye's or a computer's place).
    fn seats(&self) -> Vec<UserId> {
        match self {
            Target::Board(g) => vec![g.white, g.black.unwrap_or(0)],
            Target::Hand(h) => seats_of(&h.seats),
        }
    }

    fn seat_of(&self, user: UserId) -> Option<Seat> {
        self.seats()
            .iter()
            .position(|u| *u == user)
            .map(|i| Seat(i as u8))
    }
}

/// `user`'s hand of round `round` at a table of three: the one being played
/// (a table, no scores yet) whose seats hold them, else their last of the
/// round.
fn hand_of(ev: &EventData, round: i64, user: UserId) -> Option<EventHandRow> {
    let theirs = || {
        ev.hands
            .iter()
            .filter(move |h| h.round == round && seats_of(&h.seats).contains(&user))
    };
    theirs()
        .find(|h| h.scores.is_none() && h.table_id.is_some())
        .or_else(|| theirs().max_by_key(|h| h.hand))
        .cloned()
}

/// `409 hand_over`: a finished hand's score stands.
fn hand_over(h: &EventHandRow, what: &str) -> ApiError {
    ApiError::new(
        axum::http::StatusCode::CONFLICT,
        "hand_over",
        format!(
            "hand {} of table {} in round {} is over and cannot be {what}: a hand's score stands once it is played",
            h.hand, h.board, h.round
        ),
    )
}

/// The referral a `decide` action answers.
pub(super) fn referral_of(a: &EventActionRow) -> Option<i64> {
    a.detail
        .as_deref()
        .and_then(|d| serde_json::from_str::<serde_json::Value>(d).ok())
        .and_then(|d| d["referral"].as_i64())
}

/// Seconds as milliseconds: finite, 0 (or, `positive`, more) to a day.
fn secs_ms(s: f64, positive: bool) -> Option<u64> {
    (s.is_finite() && (0.0..=86_400.0).contains(&s) && (!positive || s > 0.0))
        .then(|| (s * 1000.0).round() as u64)
}

/// A board's result before and after an action, as records write them
/// (`null` before: it had none).
fn correction(g: &EventGameRow, w: &str, b: &str) -> serde_json::Value {
    let before = match (g.white_result.as_deref(), g.black_result.as_deref()) {
        (Some(w), Some(b)) => serde_json::Value::from(super::record::pgn_result(w, b).0),
        _ => serde_json::Value::Null,
    };
    serde_json::json!({
        "before": before,
        "after": super::record::pgn_result(w, b).0,
        "white": w,
        "black": b,
    })
}

/// `user` loses board `g`: by forfeit, or (`forfeit` false) as a game
/// played, when moves were made (a disqualification in the middle of a game,
/// FIDE: the game is lost). The result first (the arbiter's word stands even
/// if the table's game has just ended), then the table, or the finished
/// game's own result and record. The board's result before and after.
async fn forfeit(
    store: &dyn Store,
    hall: &Hall,
    ev: &EventData,
    g: &EventGameRow,
    user: i64,
    forfeit: bool,
) -> Result<Option<serde_json::Value>, ApiError> {
    let Some(_black) = g.black else {
        return Err(ApiError::new(
            axum::http::StatusCode::CONFLICT,
            "no_game",
            "a bye has no game to forfeit",
        ));
    };
    let white_loses = g.white == user;
    let (w, b) = match (white_loses, forfeit) {
        (true, true) => ("-", "+"),
        (false, true) => ("+", "-"),
        (true, false) => ("0", "1"),
        (false, false) => ("1", "0"),
    };
    store
        .set_event_result(&ev.row.id, g.round, g.board, Some(w), Some(b))
        .await?;
    let detail = correction(g, w, b);
    match &g.table_id {
        Some(table) if g.white_result.is_none() => {
            let seat = Seat(if white_loses { 0 } else { 1 });
            let _ = hall
                .command(
                    table,
                    vec![Command::Decide {
                        decision: Decision::Loses { seat, forfeit },
                    }],
                )
                .await;
        }
        Some(_) => {
            let mut g = g.clone();
            g.white_result = Some(w.into());
            g.black_result = Some(b.into());
            super::record::amend(store, &hall.env.games, ev, &g).await?;
        }
        None => {}
    }
    Ok(Some(detail))
}

/// Disqualifies `user`: never paired again; a game of theirs being played is
/// lost: by forfeit if no move was made in it, else as a game played.
async fn disqualify(
    store: &dyn Store,
    hall: &Hall,
    ev: &EventData,
    user: i64,
    round: i64,
) -> Result<Option<serde_json::Value>, ApiError> {
    let withdrawn = ev.player(user).is_some_and(|p| p.withdrawn);
    store
        .set_event_player(&ev.row.id, user, withdrawn, true)
        .await?;
    // At a table of three the hand under way is not ended: the computer
    // plays it out for them (托管), and they are not grouped again.
    if ev.config.kind.at_tables_of_three() {
        if let Some(table) = hand_of(ev, round, user)
            .as_ref()
            .and_then(|h| Target::Hand(h.clone()).live())
        {
            // Refused: the computer plays for them already, or the hand has
            // just ended.
            let _ = hall
                .command(
                    &table,
                    vec![Command::Trusteeship {
                        user: ev.name_of(user),
                        on: true,
                    }],
                )
                .await;
        }
        return Ok(Some(serde_json::json!({"disqualified": true})));
    }
    if let Some(g) = ev
        .games_of(round)
        .find(|g| (g.white == user || g.black == Some(user)) && g.black.is_some())
        .filter(|g| g.white_result.is_none())
        .cloned()
    {
        let moved = match &g.table_id {
            Some(table) => hall.moves(table).await.unwrap_or(0) > 0,
            None => false,
        };
        return forfeit(store, hall, ev, &g, user, !moved).await;
    }
    Ok(None)
}
