//! An event game's own record and result, kept in agreement with the event's
//! board (issue 44): when a board's game ends, its stored record is given the
//! event's name (`Event`), round (`Round`), board (`Board`) and how a forfeit
//! ended it (`Termination`), with the result the TRF has; when an arbiter
//! corrects or adjudicates a finished game, its stored result and record
//! change to the arbiter's, and, where it was rated, both players' rating
//! changes are recomputed for that game.
//!
//! Results as records write them, from the board's TRF codes: `1`/`0` `1-0`,
//! `=`/`=` `1/2-1/2`, a forfeit `+`/`-` `1-0` with `[Termination "forfeit"]`,
//! and a void game (both absent, TRF `-`/`-`) `0-0` with
//! `[Termination "double forfeit"]`, as FIDE's own results write a double
//! forfeit: PGN's `*` would say the game is still going on. Go's SGF gets
//! `EV`, `RO` and `RE` (`W+F`/`B+F` for a forfeit, `Void` for none).
//!
//! A hand at a table of three (points and duplicate events) is a game of its
//! own whose record is JSON (Doudizhu's): when its end is heard and its
//! scores are stored, its stored record gets `event` (the event's name),
//! `round` (`round.table.hand`: the round, the table's number in it, the
//! hand's number at the table, from 1) and the arbiters' acts during the
//! hand as `comments`, `[{"ply", "text"}]` (`ply`: the actions played when
//! the act happened); its result stays the game's (the hand's score).
//!
//! The rating change of a corrected game is computed again for the new
//! result (none for a forfeit, which FIDE does not rate): Glicko-2 moves a
//! rating by a factor of the deviations times (score − expected score), so
//! the new change is the old one scaled by the new result's (score −
//! expected) over the old one's, the expected score from the ratings before
//! the game (stored with it); a game whose old result was the expected one
//! is rated afresh from the ratings before it with the players' present
//! deviations. A game its table did not rate (a forfeit, a game decided
//! before both moved) stays unrated.
//! The difference between the new and the old change is applied to the
//! players' present ratings.

use qiyuan_game::{EndReason, Outcome, SeatResult};
use qiyuan_store::{EventGameRow, EventHandRow, Finish, RatingRow, Store};
use serde_json::Value;

use super::EventData;
use crate::error::ApiError;
use crate::registry::Games;

/// The PGN result and termination of a board's TRF results.
pub fn pgn_result(white: &str, black: &str) -> (&'static str, Option<&'static str>) {
    match (white, black) {
        ("1", _) => ("1-0", None),
        ("0", _) => ("0-1", None),
        ("=", _) => ("1/2-1/2", None),
        ("+", _) => ("1-0", Some("forfeit")),
        ("-", "+") => ("0-1", Some("forfeit")),
        ("-", _) => ("0-0", Some("double forfeit")),
        _ => ("*", None),
    }
}

/// Each seat's result of a board's TRF results.
fn seat_results(white: &str, black: &str) -> Vec<SeatResult> {
    let one = |c: &str| match c {
        "1" | "+" => SeatResult::Win,
        "=" => SeatResult::Draw,
        _ => SeatResult::Loss,
    };
    if white == "-" && black == "-" {
        return vec![SeatResult::Void; 2];
    }
    vec![one(white), one(black)]
}

/// What an event stamps on a game's record.
pub struct Stamp<'a> {
    pub event: &'a str,
    pub round: i64,
    pub board: i64,
    pub white: &'a str,
    pub black: &'a str,
}

/// `record` with the event's headers and the board's result: a PGN's tags
/// (and its movetext's final result), or an SGF's properties.
pub fn stamp(record: &str, s: &Stamp<'_>) -> String {
    let (result, termination) = pgn_result(s.white, s.black);
    if record.trim_start().starts_with('(') {
        return stamp_sgf(record, s);
    }
    let event = s.event.replace(['\\', '"'], "").replace(['\n', '\r'], " ");
    let mut tags: Vec<(String, String)> = Vec::new();
    let mut body = String::new();
    let mut in_tags = true;
    for line in record.lines() {
        let t = line.trim();
        if in_tags && t.starts_with('[') && t.ends_with(']') {
            if let Some((name, value)) = t[1..t.len() - 1].split_once(' ') {
                tags.push((name.to_string(), value.trim().trim_matches('"').to_string()));
            }
            continue;
        }
        if in_tags && t.is_empty() {
            continue;
        }
        in_tags = false;
        body.push_str(line);
        body.push('\n');
    }
    let mut set = |name: &str, value: String| match tags.iter_mut().find(|(n, _)| n == name) {
        Some(tag) => tag.1 = value,
        None => tags.push((name.to_string(), value)),
    };
    set("Event", event);
    set("Round", s.round.to_string());
    set("Board", s.board.to_string());
    set("Result", result.to_string());
    match termination {
        Some(t) => set("Termination", t.to_string()),
        None => tags.retain(|(n, _)| n != "Termination"),
    }
    // The movetext ends with the result.
    let mut words: Vec<&str> = body.split_whitespace().collect();
    if words
        .last()
        .is_some_and(|w| ["1-0", "0-1", "1/2-1/2", "*", "0-0"].contains(w))
    {
        words.pop();
    }
    let mut out = String::new();
    for (name, value) in &tags {
        out.push_str(&format!("[{name} \"{value}\"]\n"));
    }
    out.push('\n');
    let mut line = String::new();
    for w in words.into_iter().chain(std::iter::once(result)) {
        if !line.is_empty() && line.len() + 1 + w.len() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(w);
    }
    out.push_str(&line);
    out.push('\n');
    out
}

/// An SGF record with `EV`, `RO` and `RE` set in its root node.
fn stamp_sgf(record: &str, s: &Stamp<'_>) -> String {
    // Seat 0 (White in the event's words) is Black at Go. A played result
    // keeps the record's own (`B+R`, `W+3.5`) when it names the same winner.
    let existing = record
        .find("RE[")
        .and_then(|i| record[i + 3..].split(']').next())
        .unwrap_or("");
    let keep = |prefix: &str| existing.starts_with(prefix);
    let re = match (s.white, s.black) {
        ("-", "-") => "Void".to_string(),
        ("+", _) => "B+F".to_string(),
        ("-", _) => "W+F".to_string(),
        ("1", _) if !keep("B+") || existing == "B+F" => "B+".to_string(),
        ("0", _) if !keep("W+") || existing == "W+F" => "W+".to_string(),
        ("=", _) if existing != "0" => "0".to_string(),
        _ => String::new(),
    };
    let esc = |v: &str| v.replace('\\', "\\\\").replace(']', "\\]");
    // The root node's properties follow the first `;`.
    let Some(at) = record.find(';') else {
        return record.to_string();
    };
    let mut props = format!("EV[{}]RO[{}.{}]", esc(s.event), s.round, s.board);
    let mut rest = record[at + 1..].to_string();
    // A record stamped before (a correction) has them already.
    let mut names = vec!["EV[", "RO["];
    if !re.is_empty() {
        names.push("RE[");
        props.push_str(&format!("RE[{re}]"));
    }
    for name in names {
        remove_property(&mut rest, name);
    }
    format!("{};{props}{rest}", &record[..at])
}

/// Removes the first property `name` (`EV[`) from an SGF node's text, its
/// value's escaped brackets included.
fn remove_property(text: &mut String, name: &str) {
    let Some(i) = text.find(name) else {
        return;
    };
    let mut escaped = false;
    for (k, c) in text[i + name.len()..].char_indices() {
        match c {
            '\\' if !escaped => escaped = true,
            ']' if !escaped => {
                text.replace_range(i..i + name.len() + k + 1, "");
                return;
            }
            _ => escaped = false,
        }
    }
}

/// Writes board `g`'s result into its finished game's stored row: the record
/// stamped with the event's headers; when `g`'s result differs from the
/// game's stored outcome (a correction, an adjudication, a forfeit of a game
/// that had ended otherwise), the outcome too, and the rating changes
/// recomputed. Nothing when the game has not finished or is not stored.
pub async fn amend(
    store: &dyn Store,
    games: &Games,
    ev: &EventData,
    g: &EventGameRow,
) -> Result<(), ApiError> {
    let (Some(table), Some(black), Some(w), Some(b)) = (
        g.table_id.as_deref(),
        g.black,
        g.white_result.as_deref(),
        g.black_result.as_deref(),
    ) else {
        return Ok(());
    };
    let Some(row) = store.game(table).await? else {
        return Ok(());
    };
    let (Some(result), Some(record)) = (row.result.as_deref(), row.record.as_deref()) else {
        return Ok(());
    };
    let Ok(old) = serde_json::from_str::<Outcome>(result) else {
        return Ok(());
    };
    let now = crate::now_ms();
    let comments = arbiter_comments(store, ev, g.round, g.board, None).await?;
    let record = &with_comments(record, &comments);
    let mut amend = Finish {
        game_id: row.id.clone(),
        at: now,
        result: result.to_string(),
        record: stamp(
            record,
            &Stamp {
                event: &ev.config.name,
                round: g.round,
                board: g.board,
                white: w,
                black: b,
            },
        ),
        rating_diffs: Vec::new(),
        ratings: Vec::new(),
        points: Vec::new(),
    };
    let wanted = seat_results(w, b);
    let forfeit = [w, b].iter().any(|c| *c == "+" || *c == "-");
    if old.results != wanted {
        let new = Outcome {
            results: wanted,
            reason: EndReason::Adjudication,
            score: pgn_result(w, b).0.to_string(),
            points: Vec::new(),
            deal: 0,
        };
        amend.result = serde_json::to_string(&new).map_err(ApiError::internal)?;
        // Only a game its table rated is rated again (one decided before
        // both moved, or a forfeit, stays unrated whatever the correction).
        if row.rated && row.players.iter().any(|p| p.rating_diff.is_some()) {
            rerate(
                store, games, ev, &row, &old, &new, !forfeit, now, &mut amend,
            )
            .await?;
        }
        let board_no = g.board;
        tracing::info!(
            event = %ev.row.id, round = g.round, board_no, game = %row.id,
            "a finished game's result corrected to {}", new.score
        );
    }
    let _ = black;
    store.amend_game(&amend).await?;
    Ok(())
}

/// The arbiters' acts during the game of board `board` of round `round` (at
/// a table of three: of hand `hand` at table `board`), as its record's
/// comments: the number of moves played when each happened (a restored
/// position: the moves kept) and its words (`Arbiter tab: warning, p01:
/// spoke`). A referral and its decision are the arbiters' business and not
/// written (an act decided on one is); acts after the game (a correction) are
/// in the record's headers.
async fn arbiter_comments(
    store: &dyn Store,
    ev: &EventData,
    round: i64,
    board: i64,
    hand: Option<i64>,
) -> Result<Vec<(usize, String)>, ApiError> {
    let mut out = Vec::new();
    for a in store.event_actions(&ev.row.id).await? {
        if a.round != Some(round) || a.board != Some(board) {
            continue;
        }
        let detail: serde_json::Value = a
            .detail
            .as_deref()
            .and_then(|d| serde_json::from_str(d).ok())
            .unwrap_or_default();
        if hand.is_some_and(|n| detail["hand"].as_i64() != Some(n)) {
            continue;
        }
        let at = detail["restored"]
            .as_u64()
            .or_else(|| detail["ply"].as_u64());
        let (Some(at), false) = (at, detail["system"] == true) else {
            continue;
        };
        let what = match a.kind.as_str() {
            "refer" | "decide" => continue,
            "restore" => format!("position restored after {at} moves"),
            "clock" => {
                let secs = detail["delta_ms"].as_i64().unwrap_or(0) / 1000;
                format!("clock {secs:+} s")
            }
            "pause" => "clocks stopped".into(),
            "resume" => "clocks started".into(),
            "violation" if detail["after"].is_string() || detail["disqualified"] == true => {
                "grave violation".into()
            }
            "adjudicate" if detail["void"] == true => "hand void".into(),
            other => other.to_string(),
        };
        let arbiter = store
            .user(a.arbiter)
            .await?
            .map(|u| u.username)
            .unwrap_or_default();
        out.push((
            at as usize,
            format!(
                "Arbiter {arbiter}: {what}, {}: {}",
                ev.name_of(a.user_id),
                a.reason
            ),
        ));
    }
    Ok(out)
}

/// A hand's `round` in its record: `round.table.hand`.
pub fn hand_round(h: &EventHandRow) -> String {
    format!("{}.{}.{}", h.round, h.board, h.hand)
}

/// Writes the event's name, the hand's round ([`hand_round`]) and the
/// arbiters' acts during it ([`with_json_comments`]) into hand `h`'s finished
/// game's stored record; its result stays the game's (the hand's score is the
/// game's points). Nothing when the game has not finished, is not stored, has
/// a record that is not a JSON object, or has it so already.
pub async fn amend_hand(
    store: &dyn Store,
    ev: &EventData,
    h: &EventHandRow,
) -> Result<(), ApiError> {
    let Some(table) = h.table_id.as_deref() else {
        return Ok(());
    };
    let Some(row) = store.game(table).await? else {
        return Ok(());
    };
    let (Some(result), Some(record)) = (row.result.as_deref(), row.record.as_deref()) else {
        return Ok(());
    };
    let comments = arbiter_comments(store, ev, h.round, h.board, Some(h.hand)).await?;
    let Some(stamped) = stamp_json(record, &ev.config.name, &hand_round(h), &comments) else {
        return Ok(());
    };
    if stamped == record {
        return Ok(());
    }
    store
        .amend_game(&Finish {
            game_id: row.id.clone(),
            at: crate::now_ms(),
            result: result.to_string(),
            record: stamped,
            rating_diffs: Vec::new(),
            ratings: Vec::new(),
            points: Vec::new(),
        })
        .await?;
    Ok(())
}

/// The hands whose games ended at `ends` (table, outcome): each one's stored
/// record stamped ([`amend_hand`]). A failure is logged; the event goes on.
pub async fn stamp_hands(store: &dyn Store, ev: &EventData, ends: &[(String, Outcome)]) {
    for (table, _) in ends {
        let Some(h) = ev
            .hands
            .iter()
            .find(|h| h.table_id.as_deref() == Some(table.as_str()))
        else {
            continue;
        };
        if let Err(e) = amend_hand(store, ev, h).await {
            let hand_number = h.hand;
            tracing::warn!(
                event = %ev.row.id, round = h.round, hand_number, %table,
                "cannot stamp the hand's record: {}", e.message
            );
        }
    }
}

/// A JSON record (an object) with `event` and `round` set and
/// `comments` ([`with_json_comments`]); its other fields as they were, in
/// their order (a field it lacked goes where Doudizhu's record puts it).
/// None if it is not a JSON object.
pub fn stamp_json(
    record: &str,
    event: &str,
    round: &str,
    comments: &[(usize, String)],
) -> Option<String> {
    let mut fields: Fields = serde_json::from_str(record).ok()?;
    set_field(&mut fields, "event", Value::from(event), &["game"]);
    set_field(
        &mut fields,
        "round",
        Value::from(round),
        &["date", "site", "event"],
    );
    with_json_comments(&mut fields, comments);
    serde_json::to_string_pretty(&fields).ok()
}

/// A JSON object's fields in their order (serde_json's own map sorts them).
type Fields = indexmap::IndexMap<String, Value>;

/// Sets field `name`; a new one goes after the first of `after` the object
/// has, else at its end.
fn set_field(fields: &mut Fields, name: &str, value: Value, after: &[&str]) {
    if let Some(v) = fields.get_mut(name) {
        *v = value;
        return;
    }
    let at = after
        .iter()
        .find_map(|a| fields.get_index_of(*a))
        .map_or(fields.len(), |i| i + 1);
    fields.shift_insert(at, name.to_string(), value);
}

/// Adds each comment as `{"ply", "text"}` to the record's `comments` (made
/// at its end if it has none), unless it is there already (a record is
/// stamped more than once).
fn with_json_comments(fields: &mut Fields, comments: &[(usize, String)]) {
    let mut list = fields
        .get("comments")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let before = list.len();
    for (ply, text) in comments {
        let text: String = text
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        let c = serde_json::json!({"ply": ply, "text": text});
        if !list.contains(&c) {
            list.push(c);
        }
    }
    if list.len() > before {
        set_field(fields, "comments", Value::Array(list), &[]);
    }
}

/// `record` (PGN or SGF) with each comment after its number of moves: a PGN
/// `{...}` comment after that move (and its clock comment), an SGF `C[]` in
/// that move's node (0: before the first move, the root node). A comment
/// already there is not written again (a record is stamped more than once).
pub fn with_comments(record: &str, comments: &[(usize, String)]) -> String {
    let sgf = record.trim_start().starts_with('(');
    // Records are wrapped: a comment written before may span lines.
    let flat = record.split_whitespace().collect::<Vec<_>>().join(" ");
    let comments: Vec<(usize, String)> = comments
        .iter()
        .map(|(at, text)| {
            let text: String = text
                .chars()
                .map(|c| if c.is_control() { ' ' } else { c })
                .collect();
            let text = if sgf {
                text.replace('\\', "\\\\").replace(']', "\\]")
            } else {
                text.replace(['{', '}'], "")
            };
            (*at, text.split_whitespace().collect::<Vec<_>>().join(" "))
        })
        .filter(|(_, text)| !flat.contains(text.as_str()))
        .collect();
    if comments.is_empty() {
        return record.to_string();
    }
    let at = |ply: usize| -> String {
        comments
            .iter()
            .filter(|(a, _)| *a == ply)
            .map(|(_, t)| {
                if sgf {
                    format!("C[{t}]")
                } else {
                    format!(" {{{t}}}")
                }
            })
            .collect()
    };
    if sgf {
        return sgf_comments(record, &at);
    }
    let (head, body) = match record.find("\n\n") {
        Some(i) => record.split_at(i + 2),
        None => ("", record),
    };
    let chars: Vec<char> = body.chars().collect();
    let mut out = String::from(head);
    let first = at(0);
    if !first.is_empty() {
        out.push_str(first.trim_start());
        out.push(' ');
    }
    let mut ply = 0;
    let mut due = false;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '{' {
            while i < chars.len() {
                out.push(chars[i]);
                i += 1;
                if chars[i - 1] == '}' {
                    break;
                }
            }
            continue;
        }
        if c.is_whitespace() {
            out.push(c);
            i += 1;
            continue;
        }
        let start = i;
        while i < chars.len() && !chars[i].is_whitespace() && chars[i] != '{' {
            i += 1;
        }
        let token: String = chars[start..i].iter().collect();
        if due {
            // After the last move and its clock comment, before what follows.
            let trimmed = out.trim_end().len();
            let tail = out.split_off(trimmed);
            out.push_str(&at(ply));
            out.push_str(&tail);
            due = false;
        }
        out.push_str(&token);
        let number = token
            .trim_end_matches('.')
            .chars()
            .all(|c| c.is_ascii_digit());
        let result = ["1-0", "0-1", "1/2-1/2", "*", "0-0"].contains(&token.as_str());
        if !number && !result {
            ply += 1;
            due = true;
        }
    }
    if due {
        let trimmed = out.trim_end().len();
        let tail = out.split_off(trimmed);
        out.push_str(&at(ply));
        out.push_str(&tail);
    }
    out
}

/// An SGF record with `at(n)`'s comments in the node of its `n`th move (`B[`
/// or `W[` after a `;`), `at(0)`'s in the root node.
fn sgf_comments(record: &str, at: &dyn Fn(usize) -> String) -> String {
    let mut out = String::new();
    let mut ply = 0;
    let mut rest = record;
    if let Some(i) = rest.find(';') {
        out.push_str(&rest[..=i]);
        out.push_str(&at(0));
        rest = &rest[i + 1..];
    }
    while let Some(i) = rest.find(';') {
        out.push_str(&rest[..=i]);
        rest = &rest[i + 1..];
        if rest.starts_with("B[") || rest.starts_with("W[") {
            ply += 1;
            // The move's property, to its closing bracket.
            let end = rest.find(']').map_or(rest.len(), |e| e + 1);
            out.push_str(&rest[..end]);
            out.push_str(&at(ply));
            rest = &rest[end..];
        }
    }
    out.push_str(rest);
    out
}

/// The rating changes of game `row` computed again for `outcome` (`rated`:
/// whether it counts at all), into `amend`.
#[allow(clippy::too_many_arguments)]
async fn rerate(
    store: &dyn Store,
    games: &Games,
    ev: &EventData,
    row: &qiyuan_store::GameRow,
    old: &Outcome,
    outcome: &Outcome,
    rated: bool,
    now: i64,
    amend: &mut Finish,
) -> Result<(), ApiError> {
    let pool = match games.get(&ev.config.game) {
        Some(d) => d.pool(ev.config.time.speed()),
        None => return Ok(()),
    };
    let mut holders = Vec::new();
    let mut present = Vec::new();
    for p in &row.players {
        let now_rating = match p.user_id {
            Some(id) => store.rating(id, &pool).await?,
            None => None,
        };
        let rating = qiyuan_rating::Rating {
            rating: p.rating.map(|r| r as f64).unwrap_or(1500.0),
            deviation: now_rating.as_ref().map_or(350.0, |r| r.deviation),
            volatility: now_rating.as_ref().map_or(0.06, |r| r.volatility),
            games: now_rating.as_ref().map_or(0, |r| (r.games - 1).max(0)),
        };
        holders.push(qiyuan_rating::SeatHolder {
            account: p.user_id.is_some() && p.rating.is_some(),
            rating,
        });
        present.push(now_rating);
    }
    let settled = qiyuan_rating::settle(qiyuan_rating::GameEnd {
        outcome,
        rated,
        keeps_points: false,
        seats: &holders,
    })
    .map_err(ApiError::internal)?;
    let score = |r: Option<&SeatResult>| match r {
        Some(SeatResult::Win) => Some(1.0),
        Some(SeatResult::Draw) => Some(0.5),
        Some(SeatResult::Loss) => Some(0.0),
        _ => None,
    };
    for (i, ((p, seat), now_rating)) in row
        .players
        .iter()
        .zip(&settled.seats)
        .zip(&present)
        .enumerate()
    {
        let (Some(user_id), Some(current)) = (p.user_id, now_rating) else {
            continue;
        };
        let old_diff = p.rating_diff.unwrap_or(0);
        // Glicko-2 moves a rating by a factor (the player's deviation and the
        // opponent's) times (score − expected score): for a game that was
        // rated, the new change is the old one scaled by the new result's
        // (score − expected) over the old's; the deviations are the game's
        // own. Where that cannot be (the game was not rated, or the old
        // result was the expected one), the change computed afresh.
        let opponent = 1 - i.min(1);
        let expected = row.players.get(opponent).and_then(|o| {
            Some(expected_score(
                p.rating? as f64,
                o.rating? as f64,
                present
                    .get(opponent)?
                    .as_ref()
                    .map_or(350.0, |r| r.deviation),
            ))
        });
        let scaled = match (
            p.rating_diff,
            expected,
            score(old.results.get(i)),
            score(outcome.results.get(i)),
        ) {
            (Some(d), Some(e), Some(so), Some(sn)) if rated && (so - e).abs() > 0.01 => {
                Some((d as f64 * (sn - e) / (so - e)).round() as i64)
            }
            _ => None,
        };
        let new_diff = scaled.unwrap_or_else(|| seat.rating.as_ref().map_or(0, |c| c.diff));
        amend.rating_diffs.push((p.seat, new_diff));
        if new_diff != old_diff {
            amend.ratings.push(RatingRow {
                user_id,
                pool: pool.clone(),
                rating: current.rating + (new_diff - old_diff) as f64,
                deviation: current.deviation,
                volatility: current.volatility,
                games: current.games,
                updated_at: now,
            });
        }
    }
    Ok(())
}

/// Glicko-2's expected score of a player rated `own` against one rated
/// `other` with deviation `deviation`.
fn expected_score(own: f64, other: f64, deviation: f64) -> f64 {
    const SCALE: f64 = 173.7178;
    let phi = deviation / SCALE;
    let g = 1.0 / (1.0 + 3.0 * phi * phi / (std::f64::consts::PI * std::f64::consts::PI)).sqrt();
    1.0 / (1.0 + (-g * (own - other) / SCALE).exp())
}

#[cfg(test)]
mod tests {
    use super::{Stamp, stamp, with_comments};

    const PGN: &str = "[Event \"qiyuan table abc\"]\n[Site \"qiyuan\"]\n[Round \"?\"]\n\
        [White \"p01\"]\n[Black \"p02\"]\n[Result \"*\"]\n\n1. e4 e5 *\n";

    fn s<'a>(white: &'a str, black: &'a str) -> Stamp<'a> {
        Stamp {
            event: "Club \"night\" 周五夜",
            round: 3,
            board: 2,
            white,
            black,
        }
    }

    #[test]
    fn pgn_headers_and_results() {
        let out = stamp(PGN, &s("1", "0"));
        assert!(out.contains("[Event \"Club night 周五夜\"]"), "{out}");
        assert!(out.contains("[Round \"3\"]\n"), "{out}");
        assert!(out.contains("[Board \"2\"]\n"), "{out}");
        assert!(out.contains("[Result \"1-0\"]\n"), "{out}");
        assert!(out.contains("[Site \"qiyuan\"]"), "{out}");
        assert!(out.ends_with("\n1. e4 e5 1-0\n"), "{out}");
        assert!(!out.contains("Termination"), "{out}");
        // A correction stamps again: one set of tags, the new result.
        let again = stamp(&out, &s("0", "1"));
        assert_eq!(again.matches("[Round ").count(), 1, "{again}");
        assert!(again.ends_with("1. e4 e5 0-1\n"), "{again}");
        let forfeit = stamp(PGN, &s("-", "+"));
        assert!(forfeit.contains("[Result \"0-1\"]"), "{forfeit}");
        assert!(forfeit.contains("[Termination \"forfeit\"]"), "{forfeit}");
        let void = stamp(PGN, &s("-", "-"));
        assert!(void.contains("[Result \"0-0\"]"), "{void}");
        assert!(void.contains("[Termination \"double forfeit\"]"), "{void}");
        assert!(void.ends_with(" 0-0\n"), "{void}");
        // Back to a played result: no termination left over.
        assert!(!stamp(&void, &s("=", "=")).contains("Termination"));
    }

    #[test]
    fn comments_at_their_moves() {
        let pgn =
            "[Event \"x\"]\n\n1. e4 { [%clk 0:09:58] } 1... e5 { [%clk 0:09:57] } 2. Nf3 1-0\n";
        let c = vec![
            (0, "Arbiter a: pause, p: x".to_string()),
            (2, "Arbiter a: warning, p: spoke {loudly}".to_string()),
            (3, "Arbiter a: foul, p: y".to_string()),
        ];
        let out = with_comments(pgn, &c);
        assert_eq!(
            out,
            "[Event \"x\"]\n\n{Arbiter a: pause, p: x} 1. e4 { [%clk 0:09:58] } 1... e5 { [%clk 0:09:57] } {Arbiter a: warning, p: spoke loudly} 2. Nf3 {Arbiter a: foul, p: y} 1-0\n"
        );
        // Written once, also when the record was wrapped since.
        assert_eq!(with_comments(&out, &c), out);
        let wrapped = out.replace("warning, p:", "warning,\np:");
        assert_eq!(with_comments(&wrapped, &c), wrapped);
        let sgf = "(;GM[1]SZ[9];B[ee];W[cc];B[gg])";
        let out = with_comments(sgf, &[(2, "Arbiter a: warning, p: [x]".into())]);
        assert_eq!(
            out,
            "(;GM[1]SZ[9];B[ee];W[cc]C[Arbiter a: warning, p: [x\\]];B[gg])"
        );
    }

    #[test]
    fn json_records_of_hands() {
        let rec = "{\n  \"game\": \"doudizhu\",\n  \"event\": \"qiyuan table abc\",\n  \"site\": \"qiyuan\",\n  \"date\": \"2026.01.02\",\n  \"players\": [\"a\", \"b\", \"c\"],\n  \"actions\": []\n}";
        let c = vec![(2, "Arbiter t: warning, b: spoke".to_string())];
        let out = super::stamp_json(rec, "积分赛 \"x\"", "1.2.3", &c).unwrap();
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["event"], "积分赛 \"x\"");
        assert_eq!(v["round"], "1.2.3");
        assert_eq!(
            v["comments"],
            serde_json::json!([{"ply": 2, "text": "Arbiter t: warning, b: spoke"}])
        );
        // The fields in their order, the round after the date.
        let keys: Vec<usize> = [
            "\"game\"",
            "\"event\"",
            "\"date\"",
            "\"round\"",
            "\"players\"",
            "\"comments\"",
        ]
        .iter()
        .map(|k| out.find(k).unwrap())
        .collect();
        assert!(keys.windows(2).all(|w| w[0] < w[1]), "{out}");
        // Stamped again: the same record, each comment once.
        assert_eq!(
            super::stamp_json(&out, "积分赛 \"x\"", "1.2.3", &c).unwrap(),
            out
        );
        assert!(super::stamp_json("[1]", "e", "1.1.1", &c).is_none());
        assert!(super::stamp_json("1. e4 *", "e", "1.1.1", &c).is_none());
    }

    #[test]
    fn sgf_properties() {
        let sgf = "(;GM[1]FF[4]SZ[19]RE[B+R];B[pd];W[dd])";
        let out = stamp(sgf, &s("-", "+"));
        assert!(
            out.starts_with("(;EV[Club \"night\" 周五夜]RO[3.2]RE[W+F]GM[1]"),
            "{out}"
        );
        assert_eq!(out.matches("RE[").count(), 1, "{out}");
        let played = stamp(sgf, &s("1", "0"));
        assert!(played.contains("RE[B+R]"), "{played}");
        // Stamped again (a correction): each property once.
        let again = stamp(&out, &s("1", "0"));
        assert_eq!(again.matches("EV[").count(), 1, "{again}");
        assert_eq!(again.matches("RO[").count(), 1, "{again}");
        assert_eq!(again.matches("RE[").count(), 1, "{again}");
        assert!(again.contains("RE[B+]"), "{again}");
        assert!(stamp(sgf, &s("0", "1")).contains("RE[W+]"));
    }
}
