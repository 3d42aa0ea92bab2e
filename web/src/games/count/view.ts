// The count game's view, as the server's `qiyuan-count` crate sends it
// (`CountView`; the toy game generates no TypeScript type of its own).
export interface CountView {
  total: number;
  target: number;
  /** The seat to add next; null once the game is over. */
  to_move: number | null;
  moves: string[];
}

/** What a player may add on a turn. */
export const STEPS = [1, 2, 3] as const;
