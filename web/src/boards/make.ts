// The boards by game: the client's one list of which board a game's table
// (table/pieces.ts), analysis and hot-seat pages show — a piece board, or the
// stone board of the analysis page (Go's table has its own, go/table.ts).
import { chessBoard } from './chessBoard';
import { xiangqiBoard } from './xiangqiBoard';
import type { BoardWidget } from './types';

const BOARDS: Record<string, () => BoardWidget> = {
  chess: chessBoard,
  // chessgroundx's name of the game (its premoves).
  xiangqi: () => xiangqiBoard('xiangqi'),
};

/** The games the stone board (boards/goBoard.ts) shows on the analysis page. */
const STONE_BOARDS = new Set(['go']);

/** Whether `game`'s positions are shown on the stone board. */
export function hasStoneBoard(game: string): boolean {
  return STONE_BOARDS.has(game);
}

/** Whether `game` is played on a piece board. */
export function hasPieceBoard(game: string): boolean {
  return game in BOARDS;
}

export function makeBoard(game: string): BoardWidget {
  const make = BOARDS[game];
  if (!make) throw new Error(`no piece board for ${game}`);
  return make();
}
