// The result dialog: shown when a game ends while the page is open (a page
// opened on a finished game shows the result line only), with the game's own
// score details, the rating changes, save, replay and rematch; drawn again when
// the opponent leaves (no rematch then) or the language changes.
import { h } from '../../dom';
import { t } from '../../i18n';
import { dialog } from '../../ui';
import { play as sound } from '../../sound';
import { playerName } from '../../players';
import { replayButton } from '../../replay/link';
import { analysisButton } from '../../analysis/link';
import type { TableCtrl } from '../ctrl';
import type { TableEvent } from '../connection';
import { saveRecord } from './record';
import { resultLine } from './status';

export interface ResultDialog {
  /** After a new view: opens the dialog if that view ended a game. */
  update(events: TableEvent[]): void;
  /** Draws an open dialog again (the language changed). */
  redraw(): void;
  close(): void;
}

export function resultDialog<V>(ctrl: TableCtrl<V>): ResultDialog {
  /** The game and outcome the dialog was last opened for. */
  let shownFor = '';
  let open: { close: () => void } | null = null;

  function show(withSound: boolean) {
    const s = ctrl.state!;
    const o = s.game?.outcome;
    if (!o || !s.game) return;
    if (withSound) sound('end');
    const extra = ctrl.hooks.resultBody?.(ctrl.ctx!) ?? null;
    const gid = ctrl.gameId();
    const hasMoves = s.game.moves.length > 0;
    const rows = (ctrl.ratingChanges ?? []).map((r) => {
      const cls = r.diff > 0 ? '.up' : r.diff < 0 ? '.down' : '';
      return h('div.result-sub', null, `${playerName(r.user)}: `, h(`span.rating-delta${cls}`, { 'data-seat': r.seat }, `${r.diff > 0 ? '+' : ''}${Math.round(r.diff)}`), ` → ${Math.round(r.after)}`);
    });
    const body = h(
      'div',
      null,
      h('div.result-text', { id: 'result-text' }, resultLine(ctrl, o)),
      extra,
      rows.length ? h('div.result-sub', null, t('ratingChange')) : null,
      rows,
      // A game without moves has no record worth saving or replaying.
      gid && hasMoves ? h('div.result-sub', null, t('saveRecord')) : null,
      gid && hasMoves ? h('div.result-sub', null, replayButton(gid, 'small'), ' ', analysisButton(ctrl.hooks.game, gid, 'small')) : null,
      // An event's table plays one game: no 再来一局, and nobody has left.
      ctrl.me() !== null && s.tournament ? h('div.result-sub', { id: 'event-one-game' }, t('eventOneGame')) : null,
      ctrl.me() !== null && !s.tournament && !ctrl.canRematch() ? h('div.result-sub', { id: 'opponent-left' }, t('opponentLeft')) : null,
    );
    open?.close();
    open = dialog(t('resultTitle'), body, [
      ...(gid && hasMoves ? [{ label: t('save'), onClick: () => (saveRecord(ctrl), false) }] : []),
      ...(ctrl.canRematch() ? [{ label: t('rematch'), cls: 'primary', onClick: () => void ((open = null), ctrl.send('rematch')) }] : []),
      { label: t('close'), onClick: () => void (open = null) },
    ], { id: 'result-dialog' });
  }

  return {
    update(events) {
      const s = ctrl.state!;
      const o = s.game?.outcome;
      if (s.status === 'over' && o && s.game) {
        const key = `${s.game.number}:${o.reason}:${o.score}`;
        if (shownFor !== key) {
          const first = shownFor === '';
          shownFor = key;
          // A page opened on a finished game shows the result line only.
          if (!first || events.some((e) => e.type === 'ended')) show(true);
        }
      }
      // The opponent left after the game: the result dialog offers no rematch any more.
      if (open && events.some((e) => e.type === 'stood')) show(false);
    },
    redraw() {
      if (!open) return;
      open.close();
      open = null;
      show(false);
    },
    close: () => open?.close(),
  };
}
