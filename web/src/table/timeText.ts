// A time control in words, for the table's header, its time dialog and the
// new-table dialogs: the preset's name (快棋) if it is one of the game's, and
// its figures (`10′ + 5×30″`).
import { t } from '../i18n';
import { describeTc } from '../net/model';
import { presetsOf, sameTc } from '../net/games';
import type { TimeControl } from '../net/generated/protocol';

const SEC = 1000;

/** A preset's name in the page's language. */
export function presetLabel(p: { zh: string; en: string }) {
  return document.documentElement.lang === 'en' ? p.en : p.zh;
}

/** `tc` as `game`'s preset name and its figures; `—` for none. */
export function tcText(tc: TimeControl | null | undefined, game: string): string {
  if (!tc) return '—';
  const p = presetsOf(game).find((x) => sameTc(x.time, tc));
  const d = tc.kind === 'qq' && tc.game === 0 && tc.per_move === 0 ? `${tc.countdown / SEC}″ / ${t('perTurn')}` : describeTc(tc);
  return p ? `${presetLabel(p)} · ${d}` : d;
}
