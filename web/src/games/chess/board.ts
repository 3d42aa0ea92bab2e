// The chess board: chessground, with a promotion picker and optional premoves.
import { Chessground } from 'chessground';
import type { Api } from 'chessground/api';
import type { Key } from 'chessground/types';
import { h } from '../../dom';
import { t } from '../../i18n';
import { settings } from '../../settings';
import type { BoardState, BoardWidget, Side } from '../../boards/types';

const color = (s: Side) => (s === 0 ? 'white' : 'black');

export function chessBoard(): BoardWidget {
  const el = h('div.board-wrap.chess-board');
  const cgEl = h('div.cg-host');
  el.appendChild(cgEl);
  let cb: (m: string) => void = () => undefined;
  let state: BoardState | null = null;
  const cg: Api = Chessground(cgEl, {
    coordinates: true,
    animation: { enabled: settings().animation, duration: 200 },
    movable: { free: false, showDests: true, events: { after: (o, d) => afterMove(o, d) } },
    premovable: { enabled: false },
    draggable: { enabled: true, showGhost: true },
    highlight: { lastMove: true, check: true },
  });

  function afterMove(orig: Key, dest: Key) {
    const piece = cg.state.pieces.get(dest);
    const lastRank = dest[1] === '8' || dest[1] === '1';
    if (piece?.role === 'pawn' && lastRank) {
      choosePromotion(dest, piece.color, (role) => {
        if (role) cb(orig + dest + role);
        else if (state) set(state);
      });
    } else cb(orig + dest);
  }

  function choosePromotion(dest: Key, pieceColor: 'white' | 'black', done: (r: string | null) => void) {
    const roles: Array<[string, string, 'queen' | 'rook' | 'bishop' | 'knight']> = [
      ['q', 'queen', 'queen'],
      ['r', 'rook', 'rook'],
      ['b', 'bishop', 'bishop'],
      ['n', 'knight', 'knight'],
    ];
    const overlay = h(
      'div.promotion',
      { onclick: () => finish(null) },
      h(
        'div.promotion-box',
        null,
        h('div.promotion-title', null, t('promoteTo')),
        // `cg-wrap`: chessground's piece images apply inside its wrapper only.
        h(
          'div.promotion-choices.cg-wrap',
          null,
          roles.map(([l, role, name]) =>
            h(
              `button.promo-choice.promo-${l}`,
              { 'data-role': l, title: t(name), 'aria-label': t(name), onclick: (e: Event) => (e.stopPropagation(), finish(l)) },
              h(`piece.${role}.${pieceColor}`, null),
              h('span.promo-label', null, t(name)),
            ),
          ),
        ),
      ),
    );
    function finish(r: string | null) {
      overlay.remove();
      done(r);
    }
    el.classList.add('cg-wrap-host');
    el.appendChild(overlay);
    void dest;
  }

  function set(s: BoardState) {
    state = s;
    const s2 = settings();
    el.classList.toggle('flash', s2.flash);
    cg.set({
      fen: s.fen.split(' ')[0],
      orientation: color(s.orientation),
      turnColor: color(s.turn),
      check: s.check ? color(s.turn) : false,
      lastMove: s.lastMove as Key[] | undefined,
      animation: { enabled: s2.animation },
      movable: {
        color: s.movable === null ? undefined : s.movable === 'both' ? 'both' : color(s.movable),
        dests: s.dests as Map<Key, Key[]>,
      },
      premovable: { enabled: !!s.premove && s2.premove },
    });
    if (s.lastMove === undefined) cg.set({ lastMove: undefined });
  }

  return {
    el,
    start: 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
    premoves: true,
    set,
    onMove: (f) => (cb = f),
    playPremove: () => cg.playPremove(),
    cancelPremove: () => cg.cancelPremove(),
    redraw: () => cg.redrawAll(),
    arrows: (moves) => cg.setAutoShapes(moves.map(([orig, dest], i) => ({ orig: orig as Key, dest: dest as Key, brush: i === 0 ? 'paleGreen' : 'paleBlue' }))),
    destroy: () => cg.destroy(),
  };
}
