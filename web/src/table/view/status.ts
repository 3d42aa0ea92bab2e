// The status line under the seats: whose turn (the game's words, from its page),
// what the table waits for, or the result (`你赢了！（将死）1-0`), which the
// result dialog shows too.
import { t, type Key } from '../../i18n';
import { settings } from '../../settings';
import type { Outcome } from '../../net/generated/protocol';
import type { TableCtrl } from '../ctrl';
import { endReasonText } from '../reasons';

export function statusText<V>(ctrl: TableCtrl<V>): string {
  const s = ctrl.state!;
  const o = s.game?.outcome;
  if (s.status === 'over' && o) return resultLine(ctrl, o);
  if (s.status === 'playing' && s.game?.paused) return t('arbPaused');
  if (s.status === 'playing') return ctrl.hooks.status(ctrl.ctx!);
  const mine = ctrl.me();
  // Nobody to agree with yet: the table waits for a player, not for an answer.
  if (mine !== null && s.seats.some((x) => !x.user)) return t('waitingForPlayer');
  if (s.proposal && mine !== null && s.proposal.by === mine && !ctrl.allAccepted()) return ctrl.declined === s.proposal.id ? t('proposalDeclined') : t('waitingAccept');
  return t('waitingToStart');
}

/** A finished game's result for the viewer: who won, why, and the score if the game shows it. */
export function resultLine<V>(ctrl: TableCtrl<V>, o: Outcome): string {
  const mine = ctrl.me();
  const detail = ctrl.state?.game?.end_detail;
  const results: string[] = o.results ?? [];
  const sides = ctrl.sides;
  let who: string;
  const lang = settings().lang === 'en' ? 'en' : 'zh';
  // A game that did not count: why, alone (只有一方走了棋，不计分).
  if (results.every((r) => r === 'void')) return endReasonText(o, detail, lang);
  if (mine !== null && results[mine] === 'win') who = t('youWin');
  else if (mine !== null && results[mine] === 'loss') who = t('youLose');
  else if (sides.length) {
    // A game whose seats are sides (black and white): which side won.
    const winner = results.indexOf('win');
    who = winner >= 0 && sides[winner] ? t(`${sides[winner]}Wins` as Key) : t('drawResult');
  } else who = '';
  const score = o.score && o.score !== '*' && ctrl.hooks.showScore ? ` ${o.score}` : '';
  const reason = endReasonText(o, detail, lang);
  const open = document.documentElement.lang === 'en' ? ' (' : '（';
  const close = document.documentElement.lang === 'en' ? ')' : '）';
  return `${who}${open}${reason}${close}${score}`.trim();
}
