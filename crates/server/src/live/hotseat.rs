//! Who may come to a private table, and who a hot-seat user acts as. A
//! private table (单机) admits its owner alone. At a
//! hot-seat one the user sits at the first seat and a stand-in of theirs
//! ([`Occupant::StandIn`]) at every other: the user's commands act for the
//! seat to move (or the seat they name), they see the table as that seat does,
//! and what needs the other seats' consent — a takeback, a draw offer, a
//! rematch, accepting Go's marking — is agreed by them at once.

use qiyuan_game::Seat;
use qiyuan_table::Command;

use super::{Occupant, Owner, TableKind, UserInfo};
use crate::error::ApiError;
use crate::protocol::TableAct;
use crate::registry::AnyTable;

/// The action by which every seat agrees (Go's marking), which a hot-seat
/// user's other seats then give too.
const AGREE: &str = "accept";

/// Whether `user` may watch or act at a live table of `kind`: anyone at a
/// public table; at a private or hot-seat one its `owner` alone (a private table stored
/// before owners were kept: whoever sits there, themselves or by stand-in).
pub(super) fn admits(
    table: &dyn AnyTable,
    kind: TableKind,
    owner: Option<&Owner>,
    user: Option<&UserInfo>,
) -> Result<(), ApiError> {
    if !kind.is_private() {
        return Ok(());
    }
    let admitted = match (owner, user) {
        (_, None) => false,
        (Some(owner), Some(user)) => owner.id == user.id,
        (None, Some(user)) => table.state().seats.iter().any(|s| {
            s.user
                .as_deref()
                .is_some_and(|n| Occupant::of(n).played_by() == Some(&user.username))
        }),
    };
    if admitted {
        Ok(())
    } else {
        Err(TableKind::refused())
    }
}

/// The seats `user` holds at a hot-seat table, themselves or by stand-in, with
/// the name at each; empty at any other table.
fn seats_of(table: &dyn AnyTable, kind: TableKind, user: &str) -> Vec<(Seat, String)> {
    if !kind.plays_every_seat() {
        return Vec::new();
    }
    let held: Vec<(Seat, String)> = table
        .state()
        .seats
        .iter()
        .enumerate()
        .filter_map(|(i, s)| {
            let name = s.user.as_ref()?;
            (Occupant::of(name).played_by() == Some(user)).then(|| (Seat(i as u8), name.clone()))
        })
        .collect();
    if held.iter().any(|(_, n)| n != user) {
        held
    } else {
        Vec::new()
    }
}

/// The seat to act among those `user` holds at a hot-seat table.
pub(super) fn acting_seat(table: &dyn AnyTable, kind: TableKind, user: &str) -> Option<Seat> {
    seats_of(table, kind, user)
        .into_iter()
        .map(|(s, _)| s)
        .find(|&s| table.bot_choice(s).is_some())
}

/// Who `user`'s command `act` is given as at a hot-seat table: the seat they
/// name (`expect`), else the seat to act for a move, a resignation, a claim or
/// a draw offer, another of their seats for an answer or a takeback (the last
/// move's seat in a two-seat game); the user themself for the rest and at any
/// other table.
pub(super) fn acting_as(
    table: &dyn AnyTable,
    kind: TableKind,
    user: &str,
    expect: Option<Seat>,
    act: &TableAct,
) -> String {
    let held = seats_of(table, kind, user);
    if held.is_empty() {
        return user.to_string();
    }
    if let Some(seat) = expect
        && let Some((_, name)) = held.iter().find(|(s, _)| *s == seat)
    {
        return name.clone();
    }
    let to_act = held
        .iter()
        .find(|(s, _)| table.bot_choice(*s).is_some())
        .map(|(_, n)| n.clone());
    match act {
        TableAct::Move { .. } | TableAct::Resign | TableAct::Claim { .. } | TableAct::DrawOffer => {
            to_act.unwrap_or_else(|| user.to_string())
        }
        // A takeback is asked by the seat that moved last (so one move is
        // taken back: an undo), and answered by the others.
        TableAct::TakebackRequest
        | TableAct::DrawAccept
        | TableAct::DrawDecline
        | TableAct::TakebackAccept
        | TableAct::TakebackDecline => held
            .iter()
            .map(|(_, n)| n.clone())
            .find(|n| Some(n) != to_act.as_ref())
            .unwrap_or_else(|| user.to_string()),
        _ => user.to_string(),
    }
}

/// What the user's other seats agree to at once after `act` was accepted as
/// `acted_as`: a takeback, a draw, a rematch, the marking's acceptance.
pub(super) fn agreed(
    table: &dyn AnyTable,
    kind: TableKind,
    user: &str,
    acted_as: &str,
    act: &TableAct,
) -> Vec<Command> {
    let others = seats_of(table, kind, user)
        .into_iter()
        .map(|(_, n)| n)
        .filter(|n| n != acted_as);
    match act {
        TableAct::TakebackRequest => others
            .map(|user| Command::AcceptTakeback { user })
            .collect(),
        TableAct::DrawOffer => others.map(|user| Command::AcceptDraw { user }).collect(),
        TableAct::Rematch => others.map(|user| Command::Rematch { user }).collect(),
        // Where every seat must agree (Go's marking: `accept`), the others agree.
        TableAct::Move { action, .. } if action == AGREE => others
            .map(|user| Command::Act {
                user,
                action: AGREE.to_string(),
                lag: 0,
            })
            .collect(),
        _ => Vec::new(),
    }
}
