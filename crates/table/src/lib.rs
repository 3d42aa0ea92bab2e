//! qiyuan-table: everything that happens at one table, as a pure state machine.
//!
//! A [`Table<G>`] seats two or three players (as the game says), tracks spectators,
//! settles the settings (time control and rule options) by proposal and
//! acceptance, starts games, hands actions to the game with the mover's clock
//! stepped, and runs draw offers, takebacks (悔棋), claims, resignation, the
//! first-move timer, the abort rule, flag falls, disconnection and escape (逃跑),
//! and rematches. It knows nothing of sockets, storage, threads or the wall clock:
//! every command carries the time it happened, and the same commands at the same
//! times always give the same table.
//!
//! # Driving a table (for the server)
//!
//! * Create it with [`Table::new`] from a [`TableConfig`] (the first settings).
//! * Turn each client message into a [`Command`], putting in the authenticated
//!   [`UserId`] — the table trusts it and only checks the user's seat — and call
//!   [`Table::apply`]`(cmd, now)` with the server's time in milliseconds; for a
//!   game that draws randomness ([`qiyuan_game::Game::RANDOM`], Doudizhu) call
//!   [`Table::apply_with`]`(cmd, now, Some(secret))` with 32 fresh bytes of the
//!   operating system's random source each time: a game started by the command
//!   deals from them, and its log entry keeps them. Send the
//!   returned [`Event`]s to everyone at the table, tagged with [`Table::version`];
//!   send a [`TableRefusal`] to the sender only (and its `fired` events, if any,
//!   to everyone). Events never carry hidden information.
//! * For the lag compensation, put the lag measured for the message into
//!   [`Command::Act`]'s `lag` (0 if unknown).
//! * Nothing happens between commands by itself. After every call, ask
//!   [`Table::next_deadline`] and, when that moment comes, call
//!   [`Table::tick`]`(now)` (or apply [`Command::Tick`]): that is how flags fall,
//!   first-move timers abort and absent players lose by escape.
//! * Report connections: [`Command::Disconnect`] when a seated player's last socket
//!   closes, [`Command::Reconnect`] when one opens again; [`Command::Leave`] when a
//!   player leaves on purpose (a live game is lost at once).
//! * Build each client's snapshot with [`Table::view`] (or [`Table::view_for`] a
//!   user); the game's own `view` removes what that viewer may not see. Never send
//!   [`Table::state`] or the log to clients: they hold the setup, which for
//!   Doudizhu is the hand's secret ([`LogEntry::deal`]).
//! * Spectators: [`Table::watch`] and [`Table::unwatch`] are live only: not
//!   logged, no version, so that watching writes nothing to anyone's game; the
//!   events they return are for the live broadcast.
//! * Timers due at a command's time fire before it, exactly as a [`Command::Tick`]
//!   at that moment would (the log records such a tick), and timers the command
//!   makes due fire right after it: no timer is left overdue after a call. The
//!   exception: a move by the seat whose flag is due settles that flag itself,
//!   its lag compensated, so a move sent in time is not lost to the timer. The
//!   flag deadline itself waits for the seat's last compensated lag (at most its
//!   quota), as Lichess does.
//! * Persist [`Table::log`] (append each new [`LogEntry`] before sending its
//!   events). After a restart, rebuild with [`Table::replay`] (or
//!   [`Table::apply_entry`] per entry) and then apply
//!   [`Command::Restart`] with the time the server went down (or the last entry's
//!   time) before anything else: the downtime is not charged to anyone's clock and
//!   every player gets a fresh grace period to reconnect (counted only once
//!   someone is back). Spectators are dropped;
//!   the server sends [`Command::Reconnect`] and calls [`Table::watch`] as
//!   sockets come back.
//!
//! # Rules the table enforces
//!
//! * Settings: any seated player may propose (seat 0's proposal is the table's
//!   initial one); every seat must accept the current proposal, by id, and be
//!   ready ([`Command::Ready`] accepts too). A new proposal clears all readiness.
//!   Tournament tables have fixed settings and no takebacks.
//! * Clocks run only once every seat has made its first action; until then the
//!   seat to move has the first-move time (30 s by default, the time per move in
//!   correspondence). Missing it aborts the game, or loses it at a tournament
//!   table (not rated). A QQ clock with a move time (步时) is the exception: it
//!   runs from the first move, the move time limits the first moves as every
//!   other, and a first move over it ends the game as a missed first move does.
//!   So does any clock in a game timed from its first action
//!   ([`qiyuan_game::Game::TIMED_FROM_FIRST_ACTION`]: Doudizhu's turns).
//! * Running out of time: where the rules act for a seat whose time ran out
//!   ([`qiyuan_game::Game::time_out_action`]: a missed Doudizhu bid is a pass),
//!   the table plays that action for it (the turn's time used up, no flag)
//!   and the game goes on; otherwise the flag loses (or the first-move timer
//!   aborts).
//! * 托管 ([`TableConfig::trusteeship`]): [`Command::Trusteeship`] marks a
//!   seat as played by the server's computer (the seat's view says
//!   `trustee`) until its player takes it back; the mark lasts one game. The
//!   table only keeps the mark: the server plays the seat's turns.
//! * The abort rule: a game ended by resignation, time, escape or leaving before
//!   every seat has acted is aborted ([`qiyuan_game::Outcome::aborted`]), not rated.
//! * Draw offers follow [`qiyuan_game::Game::draw_offers`]: chess — right after
//!   one's own move, standing until answered or the opponent moves; xiangqi — the
//!   same, and the players alternate (no second offer in a row); Go — on one's own
//!   turn. Offers cannot be withdrawn. One offer per move in every game.
//! * Takebacks: a player may ask to take back their last action (and the
//!   opponent's reply after it); every other seat must accept. One request at a
//!   time; any action cancels it; after a decline the requester may not ask again
//!   until they have acted again. The time used in the current turn is charged
//!   (without increment); no time is given back.
//! * Disconnection: an absent player loses by escape after the grace time
//!   ([`default_grace`] by speed, or the config's), at once on [`Command::Leave`].
//!   Nobody wins by escape while absent too: with every seat away, only the
//!   clocks run. Between games, an absent player's seat is freed after the same
//!   time. In a
//!   correspondence game absence is not timed (only the time per move is).
//! * Loading (读入): a proposal's `setup` may be a position (FEN) or a whole record
//!   (PGN, SGF); a record's moves are replayed, are never taken back, and the game
//!   goes on from its end. Games from a loaded position or record are not rated.
//! * Rated: a game counts for ratings only when its settings say so and it
//!   starts from the standard position; every way it ends — mate, resignation,
//!   time, agreement, a claimed draw, an arbiter's decision — follows that
//!   (an abort never counts).
//! * Fouls: an arbiter's [`Command::Foul`] counts against a seat; the third loses.
//!   [`Command::Adjudicate`] decides a game outright; [`Command::Decide`] ends it
//!   with the game's own outcome for a loss, a draw or nothing (an arbiter's
//!   forfeit or adjudication). [`Command::Warn`] records a warning,
//!   [`Command::Violation`] a violation (违例), the third of which loses.
//! * Tournament tables ([`TableConfig::tournament`]) play one game with fixed
//!   settings: no takebacks, no abort, no rematch; the clock runs from the start
//!   (an absent player's time runs), and a game lost before both moved is lost,
//!   unrated.

mod state;
mod table;
mod types;
mod view;

pub use qiyuan_clock::{self as clock, ClockView, Millis, Preset, Speed, TimeControl};
pub use state::{ActionRecord, DrawOffer, GameState, SeatState, State, Status, TakebackRequest};
pub use table::{INCORRECT_CLAIM_BONUS, Table, default_grace};
pub use types::{
    Command, Decision, EndDetail, Event, LogEntry, Proposal, ReplayError, Settings, SettingsError,
    TableConfig, TableRefusal, TableRefusalKind, UserId,
};
pub use view::{GameView, MoveView, Rewritten, SeatView, TableView};
