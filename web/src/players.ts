// How a seat's occupant is named and linked everywhere: an account by its name,
// linking to its profile; a computer player (a user id `bot:<level>-xxxxxx`, see
// docs/protocol.md "Computer players") as 电脑（普通/高手）, by the level's own name
// in the games' registry entries (`bot_levels`), and never by its raw id; a
// hot-seat stand-in (`hotseat:<n>:<owner>`, the other side of a table one person
// plays alone) as 2号玩家 / Player 2, which links nowhere (it has no profile).
import { h } from './dom';
import { settings } from './settings';
import { allGames } from './net/games';

export function isComputer(user: unknown): user is string {
  return typeof user === 'string' && user.startsWith('bot:');
}

/** The seat number (1-based) of a hot-seat stand-in `hotseat:<n>:<owner>`; null for anyone else. */
export function standInSeat(user: unknown): number | null {
  if (typeof user !== 'string') return null;
  const m = /^hotseat:(\d+):/.exec(user);
  return m ? Number(m[1]) : null;
}

/** Whether a name is a guest's (`Guest-xxxxxx`: no account's name has a hyphen). */
export function isGuestName(user: string): boolean {
  return /^Guest-/.test(user);
}

/** The level key of a computer player's id: `bot:strong-k3x9q2` → `strong`. */
export function computerLevel(user: string): string {
  const rest = user.slice(4);
  const dash = rest.lastIndexOf('-');
  return dash > 0 ? rest.slice(0, dash) : rest;
}

const WORDS = {
  computer: ['电脑', 'Computer'],
  basic: ['普通', 'basic'],
  strong: ['高手', 'strong'],
  level: ['级', 'level '],
  player: ['号玩家', 'Player '],
} as const;

function word(k: keyof typeof WORDS): string {
  return settings().lang === 'en' ? WORDS[k][1] : WORDS[k][0];
}

/** A computer level's name: the registry's (`高手`, `3级`), else from its key. */
export function levelName(key: string): string {
  const en = settings().lang === 'en';
  if (key === 'basic' || key === 'strong') return word(key);
  for (const g of allGames()) {
    const l = g.bot_levels?.find((x) => x.key === key);
    if (l) {
      // The built-in levels' names carry a note after the level (`1级 入门`): the level is enough.
      const name = en ? l.en : l.zh;
      return !en && /^\d+$/.test(key) ? name.split(' ')[0] : name;
    }
  }
  return /^\d+$/.test(key) ? (en ? `${word('level')}${key}` : `${key}${word('level')}`) : key;
}

const MARKS = { zh: '甲乙丙丁戊己庚辛', en: 'ABCDEFGH' } as const;

/** Whether several computer players sit among `users`: then each is named apart by its seat. */
export function computersApart(users: Array<string | null | undefined>): boolean {
  return users.filter(isComputer).length > 1;
}

/**
 * The name shown for a seat's occupant: 电脑（高手） for a computer player; with
 * its `seat` (where several computer players sit, see computersApart), one
 * named apart by the seat's mark as the records name it: 电脑（普通）乙, Computer (basic) B;
 * a hot-seat stand-in as 2号玩家 / Player 2.
 */
export function playerName(user: string | null | undefined, seat?: number): string {
  if (!user) return '?';
  const en = settings().lang === 'en';
  const standIn = standInSeat(user);
  if (standIn !== null) return en ? `${word('player')}${standIn}` : `${standIn}${word('player')}`;
  if (!isComputer(user)) return user;
  const level = levelName(computerLevel(user));
  const mark = seat === undefined ? '' : (en ? ' ' : '') + (MARKS[en ? 'en' : 'zh'][seat] ?? '');
  return (en ? `${word('computer')} (${level})` : `${word('computer')}（${level}）`) + mark;
}

/** A player's name as a link to their profile; a computer player's or a hot-seat stand-in's is not a link (`seat`: see playerName). */
export function playerLink(user: string | null | undefined, cls = 'player-link', seat?: number) {
  if (!user || isComputer(user) || standInSeat(user) !== null) return h(`span.${cls}.computer`, { 'data-user': user ?? '' }, playerName(user, seat));
  return h(`a.${cls}`, { href: `#/profile/${encodeURIComponent(user)}`, 'data-user': user }, user);
}
