import type { GameKind } from '../games';
import { chessBoard } from './chessBoard';
import { xiangqiBoard } from './xiangqiBoard';
import type { BoardWidget } from './types';

export function makeBoard(kind: GameKind): BoardWidget {
  return kind === 'chess' ? chessBoard() : xiangqiBoard();
}
