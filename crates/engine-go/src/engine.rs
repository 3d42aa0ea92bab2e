//! A game as the engine follows it: the board, the positions seen (for superko), the
//! search tree kept from move to move, and the decisions: a move, a pass, or resign.

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};

use qiyuan_go::playout::Rng;
use qiyuan_go::{Board, Color, Counting, IllegalMove, Move, Point, Score, SizeError, area};

use crate::level::Settings;
use crate::playout::{PASS, Policy, owner, playout};
use crate::search::{Root, Tree};

/// An empty point whose ownership is at least this sure is settled: a move there
/// gains nothing.
const SETTLED: f32 = 0.8;
/// A pass is played when it loses at most this much win rate against the best move.
const PASS_TOLERANCE: f32 = 0.05;
/// Simulations before the engine trusts a win rate enough to resign on it.
const RESIGN_MIN_PLAYOUTS: u32 = 300;
/// The most tree nodes one engine keeps (about 32 bytes each).
const MAX_NODES: usize = 3_000_000;

/// What the engine decided to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    Play(Point),
    Pass,
    Resign,
}

/// A searched root move.
#[derive(Debug, Clone, PartialEq)]
pub struct Candidate {
    pub mv: Move,
    pub visits: u32,
    /// For the side to move.
    pub winrate: f32,
}

/// The result of a search.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    pub decision: Decision,
    /// The chosen move's win rate for the side to move (the best move's if it passed
    /// or resigned).
    pub winrate: f32,
    /// Simulations this search ran.
    pub playouts: u64,
    /// Root moves by visits, most visited first.
    pub candidates: Vec<Candidate>,
    /// Who owns each point at the end of the playouts, row by row from the bottom
    /// (as [`qiyuan_go::AreaCount::owner`]): +1 always black, -1 always white.
    pub ownership: Vec<f32>,
}

/// One root move of an analysis ([`Engine::analyze`]), with the line the search
/// expects after it.
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    pub mv: Move,
    pub visits: u32,
    /// For the side to move.
    pub winrate: f32,
    /// The share of the root's prior visits (its heuristic knowledge) this move had.
    pub prior: f32,
    /// The principal variation, this move first: the most visited child at each ply.
    pub pv: Vec<Move>,
}

/// What an analysis found so far.
#[derive(Debug, Clone, PartialEq)]
pub struct Analysis {
    /// Root moves by visits, most visited first (only moves visited at least once).
    pub lines: Vec<Line>,
    /// Simulations through the root, kept from earlier searches included.
    pub visits: u32,
    /// As [`Report::ownership`].
    pub ownership: Vec<f32>,
    /// Black's expected margin at the count (komi and compensation included), from
    /// the ownership.
    pub black_lead: f64,
}

/// The count the engine expects, with the stones it thinks dead.
#[derive(Debug, Clone, PartialEq)]
pub struct Estimate {
    pub score: Score,
    /// Stones the playouts capture more often than not.
    pub dead: Vec<Point>,
    /// As [`Report::ownership`].
    pub ownership: Vec<f32>,
}

/// A game followed by the engine, with its search tree.
pub struct Engine {
    board: Board,
    komi: f64,
    /// Stones set up before the first move (handicap, SGF `AB`/`AW`): every move
    /// is replayed on them.
    setup: Vec<(Color, Point)>,
    /// Who moves first after the setup.
    first: Color,
    /// Points white gets at the count for black's handicap stones.
    compensation: f64,
    to_move: Color,
    history: Vec<(Color, Move)>,
    seen: HashSet<u64>,
    tree: Tree,
    /// Whether the tree's root is the current position with `to_move` to play.
    tree_valid: bool,
    rng: Rng,
}

impl Engine {
    /// A new game on an empty board of side `size` with `komi`, randomness from `seed`.
    pub fn new(size: u8, komi: f64, seed: u64) -> Result<Engine, SizeError> {
        let board = Board::new(size)?;
        let cells = board.cell_count();
        let mut seen = HashSet::new();
        seen.insert(board.hash());
        Ok(Engine {
            board,
            komi,
            setup: Vec::new(),
            first: Color::Black,
            compensation: 0.0,
            to_move: Color::Black,
            history: Vec::new(),
            seen,
            tree: Tree::new(cells, MAX_NODES),
            tree_valid: false,
            rng: Rng::new(seed),
        })
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn size(&self) -> u8 {
        self.board.size()
    }

    pub fn komi(&self) -> f64 {
        self.komi
    }

    pub fn set_komi(&mut self, komi: f64) {
        self.komi = komi;
        self.tree_valid = false;
    }

    /// The points white gets for black's handicap stones ([`Engine::set_up`]).
    pub fn compensation(&self) -> f64 {
        self.compensation
    }

    /// What the count takes from black's area: komi and the handicap compensation.
    fn count_komi(&self) -> f64 {
        self.komi + self.compensation
    }

    /// The stones set up before the first move.
    pub fn setup(&self) -> &[(Color, Point)] {
        &self.setup
    }

    /// Sets up stones on the empty board before the first move (handicap stones,
    /// SGF `AB`/`AW`), with `first` to move after them and `compensation` points
    /// for white at the count (Chinese rules: one per black handicap stone).
    /// Refused, changing nothing, when a stone cannot be put (occupied, off the
    /// board, without liberties); moves already played are kept after the setup.
    pub fn set_up(
        &mut self,
        stones: &[(Color, Point)],
        first: Color,
        compensation: f64,
    ) -> Result<(), IllegalMove> {
        let mut board = Board::new(self.board.size()).unwrap_or_else(|_| self.board.clone());
        for &(c, p) in stones {
            board.setup(c, p)?;
        }
        let moves = std::mem::take(&mut self.history);
        self.setup = stones.to_vec();
        self.first = first;
        self.compensation = compensation;
        self.reset();
        for (c, m) in moves {
            if self.play(c, m).is_err() {
                break;
            }
        }
        Ok(())
    }

    /// The position after the setup, before any move.
    fn reset(&mut self) {
        let mut board = Board::new(self.board.size()).unwrap_or_else(|_| self.board.clone());
        for &(c, p) in &self.setup {
            // Checked when it was set up.
            let _ = board.setup(c, p);
        }
        self.board = board;
        self.to_move = self.first;
        self.history.clear();
        self.seen.clear();
        self.seen.insert(self.board.hash());
        self.tree_valid = false;
    }

    pub fn to_move(&self) -> Color {
        self.to_move
    }

    pub fn history(&self) -> &[(Color, Move)] {
        &self.history
    }

    /// Empties the board (same size and komi; no setup stones, no compensation);
    /// the random state goes on.
    pub fn clear(&mut self) {
        self.setup.clear();
        self.first = Color::Black;
        self.compensation = 0.0;
        self.reset();
    }

    /// Whether `color` may play `mv` now (simple ko, suicide, positional superko).
    pub fn check(&self, color: Color, mv: Move) -> Result<(), IllegalMove> {
        let Move::Place(p) = mv else { return Ok(()) };
        self.board.check(color, p)?;
        if self.seen.contains(&self.board.hash_after(color, p)) {
            return Err(IllegalMove::Superko(p));
        }
        Ok(())
    }

    /// Plays `mv` for `color` (either colour may move, as GTP allows); the search
    /// tree follows when the move is one it searched.
    pub fn play(&mut self, color: Color, mv: Move) -> Result<(), IllegalMove> {
        self.check(color, mv)?;
        if self.tree_valid && color == self.to_move {
            let cell = match mv {
                Move::Place(p) => self.board.cell_of(p),
                Move::Pass => PASS,
            };
            self.tree_valid = self.tree.advance(cell);
        } else {
            self.tree_valid = false;
        }
        self.board.play_move(color, mv)?;
        self.seen.insert(self.board.hash());
        self.history.push((color, mv));
        self.to_move = color.opponent();
        Ok(())
    }

    /// Takes back the last move; false if there is none.
    pub fn undo(&mut self) -> bool {
        if self.history.pop().is_none() {
            return false;
        }
        let moves = std::mem::take(&mut self.history);
        self.reset();
        for (c, m) in moves {
            // Moves that were legal once replay legally.
            let _ = self.play(c, m);
        }
        self.tree_valid = false;
        true
    }

    /// The last two moves as cells, newest first.
    fn last_cells(&self) -> [usize; 2] {
        let cell = |k: usize| match self.history.iter().rev().nth(k) {
            Some((_, Move::Place(p))) => self.board.cell_of(*p),
            _ => PASS,
        };
        [cell(0), cell(1)]
    }

    /// Cells `color` may not play now because of positional superko alone.
    fn superko_cells(&self, color: Color) -> Vec<usize> {
        self.board
            .points()
            .filter(|&p| {
                self.board.check(color, p).is_ok()
                    && self.seen.contains(&self.board.hash_after(color, p))
            })
            .map(|p| self.board.cell_of(p))
            .collect()
    }

    fn ownership_of_tree(&self) -> Vec<f32> {
        let n = self.tree.own_count.max(1) as f32;
        self.board
            .points()
            .map(|p| self.tree.own_sum[self.board.cell_of(p)] / n)
            .collect()
    }

    /// Searches for `color`'s move with `settings`, until its playouts ran or `stop`
    /// is set, and decides. The move is not played: call [`Engine::play`].
    pub fn genmove(&mut self, color: Color, settings: &Settings, stop: &AtomicBool) -> Report {
        if color != self.to_move || !self.tree_valid {
            self.to_move = color;
            self.tree.clear();
        }
        self.tree_valid = true;
        let forbidden = self.superko_cells(color);
        let root = Root {
            board: &self.board,
            to_move: color,
            last: self.last_cells(),
            komi: self.count_komi() as f32,
            forbidden: &forbidden,
        };
        let kept = u64::from(self.tree.root().n);
        let budget = settings
            .playouts
            .saturating_sub(kept)
            .max(settings.playouts / 4)
            .max(1);
        let ran = self
            .tree
            .search(&root, budget, &settings.policy, &mut self.rng, stop);
        let ownership = self.ownership_of_tree();
        let mut candidates: Vec<(usize, Candidate)> = self
            .tree
            .root()
            .children()
            .map(|c| {
                let node = &self.tree.nodes[c];
                let mv = match node.mv as usize {
                    PASS => Move::Pass,
                    cell => Move::Place(self.board.point_of(cell)),
                };
                (
                    node.mv as usize,
                    Candidate {
                        mv,
                        visits: node.n,
                        winrate: node.winrate(),
                    },
                )
            })
            .collect();
        candidates.sort_by_key(|c| std::cmp::Reverse(c.1.visits));
        let decision = self.decide(color, settings, &candidates, &ownership, stop);
        let winrate = match decision {
            Decision::Play(p) => candidates
                .iter()
                .find(|c| c.1.mv == Move::Place(p))
                .map_or(0.5, |c| c.1.winrate),
            _ => candidates.first().map_or(0.5, |c| c.1.winrate),
        };
        Report {
            decision,
            winrate,
            playouts: ran,
            candidates: candidates.into_iter().map(|c| c.1).collect(),
            ownership,
        }
    }

    /// Searches `playouts` more simulations for `color` (or until `stop` is set) on
    /// the tree kept from move to move, and reports the root's moves with their
    /// lines, for GUIs that show an engine's thoughts. Nothing is decided or played.
    pub fn analyze(
        &mut self,
        color: Color,
        playouts: u64,
        policy: &Policy,
        stop: &AtomicBool,
    ) -> Analysis {
        if color != self.to_move || !self.tree_valid {
            self.to_move = color;
            self.tree.clear();
        }
        self.tree_valid = true;
        let forbidden = self.superko_cells(color);
        let root = Root {
            board: &self.board,
            to_move: color,
            last: self.last_cells(),
            komi: self.count_komi() as f32,
            forbidden: &forbidden,
        };
        if playouts > 0 {
            self.tree
                .search(&root, playouts, policy, &mut self.rng, stop);
        }
        let to_move = |cell: usize| match cell {
            PASS => Move::Pass,
            cell => Move::Place(self.board.point_of(cell)),
        };
        let nodes = &self.tree.nodes;
        let children = self.tree.root().children();
        let prior_total: f32 = children
            .clone()
            .map(|c| (nodes[c].v - nodes[c].n as f32).max(0.0))
            .sum::<f32>()
            .max(1.0);
        let mut lines: Vec<Line> = children
            .filter(|&c| nodes[c].n > 0)
            .map(|c| {
                let mut pv = vec![to_move(nodes[c].mv as usize)];
                let mut at = c;
                while pv.len() < 32 {
                    let Some(next) = nodes[at]
                        .children()
                        .filter(|&k| nodes[k].n > 0)
                        .max_by_key(|&k| nodes[k].n)
                    else {
                        break;
                    };
                    pv.push(to_move(nodes[next].mv as usize));
                    at = next;
                }
                Line {
                    mv: to_move(nodes[c].mv as usize),
                    visits: nodes[c].n,
                    winrate: nodes[c].winrate(),
                    prior: (nodes[c].v - nodes[c].n as f32).max(0.0) / prior_total,
                    pv,
                }
            })
            .collect();
        lines.sort_by_key(|l| std::cmp::Reverse(l.visits));
        let ownership = self.ownership_of_tree();
        let black_lead = f64::from(ownership.iter().sum::<f32>()) - self.count_komi();
        Analysis {
            lines,
            visits: self.tree.root().n,
            ownership,
            black_lead,
        }
    }

    /// Our win rate if we pass now, from a search of the opponent's replies; None if
    /// the search was stopped before it could say.
    fn winrate_after_pass(
        &mut self,
        color: Color,
        settings: &Settings,
        stop: &AtomicBool,
    ) -> Option<f32> {
        let mut board = self.board.clone();
        board.pass();
        let last = self.last_cells();
        let root = Root {
            board: &board,
            to_move: color.opponent(),
            last: [PASS, last[0]],
            komi: self.count_komi() as f32,
            forbidden: &[],
        };
        let budget = (settings.playouts / 4).clamp(100.min(settings.playouts), 20_000);
        let mut tree = Tree::new(board.cell_count(), MAX_NODES / 4);
        let ran = tree.search(&root, budget, &settings.policy, &mut self.rng, stop);
        if ran < budget {
            return None;
        }
        let best = tree
            .root()
            .children()
            .max_by_key(|&c| tree.nodes[c].n)
            .map(|c| tree.nodes[c].winrate())?;
        Some(1.0 - best)
    }

    fn decide(
        &mut self,
        color: Color,
        settings: &Settings,
        candidates: &[(usize, Candidate)],
        ownership: &[f32],
        stop: &AtomicBool,
    ) -> Decision {
        let Some((_, best)) = candidates.first() else {
            return Decision::Pass;
        };
        let Move::Place(_) = best.mv else {
            return Decision::Pass;
        };
        if let Some(floor) = settings.resign_below
            && best.winrate < floor
            && self.tree.root().n >= RESIGN_MIN_PLAYOUTS
            && self.history.len() >= usize::from(self.size()) * usize::from(self.size()) / 4
        {
            return Decision::Resign;
        }
        // After the opponent's pass, pass too when the count as it stands wins.
        if let Some((c, Move::Pass)) = self.history.last()
            && *c == color.opponent()
        {
            let dead = dead_stones(&self.board, ownership);
            let score = Score::new(
                &area(&self.board, &dead, Counting::Chinese),
                self.komi,
                self.compensation,
            );
            if score.winner() == Some(color) {
                return Decision::Pass;
            }
        }
        // When every move is on a settled point, a pass may lose nothing: search the
        // position after a pass for the opponent, and pass if it is as good for us.
        let size = usize::from(self.size());
        let settled = candidates.iter().all(|(_, c)| match c.mv {
            Move::Place(p) => {
                ownership[usize::from(p.row) * size + usize::from(p.col)].abs() >= SETTLED
            }
            Move::Pass => true,
        });
        if settled
            && let Some(after_pass) = self.winrate_after_pass(color, settings, stop)
            && after_pass >= best.winrate - PASS_TOLERANCE
        {
            return Decision::Pass;
        }
        let chosen = if settings.temperature > 0.0 {
            let weights: Vec<f64> = candidates
                .iter()
                .map(|(_, c)| f64::from(c.visits).powf(1.0 / settings.temperature))
                .collect();
            let total: f64 = weights.iter().sum();
            let mut x = (self.rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 * total;
            let mut pick = 0;
            for (k, w) in weights.iter().enumerate() {
                if x < *w {
                    pick = k;
                    break;
                }
                x -= w;
            }
            &candidates[pick].1
        } else {
            best
        };
        match chosen.mv {
            Move::Place(p) => Decision::Play(p),
            Move::Pass => Decision::Pass,
        }
    }

    /// The stones judged dead at the end of play, for agreeing to a marking:
    /// those that both the playouts ([`Engine::estimate`]) and the rules'
    /// static reading (`qiyuan_go::suggest_dead`: few stones sealed in the
    /// other side's wall, without two eyes) find dead. Each alone misjudges
    /// now and then (the playouts a group that lives in a corner, the reading
    /// a group in atari); together they agreed with GNU Go on every shared game
    /// (`tests/marking.rs`). A group in doubt counts as alive: the players
    /// settle it by resuming play.
    pub fn judge_dead(&mut self, playouts: u64, stop: &AtomicBool) -> Vec<Point> {
        let estimated = self.estimate(playouts, stop).dead;
        let read: HashSet<Point> = qiyuan_go::suggest_dead(&self.board).into_iter().collect();
        estimated.into_iter().filter(|p| read.contains(p)).collect()
    }

    /// Plays `playouts` heavy playouts from the position (stopping early if `stop` is
    /// set) and counts it as they end: the stones they mostly capture are dead.
    pub fn estimate(&mut self, playouts: u64, stop: &AtomicBool) -> Estimate {
        let mut own = vec![0f32; self.board.cell_count()];
        let mut moves = Vec::new();
        let mut scratch = Vec::new();
        let last = self.last_cells();
        let mut n = 0u32;
        while u64::from(n) < playouts && !stop.load(Ordering::Relaxed) {
            let mut b = self.board.clone();
            moves.clear();
            playout(
                &mut b,
                self.to_move,
                last,
                &Policy::HEAVY,
                &mut self.rng,
                &mut moves,
                &mut scratch,
            );
            for p in self.board.points() {
                let i = self.board.cell_of(p);
                match owner(&b, i) {
                    Some(Color::Black) => own[i] += 1.0,
                    Some(Color::White) => own[i] -= 1.0,
                    None => {}
                }
            }
            n += 1;
        }
        let n = n.max(1) as f32;
        let ownership: Vec<f32> = self
            .board
            .points()
            .map(|p| own[self.board.cell_of(p)] / n)
            .collect();
        let dead = dead_stones(&self.board, &ownership);
        let score = Score::new(
            &area(&self.board, &dead, Counting::Chinese),
            self.komi,
            self.compensation,
        );
        Estimate {
            score,
            dead,
            ownership,
        }
    }
}

/// Stones on points the other colour owns in most playouts.
fn dead_stones(board: &Board, ownership: &[f32]) -> Vec<Point> {
    let size = usize::from(board.size());
    board
        .points()
        .filter(|&p| {
            let o = ownership[usize::from(p.row) * size + usize::from(p.col)];
            match board.get(p) {
                Some(Color::Black) => o < 0.0,
                Some(Color::White) => o > 0.0,
                None => false,
            }
        })
        .collect()
}
