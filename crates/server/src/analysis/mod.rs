//! 研究 with an engine: the analysis board's position and streamed evaluations
//! (`analyse` → `position`, then `analysis` lines until the search ends or is
//! stopped), and "analyse this game" for a stored game ([`review`]).
//!
//! The position is the game's own rules replaying the client's moves (the
//! analysis board has no rules of its own: its legal moves come from here).
//! Searches are CPU-bound: each runs on a blocking thread under a permit of
//! the server's compute budget ([`crate::compute`], after the computer
//! players' moves and in turn with other people's analysis), bounded in time,
//! and is stopped when its socket closes, sends `analyse.stop` or asks for
//! another position, and a review's when its HTTP client goes away. Lines go
//! to the socket at most [`LINES_PER_SECOND`] a second (the newest). The game's built-in engine analyses
//! ([`crate::registry::ComputerPlayers::analyse`]), or an operator's external
//! UCI/UCCI engine (see [`crate::engines::Engines::analyse`]), whose `info`
//! lines are read by [`parse_info`].

pub mod review;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::compute::Compute;
use crate::engines::Engines;
use crate::error::ApiError;
use crate::live::Conn;
use crate::protocol::ServerMsg;
use crate::protocol::analysis::{Analyse, AnalysisMsg, Line};
use crate::registry::{Budget, Games, StudyError};

/// At most this many analysis lines a second go to one socket (an engine's
/// `info` flood is thinned to the newest).
pub const LINES_PER_SECOND: u32 = 10;

/// The longest one `analyse` search runs, and its default.
pub const MAX_TIME_MS: u64 = 30_000;
pub const DEFAULT_TIME_MS: u64 = 10_000;

/// At most this many moves in one `analyse` request.
pub const MAX_MOVES: usize = 1_000;

/// Thins a stream of lines to at most [`LINES_PER_SECOND`]: a line within the
/// interval of the last one sent waits, replaced by any newer one, and goes
/// with the next that may go or at the end ([`Throttle::last`]).
struct Throttle {
    sent: Option<Instant>,
    held: Option<Line>,
}

impl Throttle {
    fn new() -> Throttle {
        Throttle {
            sent: None,
            held: None,
        }
    }

    /// The line to send now, if any.
    fn offer(&mut self, line: Line, now: Instant) -> Option<Line> {
        let every = Duration::from_secs(1) / LINES_PER_SECOND;
        if self.sent.is_some_and(|t| now.duration_since(t) < every) {
            self.held = Some(line);
            return None;
        }
        self.sent = Some(now);
        self.held = None;
        Some(line)
    }

    /// The line held back, to send at the end.
    fn last(&mut self) -> Option<Line> {
        self.held.take()
    }
}

/// Sends one analysis line to `conn`.
fn send_line(conn: &Conn, line: Option<Line>, done: bool, id: Option<&Value>) {
    let msg = ServerMsg::Analysis(AnalysisMsg { line, done });
    conn.reply(&msg, id);
}

/// A socket's running analysis: stopping it sets its flag.
#[derive(Default)]
pub struct Running {
    stop: Option<Arc<AtomicBool>>,
}

impl Running {
    /// Stops the running search, if any; whether there was one.
    pub fn stop(&mut self) -> bool {
        match self.stop.take() {
            Some(flag) => {
                flag.store(true, Ordering::Relaxed);
                true
            }
            None => false,
        }
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Answers `analyse`: the position at once (or a typed error), then, off the
/// async threads, the engine's lines as it deepens, each carrying the
/// request's `id`, the last one `done`. The socket's previous search stops.
pub fn analyse(
    games: &Games,
    engines: &Engines,
    compute: &Arc<Compute>,
    conn: &Conn,
    running: &mut Running,
    req: Analyse,
    id: Option<Value>,
) -> Result<(), ApiError> {
    running.stop();
    let game = games.get(&req.game).ok_or_else(|| {
        ApiError::bad_request("unknown_game", format!("no game {:?} here", req.game))
    })?;
    if req.moves.len() > MAX_MOVES {
        return Err(ApiError::bad_request(
            "bad_message",
            format!("at most {MAX_MOVES} moves"),
        ));
    }
    let setup = req.setup.clone().unwrap_or(qiyuan_game::Setup::Standard);
    if !matches!(
        setup,
        qiyuan_game::Setup::Standard | qiyuan_game::Setup::Position(_)
    ) {
        return Err(ApiError::bad_request(
            "bad_setup",
            "the analysis board starts from the standard position or a position",
        ));
    }
    let study = game
        .study(&req.options, &setup, &req.moves)
        .map_err(|e| ApiError::bad_request(e.code, e.message))?;
    let mut position = study.position();
    // An external engine: one of this game's, speaking a protocol that streams.
    let external = match &req.engine {
        None => None,
        Some(key) => {
            let plays = game
                .bot_levels
                .iter()
                .any(|l| l.key == *key && l.engine.is_some());
            let engine_position = engines
                .protocol(key)
                .filter(|p| *p != crate::engines::Protocol::Gtp)
                .and_then(|p| study.engine_position(p));
            match (engines.analyst(key), engine_position) {
                (Some(analyst), Some(p)) if plays => Some((key.clone(), analyst, p)),
                _ => {
                    return Err(ApiError::bad_request(
                        "bad_level",
                        format!("no engine {key:?} analyses {} here", game.name),
                    ));
                }
            }
        }
    };
    if external.is_some() {
        position.analysable = true;
    }
    let think = req.think && position.analysable && !position.over;
    let first_to_move = position.to_move == Some(0);
    conn.reply(&ServerMsg::Position(position), id.as_ref());
    if !think {
        return Ok(());
    }
    let stop = Arc::new(AtomicBool::new(false));
    running.stop = Some(stop.clone());
    let time = Duration::from_millis(
        req.time_ms
            .unwrap_or(DEFAULT_TIME_MS)
            .clamp(100, MAX_TIME_MS),
    );
    let conn = conn.clone();
    let owner = conn
        .user
        .as_ref()
        .map(|u| crate::compute::Owner::user(u.id))
        .unwrap_or_default();
    let compute = compute.clone();
    if let Some((key, analyst, engine_position)) = external {
        tokio::spawn(async move {
            // An external engine's process runs on this machine's cores too.
            let _permit = compute
                .acquire(crate::compute::Class::Analysis, &owner, None)
                .await;
            if stop.load(Ordering::Relaxed) {
                return;
            }
            let out = conn.clone();
            let reply = id.clone();
            let flag = stop.clone();
            let to_game = match &engine_position {
                crate::engines::EnginePosition::Uci { to_game, .. } => *to_game,
                crate::engines::EnginePosition::Gtp { .. } => |_: &str| None,
            };
            let mut throttle = Throttle::new();
            let mut on_info = |text: &str| {
                if flag.load(Ordering::Relaxed) {
                    return;
                }
                if let Some(mut line) = parse_info(text, to_game, first_to_move) {
                    study.describe(&mut line);
                    if let Some(line) = throttle.offer(line, Instant::now()) {
                        send_line(&out, Some(line), false, reply.as_ref());
                    }
                }
            };
            if let Err(e) = analyst
                .analyse(&engine_position, time, &stop, &mut on_info)
                .await
            {
                tracing::warn!("engine {key} could not analyse: {e}");
            }
            if !stop.load(Ordering::Relaxed)
                && let Some(line) = throttle.last()
            {
                send_line(&conn, Some(line), false, id.as_ref());
            }
            send_line(&conn, None, true, id.as_ref());
        });
        return Ok(());
    }
    tokio::spawn(async move {
        let permit = compute
            .acquire(crate::compute::Class::Analysis, &owner, None)
            .await;
        if stop.load(Ordering::Relaxed) {
            return;
        }
        let flag = stop.clone();
        let out = conn.clone();
        let reply = id.clone();
        let search = tokio::task::spawn_blocking(move || {
            // The permit is held as long as the search runs.
            let _permit = permit;
            let budget = Budget {
                time,
                depth: None,
                stop: &flag,
                started: Instant::now(),
                cancel: None,
            };
            let mut throttle = Throttle::new();
            study.analyse(&budget, &mut |line| {
                if !flag.load(Ordering::Relaxed)
                    && let Some(line) = throttle.offer(line, Instant::now())
                {
                    send_line(&out, Some(line), false, reply.as_ref());
                }
            });
            if !flag.load(Ordering::Relaxed)
                && let Some(line) = throttle.last()
            {
                send_line(&out, Some(line), false, reply.as_ref());
            }
        });
        let backstop = time + Duration::from_millis(500);
        let mut search = search;
        tokio::select! {
            _ = &mut search => {}
            _ = tokio::time::sleep(backstop) => {
                stop.store(true, Ordering::Relaxed);
                let _ = search.await;
            }
        }
        send_line(&conn, None, true, id.as_ref());
    });
    Ok(())
}

/// An external engine's `info` line as a line of the analysis board: its
/// depth, score (UCI `cp N` / `mate N`, UCCI `N`), nodes and `pv` (turned into
/// the game's notation by `to_game`, up to the first move it cannot read);
/// none for a line without a score or a principal variation, or a bound.
pub fn parse_info(
    text: &str,
    to_game: fn(&str) -> Option<String>,
    first_to_move: bool,
) -> Option<Line> {
    let words: Vec<&str> = text.split_whitespace().collect();
    if words.first() != Some(&"info")
        || words.contains(&"lowerbound")
        || words.contains(&"upperbound")
    {
        return None;
    }
    if let Some(i) = words.iter().position(|w| *w == "multipv")
        && words.get(i + 1) != Some(&"1")
    {
        return None;
    }
    let after = |key: &str| {
        words
            .iter()
            .position(|w| *w == key)
            .and_then(|i| words.get(i + 1))
    };
    let depth = after("depth")?.parse().ok()?;
    let nodes = after("nodes").and_then(|n| n.parse().ok()).unwrap_or(0);
    let i = words.iter().position(|w| *w == "score")?;
    let score = match (words.get(i + 1), words.get(i + 2)) {
        (Some(&"cp"), Some(n)) => qiyuan_engine_core::Score::Cp(n.parse().ok()?),
        (Some(&"mate"), Some(n)) => qiyuan_engine_core::Score::Mate(n.parse().ok()?),
        (Some(n), _) => qiyuan_engine_core::Score::Cp(n.parse().ok()?),
        _ => return None,
    };
    let pv_at = words.iter().position(|w| *w == "pv")?;
    let pv: Vec<String> = words[pv_at + 1..]
        .iter()
        .map_while(|m| to_game(m))
        .collect();
    if pv.is_empty() {
        return None;
    }
    let sign = if first_to_move { 1 } else { -1 };
    let (cp, mate) = match score {
        qiyuan_engine_core::Score::Cp(cp) => (Some(cp * sign), None),
        qiyuan_engine_core::Score::Mate(n) => (None, Some(n * sign)),
    };
    let expected = score.expected();
    Some(Line {
        depth,
        cp,
        mate,
        win: if first_to_move {
            expected
        } else {
            1.0 - expected
        },
        best: pv.first().cloned(),
        pv,
        pv_display: Vec::new(),
        pv_notations: None,
        nodes,
        ownership: None,
    })
}

/// Runs `f` on a blocking thread under a permit of the compute budget (for
/// analysis, counted against `owner`), with a stop flag that is set when the
/// caller goes away (an HTTP client that hung up: the search stops within
/// milliseconds, and its permit with it).
pub(crate) async fn blocking<T: Send + 'static>(
    compute: &Arc<crate::compute::Compute>,
    owner: &crate::compute::Owner,
    f: impl FnOnce(&AtomicBool) -> T + Send + 'static,
) -> Result<T, ApiError> {
    struct StopOnDrop(Arc<AtomicBool>);
    impl Drop for StopOnDrop {
        fn drop(&mut self) {
            self.0.store(true, Ordering::Relaxed);
        }
    }
    let permit = compute
        .acquire(crate::compute::Class::Analysis, owner, None)
        .await;
    let stop = Arc::new(AtomicBool::new(false));
    let _guard = StopOnDrop(stop.clone());
    tokio::task::spawn_blocking(move || {
        let _permit = permit;
        f(&stop)
    })
    .await
    .map_err(|_| ApiError::internal("an analysis failed"))
}

#[cfg(test)]
mod tests {
    use super::parse_info;

    fn same(m: &str) -> Option<String> {
        Some(m.to_string())
    }

    #[test]
    fn engine_info_lines_become_lines_from_the_first_seat() {
        let l = parse_info(
            "info depth 12 seldepth 15 multipv 1 score cp 34 nodes 5000 nps 1 pv e2e4 e7e5",
            same,
            true,
        )
        .unwrap();
        assert_eq!((l.depth, l.cp, l.nodes), (12, Some(34), 5000));
        assert_eq!(l.pv, ["e2e4", "e7e5"]);
        assert_eq!(l.best.as_deref(), Some("e2e4"));
        // Black to move and mating: the first seat is mated.
        let l = parse_info("info depth 5 score mate 2 pv d8h4", same, false).unwrap();
        assert_eq!(l.mate, Some(-2));
        assert_eq!(l.win, 0.0);
        // UCCI's bare score.
        assert_eq!(
            parse_info("info depth 3 score -20 pv h7e7", same, true)
                .unwrap()
                .cp,
            Some(-20)
        );
        assert!(parse_info("info depth 8 score cp 10 upperbound pv a2a3", same, true).is_none());
        assert!(parse_info("info depth 8 multipv 2 score cp 10 pv a2a3", same, true).is_none());
        assert!(parse_info("info string hello", same, true).is_none());
        assert!(parse_info("info depth 8 score cp 10", same, true).is_none());
    }
}
