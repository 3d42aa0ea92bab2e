// Generated from the server's Rust types (crates/server/src/protocol/):
// do not edit. `QIYUAN_BLESS=1 cargo test -p qiyuan-server --test it protocol_types`
// writes it again; that test fails when this file is out of date.

export type ServerMsg = { "t": "hello", "d": Hello } | { "t": "pong", "d": { server_time: number, } } | { "t": "ack", "d": Ack } | { "t": "error", "d": ErrorMsg } | { "t": "sync", "d": SyncMsg } | { "t": "event", "d": EventMsg } | { "t": "lobby", "d": LobbyPage } | { "t": "lobby.table", "d": TableSummary } | { "t": "lobby.gone", "d": { game: string, id: string, } } | { "t": "lag", "d": LagMsg } | { "t": "paired", "d": { table: string, game: string, seat: number, } } | { "t": "position", "d": Position } | { "t": "analysis", "d": AnalysisMsg } | { "t": "event.round", "d": EventRoundMsg } | { "t": "event.action", "d": EventActionMsg } | { "t": "chat", "d": ChatMsg } | { "t": "chat.players", "d": ChatPlayersMsg } | { "t": "rel.presence", "d": PresenceMsg } | { "t": "notify", "d": Notification } | { "t": "chat.line", "d": PlaceLine };

export type Hello = { protocol: number, user: UserInfo | null, games: Array<string>, game_info: Array<Descriptor>, server_time: number, };

export type Ack = { table: string, v: number, } | { table: string, seat: number, } | { table: string, invite: string, } | { table: string, } | { game: string, } | { seeking: boolean, } | { cancelled: boolean, } | { line: number, } | { joined: boolean, } | { report: number, } | { event: string, };

export type ErrorMsg = { code: string, message: string, table?: string, };

export type SyncMsg = { table: string, v: number, since: number | null, 
/**
 * Whether `batches` holds everything after `since`.
 */
complete: boolean, batches: Array<Batch>, 
/**
 * The table as this viewer sees it at version `v` (`qiyuan_table::TableView`
 * with the game's own view as `board`).
 */
state: TableView<BoardView>, };

export type EventMsg = { table: string, patch: Array<PatchOp>, from: number, v: number, 
/**
 * The table's events (`qiyuan_table::Event`), serialised once: kept as
 * their JSON text (one allocation a batch in a table's history, where a
 * `Value` tree took dozens) and written out as it is.
 */
events: Array<Event>, ratings?: Array<RatingChange>, };

export type Batch = { from: number, v: number, 
/**
 * The table's events (`qiyuan_table::Event`), serialised once: kept as
 * their JSON text (one allocation a batch in a table's history, where a
 * `Value` tree took dozens) and written out as it is.
 */
events: Array<Event>, ratings?: Array<RatingChange>, };

export type PatchOp = { "op": "set", path: Array<PathKey>, value: unknown, } | { "op": "push", path: Array<PathKey>, values: Array<unknown>, } | { "op": "trunc", path: Array<PathKey>, len: number, } | { "op": "del", path: Array<PathKey>, };

export type PathKey = string | number;

export type RatingChange = { seat: number, user: string, pool: string, before: number, after: number, diff: number, provisional: boolean, };

export type LagMsg = { table: string, at: number, seats: Array<number | null>, };

export type LobbyPage = { game: string, tables: Array<TableSummary>, 
/**
 * Whether further tables can be listed over HTTP.
 */
more: boolean, };

export type EventRoundMsg = { event: string, name: string, round: number, board: number, table: string, game: string, seat: number, opponent: string, };

export type EventActionMsg = { event: string, 
/**
 * `warning`, `foul`, `violation`, `restore`, `clock`, `pause`, `resume`,
 * `refer`, `adjudicate`, `forfeit`, `disqualify`, `decide`.
 */
kind: string, player: string, arbiter: string, reason: string, round: number | null, board: number | null, table: string | null, at: number, };

export type EventEndedMsg = { event: string, name: string, 
/**
 * `rounds_played`: all its rounds were played; `no_pairing`: no legal
 * pairing (FIDE C.04 absolute criteria) remains for the next round;
 * `no_players`: nobody is left to pair.
 */
reason: string, 
/**
 * The rounds played.
 */
rounds: number, 
/**
 * In words (English), for a log or an organiser.
 */
detail: string, at: number, };

export type ChatMsg = { table: string, room: ChatRoom, 
/**
 * The line's id, which `chat.report` names.
 */
id: number, user: string, text: string, at: number, };

export type ChatPlayersMsg = { table: string, off: Array<string>, };

export type ChatRoom = "players" | "spectators";

export type ChatPlace = { "kind": "lobby", game: string, } | { "kind": "event", event: string, } | { "kind": "private", with: string, };

export type PlaceLine = { place: ChatPlace, 
/**
 * The line's id, which `chat.report` names.
 */
id: number, user: string, text: string, at: number, 
/**
 * An announcement of the event's arbiters or organiser.
 */
announcement: boolean, };

export type MentionAt = { "kind": "table", table: string, room: ChatRoom, } | { "kind": "lobby", game: string, } | { "kind": "event", event: string, };

export type Notification = { "kind": "challenge" } & ChallengeNote | { "kind": "challenge_accepted" } & ChallengeNote | { "kind": "challenge_declined" } & ChallengeNote | { "kind": "challenge_canceled" } & ChallengeNote | { "kind": "round" } & EventRoundMsg | { "kind": "arbiter", action: EventActionMsg, } | { "kind": "event_ended" } & EventEndedMsg | { "kind": "invitation" } & InvitationNote | { "kind": "invitation_accepted" } & InvitationNote | { "kind": "invitation_declined" } & InvitationNote | { "kind": "event_changed", event: string, } | { "kind": "mention", by: string, text: string, at: MentionAt, line: number, } | { "kind": "announcement", event: string, name: string, by: string, text: string, line: number, } | { "kind": "muted", until: number, reason: string, };

export type ChallengeNote = { 
/**
 * The challenge's id (its game's once accepted).
 */
id: string, 
/**
 * The challenger's name.
 */
from: string, 
/**
 * The challenged person's name.
 */
to: string, game: string, rated: boolean, time: TimeControl, 
/**
 * The challenger's colour: `white`, `black` or `random`.
 */
color: string, 
/**
 * `challenge_accepted`: the game's table.
 */
table?: string, 
/**
 * `challenge_declined`: the reason given (Lichess's keys: `generic`,
 * `later`, `tooFast`, ...).
 */
reason?: string, };

export type TableSummary = { id: string, game: string, status: Status, seats: Array<SeatSummary>, time: TimeControl, rated: boolean, spectators: number, 
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
name: string, 
/**
 * The game's name as people read it, in Chinese and in English.
 */
zh: string, en: string, 
/**
 * A glyph standing for the game on cards and lists (`♞`).
 */
icon: string, seats: number, 
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
points: boolean, 
/**
 * Whether the analysis board's engine analyses this game's positions.
 */
analysis: boolean, 
/**
 * The table options the quick forms choose among (none: the game's
 * defaults, with nothing to choose).
 */
option_presets: OptionPresets | null, 
/**
 * How the Lichess-compatible API ([`crate::lichess`]) names the game, for
 * the games it plays; `None`: not through that API.
 */
api_variant: ApiVariant | null, };

export type RecordFormat = { extension: string, mime: string, };

export type TimePreset = { 
/**
 * A short name, unique within the game (`quick`, `match`, `blitz`, ...).
 */
key: string, zh: string, en: string, time: TimeControl, };

export type OptionPresets = { 
/**
 * The choice's label (`棋盘`, `Board`).
 */
zh: string, en: string, presets: Array<OptionPreset>, };

export type OptionPreset = { 
/**
 * Unique within the game (`9`, `13`, `19`).
 */
key: string, zh: string, en: string, 
/**
 * The table's options, as `create`, `play_computer` and `hotseat` take them.
 */
options: Record<string, unknown>, };

export type ApiVariant = { 
/**
 * The challenge's `variant` (`standard`, `xiangqi`).
 */
key: string, name: string, short: string, };

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

export type Position = { game: string, 
/**
 * The moves played from the setup.
 */
moves: Array<string>, 
/**
 * The same moves as players read them in a move list, in the game's display
 * notation (SAN, Chinese notation, a GTP vertex).
 */
displays: Array<string>, 
/**
 * The seat to move (none when the game is over or several seats act).
 */
to_move: number | null, 
/**
 * The legal moves of the seat to move, in the game's notation.
 */
legal: Array<string>, over: boolean, 
/**
 * The winner, once the game is over and won.
 */
winner: number | null, 
/**
 * Whether the engine analyses this game.
 */
analysable: boolean, 
/**
 * The game's view of the position (the FEN, the board, the moves in SAN...).
 */
view: Record<string, unknown>, };

export type AnalysisMsg = { line: Line | null, done: boolean, };

export type Line = { 
/**
 * The iteration's depth in plies (Go: the search's round, each with twice
 * the playouts of the one before).
 */
depth: number, 
/**
 * The evaluation in centipawns, when it is not a mate.
 */
cp?: number, 
/**
 * Mate in this many moves (negative: the first seat is mated).
 */
mate?: number, 
/**
 * The first seat's expected score, 0 … 1.
 */
win: number, 
/**
 * The best move, in the game's notation.
 */
best?: string, 
/**
 * The best line from the position, in the game's notation (UCI, ICCS, vertices).
 */
pv: Array<string>, 
/**
 * The same line as players read it, in the game's display notation (SAN,
 * Chinese notation, a vertex), up to the first move that cannot be read.
 */
pv_display: Array<string>, 
/**
 * The line in the game's further notations by name (xiangqi's `wxf`), as
 * the replay viewer offers them.
 */
pv_notations?: { [key in string]: Array<string> }, 
/**
 * Nodes searched (Go: playouts).
 */
nodes: number, 
/**
 * Go: each point's expected owner, row by row from the bottom, +1 the
 * first seat (black), -1 the second.
 */
ownership?: Array<number>, };

export type Presence = { "state": "offline" } | { "state": "online" } | { "state": "playing", table: string, } | { "state": "watching", table: string, };

export type FollowedPerson = { username: string, 
/**
 * They follow back: the two are friends (好友).
 */
friend: boolean, 
/**
 * When the follow began (ms since the epoch).
 */
since: number, presence: Presence, };

export type Following = { following: Array<FollowedPerson>, blocked: Array<string>, };

export type RelationView = { following: boolean, followed_by: boolean, 
/**
 * Both follow: friends (好友).
 */
friend: boolean, blocking: boolean, blocked_by: boolean, };

export type PresenceMsg = { username: string, presence: Presence, };

export type InvitationNote = { 
/**
 * The invitation's secret id, which its answers name.
 */
id: string, 
/**
 * Who invites.
 */
from: string, 
/**
 * Who is invited (for a link taken: who took it).
 */
to: string, table: string, game: string, 
/**
 * `invitation_declined`: the reason given (`generic`, `later`, `busy`,
 * `tooFast`, `tooSlow`, `rated`, `casual`).
 */
reason?: string, };

export type InviteLink = { 
/**
 * The link's secret.
 */
token: string, table: string, 
/**
 * The link's path on this server (`/#/join/{token}`).
 */
url: string, };

export type LinkView = { table: string, game: string, 
/**
 * Who made the link.
 */
from: string, 
/**
 * Whether its seat is still free to take.
 */
open: boolean, 
/**
 * Who took its seat.
 */
taken_by: string | null, };

export type SeatedAt = { table: string, seat: number, };

export type Status = "waiting" | "playing" | "over";

export type EndDetail = "abort" | "first_move" | "not_counted" | "main_time" | "move_time" | "countdown" | "overtime";

export type TimeControl = { "kind": "none" } | { "kind": "qq", game: number, per_move: number, countdown: number, } | { "kind": "fischer", base: number, increment: number, } | { "kind": "byo_yomi", main: number, periods: number, period: number, } | { "kind": "canadian", main: number, moves: number, period: number, } | { "kind": "correspondence", days: number, };

export type Event = { "type": "sat", seat: Seat, user: string, } | { "type": "stood", seat: Seat, user: string, } | { "type": "watching", user: string, } | { "type": "unwatched", user: string, } | { "type": "proposed", proposal: Proposal, } | { "type": "accepted", seat: Seat, proposal: number, } | { "type": "ready", seat: Seat, ready: boolean, } | { "type": "swap_requested", seat: Seat, with: Seat, } | { "type": "swapped", a: Seat, b: Seat, } | { "type": "started", game: number, 
/**
 * Users by seat.
 */
players: Array<string>, settings: Settings, clock: ClockView, } | { "type": "acted", seat: Seat, 
/**
 * Number of actions in the game so far, this one included.
 */
ply: number, 
/**
 * The action in canonical notation.
 */
action: string, 
/**
 * The action as players read it.
 */
display: string, capture: boolean, check: boolean, clock: ClockView, } | { "type": "draw_offered", seat: Seat, } | { "type": "draw_declined", seat: Seat, } | { "type": "takeback_requested", seat: Seat, } | { "type": "takeback_declined", seat: Seat, } | { "type": "took_back", plies: number, clock: ClockView, } | { "type": "disconnected", seat: Seat, 
/**
 * When the seat loses by escape unless it comes back.
 */
deadline: number | null, } | { "type": "reconnected", seat: Seat, } | { "type": "rematch_offered", seat: Seat, } | { "type": "trusteeship", seat: Seat, on: boolean, } | { "type": "declined", seat: Seat, proposal: number, } | { "type": "ended", outcome: Outcome, rated: boolean, } | { "type": "resumed", clock: ClockView | null, } | { "type": "fouled", seat: Seat, count: number, reason?: string | null, } | { "type": "warned", seat: Seat, reason: string, } | { "type": "violated", seat: Seat, count: number, reason: string, } | { "type": "restored", ply: number, clock: ClockView, } | { "type": "clock_adjusted", seat: Seat, delta: number, clock: ClockView, } | { "type": "paused", paused: boolean, clock: ClockView, } | { "type": "claim_incorrect", seat: Seat, opponent: Seat, added: number, reason: string, clock: ClockView, };

export type TableView<V> = { 
/**
 * The table's version (log length) this view reflects.
 */
version: number, game_name: string, seats: Array<SeatView>, spectators: Array<string>, proposal: Proposal, status: Status, 
/**
 * The viewer's seat, if seated.
 */
you: Seat | null, game: GameView<V> | null, 
/**
 * The position the current proposal loads (读入) as this viewer sees it,
 * until that game starts: every seat sees the loaded position at once.
 */
preview: V | null, 
/**
 * A tournament table (an event's board): one game with fixed settings,
 * no takebacks, no rematch.
 */
tournament: boolean, 
/**
 * The moment the view was taken.
 */
at: number, };

export type GameView<V> = { number: number, settings: Settings, players: Array<string>, 
/**
 * The moves read in with a record (读入) before the game started: part of
 * the game, before `moves` in its move list, never taken back.
 */
loaded: Array<MoveView>, moves: Array<MoveView>, turn: Turn, 
/**
 * The game's own phase, by name ([`GamePhase::name`]: `play`, `marking`, ...).
 */
phase: string, clock: ClockView, 
/**
 * The game itself, with what this viewer may not see removed.
 */
board: V, draw_offer: Seat | null, takeback_request: Seat | null, 
/**
 * What the viewer may claim now.
 */
claims: Array<Claim>, 
/**
 * When the seat to make its first move aborts (or loses) the game.
 */
first_move_deadline: number | null, outcome: Outcome | null, 
/**
 * How the game ended where `outcome.reason` does not say it: the limit that
 * ran out (`main_time`, `move_time`, `countdown`, `overtime`), or why it was not
 * counted (`abort`, `first_move`, `not_counted`).
 */
end_detail: EndDetail | null, rated: boolean, 
/**
 * An arbiter's warnings, fouls and violations in this game, per seat.
 */
warnings: Array<number>, fouls: Array<number>, violations: Array<number>, 
/**
 * An arbiter has stopped the clocks.
 */
paused: boolean, };

export type SeatView = { user: string | null, connected: boolean, accepted: number | null, ready: boolean, swap_with: Seat | null, rematch: boolean, 
/**
 * When a disconnected player loses by escape (during a game) or loses the
 * seat (between games).
 */
escape_at: number | null, 
/**
 * The player's network lag (their best socket's round trip, ms) for the
 * connection indicator. The table measures nothing, so it is `None` here;
 * the server's fan-out fills it in from its sockets.
 */
lag_ms: number | null, 
/**
 * 托管: the computer plays this seat for its player until they take it
 * back ([`crate::Command::Trusteeship`]).
 */
trustee: boolean, };

export type MoveView = { seat: Seat, action: string, display: string, 
/**
 * The mover's main time left after it.
 */
clock: number | null, };

export type Proposal = { id: number, by: Seat, settings: Settings, };

export type Settings = { time: TimeControl, 
/**
 * The game's rule options as JSON, the wire and log form of the game's
 * `Options`; `null` for defaults. The table parses them once, when the
 * table is created or the settings proposed, and refuses ones that are not
 * the game's ([`SettingsError::Options`]).
 */
options: JsonValue, 
/**
 * Where the game starts: the standard position or a loaded one (读入): a
 * position in the game's format (FEN), or a whole record (PGN, SGF) whose
 * moves are replayed and the game goes on from its last position. A seed or
 * secret is never accepted from players; each deal comes from a fresh
 * secret the server offers (see [`crate::Table::apply_with`]).
 */
setup: Setup, 
/**
 * Whether the game counts for ratings.
 */
rated: boolean, 
/**
 * Whether takebacks (悔棋) may be requested.
 */
takebacks: boolean, };

export type ClockView = { control: TimeControl, 
/**
 * The seat whose time runs, if any.
 */
running: number | null, paused: boolean, seats: Array<SeatClockView>, 
/**
 * The moment the view was taken.
 */
at: number, };

export type SeatClockView = { 
/**
 * Main time left now.
 */
main: number, 
/**
 * Time left for the current move (or for the next one, for a seat not to move)
 * before the seat flags; `None` with no clock.
 */
move_left: number | null, 
/**
 * Byo-yomi periods left / Canadian moves left in the period.
 */
periods: number, moves_left: number, 
/**
 * The seat is in its count-down / byo-yomi / Canadian overtime.
 */
overtime: boolean, flagged: boolean, };

export type Seat = number;

export type Viewer = { "seat": Seat } | "spectator";

export type Turn = { "seat": Seat } | { "all": Array<Seat> } | "over";

export type Setup = "standard" | { "position": string } | { "seed": number } | { "secret": string };

export type SeatResult = "win" | "loss" | "draw" | "void";

export type EndReason = "checkmate" | "stalemate" | "insufficient_material" | "threefold_repetition" | "fivefold_repetition" | "fifty_moves" | "seventy_five_moves" | "perpetual_check" | "perpetual_chase" | "repetition" | "move_limit" | "counted" | "hand_emptied" | "resignation" | "timeout" | "agreement" | "escape" | "aborted" | "adjudication" | "fouls" | "violations";

export type Outcome = { 
/**
 * One result per seat, indexed by [`Seat::index`].
 */
results: Array<SeatResult>, reason: EndReason, 
/**
 * The result as the game's records write it: `1-0`, `B+3.5`, `W+R`, ...
 */
score: string, 
/**
 * Points per seat where the game scores in points (Doudizhu), else empty.
 */
points?: Array<number>, 
/**
 * Which deal of the hand was played where the game deals again after
 * everyone passed (Doudizhu): 0 the first, then one more per redeal; 0
 * in every other game. The table sets it from [`Game::deal_number`]
 * when the game ends, whoever ended it. Duplicate events compare only
 * results of the same deal.
 */
deal?: number, };

export type Claim = "threefold_repetition" | "fifty_moves";

export type ClientMsg = TableCommand | HallMsg;

export type HallMsg = { "t": "ping", "d": Ping } | { "t": "lobby.subscribe", "d": LobbyRoom } | { "t": "lobby.unsubscribe", "d": LobbyRoom } | { "t": "create", "d": CreateTable } | { "t": "seek", "d": Seek } | { "t": "seek.cancel" } | { "t": "watch", "d": Watch } | { "t": "unwatch", "d": Watch } | { "t": "play_computer", "d": PlayComputer } | { "t": "hotseat", "d": Hotseat } | { "t": "analyse", "d": Analyse } | { "t": "analyse.stop" } | { "t": "chat", "d": ChatSay } | { "t": "chat.spectators", "d": ChatSpectators } | { "t": "chat.players", "d": ChatPlayers } | { "t": "chat.report", "d": ChatReport } | { "t": "event.follow", "d": EventRef } | { "t": "event.unfollow", "d": EventRef } | { "t": "chat.join", "d": ChatJoin } | { "t": "chat.leave", "d": ChatJoin } | { "t": "chat.post", "d": ChatPost };

export type TableCommand = { "t": "sit", "d": AtSeat } | { "t": "stand", "d": Acting } | { "t": "propose", "d": Propose } | { "t": "accept", "d": Answer } | { "t": "ready", "d": Ready } | { "t": "unready", "d": Acting } | { "t": "swap", "d": Swap } | { "t": "move", "d": Move } | { "t": "draw.offer", "d": Acting } | { "t": "draw.accept", "d": Acting } | { "t": "draw.decline", "d": Acting } | { "t": "takeback.request", "d": Acting } | { "t": "takeback.accept", "d": Acting } | { "t": "takeback.decline", "d": Acting } | { "t": "claim", "d": MakeClaim } | { "t": "resign", "d": Acting } | { "t": "abort", "d": Acting } | { "t": "leave", "d": Acting } | { "t": "rematch", "d": Acting } | { "t": "add_bot", "d": AddBot } | { "t": "remove_bot", "d": AtSeat } | { "t": "decline", "d": Answer } | { "t": "trusteeship.on", "d": Acting } | { "t": "trusteeship.off", "d": Acting };

export type Acting = { table: string, game?: string, seat?: Seat, };

export type AtSeat = { table: string, game?: string, seat: Seat, };

export type AddBot = { table: string, game?: string, seat: Seat, level?: LevelKey, };

export type Propose = { table: string, game?: string, seat?: Seat, settings: Settings, };

export type Answer = { table: string, game?: string, seat?: Seat, proposal: number, };

export type Ready = { table: string, game?: string, seat?: Seat, proposal?: number, };

export type Swap = { table: string, game?: string, seat?: Seat, with: Seat, };

export type Move = { table: string, game?: string, seat?: Seat, action: string, 
/**
 * The client's report of its lag for this move, in milliseconds.
 */
lag?: number, };

export type MakeClaim = { table: string, game?: string, seat?: Seat, claim: Claim, };

export type Ping = { lag?: number, };

export type LobbyRoom = { game: string, };

export type Watch = { table: string, since?: number, };

export type CreateTable = { game: string, time?: TimeControl, rated?: boolean, options?: JsonValue, 
/**
 * Sit down at once at this seat.
 */
seat?: Seat, takebacks?: boolean, 
/**
 * Where the game starts (读入): `"standard"` or `{"position": FEN}`.
 */
setup?: Setup, 
/**
 * A table for the people invited to it (by name or by link) alone:
 * listed nowhere; nobody else watches it, sits there or reads its chat.
 */
invite_only?: boolean, };

export type LevelKey = string | number;

export type Colour = Seat | string;

export type PlayComputer = { game: string, 
/**
 * The computer player's level (default: the game's first).
 */
level?: LevelKey, 
/**
 * The player's seat (default: random).
 */
colour?: Colour, 
/**
 * The clock (default: the game's first preset).
 */
time?: TimeControl, 
/**
 * The game's rule options (board size, komi, ...).
 */
options?: JsonValue, setup?: Setup, 
/**
 * 单机: a private table, listed nowhere (see [`crate::solo`]).
 */
private?: boolean, };

export type Hotseat = { game: string, 
/**
 * The clock (default: none).
 */
time?: TimeControl, options?: JsonValue, setup?: Setup, };

export type Seek = { game: string, time: TimeControl, rated?: boolean, };

export type Analyse = { game: string, options?: JsonValue, setup?: Setup, moves?: Array<string>, 
/**
 * How long the engine may think, in milliseconds (default 10 s, at most 30 s).
 */
time_ms?: number, 
/**
 * Whether to analyse at all (false: only the position and its legal moves).
 */
think?: boolean, 
/**
 * An external engine's level key (one of the game's `bot_levels` with an
 * `engine`) to analyse instead of the built-in engine (UCI and UCCI ones).
 */
engine?: string | null, };

export type ChatSay = { table: string, text: string, };

export type ChatSpectators = { table: string, on: boolean, };

export type ChatPlayers = { table: string, on: boolean, };

export type ChatReport = { line: number, reason?: string, };

export type EventRef = { event: string, };

export type ChatJoin = { place: ChatPlace, };

export type ChatPost = { place: ChatPlace, text: string, announce?: boolean, };

export type ChessView = { 
/**
 * The current position.
 */
fen: string, 
/**
 * The starting FEN when the game did not start from the standard position.
 */
start_fen: string | null, 
/**
 * `white` or `black`.
 */
side_to_move: string, 
/**
 * The seat to move, `None` when the game is over.
 */
to_move: Seat | null, last_move: PlayedMove | null, 
/**
 * The side to move is in check.
 */
check: boolean, 
/**
 * Every legal move in UCI (empty when the game is over).
 */
legal_moves: Array<string>, 
/**
 * Half-moves since the last capture or pawn move (the fifty-move count).
 */
halfmove_clock: number, fullmove_number: number, 
/**
 * How many times the current position has occurred.
 */
repetitions: number, 
/**
 * What the viewing seat may claim now.
 */
claims: Array<Claim>, outcome: Outcome | null, };

export type PlayedMove = { 
/**
 * UCI, the canonical form: `e2e4`, `e7e8q`, `e1g1`.
 */
uci: string, 
/**
 * SAN with its check or mate suffix: `e4`, `e8=Q+`, `O-O`, `Qxf7#`.
 */
san: string, capture: boolean, check: boolean, };

export type XiangqiView = { fen: string, 
/**
 * `red` or `black`.
 */
turn: XiangqiColor, last_move: LastMove | null, 
/**
 * The side to move is in check.
 */
check: boolean, 
/**
 * Legal moves of the side to move, ICCS (empty once the game is over).
 */
legal_moves: Array<string>, 
/**
 * The moves so far, ICCS.
 */
moves: Array<string>, 
/**
 * The moves so far in WXF (`C2=5`), for clients that show that notation.
 */
wxf_moves: Array<string>, ending: Ending | null, };

export type LastMove = { iccs: string, chinese: string, wxf: string, from: string, to: string, };

export type Ending = { 
/**
 * The winner, or `None` for a draw.
 */
winner: XiangqiColor | null, reason: EndReason, 
/**
 * The ply (1 = the first move played) on which it ended.
 */
ply: number, };

export type XiangqiColor = "red" | "black";

export type GoView = { size: number, 
/**
 * Rows from the top (row `size`) down, `X` black, `O` white, `.` empty.
 */
board: Array<string>, phase: GoPhase, 
/**
 * Who moves, during play.
 */
to_move: GoColor | null, 
/**
 * Stones captured by black and by white.
 */
captures: Captures, 
/**
 * The last move, `D4` or `pass`.
 */
last_move: string | null, 
/**
 * The point the side to move may not take back at once.
 */
ko: string | null, komi: number, handicap: number, 
/**
 * Every move so far, canonical notation.
 */
moves: Array<string>, 
/**
 * The dead-stone marking, during the marking phase and after the count.
 */
marking: MarkingView | null, 
/**
 * The result once counted or decided (`B+3.5`).
 */
result: string | null, };

export type GoPhase = "play" | "marking" | "over";

export type Captures = { black: number, white: number, };

export type MarkingView = { 
/**
 * Stones marked dead, GTP vertices.
 */
dead: Array<string>, 
/**
 * Whether seat 0 (black) and seat 1 (white) accepted this marking.
 */
accepted: [boolean, boolean], 
/**
 * Points counting for black (stones and territory) under this marking.
 */
black_area: Array<string>, 
/**
 * Points counting for white.
 */
white_area: Array<string>, 
/**
 * The result if this marking were accepted.
 */
score: string, };

export type GoColor = "black" | "white";

export type DoudizhuView = { viewer: Viewer, phase: DoudizhuPhase, 
/**
 * The seat to act, while the hand goes on.
 */
to_act: Seat | null, first_bidder: Seat, 
/**
 * How many deals were passed out before this one.
 */
redeals: number, 
/**
 * The bidding of the current deal.
 */
bids: Array<Bid>, 
/**
 * The highest bid so far; the winning bid once the landlord is known.
 */
bid: number, landlord: Seat | null, 
/**
 * The bottom cards, once the landlord is known.
 */
bottom: Array<string> | null, 
/**
 * The viewer's own cards (seats only).
 */
hand: Array<string> | null, 
/**
 * How many cards each seat holds.
 */
counts: [number, number, number], 
/**
 * Every seat's remaining cards, once the hand is over.
 */
hands: Array<Array<string>> | null, 
/**
 * Every turn of play, passes included.
 */
plays: Array<Turned>, 
/**
 * The play to beat and who made it; `None` when the seat to act leads.
 */
last: Turned | null, bombs: number, multiplier: number, 
/**
 * The viewer's legal actions, when it is the viewer's turn.
 */
legal: Array<string>, outcome: Outcome | null, };

export type Bid = { seat: Seat, bid: number, };

export type Turned = { seat: Seat, 
/**
 * The cards as a string of ranks (`33344`).
 */
cards: string | null, };

export type DoudizhuPhase = "bidding" | "play" | "over";

export type BoardView = ChessView | XiangqiView | GoView | DoudizhuView;

export type JsonValue = number | string | boolean | Array<JsonValue> | { [key in string]: JsonValue } | null;

/** A server message as it arrives: with the id of the request it answers. */
export type Envelope = ServerMsg & { id?: string | number };

/** A client message as it is sent: with an id for its reply to carry. */
export type Outgoing = ClientMsg & { id?: string | number };
