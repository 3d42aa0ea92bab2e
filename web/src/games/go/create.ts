// Go's new-table dialog (board size, komi, handicap, clock). The table is made
// over HTTP (table/create.ts); its page then sits the creator down in the first seat.
import { h } from '../../dom';
import { t } from '../../i18n';
import { dialog, toast } from '../../ui';
import { presetsOf } from '../../net/games';
import { clockSelect, createTable, ratedSelect } from '../../table/create';
import { tx } from './text';

/** This folder's game, as the server's registry names it. */
const GAME = 'go';

export function openCreateGo(ratedDefault = false) {
  let size = 19;
  const sizes = h(
    'div.sizes',
    null,
    [9, 13, 19].map((n) =>
      h('label', null, h('input', { type: 'radio', name: 'size', value: String(n), checked: n === 19, onchange: () => (size = n) }), `${n}×${n}`),
    ),
  );
  const komi = h('input', { type: 'number', name: 'komi', id: 'new-komi', step: '0.5', value: '7.5' }) as HTMLInputElement;
  const handicap = h(
    'select',
    { name: 'handicap', id: 'new-handicap' },
    [0, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => h('option', { value: String(n) }, n === 0 ? '—' : String(n))),
  ) as HTMLSelectElement;
  const clock = clockSelect(GAME);
  const rated = ratedSelect(ratedDefault);
  rated.id = 'new-rated';
  const body = h(
    'div.go-form',
    { id: 'new-go-form' },
    h('span', null, tx('boardSize')), sizes,
    h('span', null, tx('komi')), komi,
    h('span', null, tx('handicap')), handicap,
    h('span', null, t('clock')), clock,
    h('span', null, t('ratedOrCasual')), rated,
    h('span', null, tx('rules')), h('span.hint', null, tx('chineseRules')),
  );
  dialog(tx('newGoTable'), body, [
    { label: t('cancel') },
    {
      label: t('create'),
      cls: 'primary',
      onClick: () => {
        const k = Number(komi.value);
        const hc = Number(handicap.value);
        if (!Number.isFinite(k) || Math.abs(k * 2 - Math.round(k * 2)) > 1e-9) {
          toast(`${tx('komi')}: 0.5`, 'error');
          return false;
        }
        if (size === 9 && hc > 5) {
          toast(`${tx('handicap')} ≤ 5 (9×9)`, 'error');
          return false;
        }
        const p = presetsOf(GAME).find((x) => x.key === clock.value) ?? presetsOf(GAME)[0];
        void createTable(GAME, { time: p?.time, options: { size, komi: k, handicap: hc }, rated: rated.value === 'rated' });
      },
    },
  ], { id: 'new-go-dialog' });
}

