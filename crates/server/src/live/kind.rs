//! What a table is and who sits at it, as types chosen once: a table's kind
//! ([`TableKind`]) is decided when the table is made and decoded once when it
//! is loaded, and its policy (who may come, whether the lobby lists it, whether
//! its games count) is asked of it; a seat's occupant ([`Occupant`]) is a
//! person, a computer player at a level, or a hot-seat user's stand-in. Both
//! keep the persisted forms the store, the logs and the records have always
//! had (a private table's id starts with `solo`, a hot-seat one's too; a
//! computer player is `bot:<level>-<tail>`, a stand-in `hotseat:<n>:<user>`),
//! so a restart reads old data; this module is the one place that writes or
//! reads those forms.

use qiyuan_game::Seat;

use crate::error::ApiError;
use crate::registry::AnyTable;

/// The start of every private table's id (persisted form).
const PRIVATE_PREFIX: &str = "solo";
/// The start of a computer player's name (persisted form).
const COMPUTER_PREFIX: &str = "bot:";
/// The start of a hot-seat stand-in's name (persisted form).
const STAND_IN_PREFIX: &str = "hotseat:";

/// A table's kind: who may come to it, who a user acts as there, and what its
/// games count for.
///
/// Tables the server makes for others are public as far as the core goes: a
/// tournament table's rules are its configuration's
/// (`TableConfig::tournament`: fixed settings, no takebacks, a missed first
/// move loses), and an API challenge's table differs only in who may challenge
/// whom, which is decided before it is made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TableKind {
    /// Anyone may watch or sit; listed in the lobby.
    Public,
    /// 单机 against the computer: its owner's alone, listed nowhere, in no
    /// list of games, keeping no points.
    Private,
    /// 单机 hot-seat: a private table whose owner plays every seat, the others
    /// through stand-ins ([`Occupant::StandIn`]; see `live::hotseat`).
    HotSeat,
}

impl TableKind {
    /// The kind the stored id `id` tells: private (a hot-seat table's id is a
    /// private one's) or public. Enough to know who may read a stored table's
    /// games; a live table's kind is [`TableKind::of_table`].
    pub fn of_stored(id: &str) -> Self {
        if id.starts_with(PRIVATE_PREFIX) {
            TableKind::Private
        } else {
            TableKind::Public
        }
    }

    /// The kind of the stored table `id` replayed as `table`: the one decode
    /// at load. A private table with a stand-in seated is a hot-seat one.
    pub fn of_table(id: &str, table: &dyn AnyTable) -> Self {
        match TableKind::of_stored(id) {
            TableKind::Private if has_stand_in(table) => TableKind::HotSeat,
            kind => kind,
        }
    }

    /// A new table id of this kind: 8 letters and digits for a public table
    /// (their alphabet has no `o` nor `l`, so it never starts with `solo`),
    /// `solo` and 12 for a private or hot-seat one.
    pub fn new_id(self) -> String {
        match self {
            TableKind::Public => super::new_id(),
            TableKind::Private | TableKind::HotSeat => {
                let tail: String = (0..2).map(|_| super::new_id()).collect();
                format!("{PRIVATE_PREFIX}{}", &tail[..12])
            }
        }
    }

    /// Whether the table is its owner's alone: nobody else may watch it, sit
    /// there or read its games.
    pub fn is_private(self) -> bool {
        self != TableKind::Public
    }

    /// Whether the lobby lists the table (and so other nodes hear of it).
    pub fn listed(self) -> bool {
        !self.is_private()
    }

    /// Whether its games are in the lists of games (a profile's, its counts,
    /// an export).
    pub fn games_listed(self) -> bool {
        !self.is_private()
    }

    /// Whether its games keep points (积分), where the game keeps them.
    pub fn keeps_points(self) -> bool {
        !self.is_private()
    }

    /// Whether one user plays every seat they hold, themself or by stand-in
    /// (see `live::hotseat`).
    pub fn plays_every_seat(self) -> bool {
        self == TableKind::HotSeat
    }

    /// The refusal of a table for the invited to anyone else.
    pub fn invited_only() -> ApiError {
        ApiError::forbidden(
            "invite_only",
            "this table is for the people invited to it: ask its players for an invitation or its link",
        )
    }

    /// The refusal of a private table to anyone but its owner.
    pub fn refused() -> ApiError {
        ApiError::forbidden(
            "private_table",
            "this table is private (单机): only its owner may watch it, sit there or read its games",
        )
    }
}

/// Whether a hot-seat user's stand-in sits at `table`.
fn has_stand_in(table: &dyn AnyTable) -> bool {
    table.state().seats.iter().any(|s| {
        s.user
            .as_deref()
            .is_some_and(|n| matches!(Occupant::of(n), Occupant::StandIn { .. }))
    })
}

/// Who holds a seat, as decoded from the seat's name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Occupant<'a> {
    /// An account, by its name.
    Person(&'a str),
    /// A computer player; its level's key, if its name carries a valid one.
    Computer { level: Option<&'a str> },
    /// A hot-seat user's stand-in at seat `seat` (see [`super::hotseat`]).
    StandIn { seat: Seat, owner: &'a str },
    /// Another reserved name (with a colon, which no account's name has):
    /// nobody's.
    Reserved(&'a str),
}

impl<'a> Occupant<'a> {
    /// The one decode of a seat's persisted name.
    pub fn of(name: &'a str) -> Self {
        if let Some(rest) = name.strip_prefix(COMPUTER_PREFIX) {
            let level = rest
                .rsplit_once('-')
                .map(|(level, _tail)| level)
                .filter(|l| crate::bots::valid_key(l));
            return Occupant::Computer { level };
        }
        if let Some(rest) = name.strip_prefix(STAND_IN_PREFIX)
            && let Some((n, owner)) = rest.split_once(':')
            && let Ok(n) = n.parse::<u8>()
            && n >= 1
        {
            return Occupant::StandIn {
                seat: Seat(n - 1),
                owner,
            };
        }
        if name.is_empty() || name.contains(':') {
            Occupant::Reserved(name)
        } else {
            Occupant::Person(name)
        }
    }

    /// The persisted name of a computer player of level `key`, told apart
    /// from others of its level by `tail`.
    pub fn computer_name(key: &str, tail: &str) -> String {
        format!("{COMPUTER_PREFIX}{key}-{tail}")
    }

    /// A computer player of level `key` as pages name a place one will hold
    /// (`bot:basic`, no tail: not yet a seat's occupant).
    pub fn computer_place(key: &str) -> String {
        format!("{COMPUTER_PREFIX}{key}")
    }

    /// The persisted name of `owner`'s stand-in at `seat`.
    pub fn stand_in_name(owner: &str, seat: Seat) -> String {
        format!("{STAND_IN_PREFIX}{}:{owner}", seat.0 + 1)
    }

    /// The account's name, if a person sits here themself.
    pub fn person(self) -> Option<&'a str> {
        match self {
            Occupant::Person(name) => Some(name),
            _ => None,
        }
    }

    pub fn is_person(self) -> bool {
        matches!(self, Occupant::Person(_))
    }

    pub fn is_computer(self) -> bool {
        matches!(self, Occupant::Computer { .. })
    }

    /// The person who plays the seat: the account itself, or a stand-in's
    /// owner.
    pub fn played_by(self) -> Option<&'a str> {
        match self {
            Occupant::Person(name) | Occupant::StandIn { owner: name, .. } => Some(name),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn occupants_decode_what_they_encode() {
        let bot = Occupant::computer_name("strong", "k3x9q2");
        assert_eq!(bot, "bot:strong-k3x9q2");
        assert_eq!(
            Occupant::of(&bot),
            Occupant::Computer {
                level: Some("strong")
            }
        );
        assert_eq!(
            Occupant::of("bot:Weird-abc"),
            Occupant::Computer { level: None }
        );
        assert_eq!(
            Occupant::of("bot:nodash"),
            Occupant::Computer { level: None }
        );
        let stand_in = Occupant::stand_in_name("amy", Seat(2));
        assert_eq!(stand_in, "hotseat:3:amy");
        assert_eq!(
            Occupant::of(&stand_in),
            Occupant::StandIn {
                seat: Seat(2),
                owner: "amy"
            }
        );
        assert_eq!(Occupant::of(&stand_in).played_by(), Some("amy"));
        assert_eq!(Occupant::of("amy"), Occupant::Person("amy"));
        assert_eq!(Occupant::of("x:y"), Occupant::Reserved("x:y"));
        assert_eq!(
            Occupant::of("hotseat:0:amy"),
            Occupant::Reserved("hotseat:0:amy")
        );
    }

    #[test]
    fn a_private_id_is_decoded_as_private_and_no_public_id_is() {
        let private = TableKind::Private.new_id();
        assert_eq!(private.len(), 16);
        assert_eq!(TableKind::of_stored(&private), TableKind::Private);
        let hot_seat = TableKind::HotSeat.new_id();
        assert_eq!(TableKind::of_stored(&hot_seat), TableKind::Private);
        for _ in 0..100 {
            assert_eq!(
                TableKind::of_stored(&TableKind::Public.new_id()),
                TableKind::Public
            );
        }
    }

    #[test]
    fn a_private_table_with_a_stand_in_is_loaded_as_hot_seat() {
        use qiyuan_table::{Command, TableConfig, TimeControl};

        let games = crate::registry::Games::builtin();
        let mut table = games
            .new_table("chess", TableConfig::casual(TimeControl::None))
            .unwrap();
        let sit = |user: String, seat| Command::Sit { user, seat };
        table.apply(sit("amy".into(), Seat(0)), 1000).unwrap();
        let id = TableKind::HotSeat.new_id();
        assert_eq!(TableKind::of_table(&id, &*table), TableKind::Private);
        let stand_in = Occupant::stand_in_name("amy", Seat(1));
        table.apply(sit(stand_in, Seat(1)), 1000).unwrap();
        assert_eq!(TableKind::of_table(&id, &*table), TableKind::HotSeat);
        let public = TableKind::Public.new_id();
        assert_eq!(TableKind::of_table(&public, &*table), TableKind::Public);
    }
}
