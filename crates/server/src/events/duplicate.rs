//! Duplicate events (复式) on the core of events at tables of three: one round
//! whose tables play the event's boards as their hands, hand `h` being board
//! `h − 1`, every table dealt it from the board's own secret and seated by the
//! rotation of `qiyuan_duplicate` (docs/card-events.md, "Duplicate events").
//! A board is published once every table has finished it; until then nothing
//! here shows its deal, bids, scores or matchpoints, and the standings count
//! only published boards.

use qiyuan_duplicate::{HandResult, Occupant, Schedule, SeatScore};
use qiyuan_game::Secret;
use qiyuan_store::{EventTableRow, UserId};
use serde_json::{Value, json};

use super::{EventData, seats_of};
use crate::error::ApiError;

/// The level of the computer players who fill the places a field that is
/// not a multiple of 3 leaves empty: the one that plays for absent players
/// (托管), so that a computer place plays as an absent player's seat would.
pub const COMPUTER_LEVEL: &str = "basic";

/// A computer place as the event's pages name it: a computer player's id
/// without its tail (`bot:basic`), which clients show as 电脑（普通）.
pub fn computer_place() -> String {
    crate::live::Occupant::computer_place(COMPUTER_LEVEL)
}

/// The players a duplicate event seats, in the schedule's order (by starting
/// rank), and the schedule: everyone, the places left empty by a field that
/// is not a multiple of 3 filled by computer players (docs/card-events.md).
pub fn field(ev: &EventData, players: &[UserId]) -> Option<(Vec<UserId>, Schedule)> {
    let mut order: Vec<(i64, UserId)> = ev
        .players
        .iter()
        .filter(|p| players.contains(&p.user_id))
        .map(|p| (p.start_rank, p.user_id))
        .collect();
    order.sort_unstable();
    let schedule = Schedule::new(order.len(), ev.boards()).ok()?;
    Some((order.into_iter().map(|(_, u)| u).collect(), schedule))
}

/// The round's tables: table `t` (board number `t + 1` of the core) holds its
/// players by position, a computer place as user 0.
pub fn tables(round: i64, users: &[UserId], schedule: &Schedule) -> Vec<EventTableRow> {
    (0..schedule.tables())
        .map(|t| {
            let seats: Vec<UserId> = schedule
                .positions(t)
                .iter()
                .map(|o| match o {
                    Occupant::Player(i) => users[*i],
                    Occupant::Computer => 0,
                })
                .collect();
            EventTableRow {
                round,
                board: t as i64 + 1,
                seats: serde_json::to_string(&seats).unwrap_or_default(),
            }
        })
        .collect()
}

/// Fresh secrets for `boards` boards from the operating system, hex.
pub fn fresh_secrets(boards: usize) -> Result<Vec<String>, ApiError> {
    use rand::RngCore;
    (0..boards)
        .map(|_| {
            let mut bytes = [0u8; 32];
            rand::rngs::OsRng
                .try_fill_bytes(&mut bytes)
                .map_err(ApiError::internal)?;
            Ok(Secret(bytes).to_hex())
        })
        .collect()
}

/// Hand `hand` (from 1) at `table`: its seats by the rotation and its board's
/// deal (none if the board has no secret, which the director never lets happen).
pub fn plan(ev: &EventData, table: &EventTableRow, hand: i64) -> (Vec<UserId>, Option<Secret>) {
    let board = (hand - 1).max(0) as usize;
    let t = (table.board - 1).max(0) as usize;
    let positions = seats_of(&table.seats);
    let seats = match <[UserId; 3]>::try_from(positions.as_slice()) {
        Ok(p) => qiyuan_duplicate::seating(p, t, board).to_vec(),
        Err(_) => positions,
    };
    let deal = ev
        .board_secrets
        .get(board)
        .and_then(|s| Secret::from_hex(s).ok());
    (seats, deal)
}

impl EventData {
    /// The boards a duplicate event plays (its hands per round).
    pub fn boards(&self) -> usize {
        self.config
            .cards
            .as_ref()
            .map_or(0, |c| c.hands_per_round as usize)
    }

    /// Whether board `board` (from 0) was published: every table finished it.
    pub fn published(&self, board: usize) -> bool {
        self.boards_published.get(board).copied().unwrap_or(false)
    }

    /// The boards every table has finished, from the hands (board `b` is hand
    /// `b + 1` at every table of round 1).
    pub fn finished_boards(&self) -> Vec<bool> {
        let tables: Vec<i64> = self
            .tables
            .iter()
            .filter(|t| t.round == 1)
            .map(|t| t.board)
            .collect();
        (0..self.boards())
            .map(|b| {
                !tables.is_empty()
                    && tables.iter().all(|t| {
                        self.hands.iter().any(|h| {
                            h.round == 1
                                && h.board == *t
                                && h.hand == b as i64 + 1
                                && h.scores.is_some()
                        })
                    })
            })
            .collect()
    }

    /// The schedule of the event's round and its users by player index: the
    /// field is the people seated (a computer place is user 0, and the
    /// schedule puts them after everyone).
    fn seated(&self) -> Option<(Schedule, Vec<UserId>)> {
        let mut tables: Vec<&EventTableRow> = self.tables.iter().filter(|t| t.round == 1).collect();
        tables.sort_by_key(|t| t.board);
        let seats: Vec<Vec<UserId>> = tables.iter().map(|row| seats_of(&row.seats)).collect();
        let people = seats.iter().flatten().filter(|u| **u != 0).count();
        let schedule = Schedule::new(people, self.boards()).ok()?;
        if schedule.tables() != tables.len() {
            return None;
        }
        let mut users = vec![0; schedule.players()];
        for (t, row) in seats.iter().enumerate() {
            for (p, u) in row.iter().enumerate().take(3) {
                if let Some(slot) = users.get_mut(p * tables.len() + t) {
                    *slot = *u;
                }
            }
        }
        Some((schedule, users))
    }

    /// Every seat of every published board's hands, scored.
    pub fn duplicate_scores(&self) -> Option<(Schedule, Vec<UserId>, Vec<SeatScore>)> {
        let (schedule, users) = self.seated()?;
        let results: Vec<HandResult> = self
            .hands
            .iter()
            .filter(|h| h.round == 1 && self.published((h.hand - 1).max(0) as usize))
            .filter_map(|h| {
                let points: Vec<i64> = serde_json::from_str(h.scores.as_deref()?).ok()?;
                Some(HandResult {
                    board: (h.hand - 1) as usize,
                    table: (h.board - 1) as usize,
                    deal: u32::try_from(h.played_deal).unwrap_or(0),
                    points: points.try_into().ok()?,
                })
            })
            .collect();
        let scores = qiyuan_duplicate::score(&schedule, &results).ok()?;
        Some((schedule, users, scores))
    }

    /// The standings of a duplicate event over its published boards.
    pub fn duplicate_standings(&self) -> Value {
        let Some((schedule, users, scores)) = self.duplicate_scores() else {
            return json!([]);
        };
        let rows: Vec<Value> = qiyuan_duplicate::standings(&schedule, &scores)
            .iter()
            .map(|s| {
                json!({
                    "place": s.rank,
                    "user": self.name_of(users[s.player]),
                    "matchpoints": s.matchpoints,
                    "top": s.top,
                    "percent": (s.percent() * 100.0).round() / 100.0,
                    "points": s.points,
                    "boards": s.boards,
                })
            })
            .collect();
        Value::Array(rows)
    }

    /// The per-board comparison of the published boards: each table's
    /// players by seat, its game (the record: who held what, who bid what) and
    /// each seat's points and matchpoints. `records` gives a hand's table's
    /// stored record (JSON) when it has one.
    pub fn comparison(&self, records: &dyn Fn(&str) -> Option<Value>) -> Value {
        let Some((_, users, scores)) = self.duplicate_scores() else {
            return json!({"boards": []});
        };
        let boards: Vec<Value> = (0..self.boards())
            .map(|b| {
                if !self.published(b) {
                    return json!({"board": b + 1, "published": false});
                }
                let mut tables: Vec<Value> = Vec::new();
                for h in self
                    .hands
                    .iter()
                    .filter(|h| h.round == 1 && h.hand == b as i64 + 1)
                {
                    let t = (h.board - 1) as usize;
                    let seats: Vec<Value> = scores
                        .iter()
                        .filter(|s| s.board == b && s.table == t)
                        .map(|s| {
                            let user = match s.occupant {
                                Occupant::Player(i) => self.name_of(users[i]),
                                Occupant::Computer => computer_place(),
                            };
                            json!({
                                "seat": s.seat,
                                "user": user,
                                "points": s.points,
                                "matchpoints": s.matchpoints,
                                "top": s.top,
                            })
                        })
                        .collect();
                    tables.push(json!({
                        "table": t + 1,
                        // 0, or the redeal played after everyone passed:
                        // compared only with the tables that played it.
                        "deal": h.played_deal,
                        "game": h.table_id,
                        "seats": seats,
                        "record": h.table_id.as_deref().and_then(records),
                    }));
                }
                json!({"board": b + 1, "published": true, "tables": tables})
            })
            .collect();
        json!({"boards": boards})
    }

    /// The CSV export of the published boards' seats.
    pub fn duplicate_csv(&self) -> String {
        let Some((_, users, scores)) = self.duplicate_scores() else {
            return qiyuan_duplicate::csv(&[], |_| String::new());
        };
        qiyuan_duplicate::csv(&scores, |o| match o {
            Occupant::Player(i) => self.name_of(users[i]),
            Occupant::Computer => "computer".into(),
        })
    }
}

#[cfg(test)]
mod tests {
    use qiyuan_store::{EventHandRow, EventPlayerRow, EventRow};
    use serde_json::json;

    use super::*;

    /// A duplicate event of `people` players over one board, grouped as the
    /// director groups it, with board 1 played at every table: `results[t]`
    /// is table `t`'s deal played and points by seat.
    fn event(people: i64, results: &[(i64, [i64; 3])]) -> EventData {
        let config = json!({
            "name": "d", "kind": "duplicate", "game": "doudizhu",
            "cards": {"hands_per_round": 1},
            "time": {"kind": "qq", "game": 0, "per_move": 0, "countdown": 20_000},
            "rounds": 1, "starts_at": 0,
        });
        let players: Vec<EventPlayerRow> = (1..=people)
            .map(|i| EventPlayerRow {
                user_id: i,
                username: format!("p{i}"),
                start_rank: i,
                rating: None,
                joined_round: 1,
                withdrawn: false,
                disqualified: false,
                joined_at: 0,
            })
            .collect();
        let mut ev = EventData {
            row: EventRow {
                id: "e".into(),
                organiser: 99,
                game: "doudizhu".into(),
                config: config.to_string(),
                status: "running".into(),
                created_at: 0,
                updated_at: 0,
                end_reason: None,
            },
            config: serde_json::from_value(config).unwrap(),
            players,
            byes: Vec::new(),
            rounds: Vec::new(),
            games: Vec::new(),
            arbiters: Vec::new(),
            tables: Vec::new(),
            hands: Vec::new(),
            chiefs: Vec::new(),
            board_secrets: vec!["00".repeat(32)],
            boards_published: vec![true],
        };
        let ids: Vec<UserId> = (1..=people).collect();
        let (users, schedule) = field(&ev, &ids).unwrap();
        ev.tables = tables(1, &users, &schedule);
        for (t, (deal, points)) in results.iter().enumerate() {
            let table = ev.tables[t].clone();
            let (seats, _) = plan(&ev, &table, 1);
            ev.hands.push(EventHandRow {
                round: 1,
                board: table.board,
                hand: 1,
                seats: serde_json::to_string(&seats).unwrap(),
                deal: None,
                table_id: Some(format!("t{t}")),
                scores: Some(serde_json::to_string(points).unwrap()),
                started_at: 0,
                played_deal: *deal,
            });
        }
        ev
    }

    fn matchpoints(ev: &EventData) -> Vec<(usize, usize, u32, u32)> {
        let (_, _, scores) = ev.duplicate_scores().unwrap();
        scores
            .iter()
            .map(|s| (s.table, s.seat, s.matchpoints, s.top))
            .collect()
    }

    #[test]
    fn a_redeal_is_compared_only_with_the_tables_that_played_it() {
        // The same deal at both tables: each seat's result against the other's.
        let same = event(6, &[(0, [4, -2, -2]), (0, [-4, 2, 2])]);
        assert_eq!(
            matchpoints(&same),
            vec![
                (0, 0, 2, 2),
                (0, 1, 0, 2),
                (0, 2, 0, 2),
                (1, 0, 0, 2),
                (1, 1, 2, 2),
                (1, 2, 2, 2)
            ]
        );
        // Table 2 passed out and played the redeal: nobody to compare with.
        let apart = event(6, &[(0, [4, -2, -2]), (1, [-4, 2, 2])]);
        assert!(
            matchpoints(&apart)
                .iter()
                .all(|&(_, _, m, top)| (m, top) == (1, 2)),
            "{:?}",
            matchpoints(&apart)
        );
        let cmp = apart.comparison(&|_| None);
        assert_eq!(cmp["boards"][0]["tables"][1]["deal"], 1, "{cmp}");
    }

    #[cfg(feature = "doudizhu")]
    #[test]
    fn a_computer_place_plays_at_the_level_that_plays_for_absent_players() {
        // 托管 plays at the game's first level (`bots::turn`).
        let games = crate::registry::Games::builtin();
        let levels = &games.get("doudizhu").unwrap().bot_levels;
        assert_eq!(levels[0].key, COMPUTER_LEVEL);
    }

    #[test]
    fn a_field_not_a_multiple_of_three_is_seated_whole_with_computer_places() {
        let ev = event(5, &[(0, [4, -2, -2]), (0, [-4, 2, 2])]);
        let seated: Vec<Vec<UserId>> = ev.tables.iter().map(|t| seats_of(&t.seats)).collect();
        // Strongest first, position by position; the sixth place a computer's.
        assert_eq!(seated, vec![vec![1, 3, 5], vec![2, 4, 0]]);
        assert_eq!(ev.name_of(0), "bot:basic");
        let standings = ev.duplicate_standings();
        let names: Vec<&str> = standings
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["user"].as_str().unwrap())
            .collect();
        assert_eq!(names.len(), 5, "{standings}");
        assert!(!names.contains(&"bot:basic"), "{standings}");
        let cmp = ev.comparison(&|_| None);
        let users: Vec<&str> = cmp["boards"][0]["tables"][1]["seats"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["user"].as_str().unwrap())
            .collect();
        assert!(users.contains(&"bot:basic"), "{cmp}");
    }
}
