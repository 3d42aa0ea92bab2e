// The end of a game in words, for the result dialog and the status line of every
// table: the outcome's reason (`checkmate`, `timeout`, ...) with the table's
// `end_detail` (which time limit ran out, why a game did not count), in Chinese
// or English. Pure: the language is an argument; no game is named — what differs
// between games is read from the outcome itself (a `stalemate` that someone wins
// is 困毙, one nobody wins is a draw).
import type { EndDetail, Outcome } from '../net/generated/protocol';

export type Lang = 'zh' | 'en';
type Pair = readonly [zh: string, en: string];

const REASONS: Record<string, Pair> = {
  checkmate: ['将死', 'checkmate'],
  stalemate: ['逼和：无子可动', 'stalemate: no legal move'],
  insufficient_material: ['子力不足，和棋', 'insufficient material: draw'],
  threefold_repetition: ['三次重复局面，和棋', 'threefold repetition: draw'],
  fivefold_repetition: ['五次重复局面，和棋', 'fivefold repetition: draw'],
  fifty_moves: ['五十回合无吃子无动兵，和棋', 'fifty-move rule: draw'],
  seventy_five_moves: ['七十五回合无吃子无动兵，和棋', 'seventy-five-move rule: draw'],
  perpetual_check: ['长将判负', 'perpetual check (长将) loses'],
  perpetual_chase: ['长捉判负', 'perpetual chase (长捉) loses'],
  repetition: ['重复局面，不变作和', 'repetition: draw'],
  move_limit: ['自然限着，和棋', 'move limit reached: draw'],
  counted: ['数子', 'counted'],
  hand_emptied: ['出完手牌', 'a hand was emptied'],
  resignation: ['认输', 'resignation'],
  timeout: ['超时', 'out of time'],
  agreement: ['双方同意和棋', 'draw agreed'],
  escape: ['逃跑判负', 'left the game (escape)'],
  aborted: ['对局作废，不计分', 'aborted: not counted'],
  adjudication: ['裁判判定', 'decided by the arbiter'],
  fouls: ['三次犯规判负', 'three fouls lose'],
  violations: ['三次违例判负', 'three violations lose'],
};

/** A reason this client does not know yet: never the server's code. */
const OTHER: Pair = ['对局结束', 'game over'];

/** A stalemate that a side wins: the side without a move loses (困毙). */
const TRAPPED: Pair = ['困毙：无子可走判负', 'no legal move (困毙) loses'];

const DETAILS: Record<EndDetail, Pair> = {
  // Neutral words: a flag is a loss, or a draw when the other side cannot mate.
  main_time: ['局时用完', 'out of time: the game time (局时) ran out'],
  move_time: ['步时超时', 'over the time per move (步时)'],
  countdown: ['读秒超时', 'out of time in the countdown (读秒)'],
  overtime: ['读秒用完', 'out of time: the byo-yomi ran out'],
  abort: ['对局中止，不计分', 'aborted before both sides moved: not counted'],
  first_move: ['首步超时，对局作废，不计分', 'the first move was not made in time: not counted'],
  not_counted: ['只有一方走了棋，不计分', 'only one side had moved: not counted'],
};

/** Why the game ended, in words, in `lang`. */
export function endReasonText(o: Pick<Outcome, 'reason' | 'results'>, detail: EndDetail | null | undefined, lang: Lang): string {
  const i = lang === 'en' ? 1 : 0;
  if (detail && DETAILS[detail]) return DETAILS[detail][i];
  if (o.reason === 'stalemate' && o.results.includes('win')) return TRAPPED[i];
  const r = REASONS[o.reason];
  return r ? r[i] : OTHER[i];
}

/** Every reason the server names (`EndReason`), for the tests. */
export const KNOWN_REASONS = Object.keys(REASONS);
export const KNOWN_DETAILS = Object.keys(DETAILS) as EndDetail[];
