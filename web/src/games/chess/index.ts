// Chess in the browser: chessground in the piece-board table, its replay viewer
// and its analysis board.
import type { GamePlugin } from '../plugin';
import { pieceTablePage } from '../../table/pieces';
import { chessBoard } from './board';
import { chessViewer } from './replay';

export const chess: GamePlugin = {
  name: 'chess',
  table: pieceTablePage('chess', chessBoard),
  replay: chessViewer,
  analysis: { pieces: chessBoard },
};
