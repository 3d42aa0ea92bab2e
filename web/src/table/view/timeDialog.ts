// The time dialog (时间): the game's clock presets, and for a game that allows
// it a clock of one's own (QQ 局时 / 步时 / 读秒, or Fischer); choosing one
// proposes it for the next game.
import { h } from '../../dom';
import { t } from '../../i18n';
import { dialog } from '../../ui';
import { presetsOf, sameTc } from '../../net/games';
import type { TimeControl } from '../../net/generated/protocol';
import type { TableCtrl } from '../ctrl';
import { presetLabel, tcText } from '../timeText';

export function openTime<V>(ctrl: TableCtrl<V>) {
  const { game, customTime } = ctrl.hooks;
  const cur = ctrl.state!.proposal?.settings;
  const presets = presetsOf(game);
  let chosen = presets.find((p) => sameTc(p.time, cur?.time))?.key ?? (customTime && cur ? 'custom' : presets[0]?.key ?? 'custom');
  const radio = (key: string, label: string, hint: string) =>
    h('label', null, h('input', { type: 'radio', name: 'preset', value: key, checked: key === chosen, onchange: () => (chosen = key) }), h('div', null, label), h('div.hint', null, hint));
  const custom = customTime
    ? customClock(game, cur?.time, () => {
        chosen = 'custom';
        const r = body.querySelector<HTMLInputElement>('input[value=custom]');
        if (r) r.checked = true;
      })
    : null;
  const body = h(
    'div.time-form',
    null,
    h('div.time-presets', null, presets.map((p) => radio(p.key, presetLabel(p), tcText(p.time, game).split(' · ').pop() ?? '')), custom ? radio('custom', t('custom'), '…') : null),
    custom?.el ?? null,
  );
  dialog(t('timeSettings'), body, [
    { label: t('cancel') },
    {
      label: t('propose'),
      cls: 'primary',
      onClick: () => {
        const time = chosen === 'custom' && custom ? custom.value() : presets.find((x) => x.key === chosen)?.time;
        if (time) void ctrl.propose({ time }).catch(() => undefined);
      },
    },
  ], { id: 'time-dialog' });
}

/** A clock of one's own: QQ (局时 / 步时 / 读秒) or Fischer, starting from `tc` (or `game`'s first QQ preset). */
function customClock(game: string, tc: TimeControl | undefined, onInput: () => void): { el: HTMLElement; value: () => TimeControl } {
  const q = tc?.kind === 'qq' ? tc : (presetsOf(game).map((p) => p.time).find((x) => x.kind === 'qq') ?? { kind: 'qq', game: 0, per_move: 0, countdown: 0 });
  const qq = q.kind === 'qq' ? q : { game: 0, per_move: 0, countdown: 0 };
  const num = (name: string, v: number) => h('input', { type: 'number', name, min: 0, value: String(v) }) as HTMLInputElement;
  const kindSel = h('select', { name: 'kind' }, h('option', { value: 'qq' }, 'QQ'), h('option', { value: 'fischer', selected: tc?.kind === 'fischer' }, 'Fischer')) as HTMLSelectElement;
  const base = num('base', tc?.kind === 'fischer' ? tc.base / 60000 : qq.game / 60000);
  const mt = num('moveTime', qq.per_move / 1000);
  const cd = num('countdown', qq.countdown / 1000);
  const inc = num('increment', tc?.kind === 'fischer' ? tc.increment / 1000 : 0);
  const row = (label: string, input: HTMLElement, kinds: string) => {
    input.dataset.kinds = kinds;
    return [h('span', { 'data-kinds': kinds }, label), input];
  };
  const el = h(
    'div.time-custom',
    { oninput: onInput },
    h('span', null, t('clockKind')),
    kindSel,
    row(t('gameTime'), base, 'qq fischer'),
    row(t('moveTime'), mt, 'qq'),
    row(t('byoyomi'), cd, 'qq'),
    row(t('increment'), inc, 'fischer'),
  );
  // Only the fields of the chosen kind of clock.
  const showKind = () => el.querySelectorAll<HTMLElement>('[data-kinds]').forEach((x) => (x.style.display = (x.dataset.kinds ?? '').split(' ').includes(kindSel.value) ? '' : 'none'));
  kindSel.addEventListener('change', showKind);
  showKind();
  const n = (x: HTMLInputElement) => Math.max(0, Number(x.value) || 0);
  return {
    el,
    value: () =>
      kindSel.value === 'fischer'
        ? { kind: 'fischer', base: n(base) * 60000, increment: n(inc) * 1000 }
        : { kind: 'qq', game: n(base) * 60000, per_move: n(mt) * 1000, countdown: n(cd) * 1000 },
  };
}
