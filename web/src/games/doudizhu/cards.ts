// Cards as the server writes them: a physical card is rank then suit (`Th`, `3s`),
// jokers `B` (black, 小王) and `R` (red, 大王); a play is a multiset of ranks
// written lowest first (`33344`, `BR`).
import { h } from '../../dom';

export const RANKS = '3456789TJQKA2BR';

export function rankIndex(r: string): number {
  return RANKS.indexOf(r.toUpperCase());
}

export function rankOf(card: string): string {
  return card[0].toUpperCase();
}

const SUIT_ORDER = 'shcd';

/** Highest first, as a hand is held: jokers, 2s, aces … 3s; suits in a fixed order. */
export function sortHand(cards: string[]): string[] {
  return [...cards].sort((a, b) => rankIndex(rankOf(b)) - rankIndex(rankOf(a)) || SUIT_ORDER.indexOf(a[1] ?? '') - SUIT_ORDER.indexOf(b[1] ?? ''));
}

/** The action text of a set of cards: their ranks, lowest first. */
export function ranksOf(cards: string[]): string {
  return cards
    .map(rankOf)
    .sort((a, b) => rankIndex(a) - rankIndex(b))
    .join('');
}

const SUITS: Record<string, string> = { s: '♠', h: '♥', c: '♣', d: '♦' };

export function rankLabel(r: string): string {
  return r === 'T' ? '10' : r;
}

/** One card face. `card` is a physical card, or a bare rank for a play. */
export function cardEl(card: string, opts: { small?: boolean; selected?: boolean; onclick?: () => void; index?: number } = {}) {
  const r = rankOf(card);
  const suit = card[1]?.toLowerCase();
  const joker = r === 'B' || r === 'R';
  const red = suit === 'h' || suit === 'd' || r === 'R';
  const cls = `div.card${opts.small ? '.small' : ''}${red ? '.red' : ''}${joker ? '.joker' : ''}${opts.selected ? '.selected' : ''}${suit || joker ? '' : '.rank-only'}`;
  return h(
    cls,
    { 'data-card': card, 'data-rank': r, 'data-index': opts.index, onclick: opts.onclick },
    h('span.corner', null, joker ? h('span.joker-word', null, r === 'R' ? '大王' : '小王') : h('span.rank', null, rankLabel(r)), suit ? h('span.suit', null, SUITS[suit] ?? '') : null),
    h('span.center', null, joker ? '★' : suit ? SUITS[suit] : rankLabel(r)),
  );
}

export function cardBack(opts: { small?: boolean } = {}) {
  return h(`div.card.back${opts.small ? '.small' : ''}`);
}

/** The cards of a play (a rank string) as card faces. */
export function playEls(ranks: string, small = true) {
  return [...ranks].map((r) => cardEl(r, { small }));
}
