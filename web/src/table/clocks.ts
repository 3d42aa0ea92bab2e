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
import { clockLabelText, qqLabels, warns, type ClockLabel } from './clockface';

/** What a seat's clock element shows: the big time, a line under it, and its state. */
export interface ClockFace {
  /** The big figure, in ms (main time, or the move's time once that is what is left). */
  big: number | null;
  sub: string;
  running: boolean;
  /** Under 10 s of a running limit (局时, 步时, 读秒, the clock's time). */
  low: boolean;
  /** What the big figure counts, and the line under it (a QQ clock: 局时 / 步时 / 读秒). */
  label?: ClockLabel | null;
  subLabel?: ClockLabel | null;
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
    return { big: perTurn ?? sc.main, sub: '', running: false, low: false, label: qqLabels(control, { main: sc.main, overtime: false, move_left: sc.move_left })?.big ?? null };
  }
  const running = c.running === seat && !c.paused;
  const left = seatTimeLeft(c, seat, serverNow);
  // In overtime the main time is spent: only the move's time runs.
  const main = sc.overtime ? sc.main : left.main;
  // A QQ seat whose 局时 ran out since the view was taken is in 读秒 now (the
  // server says so only with its next view).
  const overtime = sc.overtime || (c.control.kind === 'qq' && running && c.control.game > 0 && main <= 0);
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
    if (control.game === 0 || overtime) big = moveLeft;
    else sub = formatClock(moveLeft);
  }
  const labels = qqLabels(control, { main, overtime, move_left: moveLeft });
  return { big, sub, running, low: warns(control, running, main, moveLeft, overtime), label: labels?.big ?? null, subLabel: labels?.sub ?? null };
}

/** Renders `face` into a seat's clock element, touching the DOM only on a change. */
export function renderClock(el: HTMLElement, face: ClockFace, lang: 'zh' | 'en' = 'zh'): void {
  const cls = `clock${face.running ? ' running' : ''}${face.low ? ' low' : ''}`;
  if (el.className !== cls) el.className = cls;
  // The time shown, to the millisecond, for tests that compare browsers.
  const ms = face.big === null ? '' : String(Math.round(face.big));
  if (el.dataset.ms !== ms) el.dataset.ms = ms;
  const text = face.big === null ? '--:--' : formatClock(face.big);
  const key = `${text}|${face.sub}|${face.label ?? ''}|${face.subLabel ?? ''}|${lang}`;
  if (el.dataset.key === key) return;
  el.dataset.key = key;
  // The labels (局时 / 步时 / 读秒) are drawn by CSS from data attributes, so the
  // element's text stays the time alone.
  el.dataset.label = face.label ?? '';
  el.dataset.labelText = face.label ? clockLabelText(face.label, lang) : '';
  const sub = face.sub
    ? h('span.clock-sub', { 'data-label': face.subLabel ?? '', 'data-label-text': face.subLabel ? clockLabelText(face.subLabel, lang) : '' }, face.sub)
    : null;
  mount(el, text, sub);
}
