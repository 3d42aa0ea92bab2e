// Play the computer (人机对弈) and 单机: the dialog that asks for the game's level,
// colour and clock and sends `play_computer`, and the hot-seat start (`hotseat`).
// The table the server makes is then opened like any other (`#/table/{id}`): the
// rules, the computer's moves and the record are all the server's. Level and
// side names come from the game's descriptor (`GET /api/games`, `hello`).
import { h } from '../dom';
import { t } from '../i18n';
import { settings } from '../settings';
import { dialog, toast } from '../ui';
import { gameInfo, gameName, optionPresets } from '../net/games';
import { Socket, type DataArg } from '../net/socket';
import { session, guest } from '../session';
import type { JsonValue } from '../net/generated/protocol';

/** Text in the user's language. */
export const tr = (zh: string, en: string) => (settings().lang === 'en' ? en : zh);

const SIDES: Record<string, [string, string]> = {
  white: ['白方', 'White'],
  black: ['黑方', 'Black'],
  red: ['红方', 'Red'],
  random: ['随机', 'Random'],
};


/** A session for 单机: the user's own, or a guest session made now. */
export async function ensureSession(): Promise<boolean> {
  if (session()) return true;
  try {
    await guest();
    return !!session();
  } catch (e) {
    toast((e as Error).message, 'error');
    return false;
  }
}

/** Sends one request on a socket of its own, and closes it after the answer. */
async function once<T extends Opening>(type: T, ...d: DataArg<T>): Promise<{ table: string; seat: number }> {
  const sock = new Socket('/ws');
  try {
    return (await sock.request(type, ...d)) as { table: string; seat: number };
  } finally {
    sock.close();
  }
}

function select(id: string, options: [string, string][], value?: string): HTMLSelectElement {
  const el = h('select', { id }, options.map(([v, label]) => h('option', { value: v }, label))) as HTMLSelectElement;
  if (value !== undefined) el.value = value;
  return el;
}

const field = (label: string, input: Node) => h('label.field', null, h('span', null, label), input);

/**
 * A picker of `game`'s option presets (its descriptor's `option_presets`: Go's
 * board sizes), the first chosen; null for a game with none. `chosen()` gives
 * the options of the picked one (the server checks them).
 */
export function optionSelect(game: string, id: string): { el: HTMLSelectElement; label: string; chosen: () => JsonValue } | null {
  const presets = optionPresets(game);
  const info = gameInfo(game)?.option_presets;
  if (!info || !presets.length) return null;
  const el = select(id, presets.map((p) => [p.key, tr(p.zh, p.en)]), presets[0].key);
  // A preset's options are JSON as the server sent them (its type says only "an object").
  return { el, label: tr(info.zh, info.en), chosen: () => (presets.find((p) => p.key === el.value)?.options as JsonValue | undefined) ?? null };
}

/**
 * Opens the dialog for playing the computer at `game`; `private` makes it a
 * 单机 table, listed nowhere.
 */
export function openPlayComputer(game: string, opts: { private?: boolean } = {}) {
  const info = gameInfo(game);
  if (!info || !info.bot_levels.length) {
    toast(tr('这个游戏没有电脑对手', 'There is no computer player for this game'), 'error');
    return;
  }
  const level = select(
    'computer-level',
    info.bot_levels.map((l) => [l.key, tr(l.zh, l.en)]),
    info.bot_levels[0].key,
  );
  const sides: [string, string][] = [['random', tr(...SIDES.random)]];
  if (info.seat_names.length) for (const n of info.seat_names) sides.push([n, tr(...(SIDES[n] ?? [n, n]))]);
  else for (let s = 0; s < info.seats; s++) sides.push([String(s), tr(`${s + 1}号座`, `Seat ${s + 1}`)]);
  const colour = select('computer-colour', sides, sides[1]?.[0]);
  const presets: [string, string][] = info.presets.map((p) => [p.key, tr(p.zh, p.en)]);
  if (!info.presets.some((p) => p.time.kind === 'none')) presets.push(['none', tr('不限时', 'No clock')]);
  const time = select('computer-time', presets, presets[0]?.[0]);
  const size = optionSelect(game, 'computer-size');
  const body = h(
    'div.computer-form',
    { id: 'computer-form' },
    field(tr('难度', 'Level'), level),
    field(tr('执子', 'Side'), colour),
    field(tr('用时', 'Clock'), time),
    size ? field(size.label, size.el) : null,
  );
  const title = `${opts.private ? tr('单机', 'Offline') + ' · ' : ''}${tr('人机对弈', 'Play the computer')} · ${gameName(game)}`;
  dialog(title, body, [
    { label: t('cancel') },
    {
      label: tr('开始', 'Start'),
      cls: 'primary',
      onClick: () => {
        const preset = info.presets.find((p) => p.key === time.value);
        const c = colour.value;
        void start('play_computer', {
          game,
          level: level.value,
          colour: /^\d+$/.test(c) ? Number(c) : c,
          time: preset ? preset.time : { kind: 'none' },
          options: size?.chosen() ?? null,
          private: !!opts.private,
        });
      },
    },
  ], { id: 'computer-dialog' });
}

/** Starts a hot-seat game of `game` (单机): one user at every seat. */
export function startHotseat(game: string, options: JsonValue = null) {
  void start('hotseat', { game, options });
}

/** The requests that open a table of one's own: against the computer, or hot-seat. */
type Opening = 'play_computer' | 'hotseat';

async function start<T extends Opening>(type: T, ...d: DataArg<T>) {
  if (!(await ensureSession())) return;
  try {
    const r = await once(type, ...d);
    location.hash = `#/table/${r.table}`;
  } catch (e) {
    toast((e as Error).message, 'error');
  }
}

/** The lobby's button: play the computer at this game. */
export function computerButton(game: string): HTMLElement | null {
  if (!gameInfo(game)?.bot_levels.length) return null;
  return h('button.btn', { id: 'play-computer', onclick: () => openPlayComputer(game) }, tr('人机对弈', 'Play the computer'));
}
