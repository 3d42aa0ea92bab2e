// The client's picture of one table, whatever the wire format: the protocol
// adapter (protocol.ts) turns the server's messages into this.
import { allGames, preset, sameTc } from './games';
import type { TimeControl } from './generated/protocol';

const MIN = 60_000;
const SEC = 1000;

export interface Player {
  name: string;
  rating?: number;
  provisional?: boolean;
}

export interface SeatView {
  player: Player | null;
  ready: boolean;
  connected: boolean;
}

export interface ClockView {
  /** Main time left per seat, in ms, as of receivedAt. */
  ms: number[];
  /** Time left for the current move before the seat flags (QQ 步时 / 读秒), if any. */
  sub: Array<number | null>;
  /** Whether the seat is in its count-down / overtime. */
  overtime: boolean[];
  running: number | null;
  /** performance.now() when the reading arrived. */
  receivedAt: number;
}

/** A time control in the server's own form (qiyuan-clock's TimeControl, generated). */
export type { TimeControl };

export interface ResultView {
  results: string[]; // per seat: win / loss / draw / void
  reason: string;
  score: string;
  ratingDelta: Array<number | null>;
  ratingAfter: Array<number | null>;
}

export interface MoveView {
  uci: string;
  display: string;
}

export interface TableModel {
  id: string;
  /** The game's name, as the server's registry has it. */
  game: string;
  version: number;
  seats: SeatView[];
  spectators: number;
  mySeat: number | null;
  status: 'waiting' | 'playing' | 'over';
  startFen?: string;
  fen?: string;
  moves: MoveView[];
  turn: number | null;
  legal: string[] | null;
  /** The last move in the game's canonical notation (UCI, ICCS). */
  lastMove: string | null;
  /** Xiangqi: every move in WXF, as the server spells them. */
  wxf: string[] | null;
  check: boolean;
  clock: ClockView | null;
  timeControl: TimeControl | null;
  timeProposal: { id: number; by: number; tc: TimeControl; accepted: number[] } | null;
  timeAgreed: boolean;
  /** Whether the proposed (or current) game counts for ratings. */
  rated: boolean;
  offers: { draw?: number; takeback?: number; swap?: number; rematch?: number };
  result: ResultView | null;
  gameId: string | null;
}

export function emptyModel(id: string, game: string): TableModel {
  return {
    id,
    game,
    version: 0,
    seats: [
      { player: null, ready: false, connected: false },
      { player: null, ready: false, connected: false },
    ],
    spectators: 0,
    mySeat: null,
    status: 'waiting',
    moves: [],
    turn: null,
    legal: null,
    lastMove: null,
    wxf: null,
    check: false,
    clock: null,
    timeControl: null,
    timeProposal: null,
    timeAgreed: false,
    rated: false,
    offers: {},
    result: null,
    gameId: null,
  };
}

/**
 * Whether `tc` is `game`'s quick (快棋) or match (比赛) preset, as the server's
 * descriptors define them (see ./games); any game's when `game` is left out.
 */
export function presetOf(tc: TimeControl | null, game?: string): 'quick' | 'match' | 'custom' {
  if (!tc) return 'custom';
  const names = game ? [game] : allGames().map((g) => g.name);
  for (const name of names) for (const k of ['quick', 'match'] as const) if (sameTc(preset(name, k)?.time, tc)) return k;
  return 'custom';
}

export function describeTc(tc: TimeControl | null): string {
  if (!tc) return '—';
  const m = (ms: number) => (ms % MIN === 0 ? `${ms / MIN}′` : `${Math.round(ms / SEC)}″`);
  switch (tc.kind) {
    case 'none':
      return '∞';
    case 'qq':
      return `${m(tc.game)} / ${m(tc.per_move)} / ${m(tc.countdown)}`;
    case 'fischer':
      return `${tc.base / MIN}+${tc.increment / SEC}`;
    case 'byo_yomi':
      return `${m(tc.main)} + ${tc.periods}×${m(tc.period)}`;
    case 'canadian':
      return `${m(tc.main)} + ${tc.moves}/${m(tc.period)}`;
    case 'correspondence':
      return `${tc.days}d`;
  }
}

export function initialMs(tc: TimeControl | null): number | null {
  if (!tc) return null;
  switch (tc.kind) {
    case 'qq':
      return tc.game;
    case 'fischer':
      return tc.base;
    case 'byo_yomi':
    case 'canadian':
      return tc.main;
    default:
      return null;
  }
}

/** What the page can ask of the table. */
export interface TableActions {
  sit(seat: number): void;
  stand(): void;
  ready(): void;
  move(uci: string): void;
  proposeTime(tc: TimeControl): void;
  acceptTime(): void;
  offerDraw(): void;
  answerDraw(accept: boolean): void;
  takeback(): void;
  answerTakeback(accept: boolean): void;
  swap(): void;
  answerSwap(accept: boolean): void;
  resign(): void;
  /** Proposes a casual game from a position (读入). */
  load(fen: string): void;
  /** Leaves the table on purpose (a seated player in a live game loses by escape). */
  leave(): void;
  rematch(): void;
  close(): void;
}
