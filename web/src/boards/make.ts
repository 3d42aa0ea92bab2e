// The piece boards by game: the client's one list of which board a game's
// table (table/pieces.ts) and analysis pages show.
import { chessBoard } from './chessBoard';
import { xiangqiBoard } from './xiangqiBoard';
import type { BoardWidget } from './types';

const BOARDS: Record<string, () => BoardWidget> = {
  chess: chessBoard,
  // chessgroundx's name of the game (its premoves).
  xiangqi: () => xiangqiBoard('xiangqi'),
};

/** Whether `game` is played on a piece board. */
export function hasPieceBoard(game: string): boolean {
  return game in BOARDS;
}

export function makeBoard(game: string): BoardWidget {
  const make = BOARDS[game];
  if (!make) throw new Error(`no piece board for ${game}`);
  return make();
}
