//! A table of any game as the live table's task drives it ([`AnyTable`]):
//! one implementation for every game ([`Hosted`]), with the views taken
//! together per batch and the move list kept as text from one change to the
//! next ([`MovesAt`]).

use std::marker::PhantomData;

use qiyuan_game::{Game, RecordMeta, Seat, Secret, Turn, Viewer};
use qiyuan_table::{
    ActionRecord, Command, Event, LogEntry, Millis, MoveView, Rewritten, State, Table, TableConfig,
    TableRefusal, TableView,
};
use serde_json::Value;

use crate::bots::BotLevel;
use crate::protocol::flat::Flat;

use super::choice::ViewOf;
use super::*;

/// A registry entry's `make` for game `G` with computer players `B`: the
/// table replayed from `log` (empty: a new table).
pub(super) fn make<G, B>(
    config: TableConfig,
    log: &[LogEntry],
    each: &mut dyn FnMut(usize, Vec<Event>),
) -> Result<Box<dyn AnyTable>, String>
where
    G: Game,
    G::View: Send + 'static,
    B: ComputerPlayers<G>,
{
    Ok(Box::new(Hosted::<G, B> {
        table: Table::replay_with(config, log, each).map_err(|e| match e {
            // A new table's refusal reads as before: the config's own message.
            qiyuan_table::ReplayError::Config(message) => message.to_string(),
            refused => refused.to_string(),
        })?,
        moves: Default::default(),
        bots: PhantomData,
    }))
}

/// A table of any game, as the live task drives it.
pub trait AnyTable: Send + Sync {
    fn game_name(&self) -> &'static str;
    fn seats(&self) -> u8;
    /// Applies a command; for a game that deals at random, with a fresh secret
    /// of the operating system's random source on offer (see
    /// [`Table::apply_with`]).
    fn apply(&mut self, cmd: Command, now: Millis) -> Result<Vec<Event>, TableRefusal>;
    /// A spectator comes or goes: live only, nothing logged, no new version.
    fn watch(&mut self, user: &str) -> Result<Vec<Event>, TableRefusal>;
    fn unwatch(&mut self, user: &str) -> Result<Vec<Event>, TableRefusal>;
    fn is_watching(&self, user: &str) -> bool;
    fn spectator_count(&self) -> usize;
    fn version(&self) -> u64;
    fn log(&self) -> &[LogEntry];
    fn next_deadline(&self) -> Option<Millis>;
    fn state(&self) -> &State;
    fn config(&self) -> &TableConfig;
    fn seat_of(&self, user: &str) -> Option<Seat>;
    /// The table as `viewer` sees it, as JSON.
    fn view(&self, viewer: Viewer, now: Millis) -> Value;
    /// The same view as JSON text (its keys in the typed view's order), each
    /// seat's `lag_ms` filled in from `lags`: what a `sync` sends.
    fn view_text(&self, viewer: Viewer, now: Millis, lags: &[Option<Millis>]) -> String;
    /// [`AnyTable::view_text`] for several viewers at once, in their order, and
    /// indexed, but each without the move list (its `game.moves` is empty):
    /// what the fan-out diffs. What every viewer sees alike is built and
    /// written once (the first viewer's view is written whole, each other's is
    /// the one before with the parts that differ written anew). Brings the
    /// move list the fan-out patches apart up to date ([`AnyTable::moves_at`]).
    fn flat_views(&self, viewers: &[Viewer], now: Millis, lags: &[Option<Millis>]) -> Vec<Flat>;
    /// Where the move list was when [`AnyTable::flat_views`] last took the views.
    fn moves_at(&self) -> MovesAt;
    /// Appends to `out` (after a comma if `comma`) the patch operations that
    /// turn the move list a client holds at `from` into the list at
    /// [`AnyTable::moves_at`]; whether it wrote any.
    fn moves_patch(&self, from: MovesAt, comma: bool, out: &mut String) -> bool;
    /// The current (or last) game's record.
    fn record(&self, meta: RecordMeta) -> Option<String>;
    /// The levels of the game's computer players (none: the game has none).
    fn bot_levels(&self) -> &'static [BotLevel];
    /// If a game is being played and `seat` is to act (alone, or with others as
    /// in Go's marking), the choice of a computer player at that seat, made from
    /// that seat's view only.
    fn bot_choice(&self, seat: Seat) -> Option<BotChoice>;
    /// Whether the rules act for `seat` when its time for the turn runs out
    /// ([`Game::time_out_action`]: a missed Doudizhu bid is a pass), so that
    /// the computer need not step in for it.
    fn acts_on_time_out(&self, seat: Seat) -> bool;
}

/// `view`'s text and index made from `before`, the same view as another viewer
/// saw it: `before` with the parts `rewritten` names written anew, and only
/// those read. `None` if one of them cannot be found in it (then the view is
/// written whole).
fn respliced<G: Game>(
    before: &Flat,
    view: &TableView<G::View>,
    rewritten: Rewritten,
) -> Option<Flat> {
    let mut parts: Vec<(&[&str], Flat)> = Vec::with_capacity(2);
    if rewritten.you {
        parts.push((&["you"], Flat::of_value(&view.you, 256)));
    }
    let member;
    if let Some(game) = &view.game {
        if rewritten.claims {
            parts.push((&["game", "claims"], Flat::of_value(&game.claims, 256)));
        }
        if rewritten.board {
            // Only the member the game rewrites for another viewer, where it
            // names one (chess: the claims, not the board's legal moves).
            match G::view_again_member(&game.board) {
                Some((key, text)) => {
                    member = ["game", "board", key];
                    parts.push((&member, Flat::new(text)));
                }
                None => parts.push((&["game", "board"], Flat::of_value(&game.board, 256))),
            }
        }
    }
    if rewritten.preview {
        parts.push((&["preview"], Flat::of_value(&view.preview, 256)));
    }
    let parts: Vec<(&[&str], &Flat)> = parts.iter().map(|(path, part)| (*path, part)).collect();
    before.replaced(&parts)
}

/// Where a client's copy of a table's move list (`game.moves`) is: the list as
/// it was after the table's `cuts`th cut (a takeback, a new game), `len` items
/// long. The fan-out keeps one per socket and patches the list from it
/// ([`AnyTable::moves_patch`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MovesAt {
    cuts: u64,
    len: usize,
}

impl MovesAt {
    /// The same list emptied: what a client holds after a view whose `game`
    /// was set whole (its list is left out of the views the fan-out diffs).
    pub fn emptied(self) -> MovesAt {
        MovesAt { len: 0, ..self }
    }
}

/// How many of the latest cuts a move list remembers: a client further behind
/// gets the whole list.
const REMEMBERED_CUTS: usize = 8;

/// The current game's move list (`game.moves` of a view) as indexed JSON
/// text, kept from one change to the next: a move writes its own item and
/// appends it. The views the fan-out diffs leave the list out (their
/// `game.moves` is empty), and each client gets the items after those it has
/// (or a cut back first), written from this text: at move 80 the list was
/// most of a chess view's text, copied into every view and compared again in
/// every patch. A takeback or a new game cuts the items that no longer match.
struct MoveList {
    shown: Vec<MoveView>,
    flat: Flat,
    /// Where each item starts in `flat`'s text (empty if not known).
    starts: Vec<u32>,
    /// The table's count of cuts when the list was last brought up to date
    /// ([`Table::action_cuts`]): the same count, and the list needs only the
    /// actions after its own.
    table_cuts: Option<u64>,
    /// Cuts so far, and the latest few: (the cut's number, the items it kept).
    cuts: u64,
    recent: std::collections::VecDeque<(u64, usize)>,
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList {
            shown: Vec::new(),
            flat: Flat::empty_array(),
            starts: Vec::new(),
            table_cuts: None,
            cuts: 0,
            recent: Default::default(),
        }
    }
}

impl MoveList {
    /// Brings the list up to `actions`, which the table has cut `table_cuts`
    /// times.
    fn update(&mut self, actions: &[ActionRecord], table_cuts: u64) {
        let same = if self.table_cuts == Some(table_cuts) && actions.len() >= self.shown.len() {
            self.shown.len()
        } else {
            self.shown
                .iter()
                .zip(actions)
                .take_while(|(shown, action)| shown.shows(action))
                .count()
        };
        self.table_cuts = Some(table_cuts);
        if same < self.shown.len() {
            self.cut(same);
        }
        self.shown.truncate(same);
        self.starts.truncate(same);
        let mut indexed = self.flat.truncate_items(same);
        let added: Vec<MoveView> = actions[same..].iter().map(MoveView::of).collect();
        if !added.is_empty() {
            let items: Vec<Flat> = added.iter().map(|m| Flat::of_value(m, 64)).collect();
            indexed = indexed && self.flat.push_items(&items, &mut self.starts);
            self.shown.extend(added);
        }
        if !indexed {
            // (Not seen: our own items always index.) Written whole; a list
            // that does not index either is sent whole (`array_ops_into`).
            self.cut(0);
            self.flat = Flat::of_value(&self.shown, 4096);
            self.starts.clear();
        }
    }

    fn cut(&mut self, kept: usize) {
        self.cuts += 1;
        if self.recent.len() == REMEMBERED_CUTS {
            self.recent.pop_front();
        }
        self.recent.push_back((self.cuts, kept));
    }

    fn at(&self) -> MovesAt {
        MovesAt {
            cuts: self.cuts,
            len: self.shown.len(),
        }
    }

    /// How many of the items a client holds at `from` are still the list's;
    /// `None` if a cut it missed is forgotten.
    fn kept(&self, from: MovesAt) -> Option<usize> {
        if from.cuts == self.cuts {
            return Some(from.len);
        }
        let missed = self.recent.iter().filter(|(n, _)| *n > from.cuts);
        if from.cuts > self.cuts || missed.clone().count() as u64 != self.cuts - from.cuts {
            return None;
        }
        Some(missed.map(|(_, kept)| *kept).fold(from.len, usize::min))
    }

    fn patch(&self, from: MovesAt, comma: bool, out: &mut String) -> bool {
        // `usize::MAX`: more than the list has, so it is set whole.
        let kept = self.kept(from).unwrap_or(usize::MAX);
        let start = self.starts.get(kept).copied();
        crate::protocol::flat::array_ops_into(
            r#""game","moves""#,
            &self.flat,
            kept,
            start,
            from.len,
            comma,
            out,
        )
    }
}

/// A table of game `G` whose computer players are `B`.
pub(super) struct Hosted<G: Game, B> {
    table: Table<G>,
    /// The move list's text, for [`AnyTable::flat_views`] (taken only there,
    /// by the table's one task).
    moves: std::sync::Mutex<MoveList>,
    bots: PhantomData<fn() -> B>,
}

impl<G, B> AnyTable for Hosted<G, B>
where
    G: Game,
    G::View: Send + 'static,
    B: ComputerPlayers<G>,
{
    fn game_name(&self) -> &'static str {
        G::NAME
    }
    fn seats(&self) -> u8 {
        self.table.seats()
    }
    fn apply(&mut self, cmd: Command, now: Millis) -> Result<Vec<Event>, TableRefusal> {
        // A deal the table's creator chose (an event's), else a fresh one.
        let secret = if G::RANDOM {
            self.table.config().deal.or_else(fresh_secret)
        } else {
            None
        };
        self.table.apply_with(cmd, now, secret)
    }
    fn watch(&mut self, user: &str) -> Result<Vec<Event>, TableRefusal> {
        self.table.watch(user)
    }
    fn unwatch(&mut self, user: &str) -> Result<Vec<Event>, TableRefusal> {
        self.table.unwatch(user)
    }
    fn is_watching(&self, user: &str) -> bool {
        self.table.spectators().any(|u| u == user)
    }
    fn spectator_count(&self) -> usize {
        self.table.spectators().count()
    }
    fn version(&self) -> u64 {
        self.table.version()
    }
    fn log(&self) -> &[LogEntry] {
        self.table.log()
    }
    fn next_deadline(&self) -> Option<Millis> {
        self.table.next_deadline()
    }
    fn state(&self) -> &State {
        self.table.state()
    }
    fn config(&self) -> &TableConfig {
        self.table.config()
    }
    fn seat_of(&self, user: &str) -> Option<Seat> {
        self.table.seat_of(user)
    }
    fn view(&self, viewer: Viewer, now: Millis) -> Value {
        serde_json::to_value(self.table.view(viewer, now)).unwrap_or(Value::Null)
    }
    fn view_text(&self, viewer: Viewer, now: Millis, lags: &[Option<Millis>]) -> String {
        let mut view = self.table.view(viewer, now);
        for (seat, lag) in view.seats.iter_mut().zip(lags) {
            seat.lag_ms = *lag;
        }
        serde_json::to_string(&view).unwrap_or_else(|_| "null".into())
    }
    fn flat_views(&self, viewers: &[Viewer], now: Millis, lags: &[Option<Millis>]) -> Vec<Flat> {
        self.moves
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .update(self.table.actions(), self.table.action_cuts());
        let Some((&first, others)) = viewers.split_first() else {
            return Vec::new();
        };
        let mut view = self.table.view_without_moves(first, now);
        for (seat, lag) in view.seats.iter_mut().zip(lags) {
            seat.lag_ms = *lag;
        }
        let mut flats = Vec::with_capacity(viewers.len());
        flats.push(Flat::of_value(&view, 4096));
        for &viewer in others {
            let rewritten = self.table.view_again(&mut view, viewer);
            let before = flats.last().expect("the first view is there");
            let flat = respliced::<G>(before, &view, rewritten)
                .unwrap_or_else(|| Flat::of_value(&view, 4096));
            flats.push(flat);
        }
        flats
    }
    fn moves_at(&self) -> MovesAt {
        self.moves.lock().unwrap_or_else(|e| e.into_inner()).at()
    }
    fn moves_patch(&self, from: MovesAt, comma: bool, out: &mut String) -> bool {
        self.moves
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .patch(from, comma, out)
    }
    fn record(&self, meta: RecordMeta) -> Option<String> {
        self.table.record(meta)
    }
    fn bot_levels(&self) -> &'static [BotLevel] {
        B::LEVELS
    }
    fn bot_choice(&self, seat: Seat) -> Option<BotChoice> {
        if B::LEVELS.is_empty() {
            return None;
        }
        let game = self.table.game()?;
        let must = match game.turn() {
            Turn::Seat(s) if s == seat => true,
            Turn::All(seats) if seats.contains(&seat) => false,
            _ => return None,
        };
        Some(BotChoice {
            view: Box::new(ViewOf::<G, B> {
                view: game.view(Viewer::Seat(seat)),
                seat,
                bots: PhantomData,
            }),
            legal: game.legal_actions(seat),
            must,
        })
    }
    fn acts_on_time_out(&self, seat: Seat) -> bool {
        self.table
            .game()
            .is_some_and(|g| g.time_out_action(seat).is_some())
    }
}

/// 32 bytes from the operating system's random source: each game's deal secret.
/// Should the source fail, there is none, and the game refuses to start (the
/// command is refused and changes nothing).
fn fresh_secret() -> Option<Secret> {
    use rand::RngCore;
    let mut bytes = [0u8; 32];
    match rand::rngs::OsRng.try_fill_bytes(&mut bytes) {
        Ok(()) => Some(Secret(bytes)),
        Err(err) => {
            tracing::error!("the operating system's random source failed: {err}");
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Chess's views taken together when one seat may claim a draw and the
    /// other may not (the load generator's knight moves): the second view has
    /// the board's claims written anew, and is still that viewer's own.
    #[test]
    fn chess_views_with_one_seats_claim_are_each_viewers_own() {
        let games = Games::builtin();
        let chess = games.find("chess").expect("chess is built in");
        let mut config = TableConfig::casual(chess.default_time());
        config.settings.options = serde_json::json!({"repetition": "claim"});
        let mut table = chess.new_table(config).unwrap();
        for (seat, user) in ["ann", "bob"].into_iter().enumerate() {
            let sit = Command::Sit {
                user: user.into(),
                seat: Seat(seat as u8),
            };
            table.apply(sit, 1000).unwrap();
        }
        for user in ["ann", "bob"] {
            let ready = Command::Ready {
                user: user.into(),
                proposal: None,
            };
            table.apply(ready, 1000).unwrap();
        }
        let viewers = [
            Viewer::Seat(Seat(0)),
            Viewer::Seat(Seat(1)),
            Viewer::Spectator,
        ];
        let lags = [Some(20), None];
        let mut differed = 0;
        for ply in 0..40 {
            let act = Command::Act {
                user: ["ann", "bob"][ply % 2].into(),
                action: crate::bench::move_at(ply).into(),
                lag: 0,
            };
            let now = 1000 + 100 * ply as u64;
            table.apply(act, now).unwrap();
            for order in [viewers.to_vec(), viewers.iter().rev().copied().collect()] {
                let views = table.flat_views(&order, now, &lags);
                for (v, flat) in order.iter().zip(&views) {
                    let mut alone: Value =
                        serde_json::from_str(&table.view_text(*v, now, &lags)).unwrap();
                    alone["game"]["moves"] = Value::Array(Vec::new());
                    let read: Value = serde_json::from_str(flat.text()).unwrap();
                    assert_eq!(read, alone, "ply {ply}, {v:?}");
                    assert!(flat.index_is_fresh(), "ply {ply}, {v:?}");
                }
                let claims: Vec<Value> = views
                    .iter()
                    .map(|f| serde_json::from_str::<Value>(f.text()).unwrap())
                    .map(|v| v["game"]["board"]["claims"].clone())
                    .collect();
                if claims[0] != claims[1] {
                    differed += 1;
                }
            }
        }
        assert!(differed > 0, "a seat could claim while the other could not");
    }

    /// A move list's patches bring a client from wherever it is to the list
    /// now: the items after its own; a cut back first after a takeback or a
    /// new game; the whole list when it missed more cuts than are remembered.
    #[test]
    fn a_move_list_patches_a_client_from_where_it_is() {
        let record = |i: usize, tag: &str| ActionRecord {
            seat: Seat((i % 2) as u8),
            action: format!("{tag}{i}"),
            display: format!("{tag}{i}!"),
            at: i as u64,
            clock: Some(1000 - i as u64),
            periods: None,
        };
        let list = |n: usize, tag: &str| -> Vec<ActionRecord> {
            (0..n)
                .map(|i| record(i, if i < 3 { "a" } else { tag }))
                .collect()
        };
        let whole = |actions: &[ActionRecord]| -> Value {
            let moves: Vec<MoveView> = actions.iter().map(MoveView::of).collect();
            serde_json::json!({"game": {"moves": moves}})
        };
        // Patches `client` (at `from`) to the list now; the ops it took.
        let patch = |ml: &MoveList, from: MovesAt, client: &mut Value| -> Vec<String> {
            let mut text = String::from("[");
            ml.patch(from, false, &mut text);
            text.push(']');
            let ops: Vec<crate::protocol::patch::PatchOp> = serde_json::from_str(&text).unwrap();
            crate::protocol::patch::apply(client, &ops).unwrap();
            let ops: Vec<Value> = serde_json::from_str(&text).unwrap();
            ops.iter()
                .map(|op| op["op"].as_str().unwrap().to_string())
                .collect()
        };
        let mut ml = MoveList::default();
        let mut cuts = 0;
        let five = list(5, "a");
        ml.update(&five, cuts);
        let at_five = ml.at();
        let mut client = whole(&five);
        // Two moves more: pushed.
        let seven = list(7, "a");
        ml.update(&seven, cuts);
        assert_eq!(patch(&ml, at_five, &mut client), ["push"]);
        assert_eq!(client, whole(&seven));
        let at_seven = ml.at();
        // Back to the third move, and two other moves: cut to three, then pushed.
        cuts += 1;
        let other = list(5, "b");
        ml.update(&other, cuts);
        let mut behind = whole(&five);
        assert_eq!(patch(&ml, at_seven, &mut client), ["trunc", "push"]);
        assert_eq!(client, whole(&other));
        // From before both changes: the same.
        assert_eq!(patch(&ml, at_five, &mut behind), ["trunc", "push"]);
        assert_eq!(behind, whole(&other));
        // Up to date: nothing.
        let mut same = whole(&other);
        assert!(patch(&ml, ml.at(), &mut same).is_empty());
        // More cuts than remembered since: the whole list.
        let at_other = ml.at();
        for k in 0..=REMEMBERED_CUTS {
            cuts += 1;
            ml.update(&list(4 + k % 2, if k % 2 == 0 { "c" } else { "d" }), cuts);
        }
        let now: Vec<ActionRecord> = list(4 + REMEMBERED_CUTS % 2, "c");
        let mut far = whole(&other);
        assert_eq!(patch(&ml, at_other, &mut far), ["set"]);
        assert_eq!(far, whole(&now));
        // A table that says nothing was cut while the list is shorter: read
        // again item by item (a new list object for the same table).
        let mut fresh = MoveList::default();
        fresh.update(&seven, 0);
        let at = fresh.at();
        fresh.update(&list(2, "a"), 0);
        let mut client = whole(&seven);
        assert_eq!(patch(&fresh, at, &mut client), ["trunc"]);
        assert_eq!(client, whole(&list(2, "a")));
    }

    /// Every game's views taken together (one built, the others rewritten from
    /// it) are each viewer's own view, through a game played by the first
    /// legal actions: no viewer sees another's part (Doudizhu's hands, the
    /// claims, the seat).
    #[test]
    fn views_taken_together_are_each_viewers_own() {
        for g in Games::builtin().all() {
            let mut table = g
                .new_table(TableConfig::casual(g.default_time()))
                .unwrap_or_else(|e| panic!("{}: {e}", g.name));
            let users: Vec<String> = (0..g.seats).map(|i| format!("user{i}")).collect();
            let mut viewers: Vec<Viewer> = (0..g.seats).map(|i| Viewer::Seat(Seat(i))).collect();
            viewers.push(Viewer::Spectator);
            let lags: Vec<Option<Millis>> = (0..g.seats).map(|i| Some(10 * i as u64)).collect();
            // What each viewer's client holds, patched as the fan-out patches
            // it: its last view without the move list, where its list is,
            // and the whole view it has made of the patches.
            let mut held: Vec<Option<(Flat, Option<MovesAt>, Value)>> =
                viewers.iter().map(|_| None).collect();
            let mut check = |table: &dyn AnyTable, now: Millis, why: &str| {
                // In both orders, so that each viewer is once the first.
                for order in [viewers.clone(), viewers.iter().rev().copied().collect()] {
                    let together = table.flat_views(&order, now, &lags);
                    for (v, flat) in order.iter().zip(together) {
                        let whole = table.view_text(*v, now, &lags);
                        let mut full: Value = serde_json::from_str(&whole).unwrap();
                        // The viewer's own view, without its move list.
                        let mut alone = full.clone();
                        if alone["game"].is_object() {
                            alone["game"]["moves"] = Value::Array(Vec::new());
                        }
                        let flat_value: Value = serde_json::from_str(flat.text()).unwrap();
                        assert_eq!(flat_value, alone, "{} {why}, {v:?}", g.name);
                        assert!(flat.index_is_fresh(), "{} {why}, {v:?}", g.name);
                        // The patch from the view it held, and the list's
                        // apart, make the whole view.
                        let at = viewers.iter().position(|x| x == v).unwrap();
                        let game = flat.is_object_at(&["game"]);
                        let moves_now = table.moves_at();
                        if let Some((old, moves, client)) = held[at].as_mut() {
                            let mut text = String::from("[");
                            crate::protocol::flat::diff_into(old, &flat, &mut text);
                            if game {
                                let from = moves.unwrap_or(moves_now.emptied());
                                let comma = text.len() > 1;
                                table.moves_patch(from, comma, &mut text);
                            }
                            text.push(']');
                            let ops: Vec<crate::protocol::patch::PatchOp> =
                                serde_json::from_str(&text)
                                    .unwrap_or_else(|e| panic!("{e}: {text}"));
                            crate::protocol::patch::apply(client, &ops).unwrap_or_else(|e| {
                                panic!("{} {why}, {v:?}: {e:?} in {text}", g.name)
                            });
                            assert_eq!(*client, full, "{} {why}, {v:?}: {text}", g.name);
                        }
                        held[at] = Some((flat, game.then_some(moves_now), full.clone()));
                        // The full text a `sync` sends is the typed view.
                        for seat in full["seats"].as_array_mut().unwrap() {
                            seat["lag_ms"] = Value::Null;
                        }
                        assert_eq!(full, table.view(*v, now), "{} {why}, {v:?}", g.name);
                    }
                }
            };
            let mut now = 1000;
            check(&*table, now, "before anyone sits");
            for (i, user) in users.iter().enumerate() {
                let sit = Command::Sit {
                    user: user.clone(),
                    seat: Seat(i as u8),
                };
                table.apply(sit, now).expect("seated");
            }
            for user in &users {
                let ready = Command::Ready {
                    user: user.clone(),
                    proposal: None,
                };
                table.apply(ready, now).expect("ready");
            }
            let mut acted = 0;
            for step in 0..60 {
                now += 500;
                check(&*table, now, &format!("at step {step}"));
                let choice = (0..g.seats).find_map(|i| {
                    let c = table.bot_choice(Seat(i))?;
                    (c.must && !c.legal.is_empty()).then_some((i, c))
                });
                let Some((seat, choice)) = choice else { break };
                let act = Command::Act {
                    user: users[seat as usize].clone(),
                    action: choice.legal[step % choice.legal.len()].clone(),
                    lag: 0,
                };
                table.apply(act, now).expect("a legal action");
                acted += 1;
            }
            assert!(acted > 5, "{}: only {acted} actions", g.name);
            check(&*table, now + 10, "at the end");
            // The kept move list cut back: a takeback (where the game has
            // them), then a new game.
            let moves = |table: &dyn AnyTable| {
                table.view(Viewer::Spectator, now)["game"]["moves"]
                    .as_array()
                    .map_or(0, Vec::len)
            };
            let played = moves(&*table);
            for asker in &users {
                let _ = table.apply(
                    Command::RequestTakeback {
                        user: asker.clone(),
                    },
                    now,
                );
                for other in users.iter().filter(|u| *u != asker) {
                    let _ = table.apply(
                        Command::AcceptTakeback {
                            user: other.clone(),
                        },
                        now,
                    );
                }
            }
            if g.name == "chess" {
                assert!(moves(&*table) < played, "chess takes back");
            }
            check(&*table, now + 20, "after a takeback");
            let resigned = table.apply(
                Command::Resign {
                    user: users[0].clone(),
                },
                now + 30,
            );
            match resigned {
                Ok(_) => {}
                // A Doudizhu hand can end within the steps above, all of a
                // player's cards played (its deal is random): then there is no
                // game left to resign.
                Err(refusal)
                    if g.name == "doudizhu"
                        && refusal.kind == qiyuan_table::TableRefusalKind::NoGame => {}
                Err(refusal) => panic!("{}: resigned: {refusal:?}", g.name),
            }
            check(&*table, now + 40, "after the game");
            for user in &users {
                let ready = Command::Ready {
                    user: user.clone(),
                    proposal: None,
                };
                table.apply(ready, now + 50).expect("ready again");
            }
            assert_eq!(moves(&*table), 0, "{}: a new game", g.name);
            check(&*table, now + 60, "in the next game");
        }
    }
}
