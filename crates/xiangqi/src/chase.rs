//! What a move attacks, for the repetition rules: checks and chases.
//!
//! # The definition of a chase implemented here
//!
//! Following the Asian Xiangqi Federation's rules and the WXF rulebook's
//! diagrams, a piece P of side S *attacks* an enemy piece V when P could capture V
//! by a legal move (a pinned P, or a capture that would expose S's general,
//! attacks nothing), whoever is to move.
//!
//! An attack by P on V *counts as a chase* when all of these hold:
//! - P is not a general or a soldier (they may attack perpetually);
//! - V is not the general (that is a check) and not a soldier that has not crossed
//!   the river;
//! - either P is a horse or a cannon and V is a rook (a rook so attacked is chased
//!   even when protected), or P is an advisor or an elephant and V is a rook, horse
//!   or cannon; or else V is *unprotected*: after P takes V, no piece of V's side
//!   can legally take back on that point (a protector that is pinned, or whose
//!   recapture would expose its general, is a false root and does not protect);
//! - and, when P and V are of the same kind (rook against rook, horse against
//!   horse, ...), V cannot legally take P back right now: mutual attacks are
//!   offers to exchange, not chases, unless the attacked piece is pinned or, for
//!   horses, its leg is blocked.
//!
//! A move by S *chases* V when, after the move, some P attacks V in a way that
//! counts as a chase, and that attack by that same P did not count as a chase
//! before the move. Either the attack is new (made by the moved piece, or
//! uncovered by it: a line opened, a cannon screen placed), or it existed and the
//! move took away what kept it from being a chase: V's real protection (a
//! protector's line blocked, a protecting cannon's screen doubled or taken away,
//! a protector pinned so that its recapture would be illegal) or V's chance to
//! take P back. This second kind (the AXF rules' appendix: keeping a piece
//! unprotected is chasing it) is not counted when the move defends: it answers a
//! check, or ends an attack that counted as a chase on one of S's pieces (the
//! chased side answering a chase, WXF diagrams 39-41 and 61, does not chase by
//! the protection its answer takes away). A move that gives check is a check,
//! not a chase.
//!
//! Over a repetition cycle a side *checks perpetually* when every one of its
//! moves gives check, and *chases perpetually* when every one of its moves chases
//! and one and the same enemy piece (followed as it moves) is chased by all of
//! them, by one piece or by several taking turns (AXF rule 33: two pieces may
//! not take turns to chase one piece; the chase is *by pieces taking turns* when
//! no one piece chases it on every move). Chasing different pieces in turn, or
//! alternating check and chase, is not forcing. `verdict` turns both sides'
//! behaviour into the result: a lone perpetual checker loses (also against a
//! perpetual chaser); else a lone perpetual chaser loses; else the repetition is
//! a draw. When the losing chase is by pieces taking turns the game ends as soon
//! as the cycle recurs (see `crate::rules`).

use crate::board::{
    self, ADVISOR, Board, CANNON, ELEPHANT, EMPTY, HORSE, KING, MoveList, PAWN, ROOK,
};
use crate::types::{Color, Move};

/// Identifies pieces across a cycle: `ids[square]` is a piece's number, 0–31.
pub(crate) type Ids = [u8; 256];

/// Numbers every piece on the board.
pub(crate) fn number_pieces(b: &Board) -> Ids {
    let mut ids = [u8::MAX; 256];
    let mut n = 0;
    for i in 0..=255u8 {
        let c = b.cell(i);
        if c != EMPTY && c != board::OFF {
            ids[i as usize] = n;
            n += 1;
        }
    }
    ids
}

/// Can side `c` legally move some piece to `to`?
fn can_capture_on(b: &mut Board, c: Color, to: u8) -> bool {
    let saved = b.side;
    b.side = c;
    let mut l = MoveList::new();
    b.pseudo_moves(&mut l);
    let ok = l.iter().any(|&m| m.to_raw() == to && b.is_legal(m));
    b.side = saved;
    ok
}

/// Can the piece on `from` (of side `c`) legally capture on `to`?
fn piece_can_capture(b: &mut Board, c: Color, from: u8, to: u8) -> bool {
    let saved = b.side;
    b.side = c;
    let mut l = MoveList::new();
    b.pseudo_moves_from(from, &mut l);
    let m = Move::from_raw(from, to);
    let ok = l.as_slice().contains(&m) && b.is_legal(m);
    b.side = saved;
    ok
}

/// Who attacks whom: for each victim id, the set of attacker ids.
pub(crate) type Attacks = [u32; 32];

/// Every capture side `c` could legally make with a piece that may be guilty of
/// chasing (not the general, not a soldier) against a piece that may be chased
/// (not the general, not a soldier on its own side of the river), as
/// `(from, to)` points. Whose turn it is does not matter.
fn captures(b: &mut Board, c: Color) -> Vec<(u8, u8)> {
    let saved = b.side;
    b.side = c;
    let attackers: Vec<u8> = b.squares_of(c).to_vec();
    let mut out = Vec::new();
    for from in attackers {
        let a_role = board::role_bits(b.cell(from));
        if a_role == KING || a_role == PAWN {
            continue;
        }
        let mut l = MoveList::new();
        b.pseudo_moves_from(from, &mut l);
        for &m in l.as_slice() {
            let to = m.to_raw();
            let victim = b.cell(to);
            if victim == EMPTY {
                continue;
            }
            let v_role = board::role_bits(victim);
            if v_role == KING || (v_role == PAWN && !board::crossed(to, c.other())) {
                continue;
            }
            if b.is_legal(m) {
                out.push((from, to));
            }
        }
    }
    b.side = saved;
    out
}

/// Every attack by side `c`, and the attacks among them that count as chases
/// (see the definition above), as attacker ids by victim id.
fn attack_sets(b: &mut Board, ids: &Ids, c: Color) -> (Attacks, Attacks) {
    let mut all = [0u32; 32];
    let mut chases = [0u32; 32];
    for (from, to) in captures(b, c) {
        let (v, a) = (ids[to as usize] as usize, ids[from as usize] as u32);
        if v < 32 && a < 32 {
            all[v] |= 1 << a;
            if is_chase(b, c, from, to) {
                chases[v] |= 1 << a;
            }
        }
    }
    (all, chases)
}

/// Is the capture `from`x`to` by side `c` a chase in the sense above (the
/// capture is known to be legal)?
fn is_chase(b: &mut Board, c: Color, from: u8, to: u8) -> bool {
    let a_role = board::role_bits(b.cell(from));
    let v_role = board::role_bits(b.cell(to));
    if ((a_role == HORSE || a_role == CANNON) && v_role == ROOK)
        || ((a_role == ADVISOR || a_role == ELEPHANT) && matches!(v_role, ROOK | HORSE | CANNON))
    {
        return true;
    }
    let saved = b.side;
    b.side = c;
    let m = Move::from_raw(from, to);
    let u = b.make(m);
    let protected = can_capture_on(b, c.other(), to);
    b.unmake(m, u);
    b.side = saved;
    !protected && (v_role != a_role || !piece_can_capture(b, c.other(), to, from))
}

/// The chases a move by `c` makes, as attacker ids by victim id: attacks that
/// count as chases after the move and did not before it. Such an attack is new
/// (made by the moved piece or uncovered by it), or it existed but was no chase
/// before: the move took away the victim's real protection (blocked or unscreened
/// a protector, pinned it) or made a mutual attack one-sided. The second kind is
/// not counted when the move defends (it answers a check, or ends a chase on one
/// of the mover's pieces): the moves of the chased side answer the chase.
pub(crate) fn chases_by_move(before: &Board, m: Move, ids_before: &Ids) -> (Attacks, Board, Ids) {
    let c = before.side;
    let mut b = before.clone();
    let was_check = b.in_check();
    let (old_all, old) = attack_sets(&mut b, ids_before, c);
    let (_, threats_before) = attack_sets(&mut b, ids_before, c.other());
    b.make(m);
    let mut ids = *ids_before;
    move_ids(&mut ids, m);
    let (_, mut new) = attack_sets(&mut b, &ids, c);
    let (_, threats_after) = attack_sets(&mut b, &ids, c.other());
    let defends = was_check
        || threats_before
            .iter()
            .zip(threats_after)
            .any(|(&t0, t1)| t0 & !t1 != 0);
    for ((n, o), all) in new.iter_mut().zip(old).zip(old_all) {
        *n &= !o;
        if defends {
            *n &= !all;
        }
    }
    (new, b, ids)
}

/// Follows the piece numbers through a move.
pub(crate) fn move_ids(ids: &mut Ids, m: Move) {
    ids[m.to_raw() as usize] = ids[m.origin() as usize];
    ids[m.origin() as usize] = u8::MAX;
}

/// How one side behaved over a repetition cycle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Forcing {
    pub perpetual_check: bool,
    pub perpetual_chase: bool,
    /// Every move of the side checked or chased something (not necessarily the
    /// same piece).
    pub always_attacking: bool,
    /// The perpetual chase is made by two or more pieces taking turns: no one
    /// of them chases the piece on every move.
    pub taking_turns: bool,
}

/// Judges a cycle: `start` is the position at the first occurrence, `moves` the
/// moves played since. Returns each side's behaviour, indexed by colour.
pub(crate) fn judge_cycle(start: &Board, moves: &[Move]) -> [Forcing; 2] {
    let mut b = start.clone();
    let mut ids = number_pieces(&b);
    let mut all_check = [true, true];
    // Per side: the victims chased by every move so far, and per victim the
    // pieces that chased it on every one of those moves.
    let mut chased = [u32::MAX, u32::MAX];
    let mut common = [[u32::MAX; 32]; 2];
    let mut moved = [false, false];
    let mut always = [true, true];
    for &m in moves {
        let mover = b.side;
        let (chases, after, after_ids) = chases_by_move(&b, m, &ids);
        b = after;
        ids = after_ids;
        let check = b.in_check();
        let i = mover as usize;
        moved[i] = true;
        all_check[i] &= check;
        let mut victims = 0u32;
        for (v, &attackers) in chases.iter().enumerate() {
            if attackers != 0 {
                victims |= 1 << v;
            }
            common[i][v] &= attackers;
        }
        always[i] &= check || victims != 0;
        // A move that gives check is a check, not a chase.
        chased[i] &= if check { 0 } else { victims };
    }
    let f = |i: usize| {
        let perpetual = if moved[i] { chased[i] } else { 0 };
        Forcing {
            perpetual_check: moved[i] && all_check[i],
            perpetual_chase: perpetual != 0,
            always_attacking: moved[i] && always[i],
            taking_turns: (0..32).any(|v| perpetual & (1 << v) != 0 && common[i][v] == 0),
        }
    };
    [f(0), f(1)]
}

/// The verdict on a repetition: the side that loses, or `None` for a draw, and
/// whether it was for checking.
pub(crate) fn verdict(f: [Forcing; 2]) -> Option<(Color, bool)> {
    let [red, black] = f;
    match (red.perpetual_check, black.perpetual_check) {
        (true, false) => return Some((Color::Red, true)),
        (false, true) => return Some((Color::Black, true)),
        (true, true) => return None,
        _ => {}
    }
    match (red.perpetual_chase, black.perpetual_chase) {
        (true, false) => Some((Color::Red, false)),
        (false, true) => Some((Color::Black, false)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const IDLE: Forcing = Forcing {
        perpetual_check: false,
        perpetual_chase: false,
        always_attacking: false,
        taking_turns: false,
    };
    const CHECK: Forcing = Forcing {
        perpetual_check: true,
        perpetual_chase: false,
        always_attacking: true,
        taking_turns: false,
    };
    const CHASE: Forcing = Forcing {
        perpetual_check: false,
        perpetual_chase: true,
        always_attacking: true,
        taking_turns: false,
    };

    fn cycle_of(fen: &str, moves: &str) -> [Forcing; 2] {
        let pos = crate::Position::from_fen(fen).unwrap();
        let ms: Vec<Move> = moves
            .split_whitespace()
            .map(|m| crate::notation::parse_iccs_unchecked(m).unwrap())
            .collect();
        judge_cycle(pos.board(), &ms)
    }

    #[test]
    fn a_general_stepping_into_a_cannon_screen_chases() {
        // Red checks with every move; each black general step makes a cannon
        // attack the checking rook.
        let [red, black] = cycle_of("c1b1k4/c1n5R/9/9/9/9/9/9/9/5K3 w", "i8i9 e9e8 i9i8 e8e9");
        assert!(red.perpetual_check && !red.perpetual_chase);
        assert!(black.perpetual_chase && !black.perpetual_check);
    }

    #[test]
    fn a_protected_horse_attacked_by_a_rook_is_not_chased() {
        let [red, black] = cycle_of("1r2k4/9/1n7/R8/9/9/9/9/9/3K5 w", "a6a7 e9e8 a7a6 e8e9");
        assert_eq!(red, IDLE);
        assert_eq!(black, IDLE);
    }

    #[test]
    fn an_unprotected_cannon_attacked_by_a_rook_is_chased() {
        let [red, black] = cycle_of("c3k4/1R7/9/9/9/9/9/9/9/3K5 w", "b8a8 a9b9 a8b8 b9a9");
        assert_eq!(red, CHASE);
        assert_eq!(black, IDLE);
    }

    #[test]
    fn taking_a_protecting_cannon_screen_away_chases() {
        // The red soldier doubles, then removes, the screen of the cannon that
        // protects the horse the rook attacks.
        let [red, black] = cycle_of("4ck3/3P5/4b4/R3n4/9/9/9/9/9/3K5 w", "d8e8 e7g9 e8d8 g9e7");
        assert_eq!(red, CHASE);
        assert_eq!(black, IDLE);
    }

    #[test]
    fn a_horse_and_a_rook_taking_turns() {
        let [red, black] = cycle_of("4k4/9/9/7c1/9/9/6N2/9/9/3K4R w", "g3i4 h6i6 i4g3 i6h6");
        assert_eq!(
            red,
            Forcing {
                taking_turns: true,
                ..CHASE
            }
        );
        assert_eq!(black, IDLE);
    }

    #[test]
    fn answering_a_chase_takes_protection_away_without_chasing() {
        // WXF diagram 39: each black advisor move answers an attack on the black
        // rook and takes a line or a screen away from the red horse's protectors.
        let [red, black] = cycle_of(
            "2bak4/RC2arN2/4b1n2/2p5p/6p2/2P6/4p1P1c/4B4/4A4/4KAB2 b",
            "e8f9 b8b9 f9e8 b9b8",
        );
        assert!(red.perpetual_chase && red.taking_turns);
        assert!(!black.perpetual_chase);
    }

    #[test]
    fn the_checker_loses_against_a_chaser() {
        assert_eq!(verdict([CHECK, CHASE]), Some((Color::Red, true)));
        assert_eq!(verdict([CHASE, CHECK]), Some((Color::Black, true)));
    }

    #[test]
    fn forcing_on_both_sides_or_neither_draws() {
        assert_eq!(verdict([CHECK, CHECK]), None);
        assert_eq!(verdict([CHASE, CHASE]), None);
        assert_eq!(verdict([IDLE, IDLE]), None);
        assert_eq!(verdict([IDLE, CHASE]), Some((Color::Black, false)));
    }
}
