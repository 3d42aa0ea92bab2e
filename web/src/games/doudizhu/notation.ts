// The replay viewer's words for Doudizhu actions: 叫N分 and 不叫 while bidding,
// 不出 in play, and cards by their faces (10, 小王, 大王), from the canonical
// actions the server sends (`bid 2`, `pass`, `TTT`, `BR`).
import { settings } from '../../settings';
import { tx } from './text';

const RANK_WORDS: Record<string, [string, string]> = {
  T: ['10', '10'],
  B: ['小王', 'Little Joker'],
  R: ['大王', 'Big Joker'],
};

/** A Doudizhu play's ranks (`33344`, `TTT`, `BR`) as players read them: 10, 小王, 大王. */
export function playText(ranks: string): string {
  const en = settings().lang === 'en';
  return [...ranks].map((r) => (RANK_WORDS[r] ? RANK_WORDS[r][en ? 1 : 0] : r)).join(' ');
}

/**
 * Whether each action of a hand's move list was made while bidding: every
 * action before the first card play (the landlord's first action is a lead,
 * never a pass), all of them while no card has been played.
 */
export function biddingFlags(actions: string[]): boolean[] {
  const cards = (a: string) => a !== 'pass' && !/^bid\s*\d$/.test(a.trim());
  const first = actions.findIndex(cards);
  return actions.map((_, i) => first < 0 || i < first);
}

/** A Doudizhu action in words: 叫N分 / 不叫 while bidding, 不出 or the cards in play. */
export function doudizhuText(action: string, phase: unknown): string {
  const bid = /^bid\s*(\d)$/.exec(action.trim());
  if (bid) return settings().lang === 'en' ? `${tx('bidWord')} ${bid[1]}` : `叫${bid[1]}${tx('points')}`;
  if (action === 'pass') return phase === 'bidding' ? tx('noBid') : tx('passPlay');
  return playText(action);
}

