// Rating pools as the server keeps them (crates/rating `pool`, the registry's
// `rating_pools`): a game's name (`xiangqi`), or its name and the speed class of
// the time control (`chess:rapid`) for a game rated by speed. A table's players
// are shown with their rating in the table's own pool, and every rating is shown
// with its pool's name.
import { t, type Key } from '../i18n';
import { gameInfo, gameName, quickPairing } from './games';
import type { TimeControl } from './generated/protocol';

export type Speed = 'ultrabullet' | 'bullet' | 'blitz' | 'rapid' | 'classical' | 'correspondence';

const S = 1000;

/** The clock's estimated game length in seconds (qiyuan-clock `estimated_seconds`); null for none. */
export function estimatedSeconds(tc: TimeControl): number | null {
  const s = (ms: number) => Math.floor(ms / S);
  switch (tc.kind) {
    case 'none':
    case 'correspondence':
      return null;
    case 'qq':
      return s(tc.game) + 25 * s(tc.countdown);
    case 'fischer':
      return s(tc.base) + 40 * s(tc.increment);
    case 'byo_yomi':
      return s(tc.main) + 25 * s(tc.period);
    case 'canadian':
      return s(tc.main) + Math.floor((40 * s(tc.period)) / Math.max(1, tc.moves));
  }
}

/** The speed class of a time control, by Lichess's thresholds (qiyuan-clock `speed`). */
export function speedOf(tc: TimeControl | null | undefined): Speed {
  const e = tc ? estimatedSeconds(tc) : null;
  if (e === null) return 'correspondence';
  if (e < 30) return 'ultrabullet';
  if (e < 180) return 'bullet';
  if (e < 480) return 'blitz';
  if (e < 1500) return 'rapid';
  return 'classical';
}

/** The pool a game of `game` at `tc` is rated in. */
export function poolOf(game: string, tc: TimeControl | null | undefined): string {
  return gameInfo(game)?.rating_pools === 'by_speed' ? `${game}:${speedOf(tc)}` : game;
}

/** The pool of `game`'s quick pairing (its first preset): the one a lobby shows first. */
export function mainPool(game: string): string {
  return poolOf(game, quickPairing(game));
}

/** Whether `pool` is one of `game`'s pools. */
export function poolOfGame(pool: string, game: string): boolean {
  return pool === game || pool.startsWith(game + ':');
}

/** A speed's name (`快棋` for rapid, as the 快棋 preset plays at it). */
export function speedName(speed: string): string {
  const k = `speed_${speed}`;
  return SPEEDS.has(k) ? t(k as Key) : speed;
}
const SPEEDS = new Set(['speed_ultrabullet', 'speed_bullet', 'speed_blitz', 'speed_rapid', 'speed_classical', 'speed_correspondence']);

/** A pool's name: `chess:rapid` is 国际象棋 · 快棋, `xiangqi` is 中国象棋. */
export function poolName(pool: string): string {
  const [game, speed] = pool.split(':');
  const g = gameName(game);
  return speed ? `${g} · ${speedName(speed)}` : g;
}

/** A pool's short name in a game's own room: its speed, or the game's name. */
export function poolShortName(pool: string): string {
  const speed = pool.split(':')[1];
  return speed ? speedName(speed) : gameName(pool);
}
