// Doudizhu in the replay viewer: every seat's hand face up, what each seat did
// last in the go-round, the bottom cards and the multiplier.
import { h, mount } from '../../dom';
import { computersApart, playerLink } from '../../players';
import { view, type Viewer } from '../../replay/types';
import { cardEl, sortHand } from './cards';
import { doudizhuText } from './notation';
import { tx } from './text';

export const doudizhuViewer: Viewer = {
  flips: false,
  notations: [['cards', () => tx('notationCards')]],
  stage: (data) => {
    const el = h('div.replay-ddz', { id: 'replay-ddz' });
    return {
      el,
      show(i) {
        const start = view(data, i, 0);
        const landlord = typeof start.landlord === 'number' ? start.landlord : null;
        // Two computer players are named apart by their seats, as the records name them.
        const apart = computersApart(data.players);
        const seats = [0, 1, 2].map((s) => {
          const v = view(data, i, s);
          const hands = start.hands as string[][] | null | undefined;
          const hand = (v.hand as string[] | null | undefined) ?? hands?.[s] ?? [];
          // What the seat did last in this go-round (the last three plies).
          let acted: HTMLElement | null = null;
          for (let j = i; j > Math.max(0, i - 3); j--) {
            const p = data.plies[j - 1];
            if (p && p.seat === s) {
              const phase = view(data, j - 1, 0).phase;
              const cards = p.action !== 'pass' && !p.action.startsWith('bid');
              acted = h(
                `div.ddz-acted${j === i ? '.current' : ''}`,
                { 'data-ply': j },
                cards ? [...p.action].map((r) => cardEl(r, { small: true })) : h('span.ddz-word', null, doudizhuText(p.action, phase)),
              );
              break;
            }
          }
          return h(
            `div.replay-seat${data.plies[i - 1]?.seat === s ? '.to-move' : ''}`,
            { 'data-seat': s },
            h(
              'div.replay-seat-head',
              null,
              playerLink(data.players[s], 'player-link', apart ? s : undefined),
              landlord === null ? null : h(`span.role${landlord === s ? '.landlord' : ''}`, null, landlord === s ? tx('landlord') : tx('farmer')),
              h('span.hint.count', null, String(hand.length)),
            ),
            h('div.replay-hand', null, sortHand(hand).map((c) => cardEl(c, { small: true }))),
            acted,
          );
        });
        const bottom = start.bottom as string[] | null | undefined;
        mount(
          el,
          h(
            'div.replay-ddz-info',
            null,
            bottom ? h('div.replay-bottom', null, h('span.hint', null, tx('bottomCards')), sortHand(bottom).map((c) => cardEl(c, { small: true }))) : null,
            h('span.hint', null, `${tx('multiplier')} ×${String(start.multiplier ?? 1)}`),
            Number(start.redeals ?? 0) > 0 ? h('span.hint', null, `${tx('redealt')} ×${String(start.redeals)}`) : null,
          ),
          seats,
        );
      },
      destroy: () => undefined,
    };
  },
  text: (data, i) => doudizhuText(data.plies[i - 1].action, view(data, i - 1, 0).phase),
};

