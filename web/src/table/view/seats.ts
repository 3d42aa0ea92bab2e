// The seats panel: a card per seat with its player (or 坐下 for a spectator at
// an empty seat), ready, the connection indicator, the game's line under the
// name (side, captures, cards left), the rating, and the seat's clock element
// (drawn by clocks.ts). Two seats face each other across the board.
import { h, mount } from '../../dom';
import { t } from '../../i18n';
import { avatar } from '../../ui';
import { computersApart, playerLink, playerName } from '../../players';
import type { TableCtrl } from '../ctrl';

/** Draws the seats of `ctrl`'s table into `el`. */
export function drawSeats<V>(el: HTMLElement, ctrl: TableCtrl<V>) {
  const { hooks } = ctrl;
  const order = hooks.seatOrder?.(ctrl.me()) ?? [...Array(hooks.seats).keys()];
  const card = (seat: number) => seatCard(ctrl, seat);
  // Two sides face each other across the board: the top seat and the viewer's, at the bottom.
  if (order.length === 2) mount(el, h('div.seat-slot', { id: 'seat-top' }, card(order[0])), h('div.seat-slot', { id: 'seat-bottom' }, card(order[1])));
  else mount(el, order.map(card));
}

function seatCard<V>(ctrl: TableCtrl<V>, seat: number) {
  const s = ctrl.state!;
  const x = s.seats[seat];
  const name: string | null = x.user ?? null;
  const playing = s.status === 'playing';
  const turn = s.game?.turn;
  const toMove = playing && typeof turn === 'object' && ('seat' in turn ? turn.seat === seat : turn.all.includes(seat));
  const mine = ctrl.me();
  // Several computer players at one table are named apart by their seats.
  const apart = computersApart(s.seats.map((x) => x.user)) ? seat : undefined;
  return h(
    `div.seat-card${toMove ? '.to-move' : ''}${mine === seat ? '.mine' : ''}`,
    { id: `seat-${seat}`, 'data-seat': seat },
    avatar(name ? playerName(name, apart) : '?', ctrl.sides.length ? seat : 0),
    h(
      'div.who',
      null,
      h(
        'div.name',
        null,
        // A computer player by its name in words, never a profile link.
        name ? playerLink(name, 'player-name', apart) : h('span.hint', null, t('emptySeat')),
        x.ready && !playing ? h('span.ready-tag', null, t('ready')) : null,
        name ? lagIndicator(ctrl.lagMs[seat] ?? null, seat) : null,
      ),
      h('div.sub', null, ctrl.ctx ? ctrl.hooks.seatSub(ctrl.ctx, seat) : '', ctrl.ratingText(name), name && x.connected === false ? ` · ${t('offlineTag')}` : ''),
    ),
    !name && mine === null ? h('button.btn.btn-small.blue', { id: `sit-${seat}`, onclick: () => ctrl.sit(seat) }, t('sitHere')) : null,
    h('div.clock', { id: `clock-${seat}`, 'data-seat': seat }, '--:--'),
  );
}

/** The connection indicator of a seat: bars by the player's measured lag (`ms`), shown to everyone. */
function lagIndicator(ms: number | null, seat: number) {
  if (ms === null) return h('span.lag-ind.lag-none', { id: `lag-${seat}`, 'data-ms': '', title: t('lagUnknown') });
  const level = ms < 150 ? 3 : ms < 400 ? 2 : 1;
  return h(
    `span.lag-ind.lag-${level}`,
    { id: `lag-${seat}`, 'data-ms': String(Math.round(ms)), title: `${t('lag')} ${Math.round(ms)} ms` },
    [1, 2, 3].map((i) => h(`i${i <= level ? '.on' : ''}`)),
  );
}
