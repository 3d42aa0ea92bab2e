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

/**
 * 开始. After a game at a table whose sides can be swapped (chess, xiangqi), with
 * the same opponent still there, it asks whether to swap sides, as 再来一局 in
 * the result dialog does: swapping is the rematch (sides change, the opponent
 * is asked), keeping them is 开始 (ready, sides kept). Before a first game, or
 * when the opponent already asked for the rematch (then it is agreed), no question.
 */
function start<V>(ctrl: TableCtrl<V>) {
  const s = ctrl.state!;
  const me = ctrl.me();
  const ready = () => ctrl.send('ready', { proposal: s.proposal?.id });
  if (me === null || !ctrl.hooks.swap || s.status !== 'over' || !ctrl.canRematch()) return ready();
  if (s.seats.some((x, i) => i !== me && x.rematch)) return ctrl.send('rematch');
  dialog(t('start'), t('swapQuestion'), [
    { label: t('startSame'), onClick: ready },
    { label: t('swapAndStart'), cls: 'primary', onClick: () => ctrl.send('rematch') },
  ], { id: 'start-dialog' });
}

export function drawButtons<V>(el: HTMLElement, ctrl: TableCtrl<V>) {
  const s = ctrl.state!;
  const { hooks } = ctrl;
  const seat = ctrl.me();
  const seated = seat !== null;
  const playing = s.status === 'playing';
  const ready = seated && !!s.seats?.[seat]?.ready;
  const full = s.seats.every((x) => x.user);
  // "Request sent" only once the server took the request; a refusal shows its
  // own message instead (ctrl's onError, in the page's language).
  const offer = (cmd: 'draw.offer' | 'takeback.request') => () =>
    void ctrl.request(cmd).then(
      () => toast(t('offerSent')),
      () => undefined,
    );
  const takebacks = s.game?.settings?.takebacks ?? s.proposal?.settings?.takebacks ?? true;
  mount(
    el,
    btn('start', ready && !playing ? t('ready') : t('start'), seated && !playing && !ready, () => start(ctrl), '.primary'),
    hooks.swap
      ? btn('swap', t('swap'), seated && !playing && full, () =>
          void ctrl.request('swap', { with: ctrl.other() }).then(
            () => toast(t('offerSent')),
            () => undefined,
          ),
        )
      : null,
    hooks.offers ? btn('draw', t('draw'), seated && playing && s.game?.draw_offer == null, offer('draw.offer')) : null,
    hooks.load ? btn('load', t('load'), seated && !playing, () => openLoad(ctrl)) : null,
    btn('time', t('time'), seated && !playing, () => openTime(ctrl)),
    // No 悔棋 at an event's table (its settings allow none); elsewhere a table
    // whose settings allow none shows it disabled, with the reason.
    hooks.offers && !s.tournament
      ? Object.assign(btn('takeback', t('takeback'), seated && playing && takebacks && (s.game?.moves ?? []).length > 0 && s.game?.takeback_request == null, offer('takeback.request')), {
          title: takebacks ? '' : t('takebacksOff'),
        })
      : null,
    btn('resign', t('resign'), seated && playing, () =>
      dialog(t('resign'), t('confirmResign'), [{ label: t('cancel') }, { label: t('resign'), cls: 'primary', onClick: () => ctrl.send('resign') }], { id: 'resign-dialog' }),
    ),
    btn('save', t('save'), !!s.game, () => saveRecord(ctrl)),
    ...(hooks.buttons?.(ctrl.ctx!) ?? []),
    // No 再来一局 at an event's table, not even disabled: it plays one game.
    seated && !playing
      ? btn('stand', t('standUp'), true, () => ctrl.send('stand'))
      : s.tournament
        ? null
        : btn('rematch', t('rematch'), seated && ctrl.canRematch(), () => ctrl.send('rematch')),
    btn('leave', t('leave'), true, () => {
      if (playing && seated) dialog(t('leave'), t('confirmLeave'), [{ label: t('cancel') }, { label: t('leave'), cls: 'primary', onClick: () => ctrl.leave() }]);
      else ctrl.leave();
    }),
  );
}
