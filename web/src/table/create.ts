// Making a table from the lobby: over HTTP (`POST /api/tables`), the creator then
// sitting in the first seat as the table's page opens; and the fields every
// game's new-table dialog shares (rated or casual, the clock).
import { h } from '../dom';
import { t } from '../i18n';
import { toast } from '../ui';
import { api } from '../net/api';
import { presetsOf } from '../net/games';
import { session } from '../session';
import { markAutoSit } from './live';
import { presetLabel, tcText } from './timeText';

/** Makes a table of `game` over HTTP and opens it, the creator to sit first. */
export async function createTable(game: string, body: Record<string, unknown>) {
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

