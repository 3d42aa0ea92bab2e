// The lobby's "new table" dialog for Go (board size, komi, handicap, clock), and
// the making of a table that Doudizhu's dialog (doudizhu/create.ts) shares. The
// table is made over HTTP; its page then sits the creator down in the first seat.
import { h } from '../dom';
import { t } from '../i18n';
import { dialog, toast } from '../ui';
import { api } from '../net/api';
import { markAutoSit } from './live';
import { presetsOf } from '../net/games';
import { presetLabel, tcText } from '../table/shell';
import { tx } from './text';
import { session } from '../session';

/** This folder's game, as the server's registry names it. */
const GAME = 'go';

/** Makes a table of `game` over HTTP and opens it, the creator to sit first. */
export async function create(game: string, body: Record<string, unknown>) {
  try {
    const r = await api<{ table: string }>('POST', '/api/tables', { game, ...body });
    markAutoSit(r.table, 0);
    location.hash = `#/table/${r.table}`;
  } catch (e) {
    toast((e as Error).message, 'error');
  }
}

/**
 * 计积分 / 友谊赛: rated or casual, for a new table or a seek. Guests play casual
 * games only (the server refuses them a rated one): disabled for them.
 */
export function ratedSelect(rated: boolean) {
  const guest = !!session()?.guest;
  return h(
    'select',
    { name: 'rated', id: 'rated-choice', disabled: guest, title: guest ? t('guestCasual') : '' },
    h('option', { value: 'rated', selected: rated && !guest }, t('rated')),
    h('option', { value: 'casual', selected: !rated || guest }, t('casual')),
  ) as HTMLSelectElement;
}

export function clockSelect(game: string) {
  return h(
    'select',
    { name: 'clock', id: 'new-clock' },
    presetsOf(game).map((p, i) => h('option', { value: p.key, selected: i === 0 }, `${presetLabel(p)} · ${tcText(p.time, game).split(' · ').pop()}`)),
  ) as HTMLSelectElement;
}

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
    h('span', null, tx('clock')), clock,
    h('span', null, t('ratedOrCasual')), rated,
    h('span', null, tx('rules')), h('span.hint', null, tx('chineseRules')),
  );
  dialog(tx('newGoTable'), body, [
    { label: t('cancel') },
    {
      label: tx('create'),
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
        void create(GAME, { time: p?.time, options: { size, komi: k, handicap: hc }, rated: rated.value === 'rated' });
      },
    },
  ], { id: 'new-go-dialog' });
}

/** The lobby's new-table dialog of this folder's game. */
export const createDialog = { game: GAME, open: openCreateGo };
