// Go in the replay viewer: the stone board with the last move, ko and the count.
import { view, type Viewer } from '../../replay/types';
import { goBoard } from './board';
import { tx } from './text';

export const goViewer: Viewer = {
  flips: false,
  notations: [['action', () => tx('notationCoords')]],
  stage: (data) => {
    const board = goBoard();
    return {
      el: board.el,
      show(i) {
        const v = view(data, i);
        const marking = v.marking as { dead?: string[]; black_area?: string[]; white_area?: string[] } | null | undefined;
        const last = typeof v.last_move === 'string' && v.last_move !== 'pass' ? v.last_move : null;
        board.set({
          size: Number(v.size ?? 19),
          rows: (v.board as string[] | undefined) ?? [],
          lastMove: last,
          ko: (v.ko as string | null | undefined) ?? null,
          dead: marking?.dead,
          blackArea: marking?.black_area,
          whiteArea: marking?.white_area,
          ghost: 0,
          clickable: false,
        });
      },
      destroy: () => board.destroy(),
    };
  },
  text: (data, i) => {
    const a = data.plies[i - 1].action;
    return a === 'pass' ? tx('replayPass') : a;
  },
};

