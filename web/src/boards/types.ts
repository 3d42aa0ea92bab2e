// One face for both boards, so that table, analysis and offline pages do not care
// which game they show. Squares are named in the game's move notation: `e4` for
// chess, ICCS `e0`..`i9` for xiangqi; moves are UCI / ICCS strings.
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
  destroy(): void;
}
