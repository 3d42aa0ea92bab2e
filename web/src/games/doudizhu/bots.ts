// Computer players (电脑) at a Doudizhu table: "添加电脑" buttons on an empty seat,
// with the strength to choose, and "移走电脑" on a computer's seat, for a seated
// player between hands (the server's `add_bot` and `remove_bot`; see
// docs/protocol.md). Bots sit as users named `bot:basic-…` or
// `bot:strong-…`, shown here as 电脑 with their strength.
import { h } from '../../dom';
import { settings } from '../../settings';
import type { ShellContext } from '../../table/shell';

const S = {
  add: ['添加电脑', 'Add computer'],
  basic: ['普通', 'Basic'],
  strong: ['高手', 'Strong'],
  remove: ['移走电脑', 'Remove computer'],
} as const;

function txt(k: keyof typeof S): string {
  return settings().lang === 'en' ? S[k][1] : S[k][0];
}

export function isBot(user: unknown): user is string {
  return typeof user === 'string' && user.startsWith('bot:');
}

/**
 * For a seated player between hands: the add-a-computer buttons on an empty seat,
 * or a button taking a computer off its seat; otherwise null.
 */
export function botControls(c: ShellContext, seat: number): HTMLElement | null {
  if (c.me === null || c.playing) return null;
  const user = c.state.seats?.[seat]?.user;
  if (isBot(user)) {
    return h(
      'div.ddz-addbot',
      { id: `removebot-${seat}` },
      h('button.btn.btn-small', { id: `removebot-${seat}-btn`, onclick: () => c.live.send('remove_bot', { seat }) }, txt('remove')),
    );
  }
  if (user) return null;
  const add = (level: 'basic' | 'strong') => c.live.send('add_bot', { seat, level });
  return h(
    'div.ddz-addbot',
    { id: `addbot-${seat}` },
    h('span.hint', null, txt('add')),
    h('button.btn.btn-small', { id: `addbot-${seat}-basic`, onclick: () => add('basic') }, txt('basic')),
    h('button.btn.btn-small.blue', { id: `addbot-${seat}-strong`, onclick: () => add('strong') }, txt('strong')),
  );
}
