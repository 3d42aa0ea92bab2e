// The replay viewer's data (`GET /api/game/{id}/replay`, docs/protocol.md) and
// what a game gives the viewer (replay.ts): the board it draws a position with and
// its move notations. Each game's part is in its folder (games/<game>/replay.ts),
// listed by the game registry (games/index.ts).
import type { Side } from '../boards/types';

export interface ReplayPly {
  seat: number;
  action: string;
  display: string;
  notations?: Record<string, string>;
  clock: number | null;
}

export interface ReplayOutcome {
  results: string[];
  reason: string;
  score: string;
  points?: number[];
}

export interface ReplayData {
  id: string;
  table: string;
  game: string;
  finished: boolean;
  record: string;
  number: number;
  players: string[];
  outcome: ReplayOutcome | null;
  /** Before the first ply, then after each: the game's views (one per seat where it hides information). */
  positions: unknown[][];
  plies: ReplayPly[];
}

export type View = Record<string, unknown>;

/** What the viewer draws a position with. */
export interface Stage {
  el: HTMLElement;
  /** Shows position `i` (0: the start); `orientation`: the seat at the bottom. */
  show(i: number, orientation: Side): void;
  /** Redraws once the board is in the page (chessground measures itself). */
  redraw?(): void;
  destroy(): void;
}

/** One game's part of the viewer: its board and its move notations. */
export interface Viewer {
  /** Whether the board can be turned round. */
  flips: boolean;
  /** The notations offered, the first the default: a name and its label. */
  notations: Array<[string, () => string]>;
  /** The default notation from the user's settings, if it is one of them. */
  preferred?: () => string;
  stage(data: ReplayData, root: HTMLElement): Stage;
  /** Ply `i` (1-based) in notation `n`. */
  text(data: ReplayData, i: number, n: string): string;
}

export const view = (data: ReplayData, i: number, seat = 0): View => (data.positions[i]?.[seat] ?? {}) as View;

