// Challenges to this player from the Lichess-compatible API (a bot account, or a
// board client): shown in the header of every page with accept and decline, so
// a person in the hall can answer a bot's challenge as well as send one. The
// server holds challenges in memory (`GET /api/challenge`, docs/api.md): the
// header reads them once as a page opens, then again only when the page's
// channel (people/channel.ts) is told a challenge was made, answered or
// withdrawn — it never polls.
import { h, mount } from '../dom';
import { api } from '../net/api';
import { errorOf } from '../errors';
import { session } from '../session';
import { settings } from '../settings';
import { toast } from '../ui';
import { ensureChannel, onNotify, REASONS, reasonText } from '../people/channel';

type Challenge = {
  id: string;
  challenger: { name: string; title: string | null };
  variant: { name: string } | null;
  rated: boolean;
  timeControl: { limit?: number; increment?: number; type: string };
};

const W = {
  challenges: ['向你发起挑战', 'challenges you'],
  accept: ['接受', 'Accept'],
  decline: ['拒绝', 'Decline'],
  rated: ['排位赛', 'rated'],
  casual: ['友谊赛', 'casual'],
} as const;

function w(k: keyof typeof W): string {
  return settings().lang === 'en' ? W[k][1] : W[k][0];
}

function timeText(tc: Challenge['timeControl']): string {
  if (tc.type !== 'clock' || tc.limit === undefined) return '';
  return `${Math.round(tc.limit / 60)}+${tc.increment ?? 0}`;
}

function row(c: Challenge, refresh: () => void): HTMLElement {
  const who = c.challenger.title ? `${c.challenger.title} ${c.challenger.name}` : c.challenger.name;
  const what = [c.variant?.name ?? '', timeText(c.timeControl), c.rated ? w('rated') : w('casual')].filter(Boolean).join(' · ');
  // The reason a decline gives, shown to the challenger in their language.
  const reason = h(
    'select.challenge-reason',
    { id: `challenge-reason-${c.id}` },
    Object.keys(REASONS).map((k) => h('option', { value: k }, reasonText(k))),
  ) as HTMLSelectElement;
  const act = async (verb: 'accept' | 'decline') => {
    try {
      const body = verb === 'decline' ? { reason: reason.value } : {};
      const r = await api<{ ok: boolean; game?: string }>('POST', `/api/challenge/${encodeURIComponent(c.id)}/${verb}`, body);
      if (verb === 'accept' && r.game) location.hash = `#/table/${r.game}`;
    } catch (e) {
      toast(errorOf(e), 'error');
    }
    refresh();
  };
  return h(
    'div.challenge-in',
    { id: `challenge-${c.id}` },
    h('span', null, `${who} ${w('challenges')}（${what}）`),
    h('button.btn.small.primary', { id: `challenge-accept-${c.id}`, onclick: () => act('accept') }, w('accept')),
    reason,
    h('button.btn.small', { id: `challenge-decline-${c.id}`, onclick: () => act('decline') }, w('decline')),
  );
}

/** The channel's listener of the header drawn last (the header is drawn again
 * with every page). */
let unsubscribe: (() => void) | undefined;

/** The header's slot for incoming challenges, kept up to date while logged in
 * by the page's channel. */
export function challengeBox(): HTMLElement {
  const el = h('span.challenge-slot', { id: 'challenge-slot' });
  // Every page has its channel: the header is drawn with each page.
  ensureChannel();
  unsubscribe?.();
  unsubscribe = undefined;
  const user = session();
  if (!user || user.guest) return el;
  const refresh = () => {
    const slot = document.getElementById('challenge-slot');
    if (!slot) return;
    void api<{ in: Challenge[] }>('GET', '/api/challenge')
      .then((r) => mount(slot, r.in.map((c) => row(c, refresh))))
      .catch(() => undefined);
  };
  unsubscribe = onNotify((n) => {
    if (n.kind.startsWith('challenge')) refresh();
  });
  setTimeout(refresh, 0);
  return el;
}
