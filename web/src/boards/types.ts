// The faces of the boards a game gives the generic pages (the piece table, the
// analysis board, the replay viewer), so that they do not care which game they
// show. A piece board's squares are named in the game's move notation: `e4` for
// chess, ICCS `e0`..`i9` for xiangqi; moves are UCI / ICCS strings. A stone
// board's points are GTP vertices. Each game's board is in its folder (games/).
export type Side = 0 | 1; // seat 0 (white / red) or seat 1 (black)

export interface BoardState {
  fen: string;
  /** The seat shown at the bottom. */
  orientation: Side;
  /** Whose turn it is in the position. */
  turn: Side;
  /** Which side the user may move now (null: view only). */
  movable: Side | 'both' | null;
  /** Legal destinations by origin square. */
  dests: Map<string, string[]>;
  lastMove?: [string, string];
  check: boolean;
  /** Allow premoves for this side while it is the opponent's turn. */
  premove?: boolean;
}

export interface BoardWidget {
  el: HTMLElement;
  /** The game's standard starting position (shown before a game has started). */
  start: string;
  /** Whether the board takes premoves. */
  premoves: boolean;
  set(state: BoardState): void;
  onMove(cb: (move: string) => void): void;
  /** Plays a stored premove if it is legal now. */
  playPremove(): boolean;
  /** Drops a stored premove. */
  cancelPremove(): void;
  redraw(): void;
  /** Draws arrows from square to square (the analysis board's best moves, the
   * first the best); none clears them. */
  arrows?(moves: Array<[string, string]>): void;
  destroy(): void;
}

export interface StoneBoardState {
  size: number;
  /** Rows from the top down: `X` black, `O` white, `.` empty. */
  rows: string[];
  lastMove?: string | null;
  /** The point a ko forbids retaking at once. */
  ko?: string | null;
  /** During marking and after the count: stones marked dead and each side's area. */
  dead?: string[];
  blackArea?: string[];
  whiteArea?: string[];
  /** The colour a click would place (1 black, -1 white), for the hover stone; 0: none. */
  ghost: 0 | 1 | -1;
  /** Whether vertex clicks do anything (play or marking). */
  clickable: boolean;
  /** The analysis board's best move, shown as a ghost stone of the side to move. */
  best?: string | null;
}

/** A board of stones (Go's Shudan goban), its points named as GTP vertices (`D4`). */
export interface StoneBoard {
  el: HTMLElement;
  set(state: StoneBoardState): void;
  onVertex(cb: (gtp: string) => void): void;
  destroy(): void;
}

/** The board the analysis page shows a game's positions on. */
export type AnalysisBoard = { pieces: () => BoardWidget } | { stones: () => StoneBoard };
