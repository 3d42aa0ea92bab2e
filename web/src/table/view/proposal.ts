// The proposal dialog: another seat proposes the next game's settings (its
// clock, the game's options, a position read in); the viewer agrees or declines.
// Not shown for the proposal standing when the page opened (its offer bar is).
import { h } from '../../dom';
import { t } from '../../i18n';
import { dialog } from '../../ui';
import type { JsonValue } from '../../net/generated/protocol';
import type { TableCtrl } from '../ctrl';
import { tcText } from '../timeText';

export interface ProposalDialog {
  /** After a new view: opens, replaces or closes the dialog. */
  update(): void;
  /** Draws an open dialog again (the language changed). */
  redraw(): void;
  close(): void;
}

export function proposalDialog<V>(ctrl: TableCtrl<V>): ProposalDialog {
  let open: { close: () => void; pid: number } | null = null;

  function optionsLine(o: JsonValue | undefined) {
    const text = o && ctrl.hooks.optionsText ? ctrl.hooks.optionsText(o) : null;
    return text ? h('div.hint', null, text) : null;
  }

  function update() {
    const s = ctrl.state!;
    const p = s.proposal;
    const mine = ctrl.me();
    const pending = !!p && mine !== null && p.by !== mine && s.seats?.[mine]?.accepted !== p.id && s.status !== 'playing' && p.id !== ctrl.firstProposal;
    if (!pending) {
      open?.close();
      open = null;
      return;
    }
    if (open?.pid === p.id || ctrl.dismissedProposal === p.id) return;
    open?.close();
    const pid = p.id;
    const setup = p.settings.setup;
    const d = dialog(
      t('timeSettings'),
      h(
        'div',
        null,
        h('div.hint', null, t('proposedTime')),
        h('div.result-text', { id: 'proposed-tc' }, tcText(p.settings?.time, ctrl.hooks.game)),
        optionsLine(p.settings?.options),
        typeof setup === 'object' && 'position' in setup ? h('div.hint', { id: 'proposed-setup' }, `${t('load')}: ${setup.position.split('\n')[0].slice(0, 80)}`) : null,
      ),
      [
        { label: t('decline'), onClick: () => void ((open = null), ctrl.declineProposal(pid)) },
        { label: t('accept'), cls: 'primary', onClick: () => ((open = null), ctrl.send('accept', { proposal: pid })) },
      ],
      { id: 'time-accept-dialog', dismiss: false },
    );
    open = { close: d.close, pid };
  }

  return {
    update,
    redraw() {
      if (!open) return;
      open.close();
      open = null;
      update();
    },
    close: () => open?.close(),
  };
}
