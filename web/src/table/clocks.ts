// The seats' clocks of every table, in one place: what a seat's clock shows at a
// given server time, from the server's last `ClockView` (docs/protocol.md, "Lag and
// clocks"). The shell calls `renderClock` for each seat on every animation frame
// with the server's time as this browser estimates it (net/lag.ts), so that two
// browsers and a spectator show the same time. The client never flags: the
// server sends `ended`.
import { h, mount } from '../dom';
import { t } from '../i18n';
import { formatClock } from '../ui';
import { seatTimeLeft } from '../net/lag';
import type { ClockView } from '../net/generated/protocol';

/** What a seat's clock element shows: the big time, a line under it, and its state. */
export interface ClockFace {
  /** The big figure, in ms (main time, or the move's time once that is what is left). */
  big: number | null;
  sub: string;
  running: boolean;
  /** Under 10 s of the limit that flags the seat. */
  low: boolean;
}

/** What seat `seat`'s clock shows at server time `serverNow` while `playing`. */
export function clockFace(c: ClockView | null, seat: number, serverNow: number, playing: boolean): ClockFace {
  const sc = c?.seats[seat];
  const kind = c?.control.kind;
  if (!c || !sc || kind === 'none' || kind === undefined) return { big: null, sub: '', running: false, low: false };
  if (!playing) {
    // A per-turn clock (Doudizhu) shows its turn time between hands.
    const control = c.control;
    const perTurn = control.kind === 'qq' && control.game === 0 ? control.countdown : null;
    return { big: perTurn ?? sc.main, sub: '', running: false, low: false };
  }
  const running = c.running === seat && !c.paused;
  const left = seatTimeLeft(c, seat, serverNow);
  // In overtime the main time is spent: only the move's time runs.
  const main = sc.overtime ? sc.main : left.main;
  const moveLeft = left.moveLeft;
  let big = main;
  let sub = '';
  const control = c.control;
  if (control.kind === 'byo_yomi') {
    if (sc.overtime) {
      big = moveLeft ?? 0;
      sub = `${t('byoyomi').replace(/\(.*\)/, '')} ×${sc.periods}`;
    } else sub = `${sc.periods}×${formatClock(control.period)}`;
  } else if (control.kind === 'canadian') {
    if (sc.overtime) {
      big = moveLeft ?? 0;
      sub = `${sc.moves_left} / ${formatClock(control.period)}`;
    }
  } else if (control.kind === 'qq' && moveLeft !== null) {
    if (control.game === 0 || sc.overtime) big = moveLeft;
    else sub = formatClock(moveLeft);
  }
  // The limit that flags the seat first: the move's time when it is shorter.
  const limit = moveLeft !== null ? Math.min(big, moveLeft) : big;
  return { big, sub, running, low: running && limit < 10_000 };
}

/** Renders `face` into a seat's clock element, touching the DOM only on a change. */
export function renderClock(el: HTMLElement, face: ClockFace): void {
  const cls = `clock${face.running ? ' running' : ''}${face.low ? ' low' : ''}`;
  if (el.className !== cls) el.className = cls;
  // The time shown, to the millisecond, for tests that compare browsers.
  const ms = face.big === null ? '' : String(Math.round(face.big));
  if (el.dataset.ms !== ms) el.dataset.ms = ms;
  const text = face.big === null ? '--:--' : formatClock(face.big);
  const key = `${text}|${face.sub}`;
  if (el.dataset.key === key) return;
  el.dataset.key = key;
  mount(el, text, face.sub ? h('span.clock-sub', null, face.sub) : null);
}
