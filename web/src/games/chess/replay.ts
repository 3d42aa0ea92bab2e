// Chess in the replay viewer: the chessground board, SAN or UCI.
import { squareStage } from '../../replay/squares';
import type { Viewer } from '../../replay/types';
import { chessBoard } from './board';
import { tx } from './text';

export const chessViewer: Viewer = {
  flips: true,
  notations: [
    ['display', () => tx('notationSan')],
    ['action', () => tx('notationUci')],
  ],
  stage: (data) => squareStage(data, chessBoard, (v) => (v.side_to_move === 'black' ? 1 : 0)),
  text: (data, i, n) => (n === 'action' ? data.plies[i - 1].action : data.plies[i - 1].display),
};

