// Personal API tokens on one's own profile: the Lichess-compatible API's
// bearer tokens (docs/api.md), made with scopes, shown once, revoked by id.
import { h, mount } from '../dom';
import { api } from '../net/api';
import { session } from '../session';
import { settings } from '../settings';
import { allGames, gameName } from '../net/games';
import { onNotify, reasonText } from '../people/channel';

const SCOPES = ['board:play', 'bot:play', 'challenge:read', 'challenge:write', 'preference:read', 'email:read'];

// This panel's words, Chinese and English (kept here: the panel is self-contained).
const W = {
  title: ['API 令牌', 'API tokens'],
  hint: ['用于 Lichess 兼容接口（berserk、lichess-bot 等），以 Authorization: Bearer 发送。', 'For the Lichess-compatible API (berserk, lichess-bot, …), sent as Authorization: Bearer.'],
  description: ['用途', 'Description'],
  create: ['生成令牌', 'Create token'],
  revoke: ['吊销', 'Revoke'],
  once: ['请立即复制，此令牌只显示这一次：', 'Copy it now, it is shown only once:'],
  none: ['还没有令牌', 'No tokens yet'],
  challengeTitle: ['挑战这个机器人', 'Challenge this bot'],
  challengeHint: ['友谊赛，5 分钟 + 3 秒；机器人接受后进入对局。', 'A casual game, 5 min + 3 s; the game opens once the bot accepts.'],
  challenge: ['发起挑战', 'Challenge'],
  waiting: ['等待机器人接受…', 'Waiting for the bot to accept…'],
  noAnswer: ['机器人没有接受挑战', 'The bot did not accept'],
} as const;

function w(k: keyof typeof W): string {
  return settings().lang === 'en' ? W[k][1] : W[k][0];
}

interface TokenRow {
  id: string;
  description: string;
  scopes: string;
  created_at: number;
}

/**
 * The profile's API panel: one's own tokens on one's own profile; on a bot
 * account's profile (`title: "BOT"`), a challenge to it through the API, the
 * game opening at its table once the bot accepts.
 */
export function tokensPanel(name: string, profile?: { title?: unknown }): HTMLElement | null {
  const me = session();
  if (!me || me.guest) return null;
  if (me.name !== name) return profile?.title === 'BOT' ? challengePanel(name) : null;
  const list = h('div', { id: 'token-list' });
  const shown = h('div', { id: 'token-new' });
  const desc = h('input', { id: 'token-description', placeholder: w('description'), maxLength: 100 }) as HTMLInputElement;
  const boxes = SCOPES.map((s) => h('input', { type: 'checkbox', value: s, checked: s !== 'bot:play' }) as HTMLInputElement);
  const refresh = async () => {
    const r = await api<{ tokens: TokenRow[] }>('GET', '/api/token');
    mount(
      list,
      r.tokens.length
        ? r.tokens.map((tk) =>
            h(
              'div.token',
              { 'data-token': tk.id },
              h('span', null, `${tk.description} · ${tk.scopes} · ${new Date(tk.created_at).toLocaleDateString()} `),
              h('button.btn', { onclick: () => void api('DELETE', `/api/token/${tk.id}`).then(refresh) }, w('revoke')),
            ),
          )
        : h('div.hint', null, w('none')),
    );
  };
  const create = async () => {
    const scopes = boxes.filter((b) => b.checked).map((b) => b.value);
    const r = await api<{ access_token: string }>('POST', '/api/token', { description: desc.value || 'api', scopes: scopes.join(',') });
    mount(shown, h('div.hint', null, w('once')), h('code', { id: 'token-value' }, r.access_token));
    desc.value = '';
    await refresh();
  };
  void refresh().catch(() => mount(list, ''));
  return h(
    'div.panel',
    { id: 'tokens' },
    h('div.panel-title', null, w('title')),
    h('div.hint', null, w('hint')),
    list,
    h(
      'div.token-form',
      null,
      desc,
      SCOPES.map((s, i) => h('label', null, boxes[i], s)),
      h('button.btn.primary', { id: 'token-create', onclick: () => void create().catch((e) => mount(shown, String((e as Error).message))) }, w('create')),
    ),
    shown,
  );
}

function challengePanel(bot: string): HTMLElement {
  const status = h('div.hint', { id: 'challenge-status' });
  // The games the Lichess-compatible API plays, by their variant keys (`standard`, …).
  const variants = allGames().flatMap((g) => (g.api_variant ? [h('option', { value: g.api_variant.key }, gameName(g.name))] : []));
  const variant = h('select', { id: 'challenge-variant' }, variants) as HTMLSelectElement;
  const send = async () => {
    const made = await api<{ id: string }>('POST', `/api/challenge/${encodeURIComponent(bot)}`, { rated: false, 'clock.limit': 300, 'clock.increment': 3, color: 'white', variant: variant.value });
    mount(status, w('waiting'));
    // The answer is pushed to the page's channel (people/channel.ts), which
    // takes the challenger to the table once it is accepted.
    const stop = onNotify((n) => {
      if (!('id' in n) || n.id !== made.id) return;
      if (n.kind === 'challenge_accepted' || n.kind === 'challenge_canceled') stop();
      if (n.kind === 'challenge_declined') {
        stop();
        mount(status, `${w('noAnswer')}: ${reasonText(n.reason)}`);
      }
    });
  };
  return h(
    'div.panel',
    { id: 'challenge-bot' },
    h('div.panel-title', null, w('challengeTitle')),
    h('div.hint', null, w('challengeHint')),
    h('div.token-form', null, variant, h('button.btn.primary', { id: 'challenge-send', onclick: () => void send().catch((e) => mount(status, String((e as Error).message))) }, w('challenge'))),
    status,
  );
}
