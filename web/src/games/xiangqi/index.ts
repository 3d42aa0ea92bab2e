// Xiangqi in the browser: chessgroundx in the piece-board table (with premoves),
// its replay viewer and its analysis board.
import type { GamePlugin } from '../plugin';
import { pieceTablePage } from '../../table/pieces';
import { xiangqiBoard } from './board';
import { xiangqiViewer } from './replay';

/** The table's board: chessgroundx's xiangqi, which takes premoves. */
const tableBoard = () => xiangqiBoard('xiangqi');

export const xiangqi: GamePlugin = {
  name: 'xiangqi',
  table: pieceTablePage('xiangqi', tableBoard),
  replay: xiangqiViewer,
  analysis: { pieces: tableBoard },
};
