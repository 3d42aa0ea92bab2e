// The games the server hosts, as its registry describes them (`GET /api/games`,
// docs/protocol.md "GameInfo"): seats, phases, record format, clock presets,
// quick pairing, computer players. The client keeps no copy of any of it; it is
// loaded once at start-up, before the first page is drawn.
import { api } from './api';
import { addLabels } from '../i18n';
import { settings } from '../settings';
import type { Descriptor, OptionPreset, TimeControl, TimePreset } from './generated/protocol';

export type { TimePreset, OptionPreset };
/** A game's registry descriptor, as the server's types define it. */
export type GameInfo = Descriptor;

let games: GameInfo[] = [];

/** Loads the descriptors from the server (an error leaves the list empty). */
export async function loadGames(): Promise<void> {
  try {
    setGames(await api<GameInfo[]>('GET', '/api/games'));
  } catch {
    setGames([]);
  }
}

/** Replaces the descriptors (for start-up, and for tests). */
export function setGames(list: GameInfo[]): void {
  games = Array.isArray(list) ? list : [];
  // `t(game)` reads a game's name from its descriptor (i18n.ts holds none).
  addLabels(Object.fromEntries(games.filter((g) => g.zh && g.en).map((g) => [g.name, [g.zh, g.en]])));
}

export function allGames(): GameInfo[] {
  return games;
}

export function gameInfo(name: string): GameInfo | undefined {
  return games.find((g) => g.name === name);
}

/** The clock presets `game` offers, in the server's order. */
export function presetsOf(name: string): TimePreset[] {
  return gameInfo(name)?.presets ?? [];
}

/** The preset of `game` called `key` (`quick`, `match`, ...). */
export function preset(name: string, key: string): TimePreset | undefined {
  return presetsOf(name).find((p) => p.key === key);
}

/** The time control quick pairing seeks in `game`'s room: its first preset. */
export function quickPairing(name: string): TimeControl | undefined {
  return presetsOf(name)[0]?.time;
}

/** The file extension of `game`'s records. */
export function recordExtension(name: string): string {
  return gameInfo(name)?.record.extension ?? 'pgn';
}

export const sameTc = (a: TimeControl | null | undefined, b: TimeControl | null | undefined) => JSON.stringify(a) === JSON.stringify(b);

/** A game's name in the user's language, from its descriptor (the name itself for an unknown game). */
export function gameName(name: string): string {
  const g = gameInfo(name);
  if (!g?.zh || !g.en) return name;
  return settings().lang === 'en' ? g.en : g.zh;
}

/** The glyph standing for a game (`◆` for an unknown one). */
export function gameIcon(name: string): string {
  return gameInfo(name)?.icon || '◆';
}

/** The table options the quick forms of `game` offer (Go's board sizes); empty for none. */
export function optionPresets(name: string): OptionPreset[] {
  return gameInfo(name)?.option_presets?.presets ?? [];
}
