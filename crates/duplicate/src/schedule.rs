//! Who sits where on which board.

use serde::{Deserialize, Serialize};

use crate::SEATS;

/// The fewest players a duplicate event takes: two tables, with at least two
/// people at each (a comparison needs a second table).
pub const MIN_PLAYERS: usize = 4;
/// The most players (333 full tables).
pub const MAX_PLAYERS: usize = 999;
/// The most boards an event plays.
pub const MAX_BOARDS: usize = 60;

/// Who holds a place at a table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Occupant {
    /// A player of the field, by their index in the order the schedule was given.
    Player(usize),
    /// A computer player filling a place the field leaves empty: it plays every
    /// board and its results are compared like anyone's, but it is not ranked.
    Computer,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ScheduleError {
    #[error("a duplicate event takes {MIN_PLAYERS} to {MAX_PLAYERS} players, not {0}")]
    Players(usize),
    #[error("a duplicate event plays 1 to {MAX_BOARDS} boards, not {0}")]
    Boards(usize),
}

/// The schedule of a duplicate event.
///
/// **Tables.** `T = ceil(players / 3)` tables (never fewer than 2). Every table
/// has three *positions*; the players, in the order given (the director gives
/// them strongest first), are dealt out position by position: position 0 of
/// tables 0, 1, …, T−1 takes players 0 … T−1, position 1 takes the next T, and
/// position 2 the rest. So every table has one player from each third of the
/// field, and the places a field that is not a multiple of 3 leaves empty are
/// the last tables' position 2 (one per table, [`Occupant::Computer`]). A table
/// keeps its three occupants for the whole event.
///
/// **Rotation.** On board `b`, the occupant of position `p` at table `t` holds
/// seat `(p + t + b) mod 3` of that board's deal. So
/// - on one board, the tables rotate the deal: table `t` has it turned by `t`
///   seats, and in every run of three tables each position holds each seat once
///   (with two tables, two of the three seats; "as far as the field allows");
/// - a player goes round the seats from board to board, so over the event every
///   player holds each seat `floor(B/3)` or `ceil(B/3)` times, and never one
///   board's seat twice (a player plays a board once).
///
/// Every table plays every board, in the order 0, 1, …, B−1; a board's result is
/// compared among the `T` players who held the same seat of it, one per table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Schedule {
    players: usize,
    boards: usize,
    /// Per table, its occupants by position.
    tables: Vec<[Occupant; SEATS]>,
}

impl Schedule {
    /// The schedule of `players` players over `boards` boards.
    pub fn new(players: usize, boards: usize) -> Result<Schedule, ScheduleError> {
        if !(MIN_PLAYERS..=MAX_PLAYERS).contains(&players) {
            return Err(ScheduleError::Players(players));
        }
        if !(1..=MAX_BOARDS).contains(&boards) {
            return Err(ScheduleError::Boards(boards));
        }
        let count = players.div_ceil(SEATS).max(2);
        let tables = (0..count)
            .map(|t| {
                std::array::from_fn(|p| {
                    let i = p * count + t;
                    if i < players {
                        Occupant::Player(i)
                    } else {
                        Occupant::Computer
                    }
                })
            })
            .collect();
        Ok(Schedule {
            players,
            boards,
            tables,
        })
    }

    pub fn players(&self) -> usize {
        self.players
    }

    pub fn boards(&self) -> usize {
        self.boards
    }

    pub fn tables(&self) -> usize {
        self.tables.len()
    }

    /// The occupants of `table` by position.
    pub fn positions(&self, table: usize) -> [Occupant; SEATS] {
        self.tables[table]
    }

    /// The seat that position `position` of `table` holds on `board`.
    pub fn seat_of(&self, table: usize, position: usize, board: usize) -> usize {
        (position + table + board) % SEATS
    }

    /// The occupants of `table` on `board`, by seat of the board's deal.
    pub fn seating(&self, table: usize, board: usize) -> [Occupant; SEATS] {
        seating(self.tables[table], table, board)
    }

    /// Where `player` sits: table and position.
    pub fn place(&self, player: usize) -> Option<(usize, usize)> {
        (player < self.players).then(|| (player % self.tables(), player / self.tables()))
    }

    /// The table and seat `player` holds on `board`.
    pub fn seat_for(&self, player: usize, board: usize) -> Option<(usize, usize)> {
        let (table, position) = self.place(player)?;
        Some((table, self.seat_of(table, position, board)))
    }

    /// Everyone who holds `seat` of `board`, one per table, by table.
    pub fn holders(&self, board: usize, seat: usize) -> Vec<Occupant> {
        (0..self.tables())
            .map(|t| self.seating(t, board)[seat])
            .collect()
    }
}

/// Whoever holds `positions` (by position) at `table` on `board`, by seat of the
/// board's deal: position `p` holds seat `(p + table + board) mod 3`.
pub fn seating<T: Copy>(positions: [T; SEATS], table: usize, board: usize) -> [T; SEATS] {
    let turn = (table + board) % SEATS;
    std::array::from_fn(|seat| positions[(seat + SEATS - turn) % SEATS])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_documented_example() {
        // Seven players: three tables, two computer places.
        let s = Schedule::new(7, 4).unwrap();
        assert_eq!(s.tables(), 3);
        use Occupant::{Computer as C, Player as P};
        assert_eq!(s.positions(0), [P(0), P(3), P(6)]);
        assert_eq!(s.positions(1), [P(1), P(4), C]);
        assert_eq!(s.positions(2), [P(2), P(5), C]);
        // Board 0: table 0 as dealt, table 1 turned by one seat, table 2 by two.
        assert_eq!(s.seating(0, 0), [P(0), P(3), P(6)]);
        assert_eq!(s.seating(1, 0), [C, P(1), P(4)]);
        assert_eq!(s.seating(2, 0), [P(5), C, P(2)]);
        // Board 1: everyone one seat on.
        assert_eq!(s.seating(0, 1), [P(6), P(0), P(3)]);
        assert_eq!(s.holders(0, 0), vec![P(0), C, P(5)]);
        assert_eq!(s.seat_for(4, 0), Some((1, 2)));
        assert_eq!(s.seat_for(4, 1), Some((1, 0)));
    }

    #[test]
    fn limits() {
        assert_eq!(Schedule::new(3, 4), Err(ScheduleError::Players(3)));
        assert_eq!(Schedule::new(6, 0), Err(ScheduleError::Boards(0)));
        assert_eq!(Schedule::new(6, 61), Err(ScheduleError::Boards(61)));
        let s = Schedule::new(4, 1).unwrap();
        assert_eq!(s.tables(), 2);
        assert_eq!(
            s.positions(1),
            [Occupant::Player(1), Occupant::Player(3), Occupant::Computer]
        );
    }
}
