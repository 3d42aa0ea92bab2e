// Offline play (单机): two people on one screen, no network, no rating. Chess uses
// chessops for legality, xiangqi our own rules module.
import { h, mount } from '../dom';
import { t } from '../i18n';
import { settings } from '../settings';
import { newGame, readRecord, START, type GameKind, type LocalGame, type Played } from '../games';
import { makeBoard } from '../boards/make';
import type { Side } from '../boards/types';
import { play as sound } from '../sound';
import { dialog, renderMoves, download, toast } from '../ui';
import { recordText, resultLine } from '../record';

export function offlinePage(root: HTMLElement, kind: GameKind) {
  let startFen = START[kind];
  let moves: Played[] = [];
  let game: LocalGame = newGame(kind, startFen, settings().xqNotation)!;
  let orientation: Side = 0;
  let over = false;
  const board = makeBoard(kind);
  const movesEl = h('div.move-list', { id: 'moves' });
  const status = h('div.status-line', { id: 'status' });

  function rebuild(fen: string, list: string[]) {
    startFen = fen;
    game = newGame(kind, fen, settings().xqNotation)!;
    moves = [];
    over = false;
    for (const m of list) {
      const p = game.play(m);
      if (!p) break;
      moves.push(p);
    }
    redraw();
  }

  function redraw() {
    const last = moves[moves.length - 1];
    const outcome = game.outcome();
    board.set({
      fen: game.fen(),
      orientation,
      turn: game.turn(),
      movable: outcome ? null : 'both',
      dests: game.dests(),
      lastMove: last ? [last.uci.slice(0, 2), last.uci.slice(2, 4)] : undefined,
      check: game.check(),
    });
    renderMoves(movesEl, moves.map((m) => m.display), startFen.split(' ')[1] === 'b' ? 1 : 0);
    const side = game.turn() === 0 ? (kind === 'chess' ? t('white') : t('red')) : t('black');
    status.textContent = outcome ? resultLine(kind, outcome.winner, outcome.reason) : `${side}${t('toMove')}${game.check() ? ' · ' + t('check') : ''}`;
    if (outcome && !over) {
      over = true;
      sound('end');
      dialog(t('result'), h('div.result-text', null, resultLine(kind, outcome.winner, outcome.reason)), [
        { label: t('save'), onClick: () => save() },
        { label: t('newGame'), cls: 'primary', onClick: () => rebuild(START[kind], []) },
      ], { id: 'result-dialog' });
    }
  }

  function save() {
    const outcome = game.outcome();
    download(`qiyuan-offline-${kind}.pgn`, recordText(kind, startFen, moves, outcome ? outcome.winner : undefined, { white: t(kind === 'chess' ? 'white' : 'red'), black: t('black') }));
  }

  board.onMove((m) => {
    const p = game.play(m);
    if (!p) {
      redraw();
      return;
    }
    moves.push(p);
    sound(p.check ? 'check' : p.capture ? 'capture' : 'move');
    redraw();
  });

  const buttons = h(
    'div.table-buttons',
    null,
    h('button.btn', { id: 'btn-new', onclick: () => rebuild(START[kind], []) }, t('newGame')),
    h('button.btn', { id: 'btn-takeback', onclick: () => rebuild(startFen, moves.slice(0, -1).map((m) => m.uci)) }, t('takeback')),
    h('button.btn', { id: 'btn-flip', onclick: () => ((orientation = orientation === 0 ? 1 : 0), redraw()) }, t('flip')),
    h('button.btn', {
      id: 'btn-load',
      onclick: () => {
        const ta = h('textarea.record-input', { rows: 6, placeholder: t('loadHint') }) as HTMLTextAreaElement;
        dialog(t('loadTitle'), ta, [
          { label: t('cancel') },
          {
            label: t('ok'),
            cls: 'primary',
            onClick: () => {
              const r = readRecord(kind, ta.value);
              if (!r) {
                toast(t('invalidRecord'), 'error');
                return false;
              }
              rebuild(r.fen, r.moves);
            },
          },
        ]);
      },
    }, t('load')),
    h('button.btn', { id: 'btn-save', onclick: save }, t('save')),
  );

  mount(
    root,
    h(
      'div.table-page.offline',
      null,
      h('div.board-col', null, board.el),
      h(
        'div.side-col',
        null,
        h('div.panel', null, h('div.panel-title', null, `${t('offline')} · ${t(kind)}`), h('div.hint', null, t('offlineHint')), h('div.hint', null, t('hotseat')), status),
        h('div.panel', null, buttons),
        h('div.panel.moves-panel', null, h('div.panel-title', null, t('moves')), movesEl),
      ),
    ),
  );
  redraw();
  return () => board.destroy();
}
