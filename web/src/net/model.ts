// Time controls and players as the lobby shows them: a time control's short
// text (`10′ / 1′ / 30″`) and which of a game's presets it is.
import { allGames, preset, sameTc } from './games';
import type { TimeControl } from './generated/protocol';

const MIN = 60_000;
const SEC = 1000;

export interface Player {
  name: string;
  rating?: number;
  provisional?: boolean;
}

/** A time control in the server's own form (qiyuan-clock's TimeControl, generated). */
export type { TimeControl };

/**
 * Whether `tc` is `game`'s quick (快棋) or match (比赛) preset, as the server's
 * descriptors define them (see ./games); any game's when `game` is left out.
 */
export function presetOf(tc: TimeControl | null, game?: string): 'quick' | 'match' | 'custom' {
  if (!tc) return 'custom';
  const names = game ? [game] : allGames().map((g) => g.name);
  for (const name of names) for (const k of ['quick', 'match'] as const) if (sameTc(preset(name, k)?.time, tc)) return k;
  return 'custom';
}

export function describeTc(tc: TimeControl | null): string {
  if (!tc) return '—';
  const m = (ms: number) => (ms % MIN === 0 ? `${ms / MIN}′` : `${Math.round(ms / SEC)}″`);
  switch (tc.kind) {
    case 'none':
      return '∞';
    case 'qq':
      return `${m(tc.game)} / ${m(tc.per_move)} / ${m(tc.countdown)}`;
    case 'fischer':
      return `${tc.base / MIN}+${tc.increment / SEC}`;
    case 'byo_yomi':
      return `${m(tc.main)} + ${tc.periods}×${m(tc.period)}`;
    case 'canadian':
      return `${m(tc.main)} + ${tc.moves}/${m(tc.period)}`;
    case 'correspondence':
      return `${tc.days}d`;
  }
}
