// The seats' clocks, drawn on every animation frame from the last reading and
// the server's time as this browser estimates it (net/lag.ts), so that every
// browser shows the same time; and at once whenever the seats are drawn again
// (which makes new, empty clock elements). The viewer's low-time warning
// sounds once each time its clock runs low.
import { play as sound } from '../../sound';
import { settings } from '../../settings';
import type { TableCtrl } from '../ctrl';
import { clockFace, renderClock } from '../clocks';

export interface ClockTicker {
  /** Draws every seat's clock now. */
  draw(): void;
  stop(): void;
}

/** Starts drawing the clocks of `ctrl`'s table found under `root`. */
export function clockTicker<V>(root: HTMLElement, ctrl: TableCtrl<V>): ClockTicker {
  let raf = 0;
  let lowWarned = false;
  const draw = () => {
    const state = ctrl.state;
    const c = state?.game?.clock ?? null;
    const serverNow = ctrl.serverNow();
    const playing = state?.status === 'playing';
    for (let seat = 0; seat < ctrl.hooks.seats; seat++) {
      const el = root.querySelector<HTMLElement>(`#clock-${seat}`);
      if (!el) continue;
      const face = clockFace(c, seat, serverNow, playing);
      renderClock(el, face, settings().lang === 'en' ? 'en' : 'zh');
      if (seat === ctrl.me()) {
        if (face.low && !lowWarned) sound('lowtime');
        lowWarned = face.low;
      }
    }
  };
  const tick = () => {
    draw();
    raf = requestAnimationFrame(tick);
  };
  raf = requestAnimationFrame(tick);
  return { draw, stop: () => cancelAnimationFrame(raf) };
}
