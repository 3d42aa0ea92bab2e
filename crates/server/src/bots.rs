//! Computer players (电脑) as seat occupants of live tables, for the games whose
//! registry entry has them (Doudizhu's). This module knows no game: it reaches
//! the game through the table's hooks ([`AnyTable::bot_levels`],
//! [`AnyTable::bot_choice`]), which the registry fills in per game.
//!
//! A bot is a seated "user" whose id has the reserved form `bot:basic-xxxxxx` or
//! `bot:strong-xxxxxx`: a colon can never be in an account's name (see
//! [`crate::auth::validate_username`]), so no account can take or impersonate one.
//! The table itself knows nothing of bots: the live table task (see
//! [`crate::live`]) asks this module, after every change, what the bots at the
//! table want to do, and applies it as commands from those users through the same
//! path as a player's (stored before broadcast).
//!
//! A bot chooses its action from its own seat's view only
//! ([`qiyuan_game::Game::view`] for its seat, the view a player at that seat
//! gets), never from the table's state or log, which hold the hand's deal secret.
//! Bots always accept the current settings and are ready, as long as a human sits
//! at the table (so that bots alone never play on forever), and come back at once
//! after a server restart.
//!
//! Escape: the table ends a hand at once when a player leaves (or stays away past
//! the grace time); the result stands as the rules set it and the hand does not
//! go on. For the next hand, a seat of the escaped game that is empty (the leaver's
//! seat, or an absent player's seat freed after the grace time) is taken by a bot,
//! as long as a human still sits at the table.

use qiyuan_game::{EndReason, Seat};
use qiyuan_table::{Command, Status};
use serde::{Deserialize, Serialize};

use crate::error::ApiError;
use crate::registry::{AnyTable, BotChoice};

/// How a bot's user id starts.
pub const PREFIX: &str = "bot:";

/// A bot's strength, as the protocol names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, Serialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum Level {
    /// Rule-based.
    #[default]
    Basic,
    /// Samples the unknown cards and plays out each candidate.
    Strong,
}

impl Level {
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Basic => "basic",
            Level::Strong => "strong",
        }
    }

    /// Parses a protocol name (`basic`, `strong`).
    pub fn parse(text: &str) -> Option<Level> {
        match text {
            "basic" => Some(Level::Basic),
            "strong" => Some(Level::Strong),
            _ => None,
        }
    }
}

/// Whether `user` is a bot.
pub fn is_bot(user: &str) -> bool {
    user.starts_with(PREFIX)
}

/// The level of a bot's user id.
pub fn level_of(user: &str) -> Option<Level> {
    let rest = user.strip_prefix(PREFIX)?;
    let level = rest.split('-').next()?;
    Level::parse(level)
}

/// A new bot user id of `level`: `bot:strong-k3x9q2`. The random tail keeps two
/// bots of the same level at one table apart.
pub fn new_name(level: Level) -> String {
    use rand::Rng;
    const ALPHABET: &[u8] = b"abcdefghijkmnpqrstuvwxyz23456789";
    let mut rng = rand::thread_rng();
    let tail: String = (0..6)
        .map(|_| ALPHABET[rng.gen_range(0..ALPHABET.len())] as char)
        .collect();
    format!("{PREFIX}{}-{tail}", level.as_str())
}

/// Whether the games at this table can have bots.
pub fn plays(table: &dyn AnyTable) -> bool {
    !table.bot_levels().is_empty()
}

/// `add_bot`: the bot's `sit`, if `user` may seat a bot now (see [`may_change`]).
/// The seat itself is checked by the table's `sit`.
pub fn add(
    table: &dyn AnyTable,
    user: &str,
    seat: Seat,
    level: Level,
) -> Result<Command, ApiError> {
    may_change(table, user)?;
    if !table.bot_levels().contains(&level) {
        return Err(ApiError::bad_request(
            "bad_level",
            format!(
                "no {} computer player for {}",
                level.as_str(),
                table.game_name()
            ),
        ));
    }
    Ok(Command::Sit {
        user: new_name(level),
        seat,
    })
}

/// `remove_bot`: the bot's `stand`, if `user` may change the bots now and a bot
/// sits at `seat`.
pub fn remove(table: &dyn AnyTable, user: &str, seat: Seat) -> Result<Command, ApiError> {
    may_change(table, user)?;
    let bot = table
        .state()
        .seats
        .get(seat.index())
        .and_then(|s| s.user.clone())
        .filter(|u| is_bot(u))
        .ok_or_else(|| {
            ApiError::bad_request(
                "no_bot",
                format!("no computer player sits at seat {}", seat.0),
            )
        })?;
    Ok(Command::Stand { user: bot })
}

/// Checks that `user` may add or remove bots now: a table of a game with
/// computer players, between games, and `user` seated at it.
pub fn may_change(table: &dyn AnyTable, user: &str) -> Result<(), ApiError> {
    if !plays(table) {
        return Err(ApiError::bad_request(
            "no_bots",
            format!("there are no computer players for {}", table.game_name()),
        ));
    }
    if table.seat_of(user).is_none() {
        return Err(ApiError::forbidden(
            "not_seated",
            "only a player seated at the table may add a computer player",
        ));
    }
    if table.state().status == Status::Playing {
        return Err(ApiError::forbidden(
            "game_in_progress",
            "computer players are added between games",
        ));
    }
    Ok(())
}

fn human_seated(table: &dyn AnyTable) -> bool {
    table
        .state()
        .seats
        .iter()
        .any(|s| s.user.as_deref().is_some_and(|u| !is_bot(u)))
}

/// The bookkeeping the bots want now, at once and in order: coming back after a
/// restart, taking an escaped player's empty seat, and being ready for the next
/// game. Empty when there is nothing to do. The task applies these one at a time
/// and asks again, so each command sees the table as the last one left it.
pub fn chore(table: &dyn AnyTable) -> Option<Command> {
    if !plays(table) {
        return None;
    }
    let state = table.state();
    // Bots never disconnect; a restart marks every seat absent.
    for s in &state.seats {
        if let Some(user) = s.user.as_deref().filter(|u| is_bot(u))
            && s.absent_since.is_some()
        {
            return Some(Command::Reconnect { user: user.into() });
        }
    }
    if state.status == Status::Playing || !human_seated(table) {
        return None;
    }
    // Escape takeover: the last game ended by escape; its empty seats get a bot,
    // each once (a bot taken off again with `remove_bot` is not put back).
    let escaped_at = state
        .game
        .as_ref()
        .filter(|g| {
            g.outcome
                .as_ref()
                .is_some_and(|o| o.reason == EndReason::Escape)
        })
        .and_then(|g| g.ended_at);
    // A seat a bot has sat at since the end (and maybe was taken off) is done.
    let taken_over = |end: u64, seat: Seat| {
        table.log().iter().rev().take_while(|e| e.at >= end).any(
            |e| matches!(&e.command, Command::Sit { user, seat: s } if is_bot(user) && *s == seat),
        )
    };
    if state.status == Status::Over
        && let Some(end) = escaped_at
    {
        let level = strongest(table);
        let free = (0..state.seats.len())
            .map(|i| Seat(i as u8))
            .find(|&seat| state.seats[seat.index()].user.is_none() && !taken_over(end, seat));
        if let Some(seat) = free {
            return Some(Command::Sit {
                user: new_name(level),
                seat,
            });
        }
    }
    // A rematch (再来一局) asked for by a player is agreed to.
    let rematch = state.status == Status::Over && state.seats.iter().any(|s| s.rematch);
    for s in &state.seats {
        if let Some(user) = s.user.as_deref().filter(|u| is_bot(u))
            && rematch
            && !s.rematch
        {
            return Some(Command::Rematch { user: user.into() });
        }
    }
    for s in &state.seats {
        if let Some(user) = s.user.as_deref().filter(|u| is_bot(u))
            && !s.ready
        {
            return Some(Command::Ready {
                user: user.into(),
                proposal: Some(state.proposal.id),
            });
        }
    }
    None
}

/// The strongest level already at the table (a table that chose strong bots gets
/// a strong one for an escaped seat); basic otherwise.
fn strongest(table: &dyn AnyTable) -> Level {
    let strong = table.state().seats.iter().any(|s| {
        s.user
            .as_deref()
            .and_then(level_of)
            .is_some_and(|l| l == Level::Strong)
    });
    if strong { Level::Strong } else { Level::Basic }
}

/// A bot whose turn it is: its user id, its level, and its choice still to make
/// (from what its seat sees).
pub struct Turn {
    pub user: String,
    pub level: Level,
    choice: BotChoice,
}

/// The bot to act now, if the seat to act in a game being played is a bot's.
pub fn turn(table: &dyn AnyTable) -> Option<Turn> {
    if !plays(table) || table.state().status != Status::Playing {
        return None;
    }
    for (i, s) in table.state().seats.iter().enumerate() {
        let Some(user) = s.user.as_deref().filter(|u| is_bot(u)) else {
            continue;
        };
        if let Some(choice) = table.bot_choice(Seat(i as u8)) {
            return Some(Turn {
                user: user.to_string(),
                level: level_of(user).unwrap_or_default(),
                choice,
            });
        }
    }
    None
}

impl Turn {
    /// The bot's action as a command from the bot's user (CPU-bound: run it off
    /// the async threads). `None` if the bot has nothing to play, which does not
    /// happen on its turn.
    pub fn decide(self, seed: u64) -> Option<Command> {
        let action = self.choice.choose(self.level, seed)?;
        Some(Command::Act {
            user: self.user,
            action,
            lag: 0,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bot_names_are_never_account_names() {
        for level in [Level::Basic, Level::Strong] {
            let name = new_name(level);
            assert!(is_bot(&name));
            assert_eq!(level_of(&name), Some(level));
            assert!(crate::auth::validate_username(&name).is_err(), "{name}");
        }
        assert!(!is_bot("botany"));
        assert_eq!(level_of("bot:weird-abc"), None);
    }
}
