// What a QQ clock is counting at a moment, in the words of the QQ game hall:
// 局时 (the game time) while it lasts, with 步时 (the time per move) counting down
// under it; 读秒 (the countdown) once 局时 is spent. And when to warn: the last
// 10 s of any limit that is running — 局时, 步时 or 读秒 (and a Fischer or
// byo-yomi clock's time). Pure: table/clocks.ts draws it.
import type { SeatClockView, TimeControl } from '../net/generated/protocol';

export type ClockLabel = 'main' | 'move' | 'countdown';

const WORDS: Record<ClockLabel, readonly [string, string]> = {
  main: ['局时', 'Game'],
  move: ['步时', 'Move'],
  countdown: ['读秒', 'Countdown'],
};

/** A label in `lang` (`zh` or `en`). */
export function clockLabelText(label: ClockLabel, lang: 'zh' | 'en'): string {
  return WORDS[label][lang === 'en' ? 1 : 0];
}

/** The limit the big figure counts (`big`) and the one under it (`sub`), for a QQ clock. */
export function qqLabels(control: TimeControl, sc: Pick<SeatClockView, 'main' | 'overtime' | 'move_left'>): { big: ClockLabel; sub: ClockLabel | null } | null {
  if (control.kind !== 'qq') return null;
  // No game time at all (a per-turn clock): every move is counted down.
  if (control.game === 0 || sc.overtime) return { big: 'countdown', sub: null };
  // 步时 limits the move when it is shorter than the 局时 left (the server's
  // rule: then the move's time left is under the game time left); otherwise
  // the move runs into 读秒 and the line under 局时 is the time until the flag.
  const moveLimited = control.per_move > 0 && sc.move_left !== null && sc.move_left < sc.main;
  return { big: 'main', sub: moveLimited ? 'move' : null };
}

/** The warning window: the last 10 s of a limit. */
export const WARN_MS = 10_000;

/**
 * Whether a running seat's clock warns now: some limit that is running has less
 * than 10 s left. `main` is the game time left, `moveLeft` the time before the
 * seat flags (null without a limit).
 */
export function warns(control: TimeControl, running: boolean, main: number, moveLeft: number | null, overtime: boolean): boolean {
  if (!running || control.kind === 'none' || control.kind === 'correspondence') return false;
  if (moveLeft !== null && moveLeft < WARN_MS) return true;
  // 局时 ending is a limit of its own even when 读秒 follows it.
  const mainRuns = control.kind === 'qq' ? control.game > 0 && !overtime : !overtime;
  return mainRuns && main < WARN_MS;
}
