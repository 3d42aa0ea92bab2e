//! The built-in games' computer players: each rebuilds the game from its seat's
//! view, asks its engine crate within the time [`Ask::allot`] gives, and tells
//! external engines the game in their protocol's terms.

#[allow(unused_imports)]
use std::time::{Duration, Instant};

#[allow(unused_imports)]
use qiyuan_game::Seat;

#[allow(unused_imports)]
use crate::bots::{Ask, BotLevel, Decision, ENGINE_LEVELS, Thought};
#[allow(unused_imports)]
use crate::engines::{EnginePosition, Protocol};

use super::ComputerPlayers;

/// The soft limit (ends the search between iterations) and the hard one (sets
/// the stop flag) of an alpha-beta search given `allot`, as `qiyuan engine`
/// manages its clock: the hard limit is 2.5 × the soft one, at most a third of
/// the time left.
#[cfg(any(feature = "chess", feature = "xiangqi"))]
fn limits(ask: &Ask, cap_ms: Option<u64>) -> (Duration, Duration) {
    let soft = ask.allot(cap_ms.map(Duration::from_millis));
    let mut hard = soft * 5 / 2;
    if let Some(left) = ask.time_left {
        hard = hard.min(left / 3).max(soft);
    }
    if let Some(cap) = cap_ms {
        hard = hard.min(Duration::from_millis(cap));
    }
    hard = hard.min(ask.cap).max(soft);
    (soft / 2, hard)
}

/// An alpha-beta engine's iteration as an analysis line, scored from the
/// first seat's side (`first_to_move`: whether the first seat is to move).
#[cfg(any(feature = "chess", feature = "xiangqi"))]
fn alpha_beta_line(
    depth: u32,
    score: qiyuan_engine_core::Score,
    nodes: u64,
    pv: Vec<String>,
    first_to_move: bool,
) -> crate::protocol::analysis::Line {
    use qiyuan_engine_core::Score;
    let sign = if first_to_move { 1 } else { -1 };
    let (cp, mate) = match score {
        Score::Cp(cp) => (Some(cp * sign), None),
        Score::Mate(n) => (None, Some(n * sign)),
    };
    let expected = score.expected();
    crate::protocol::analysis::Line {
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
    }
}

/// The level number of a key `1` … `8`.
fn level_number(key: &str) -> Option<u8> {
    key.parse::<u8>().ok().filter(|n| (1..=8).contains(n))
}

/// Chess: `qiyuan-engine-chess` at levels 1 … 8; UCI for external engines.
#[cfg(feature = "chess")]
pub struct ChessBots;

#[cfg(feature = "chess")]
impl ChessBots {
    /// The game so far: the position and the hashes of the positions before it.
    fn replay(
        view: &qiyuan_chess::ChessView,
    ) -> Option<(qiyuan_engine_chess::shakmaty::Chess, Vec<u64>)> {
        use qiyuan_engine_chess::shakmaty::{Chess, Position};
        let mut pos = match &view.start_fen {
            Some(fen) => qiyuan_chess::parse_fen(fen).ok()?,
            None => Chess::default(),
        };
        let mut history = Vec::with_capacity(view.uci_moves.len());
        for m in &view.uci_moves {
            let mv = qiyuan_chess::parse_move(&pos, m).ok()?;
            history.push(qiyuan_engine_chess::hash(&pos));
            pos.play_unchecked(mv);
        }
        Some((pos, history))
    }
}

#[cfg(feature = "chess")]
impl ComputerPlayers<qiyuan_chess::ChessGame> for ChessBots {
    const LEVELS: &'static [BotLevel] = ENGINE_LEVELS;

    fn think(view: &qiyuan_chess::ChessView, _seat: Seat, ask: &Ask) -> Option<Thought> {
        use qiyuan_engine_chess::shakmaty::uci::UciMove;
        use qiyuan_engine_chess::{Level, Limits, Searcher};
        let level = Level::get(level_number(&ask.level)?);
        let (pos, history) = Self::replay(view)?;
        let (soft, hard) = limits(ask, level.movetime_ms);
        let limits: Limits = level.limits(ask.seed);
        let started = Instant::now();
        let result = ask.bounded(hard, |stop| {
            Searcher::new(8).search(&pos, &history, &limits, stop, &mut |_| {
                started.elapsed() < soft
            })
        });
        let best = result.best?;
        let eval = result.score.expected();
        Some(Thought {
            decision: Decision::Act(UciMove::from_standard(best).to_string()),
            eval: Some(eval),
        })
    }

    const ANALYSES: bool = true;

    fn analyse(
        view: &qiyuan_chess::ChessView,
        budget: &crate::registry::Budget,
        report: &mut dyn FnMut(crate::protocol::analysis::Line),
    ) {
        use qiyuan_engine_chess::shakmaty::uci::UciMove;
        use qiyuan_engine_chess::shakmaty::{Color, Position};
        use qiyuan_engine_chess::{Limits, Searcher};
        let Some((pos, history)) = Self::replay(view) else {
            return;
        };
        let white = pos.turn() == Color::White;
        let mut limits = Limits::default();
        if let Some(depth) = budget.depth {
            limits.depth = depth.clamp(1, limits.depth);
        }
        Searcher::new(16).search(&pos, &history, &limits, budget.stop, &mut |info| {
            let pv = info
                .pv
                .iter()
                .map(|m| UciMove::from_standard(*m).to_string())
                .collect();
            report(alpha_beta_line(
                info.depth, info.score, info.nodes, pv, white,
            ));
            budget.go_on()
        });
    }

    fn engine_position(
        view: &qiyuan_chess::ChessView,
        protocol: Protocol,
    ) -> Option<EnginePosition> {
        // The variant is named so that an engine that also plays xiangqi
        // (Fairy-Stockfish) is switched back; Stockfish ignores the option.
        (protocol == Protocol::Uci).then(|| EnginePosition::Uci {
            variant: Some("chess"),
            fen: view.start_fen.clone(),
            moves: view.uci_moves.clone(),
            to_game: |m| Some(m.to_string()),
        })
    }
}

/// Xiangqi: `qiyuan-engine-xiangqi` at levels 1 … 8; UCCI (ICCS coordinates) and
/// Fairy-Stockfish's UCI (`UCI_Variant xiangqi`, ranks 1–10) for external engines.
#[cfg(feature = "xiangqi")]
pub struct XiangqiBots;

#[cfg(feature = "xiangqi")]
impl XiangqiBots {
    /// The start and the moves that reach the view's position: the standard start
    /// and the view's moves when they lead there, else the view's position with
    /// no history (a game loaded from a FEN).
    fn replay(
        view: &qiyuan_xiangqi::XiangqiView,
    ) -> Option<(qiyuan_xiangqi::Position, Vec<qiyuan_xiangqi::Move>)> {
        use qiyuan_xiangqi::Position;
        use qiyuan_xiangqi::notation::parse_iccs;
        let start = Position::new();
        let mut pos = start.clone();
        let mut moves = Vec::with_capacity(view.moves.len());
        let replayed = view.moves.iter().all(|m| match parse_iccs(&pos, m) {
            Ok(mv) => {
                moves.push(mv);
                pos.play(mv).is_ok()
            }
            Err(_) => false,
        });
        let board = |fen: &str| fen.split(' ').take(2).collect::<Vec<_>>().join(" ");
        if replayed && board(&pos.fen()) == board(&view.fen) {
            return Some((start, moves));
        }
        Some((Position::from_fen(&view.fen).ok()?, Vec::new()))
    }

    /// ICCS (ranks 0–9) to Fairy-Stockfish's coordinates (ranks 1–10), or back.
    fn shift_ranks(m: &str, by: i32) -> Option<String> {
        let b = m.as_bytes();
        if b.is_empty() {
            return None;
        }
        let mut out = String::new();
        let mut i = 0;
        while i < b.len() {
            let file = b[i] as char;
            if !('a'..='i').contains(&file) {
                return None;
            }
            i += 1;
            let digits = b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
            let rank: i32 = std::str::from_utf8(&b[i..i + digits]).ok()?.parse().ok()?;
            i += digits;
            let rank = rank + by;
            if !(0..=10).contains(&rank) {
                return None;
            }
            out.push(file);
            out.push_str(&rank.to_string());
        }
        Some(out)
    }
}

#[cfg(feature = "xiangqi")]
impl ComputerPlayers<qiyuan_xiangqi::Xiangqi> for XiangqiBots {
    const LEVELS: &'static [BotLevel] = ENGINE_LEVELS;

    fn think(view: &qiyuan_xiangqi::XiangqiView, _seat: Seat, ask: &Ask) -> Option<Thought> {
        use qiyuan_engine_xiangqi::{Level, Limits, Searcher};
        let level = Level::get(level_number(&ask.level)?);
        let (start, moves) = Self::replay(view)?;
        let (soft, hard) = limits(ask, level.movetime_ms);
        let limits: Limits = level.limits(ask.seed);
        let started = Instant::now();
        let result = ask.bounded(hard, |stop| {
            Searcher::new(8).search(&start, &moves, &limits, stop, &mut |_| {
                started.elapsed() < soft
            })
        });
        let best = result.best?;
        let eval = result.score.expected();
        Some(Thought {
            decision: Decision::Act(qiyuan_xiangqi::notation::format_iccs(best)),
            eval: Some(eval),
        })
    }

    const ANALYSES: bool = true;

    fn analyse(
        view: &qiyuan_xiangqi::XiangqiView,
        budget: &crate::registry::Budget,
        report: &mut dyn FnMut(crate::protocol::analysis::Line),
    ) {
        use qiyuan_engine_xiangqi::{Limits, Searcher};
        let Some((start, moves)) = Self::replay(view) else {
            return;
        };
        let red = view.turn == qiyuan_xiangqi::Color::Red;
        let mut limits = Limits::default();
        if let Some(depth) = budget.depth {
            limits.depth = depth.clamp(1, limits.depth);
        }
        Searcher::new(16).search(&start, &moves, &limits, budget.stop, &mut |info| {
            let pv = info
                .pv
                .iter()
                .map(|m| qiyuan_xiangqi::notation::format_iccs(*m))
                .collect();
            report(alpha_beta_line(info.depth, info.score, info.nodes, pv, red));
            budget.go_on()
        });
    }

    fn engine_position(
        view: &qiyuan_xiangqi::XiangqiView,
        protocol: Protocol,
    ) -> Option<EnginePosition> {
        let (start, moves) = Self::replay(view)?;
        let fen = Some(start.fen());
        let iccs = moves.iter().map(|m| m.to_string());
        match protocol {
            Protocol::Ucci => Some(EnginePosition::Uci {
                variant: None,
                fen,
                moves: iccs.collect(),
                to_game: |m| Some(m.to_string()),
            }),
            Protocol::Uci => Some(EnginePosition::Uci {
                variant: Some("xiangqi"),
                fen,
                moves: iccs
                    .map(|m| Self::shift_ranks(&m, 1))
                    .collect::<Option<Vec<_>>>()?,
                to_game: |m| Self::shift_ranks(m, -1),
            }),
            Protocol::Gtp => None,
        }
    }
}

/// Go: `qiyuan-engine-go` at levels 1 … 8 (Monte-Carlo tree search); GTP for
/// external engines. In the marking phase a bot accepts the marking.
#[cfg(feature = "go")]
pub struct GoBots;

#[cfg(feature = "go")]
impl GoBots {
    /// How many playouts the computer's judgement of life and death takes.
    const JUDGE_PLAYOUTS: u64 = 400;

    /// The computer's answer to a marking: it accepts only a marking its own
    /// judgement of life and death accepts (`qiyuan_engine_go::Engine::judge_dead`:
    /// its playouts and the rules' reading both find a group dead),
    /// judged by loose groups, which is what one mark toggles (a group is dead
    /// when most of its stones are). A group of its own marked dead that it
    /// judges alive is marked alive again; a group it judges dead that is not
    /// marked, its own or the opponent's, is marked dead; once the marking
    /// agrees, it accepts. (An opponent's group the opponent marked dead
    /// against its judgement is their concession: left.) Each mark names the
    /// group by the vertex the game's legal actions name it by.
    fn judge_marking(view: &qiyuan_go::GoView, seat: Seat, ask: &Ask) -> Option<Thought> {
        use std::collections::HashSet;
        let marking = view.marking.as_ref()?;
        if marking.accepted.get(seat.index()).copied() != Some(false) {
            return None;
        }
        let mine = if seat.0 == 0 {
            qiyuan_go::Color::Black
        } else {
            qiyuan_go::Color::White
        };
        let mut engine = qiyuan_engine_go::Engine::new(view.size, view.komi, ask.seed).ok()?;
        for (c, m) in Self::moves(view)? {
            engine.play(c, m).ok()?;
        }
        let judged: HashSet<qiyuan_go::Point> = ask
            .bounded(ask.cap, |stop| {
                engine.judge_dead(Self::JUDGE_PLAYOUTS, stop)
            })
            .into_iter()
            .collect();
        let board = engine.board();
        let marked: HashSet<qiyuan_go::Point> = marking
            .dead
            .iter()
            .filter_map(|v| match qiyuan_go::Move::parse(v, view.size) {
                Ok(qiyuan_go::Move::Place(p)) => Some(p),
                _ => None,
            })
            .collect();
        let mut seen = HashSet::new();
        let mut mark_dead = None;
        for p in board.points() {
            let Some(color) = board.get(p) else { continue };
            if seen.contains(&p) {
                continue;
            }
            let group = qiyuan_go::marking_group(board, p);
            seen.extend(group.iter().copied());
            let is_marked = group.iter().all(|q| marked.contains(q));
            let dead = 2 * group.iter().filter(|q| judged.contains(q)).count() > group.len();
            if color == mine && is_marked && !dead {
                return Some(Thought::act(format!("alive {p}")));
            }
            if !is_marked && dead && mark_dead.is_none() {
                mark_dead = Some(p);
            }
        }
        Some(Thought::act(match mark_dead {
            Some(p) => format!("dead {p}"),
            None => "accept".into(),
        }))
    }

    /// The handicap stones and the moves so far, with their colours.
    fn moves(view: &qiyuan_go::GoView) -> Option<Vec<(qiyuan_go::Color, qiyuan_go::Move)>> {
        use qiyuan_go::{Color, Move, fixed_handicap};
        let mut out = Vec::new();
        if view.handicap > 0 {
            for p in fixed_handicap(view.size, view.handicap).ok()? {
                out.push((Color::Black, Move::Place(p)));
            }
        }
        let mut color = if view.handicap > 0 {
            Color::White
        } else {
            Color::Black
        };
        for m in &view.moves {
            out.push((color, Move::parse(m, view.size).ok()?));
            color = color.opponent();
        }
        Some(out)
    }
}

#[cfg(feature = "go")]
impl ComputerPlayers<qiyuan_go::Go> for GoBots {
    const LEVELS: &'static [BotLevel] = ENGINE_LEVELS;

    fn think(view: &qiyuan_go::GoView, seat: Seat, ask: &Ask) -> Option<Thought> {
        use qiyuan_engine_go::{Decision as GoDecision, Engine, Level};
        use qiyuan_go::GoPhase as Phase;
        if view.phase == Phase::Marking {
            return Self::judge_marking(view, seat, ask);
        }
        let color = view.to_move?;
        let settings = Level::new(level_number(&ask.level)?.into())
            .ok()?
            .settings();
        let mut engine = Engine::new(view.size, view.komi, ask.seed).ok()?;
        for (c, m) in Self::moves(view)? {
            engine.play(c, m).ok()?;
        }
        let allot = ask.allot(Some(Duration::from_secs_f64(settings.max_seconds)));
        let report = ask.bounded(allot, |stop| engine.genmove(color, &settings, stop));
        let decision = match report.decision {
            GoDecision::Play(p) => Decision::Act(p.to_string()),
            GoDecision::Pass => Decision::Act("pass".into()),
            GoDecision::Resign => Decision::Resign,
        };
        Some(Thought {
            decision,
            eval: Some(report.winrate),
        })
    }

    const ANALYSES: bool = true;

    /// Rounds of Monte-Carlo search on one tree, each with twice the playouts
    /// of the one before (from 200), reported after each: the best move, the
    /// win rate and each point's expected owner.
    fn analyse(
        view: &qiyuan_go::GoView,
        budget: &crate::registry::Budget,
        report: &mut dyn FnMut(crate::protocol::analysis::Line),
    ) {
        use qiyuan_engine_go::{Decision as GoDecision, Engine, Level};
        use qiyuan_go::GoPhase as Phase;
        if view.phase != Phase::Play {
            return;
        }
        let Some(color) = view.to_move else {
            return;
        };
        let Ok(mut engine) = Engine::new(view.size, view.komi, 1) else {
            return;
        };
        let Some(moves) = Self::moves(view) else {
            return;
        };
        for (c, m) in moves {
            if engine.play(c, m).is_err() {
                return;
            }
        }
        let Ok(level) = Level::new(6) else {
            return;
        };
        let mut settings = level.settings();
        settings.resign_below = None;
        settings.temperature = 0.0;
        settings.playouts = 200;
        let black = color == qiyuan_go::Color::Black;
        let mut round = 1;
        let mut total = 0;
        while budget.go_on() && budget.depth.is_none_or(|d| round <= d) {
            let r = engine.genmove(color, &settings, budget.stop);
            if round > 1 && budget.stop.load(std::sync::atomic::Ordering::Relaxed) {
                break;
            }
            total += r.playouts;
            let best = match r.decision {
                GoDecision::Play(p) => p.to_string(),
                GoDecision::Pass | GoDecision::Resign => r
                    .candidates
                    .first()
                    .map_or_else(|| "pass".to_string(), |c| c.mv.to_string()),
            };
            report(crate::protocol::analysis::Line {
                depth: round,
                cp: None,
                mate: None,
                win: if black { r.winrate } else { 1.0 - r.winrate },
                best: Some(best.clone()),
                pv: vec![best],
                pv_display: Vec::new(),
                pv_notations: None,
                nodes: total,
                ownership: Some(r.ownership),
            });
            settings.playouts = settings.playouts.saturating_mul(2);
            round += 1;
        }
    }

    fn engine_position(view: &qiyuan_go::GoView, protocol: Protocol) -> Option<EnginePosition> {
        use qiyuan_go::GoPhase as Phase;
        if protocol != Protocol::Gtp || view.phase != Phase::Play {
            return None;
        }
        let moves = Self::moves(view)?
            .into_iter()
            .map(|(c, m)| (c == qiyuan_go::Color::Black, m.to_string()))
            .collect();
        Some(EnginePosition::Gtp {
            size: view.size,
            komi: view.komi,
            moves,
            black_to_move: view.to_move? == qiyuan_go::Color::Black,
        })
    }
}

/// Doudizhu's computer players (the rules crate's `bot`): basic (rule-based) and
/// strong (samples the unknown cards and plays out each candidate).
#[cfg(feature = "doudizhu")]
pub struct DoudizhuBots;

#[cfg(feature = "doudizhu")]
impl ComputerPlayers<qiyuan_doudizhu::Doudizhu> for DoudizhuBots {
    const LEVELS: &'static [BotLevel] = &[
        BotLevel::builtin("basic", "普通", "Basic"),
        BotLevel::builtin("strong", "高手", "Strong"),
    ];
    fn think(view: &qiyuan_doudizhu::View, _seat: Seat, ask: &Ask) -> Option<Thought> {
        use qiyuan_doudizhu::bot::{Strength, choose};
        let strength = match ask.level.as_str() {
            "strong" => Strength::Strong,
            _ => Strength::Basic,
        };
        choose(view, strength, ask.seed).map(Thought::act)
    }
}

#[cfg(test)]
mod tests {
    #[cfg(feature = "xiangqi")]
    #[test]
    fn fairy_stockfish_ranks_are_iccs_ranks_plus_one() {
        use super::XiangqiBots;
        assert_eq!(XiangqiBots::shift_ranks("h2e2", 1).as_deref(), Some("h3e3"));
        assert_eq!(
            XiangqiBots::shift_ranks("a9a8", 1).as_deref(),
            Some("a10a9")
        );
        assert_eq!(
            XiangqiBots::shift_ranks("a10a9", -1).as_deref(),
            Some("a9a8")
        );
        assert_eq!(XiangqiBots::shift_ranks("z1a1", 1), None);
        assert_eq!(XiangqiBots::shift_ranks("", 1), None);
    }
}
