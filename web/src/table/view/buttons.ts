// The table's buttons: start, 交换, draw, 读入, time, takeback, resign, save, the
// game's own (研究), stand up or rematch, leave; each enabled when the table and
// the viewer's seat allow it, and only those the game's page asks for.
import { h, mount } from '../../dom';
import { t } from '../../i18n';
import { dialog, toast } from '../../ui';
import type { TableCtrl } from '../ctrl';
import { openLoad } from './loadDialog';
import { saveRecord } from './record';
import { openTime } from './timeDialog';

function btn(name: string, label: string, enabled: boolean, onclick: () => void, cls = '') {
  return h(`button.btn${cls}`, { id: `btn-${name}`, disabled: !enabled, onclick }, label);
}

export function drawButtons<V>(el: HTMLElement, ctrl: TableCtrl<V>) {
  const s = ctrl.state!;
  const { hooks } = ctrl;
  const seat = ctrl.me();
  const seated = seat !== null;
  const playing = s.status === 'playing';
  const ready = seated && !!s.seats?.[seat]?.ready;
  const full = s.seats.every((x) => x.user);
  const offer = (cmd: 'draw.offer' | 'takeback.request') => () => (ctrl.send(cmd), toast(t('offerSent')));
  mount(
    el,
    btn('start', ready && !playing ? t('ready') : t('start'), seated && !playing && !ready, () => ctrl.send('ready', { proposal: s.proposal?.id }), '.primary'),
    hooks.swap ? btn('swap', t('swap'), seated && !playing && full, () => (ctrl.send('swap', { with: ctrl.other() }), toast(t('offerSent')))) : null,
    hooks.offers ? btn('draw', t('draw'), seated && playing && s.game?.draw_offer == null, offer('draw.offer')) : null,
    hooks.load ? btn('load', t('load'), seated && !playing, () => openLoad(ctrl)) : null,
    btn('time', t('time'), seated && !playing, () => openTime(ctrl)),
    // No 悔棋 where the game's settings allow none (an event's tables).
    hooks.offers && s.game?.settings.takebacks !== false ? btn('takeback', t('takeback'), seated && playing && (s.game?.moves ?? []).length > 0 && s.game?.takeback_request == null, offer('takeback.request')) : null,
    btn('resign', t('resign'), seated && playing, () =>
      dialog(t('resign'), t('confirmResign'), [{ label: t('cancel') }, { label: t('resign'), cls: 'primary', onClick: () => ctrl.send('resign') }], { id: 'resign-dialog' }),
    ),
    btn('save', t('save'), !!s.game, () => saveRecord(ctrl)),
    ...(hooks.buttons?.(ctrl.ctx!) ?? []),
    seated && !playing ? btn('stand', t('standUp'), true, () => ctrl.send('stand')) : btn('rematch', t('rematch'), seated && ctrl.canRematch(), () => ctrl.send('rematch')),
    btn('leave', t('leave'), true, () => {
      if (playing && seated) dialog(t('leave'), t('confirmLeave'), [{ label: t('cancel') }, { label: t('leave'), cls: 'primary', onClick: () => ctrl.leave() }]);
      else ctrl.leave();
    }),
  );
}
