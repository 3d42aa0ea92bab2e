// Challenging a named player from the web (from their profile or the friends
// panel): the game (those the Lichess-compatible API can challenge in), the
// clock, the colour, rated or casual — sent as `POST /api/challenge/{name}`
// (docs/api.md). The challenged person is told on every page they have open
// and answers in the header's challenge slot; a decline's reason comes back
// to the sender through the page's channel (people/channel.ts).
import { h } from '../dom';
import { api } from '../net/api';
import { errorOf } from '../errors';
import { allGames, gameName } from '../net/games';
import { session } from '../session';
import { settings } from '../settings';
import { dialog, toast } from '../ui';

const W = {
  challenge: ['挑战', 'Challenge'],
  title: ['挑战 {name}', 'Challenge {name}'],
  game: ['游戏', 'Game'],
  clock: ['时限', 'Clock'],
  colour: ['先后手', 'Side'],
  first: ['先手', 'First to move'],
  second: ['后手', 'Second'],
  random: ['随机', 'Random'],
  rated: ['排位赛', 'Rated'],
  send: ['发出挑战', 'Send the challenge'],
  cancel: ['取消', 'Cancel'],
  sent: ['已向 {name} 发出挑战', 'Challenge sent to {name}'],
} as const;

function w(k: keyof typeof W, vars: Record<string, string> = {}): string {
  const text = settings().lang === 'en' ? W[k][1] : W[k][0];
  return text.replace(/\{(\w+)\}/g, (_, v: string) => vars[v] ?? '');
}

/** Minutes and seconds of increment a challenge's clock may have. */
const CLOCKS: ReadonlyArray<readonly [number, number]> = [
  [1, 0],
  [3, 2],
  [5, 3],
  [10, 5],
  [15, 10],
  [30, 0],
];

/** The challenge dialog for `name`. */
export function challengeDialog(name: string) {
  const games = allGames().filter((g) => g.api_variant && g.seats === 2);
  const game = h(
    'select',
    { id: 'challenge-game' },
    games.map((g) => h('option', { value: g.api_variant!.key }, gameName(g.name))),
  ) as HTMLSelectElement;
  const clock = h(
    'select',
    { id: 'challenge-clock' },
    CLOCKS.map(([m, i], n) => h('option', { value: String(n), selected: n === 2 }, `${m}+${i}`)),
  ) as HTMLSelectElement;
  const colour = h(
    'select',
    { id: 'challenge-colour' },
    h('option', { value: 'random' }, w('random')),
    h('option', { value: 'white' }, w('first')),
    h('option', { value: 'black' }, w('second')),
  ) as HTMLSelectElement;
  const rated = h('input', { id: 'challenge-rated', type: 'checkbox' }) as HTMLInputElement;
  const field = (label: string, input: HTMLElement) => h('label.form-row', null, h('span', null, label), input);
  const body = h(
    'div.challenge-form',
    { id: 'challenge-form' },
    field(w('game'), game),
    field(w('clock'), clock),
    field(w('colour'), colour),
    field(w('rated'), rated),
  );
  const send = async () => {
    const [minutes, increment] = CLOCKS[Number(clock.value)] ?? CLOCKS[2];
    try {
      await api('POST', `/api/challenge/${encodeURIComponent(name)}`, {
        variant: game.value,
        'clock.limit': String(minutes * 60),
        'clock.increment': String(increment),
        color: colour.value,
        rated: rated.checked ? 'true' : 'false',
      });
      toast(w('sent', { name }));
    } catch (e) {
      toast(errorOf(e), 'error');
    }
  };
  dialog(w('title', { name }), body, [
    { label: w('send'), cls: 'primary', onClick: () => void send() },
    { label: w('cancel') },
  ], { id: 'challenge-dialog' });
}

/** A button that opens the challenge dialog for `name` (accounts only; not oneself). */
export function challengeButton(name: string, id = 'challenge-button'): HTMLElement | null {
  const s = session();
  if (!s || s.guest || s.name.toLowerCase() === name.toLowerCase()) return null;
  return h('button.btn.btn-small', { id, onclick: () => challengeDialog(name) }, w('challenge'));
}
