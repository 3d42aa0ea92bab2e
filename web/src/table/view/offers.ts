// The offers under the seats, for a seated viewer: a draw or a takeback the
// opponent asks for (in play), a swap of seats, another seat's proposed
// settings (until agreed or declined), a rematch asked for (after the game).
import { h } from '../../dom';
import { t } from '../../i18n';
import type { TableCtrl } from '../ctrl';
import { tcText } from '../timeText';

export function drawOffers<V>(el: HTMLElement, ctrl: TableCtrl<V>) {
  const s = ctrl.state!;
  const seat = ctrl.me();
  el.replaceChildren();
  if (seat === null) return;
  const bar = (name: string, text: string, yes: () => void, no: () => void) =>
    h(
      'div.offer-bar',
      { id: `offer-${name}` },
      h('span.text', null, text),
      h('button.btn.btn-small.primary', { id: `accept-${name}`, onclick: yes }, t('accept')),
      h('button.btn.btn-small', { id: `decline-${name}`, onclick: no }, t('decline')),
    );
  const send = (cmd: 'draw.accept' | 'draw.decline' | 'takeback.accept' | 'takeback.decline') => () => ctrl.send(cmd);
  if (s.status === 'playing') {
    const g = s.game;
    if (!g) return;
    if (typeof g.draw_offer === 'number' && g.draw_offer !== seat) el.appendChild(bar('draw', t('drawOffered'), send('draw.accept'), send('draw.decline')));
    if (typeof g.takeback_request === 'number' && g.takeback_request !== seat) el.appendChild(bar('takeback', t('takebackAsked'), send('takeback.accept'), send('takeback.decline')));
    return;
  }
  if (ctrl.hooks.swap) {
    const asker = s.seats.findIndex((x, i) => i !== seat && x.swap_with === seat);
    if (asker >= 0) el.appendChild(bar('swap', t('swapAsked'), () => ctrl.send('swap', { with: asker }), () => el.querySelector('#offer-swap')?.remove()));
  }
  // The settings another seat proposed when the page opened, until this seat
  // agrees or declines: shown as soon as the viewer sits down at a table whose
  // settings are set. A proposal made while the page is open is asked in the
  // proposal dialog alone (view/proposal.ts), never twice.
  const p = s.proposal;
  if (p.by !== seat && p.id === ctrl.firstProposal && s.seats[p.by]?.user && s.seats[seat]?.accepted !== p.id && ctrl.dismissedProposal !== p.id && s.status === 'waiting')
    el.appendChild(
      h(
        'div.offer-bar',
        { id: 'offer-proposal', 'data-proposal': p.id },
        h('span.text', { id: 'offer-proposal-tc' }, `${t('proposalPending')}: ${tcText(p.settings.time, ctrl.hooks.game)} · ${p.settings.rated ? t('rated') : t('casual')}`),
        h('button.btn.btn-small.primary', { id: 'accept-proposal', onclick: () => ctrl.send('accept', { proposal: p.id }) }, t('accept')),
        h('button.btn.btn-small', { id: 'decline-proposal', onclick: () => ctrl.declineProposal(p.id) }, t('decline')),
      ),
    );
  if (s.status !== 'over') return;
  const asked = s.seats.flatMap((x, i) => (x.rematch && i !== seat ? [i] : []));
  if (asked.length && !s.seats[seat].rematch && ctrl.canRematch())
    el.appendChild(
      h('div.offer-bar', { id: 'offer-rematch' }, h('span.text', null, t('rematchAsked')), h('button.btn.btn-small.primary', { id: 'accept-rematch', onclick: () => ctrl.send('rematch') }, t('accept'))),
    );
}
