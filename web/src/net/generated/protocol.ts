// Generated from the server's Rust types (crates/server/src/protocol/out.rs):
// do not edit. `QIYUAN_BLESS=1 cargo test -p qiyuan-server --test protocol_types`
// writes it again; that test fails when this file is out of date.

export type ServerMsg = { "t": "hello", "d": Hello } | { "t": "pong", "d": { server_time: number, } } | { "t": "ack", "d": Ack } | { "t": "error", "d": ErrorMsg } | { "t": "sync", "d": SyncMsg } | { "t": "event", "d": EventMsg } | { "t": "lobby", "d": LobbyPage } | { "t": "lobby.table", "d": TableSummary } | { "t": "lobby.gone", "d": { game: string, id: string, } } | { "t": "paired", "d": { table: string, game: string, seat: number, } } | { "t": "event.round", "d": EventRoundMsg } | { "t": "event.action", "d": EventActionMsg };

export type Hello = { protocol: number, user: UserInfo | null, games: Array<string>, game_info: Array<Descriptor>, server_time: number, };

export type Ack = { table: string, v: number, } | { table: string, seat: number, } | { table: string, invite: string, } | { table: string, } | { game: string, } | { seeking: boolean, } | { cancelled: boolean, };

export type ErrorMsg = { code: string, message: string, table?: string, };

export type SyncMsg = { table: string, v: number, since: number | null, 
/**
 * Whether `batches` holds everything after `since`.
 */
complete: boolean, batches: Array<Batch>, 
/**
 * The table as this viewer sees it at version `v` (`qiyuan_table::TableView`).
 */
state: Record<string, unknown>, };

export type EventMsg = { table: string, state: Record<string, unknown>, from: number, v: number, 
/**
 * The table's events (`qiyuan_table::Event`), serialised once.
 */
events: Array<Record<string, unknown>>, ratings?: Array<RatingChange>, };

export type Batch = { from: number, v: number, 
/**
 * The table's events (`qiyuan_table::Event`), serialised once.
 */
events: Array<Record<string, unknown>>, ratings?: Array<RatingChange>, };

export type RatingChange = { seat: number, user: string, pool: string, before: number, after: number, diff: number, provisional: boolean, };

export type LobbyPage = { game: string, tables: Array<TableSummary>, 
/**
 * Whether further tables can be listed over HTTP.
 */
more: boolean, };

export type EventRoundMsg = { event: string, name: string, round: number, board: number, table: string, game: string, seat: number, opponent: string, };

export type EventActionMsg = { event: string, 
/**
 * `warning`, `foul`, `violation`, `adjudicate`, `forfeit`, `disqualify`.
 */
kind: string, player: string, arbiter: string, reason: string, round: number | null, board: number | null, table: string | null, at: number, };

export type TableSummary = { id: string, game: string, status: Status, seats: Array<SeatSummary>, time: TimeControl, rated: boolean, spectators: number, version: number, 
/**
 * The path of the table's invitation link.
 */
invite: string, };

export type SeatSummary = { user: string | null, connected: boolean, ready: boolean, };

export type UserInfo = { id: number, username: string, guest: boolean, };

export type Descriptor = { 
/**
 * The name the lobby, the protocol and the records use (the rules crate's
 * `Game::NAME`).
 */
name: string, seats: number, 
/**
 * The phases a client shows, in order: the game's own
 * ([`Game::Phase`]), by name.
 */
phases: Array<string>, 
/**
 * The sides' names by seat (`white`, `black`), where the game has sides;
 * `play_computer` takes them as colours.
 */
seat_names: Array<string>, record: RecordFormat, 
/**
 * Whether some viewers are kept from some information (Doudizhu's hands):
 * the record, which shows everything, waits for the end.
 */
hides_information: boolean, 
/**
 * Whether each game deals from a fresh secret (`Game::RANDOM`).
 */
secret_deal: boolean, 
/**
 * The clock presets offered; the first is the default and quick pairing's.
 */
presets: Array<TimePreset>, rating_pools: RatingPools, 
/**
 * The computer players' level keys; empty when the game has none.
 */
bots: Array<string>, 
/**
 * The computer players' levels with their names, the built-in ones first,
 * then the operator's external engines' (see [`Games::with_engines`]).
 */
bot_levels: Array<BotLevel>, 
/**
 * 托管: the computer plays for a player whose time is running out or who is
 * away, until they act again (see [`crate::bots`]), so that a timeout never
 * ends the game.
 */
trusteeship: boolean, 
/**
 * Whether players keep points (积分) for life from the game's scored hands
 * (`Outcome::points`), shown with a title on profiles and a leaderboard.
 */
points: boolean, };

export type RecordFormat = { extension: string, mime: string, };

export type TimePreset = { 
/**
 * A short name, unique within the game (`quick`, `match`, `blitz`, ...).
 */
key: string, zh: string, en: string, time: TimeControl, };

export type RatingPools = "one" | "by_speed";

export type BotLevel = { 
/**
 * The protocol's name (`basic`, `strong`, `1` … `8`, `stockfish`): letters,
 * digits, `_` and `.`.
 */
key: string, zh: string, en: string, 
/**
 * The external engine playing it, if it is one (its configured name).
 */
engine: string | null, };

export type Status = "waiting" | "playing" | "over";

export type TimeControl = { "kind": "none" } | { "kind": "qq", game: number, per_move: number, countdown: number, } | { "kind": "fischer", base: number, increment: number, } | { "kind": "byo_yomi", main: number, periods: number, period: number, } | { "kind": "canadian", main: number, moves: number, period: number, } | { "kind": "correspondence", days: number, };

/** A server message as it arrives: with the id of the request it answers. */
export type Envelope = ServerMsg & { id?: string | number };
