// Analysis (研究): free moves from a position on a board of its own, checked by the
// client's rules, with a move list and a step back.
import { h, mount, clear } from '../dom';
import { t } from '../i18n';
import { settings } from '../settings';
import { makeBoard } from '../boards/make';
import type { Side } from '../boards/types';
import { newGame, type GameKind, type Played } from '../games';
import { renderMoves, download } from '../ui';
import { recordText } from '../record';
import { play as sound } from '../sound';

export function analysisBoard(root: HTMLElement, kind: GameKind, fen: string, orientation: Side, onClose: () => void, history: string[] = []) {
  const board = makeBoard(kind);
  const movesEl = h('div.move-list', { id: 'analysis-moves' });
  let moves: Played[] = [];
  let game = newGame(kind, fen, settings().xqNotation)!;

  function rebuild(list: string[]) {
    game = newGame(kind, fen, settings().xqNotation)!;
    moves = [];
    for (const m of list) {
      const p = game.play(m);
      if (p) moves.push(p);
    }
    redraw();
  }

  function redraw() {
    const last = moves[moves.length - 1];
    board.set({
      fen: game.fen(),
      orientation,
      turn: game.turn(),
      movable: game.outcome() ? null : 'both',
      dests: game.dests(),
      lastMove: last ? [last.uci.slice(0, 2), last.uci.slice(2, 4)] : undefined,
      check: game.check(),
    });
    renderMoves(movesEl, moves.map((m) => m.display), fen.split(' ')[1] === 'b' ? 1 : 0, undefined, (ply) => rebuild(moves.slice(0, ply).map((m) => m.uci)));
  }

  board.onMove((m) => {
    const p = game.play(m);
    if (p) {
      moves.push(p);
      sound(p.capture ? 'capture' : 'move');
    }
    redraw();
  });

  const close = () => {
    board.destroy();
    clear(root);
    onClose();
  };

  mount(
    root,
    h(
      'div.panel',
      { id: 'analysis-panel' },
      h('div.panel-title', null, t('analysisBoard'), h('span', null,
        h('button.btn.btn-small', { id: 'analysis-back', onclick: () => rebuild(moves.slice(0, -1).map((m) => m.uci)) }, t('back')), ' ',
        h('button.btn.btn-small', { id: 'analysis-save', onclick: () => download(`qiyuan-analysis-${kind}.pgn`, recordText(kind, fen, moves, undefined, { white: '?', black: '?' })) }, t('save')), ' ',
        h('button.btn.btn-small', { id: 'analysis-close', onclick: close }, t('exitAnalysis')))),
      h('div.analysis-body', null, board.el, movesEl),
    ),
  );
  if (history.length) rebuild(history);
  else redraw();
  root.scrollIntoView({ block: 'start' });
  return close;
}
