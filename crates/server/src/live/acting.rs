//! A user's command at a table: who may give it (a signed-in user, at the seat
//! they name, guests at casual tables only, the owner alone at a private
//! table, a person within their cap of tables), the table command it becomes, and
//! a table's refusal as the typed error the client gets. Acting subscribes the
//! socket and brings back a seated player counted absent.

use qiyuan_game::Seat;
use qiyuan_table::{Command, TableRefusal, TableRefusalKind};
use serde_json::Value;

use super::actor::Live;
use super::{Conn, Occupant, hotseat};
use crate::bots::BotLevel;
use crate::error::ApiError;
use crate::protocol::{Ack, ServerMsg, TableAct};
use crate::registry::AnyTable;

impl Live {
    /// Acts for `conn`'s user and answers with an `ack` (the new version) or an
    /// `error`.
    pub(super) async fn act(
        &mut self,
        conn: Conn,
        act: TableAct,
        req: Option<Value>,
        expect: Option<Seat>,
    ) {
        let reply = match self.try_act(&conn, act, expect).await {
            Ok(v) => ServerMsg::Ack(Ack::Version {
                table: self.id.to_string(),
                v,
            }),
            Err(err) => ServerMsg::error(&err, Some(&self.id)),
        };
        conn.reply(&reply, req.as_ref());
    }

    async fn try_act(
        &mut self,
        conn: &Conn,
        act: TableAct,
        expect: Option<Seat>,
    ) -> Result<u64, ApiError> {
        let user = conn.user.clone().ok_or_else(ApiError::unauthorized)?;
        // A private table (单机) is its owner's alone.
        hotseat::admits(&*self.table, self.kind, self.owner.as_deref(), Some(&user))?;
        // A table for the invited: its owner's and its seated people's.
        self.admit_invited(Some(&user))?;
        // Hot-seat (单机): the user acts for the seat to move, or the one named.
        let name = hotseat::acting_as(&*self.table, self.kind, &user.username, expect, &act);
        if let Some(seat) = expect
            && self.table.seat_of(&name) != Some(seat)
        {
            return Err(ApiError::forbidden(
                "not_your_seat",
                format!("you ({name}) do not sit at seat {}", seat.0),
            ));
        }
        // Guests play casual games only: no seat at a rated table, no rated proposal.
        let rated = match &act {
            TableAct::Sit { .. } | TableAct::Ready { .. } | TableAct::Accept { .. } => {
                self.table.state().proposal.settings.rated
            }
            TableAct::Propose { settings } => settings.rated,
            _ => false,
        };
        if user.guest && rated {
            return Err(ApiError::forbidden(
                "guest_rated",
                "guests play casual games only",
            ));
        }
        if rated {
            let seated: Vec<String> = self
                .table
                .state()
                .seats
                .iter()
                .filter_map(|s| s.user.clone())
                .collect();
            self.bots_rated_check(&name, &seated).await?;
        }
        if name == user.username && !self.accounts.contains_key(&name) {
            // (Bounded: a table's actors are few; a long-lived one starts over.)
            if self.accounts.len() >= 64 {
                self.accounts.clear();
            }
            self.accounts.insert(name.clone(), (user.id, user.guest));
        }
        // Acting at a table subscribes the socket to it, and a seated player who
        // was counted absent (a dropped socket, a restart) is back.
        self.fanout.subscribe(conn);
        if let Some(seat) = self.table.seat_of(&name)
            && self.table.state().seats[seat.index()]
                .absent_since
                .is_some()
        {
            let _ = self
                .apply_and_commit(Command::Reconnect { user: name.clone() })
                .await;
        }
        // A player the computer plays for (托管) takes their seat back by any
        // command of theirs (取消托管 is one too; 托管 itself is not).
        if !matches!(act, TableAct::Trusteeship { .. })
            && self
                .table
                .seat_of(&name)
                .is_some_and(|s| self.table.state().seats[s.index()].trustee)
        {
            let cmd = Command::Trusteeship {
                user: name.clone(),
                on: false,
            };
            let _ = self.apply_and_commit(cmd).await;
        }
        // A spectator who leaves stops watching: live only, like watching.
        if matches!(act, TableAct::Leave) && self.table.is_watching(&name) {
            self.unwatch_live(&name);
            return Ok(self.table.version());
        }
        let levels = self
            .env
            .games
            .get(self.table.game_name())
            .map_or(&[][..], |g| &g.bot_levels[..]);
        let agreed_act = act.clone();
        // One more table for the person who sits down, or asks for the next
        // game where the last is over, within their cap (see `hold_seats`).
        let claiming = matches!(
            act,
            TableAct::Sit { .. } | TableAct::Ready { .. } | TableAct::Rematch
        ) && name == user.username;
        if claiming {
            let cap = self.env.rules.max_tables_per_user;
            self.env.tables.hold_seat(&name, &self.id, cap)?;
        }
        let cmd = command(&*self.table, levels, act, name.clone(), conn)?;
        let applied = self.apply_and_commit(cmd).await;
        if claiming && applied.is_err() {
            // The seat held for a refused command is given back.
            self.hold_seats(true);
        }
        let v = applied?;
        let agreed = hotseat::agreed(&*self.table, self.kind, &user.username, &name, &agreed_act);
        if agreed.is_empty() {
            return Ok(v);
        }
        for cmd in agreed {
            // A seat with nothing to agree to refuses; that changes nothing.
            let _ = self.apply_and_commit(cmd).await;
        }
        Ok(self.table.version())
    }

    /// Unless the operator allows it (`bots_rated_with_humans`), bot accounts
    /// play rated games only among themselves: refuses `user`'s rated seating
    /// or readiness when the seated (with `user`) would mix bot accounts and
    /// people. Computer players are neither.
    async fn bots_rated_check(&self, user: &str, seated: &[String]) -> Result<(), ApiError> {
        if self.env.rules.bots_rated_with_humans {
            return Ok(());
        }
        let (mut bots, mut humans) = (0, 0);
        let mut names: Vec<&str> = seated.iter().map(String::as_str).collect();
        if !names.contains(&user) {
            names.push(user);
        }
        for name in names.into_iter().filter(|n| !Occupant::of(n).is_computer()) {
            let Some(account) = self.env.store.user_by_name(name).await? else {
                continue;
            };
            if self.env.store.is_bot(account.id).await? {
                bots += 1;
            } else {
                humans += 1;
            }
        }
        if bots > 0 && humans > 0 {
            return Err(ApiError::forbidden(
                "bot_rated",
                "bot accounts play casual games only with humans here",
            ));
        }
        Ok(())
    }
}

/// A protocol table action as the table's command, for `user`; a computer
/// player's seating is checked and made by [`crate::bots`].
fn command(
    table: &dyn AnyTable,
    levels: &[BotLevel],
    act: TableAct,
    user: String,
    conn: &Conn,
) -> Result<Command, ApiError> {
    Ok(match act {
        TableAct::Sit { seat } => Command::Sit { user, seat },
        TableAct::Stand => Command::Stand { user },
        TableAct::Propose { settings } => Command::Propose { user, settings },
        TableAct::Accept { proposal } => Command::Accept { user, proposal },
        TableAct::Decline { proposal } => Command::Decline { user, proposal },
        TableAct::Ready { proposal } => Command::Ready { user, proposal },
        TableAct::Unready => Command::Unready { user },
        TableAct::Swap { with } => Command::Swap { user, with },
        // The move's lag as the socket measured it (and its client reported
        // it): the clock compensates it within the seat's quota, and the log
        // keeps it, so a replay charges the same.
        TableAct::Move { action, lag } => Command::Act {
            user,
            action,
            lag: conn.lag.for_move(lag),
        },
        TableAct::DrawOffer => Command::OfferDraw { user },
        TableAct::DrawAccept => Command::AcceptDraw { user },
        TableAct::DrawDecline => Command::DeclineDraw { user },
        TableAct::TakebackRequest => Command::RequestTakeback { user },
        TableAct::TakebackAccept => Command::AcceptTakeback { user },
        TableAct::TakebackDecline => Command::DeclineTakeback { user },
        TableAct::Claim { claim } => Command::Claim { user, claim },
        TableAct::Resign => Command::Resign { user },
        TableAct::Abort => Command::Abort { user },
        TableAct::Leave => Command::Leave { user },
        TableAct::Rematch => Command::Rematch { user },
        TableAct::AddBot { seat, level } => {
            return crate::bots::add(table, levels, &user, seat, level.as_deref());
        }
        TableAct::RemoveBot { seat } => return crate::bots::remove(table, &user, seat),
        TableAct::Trusteeship { on } => Command::Trusteeship { user, on },
    })
}

/// A table's refusal as a typed client error; the code names the refusal kind
/// (for a game's refusal, the game's kind: `illegal`, `not_your_turn`, ...).
pub(super) fn refusal_error(refusal: &TableRefusal) -> ApiError {
    use TableRefusalKind as K;
    use qiyuan_game::RefusalKind as G;
    let code = match &refusal.kind {
        K::NotSeated => "not_seated",
        K::AlreadySeated => "already_seated",
        K::SeatTaken => "seat_taken",
        K::NoSuchSeat => "no_such_seat",
        K::NotAtTable => "not_at_table",
        K::GameInProgress => "game_in_progress",
        K::NoGame => "no_game",
        K::SettingsFixed => "settings_fixed",
        K::BadSettings => "bad_settings",
        K::StaleProposal => "stale_proposal",
        K::NotYourTurn => "not_your_turn",
        K::NothingToAnswer => "nothing_to_answer",
        K::NotAllowed => "not_allowed",
        K::TooSoon => "too_soon",
        K::BadOutcome => "bad_outcome",
        K::Game(G::NotYourTurn) => "not_your_turn",
        K::Game(G::Malformed) => "malformed_action",
        K::Game(G::Illegal) => "illegal",
        K::Game(G::WrongPhase) => "wrong_phase",
        K::Game(G::GameOver) => "game_over",
        K::Game(G::NoSuchSeat) => "no_such_seat",
        K::Game(G::ClaimRefused) => "claim_refused",
    };
    ApiError::new(
        axum::http::StatusCode::CONFLICT,
        code,
        refusal.message.clone(),
    )
}
