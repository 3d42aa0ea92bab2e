// A replay stage on a board of squares (chessground, chessgroundx), drawn from
// each position's FEN: the games on a piece board share it.
import type { BoardWidget, Side } from '../boards/types';
import { view, type ReplayData, type Stage, type View } from './types';

/** A board of squares (chessground / chessgroundx) from each position's FEN. */
export function squareStage(data: ReplayData, make: () => BoardWidget, sideOf: (v: View) => Side): Stage {
  const board = make();
  return {
    el: board.el,
    show(i, orientation) {
      const v = view(data, i);
      const ply = data.plies[i - 1];
      board.set({
        fen: String(v.fen ?? ''),
        orientation,
        turn: sideOf(v),
        movable: null,
        dests: new Map(),
        lastMove: ply && /^[a-i]\d+[a-i]\d+/.test(ply.action) ? splitMove(ply.action) : undefined,
        check: v.check === true,
      });
    },
    redraw: () => board.redraw(),
    destroy: () => board.destroy(),
  };
}

/** `e2e4` → [`e2`, `e4`]; ICCS `h2e2` likewise (ranks 0–9). */
function splitMove(m: string): [string, string] {
  const r = /^([a-i]\d)([a-i]\d)/.exec(m);
  return r ? [r[1], r[2]] : [m.slice(0, 2), m.slice(2, 4)];
}

