// The server's clock and this socket's round trip, estimated from `ping` /
// `pong` (docs/protocol.md, "Lag and clocks"), and clocks rendered from the
// server's time. Self-contained and pure: every function takes the times it
// needs, so the table can drive it from its own timers and tests can drive it
// by hand.
//
// - Offset: each `pong {server_time}` answering a `ping` sent at local `sent`
//   and received at local `received` says the server's clock read
//   `server_time` somewhere in between; taking the midpoint, the error is at
//   most half the round trip. The estimator keeps the sample of the smallest
//   round trip among the last `window` ones (so it follows a drifting clock).
// - Round trip: a decaying mean, as the server keeps one (the first samples
//   weigh 1/n, then each 15 %), each sample at most 10 s. `report()` is what
//   the client tells the server as its lag (`ping`'s and `move`'s `lag`).

/** No sample (nor report) counts for more than this, as on the server. */
export const MAX_SAMPLE_MS = 10_000;
/** How much of the previous round-trip estimate each sample keeps. */
export const DECAY = 0.85;

/** A local clock in epoch milliseconds that does not jump (not `Date.now`). */
export function localNow(): number {
  return performance.timeOrigin + performance.now();
}

interface OffsetSample {
  rtt: number;
  offset: number;
}

export class LagEstimator {
  private samples: OffsetSample[] = [];
  private n = 0;
  private mean = 0;
  private pending: number | null = null;

  constructor(private readonly window = 8) {}

  /** The mean round trip in ms, once a `pong` came back. */
  get rtt(): number | null {
    return this.n > 0 ? this.mean : null;
  }

  /** Server time − local time, in ms, once a `pong` came back. */
  get offset(): number | null {
    if (this.samples.length === 0) return null;
    let best = this.samples[0];
    for (const s of this.samples) if (s.rtt < best.rtt) best = s;
    return best.offset;
  }

  /** A first guess from `hello`'s `server_time`, until a `pong` comes. */
  hello(serverTime: number, received: number): void {
    if (this.samples.length === 0) this.samples.push({ rtt: Number.MAX_SAFE_INTEGER, offset: serverTime - received });
  }

  /** A `ping` went out at local time `sent`. */
  sent(sent: number): void {
    this.pending = sent;
  }

  /** Its `pong {server_time}` came back at local time `received`. A pong with
   * no ping outstanding is ignored. */
  pong(serverTime: number, received: number): void {
    const sent = this.pending;
    if (sent === null || received < sent) return;
    this.pending = null;
    const rtt = Math.min(received - sent, MAX_SAMPLE_MS);
    this.samples = this.samples.filter((s) => s.rtt !== Number.MAX_SAFE_INTEGER);
    this.samples.push({ rtt, offset: serverTime - (sent + received) / 2 });
    if (this.samples.length > this.window) this.samples.shift();
    this.n += 1;
    const mix = Math.max(1 / this.n, 1 - DECAY);
    this.mean = this.n === 1 ? rtt : this.mean + mix * (rtt - this.mean);
  }

  /** The server's time now, given local time `now` (local time until known). */
  serverNow(now: number): number {
    return now + (this.offset ?? 0);
  }

  /** What to report as this client's lag (`{"lag": ms}`), if measured. */
  report(): number | undefined {
    const rtt = this.rtt;
    return rtt === null ? undefined : Math.min(Math.round(rtt), MAX_SAMPLE_MS);
  }
}

/** The parts of a `ClockView` a clock is rendered from. */
export interface ClockLike {
  running: number | null;
  paused: boolean;
  at: number;
  seats: { main: number; move_left: number | null }[];
}

/** A seat's time as shown at server time `serverNow`: the running seat's time
 * runs from the view's `at` (never more than the server said, never below 0);
 * every other seat's is shown as sent. The client never flags: the server
 * sends `ended`. */
export function seatTimeLeft(clock: ClockLike, seat: number, serverNow: number): { main: number; moveLeft: number | null } {
  const s = clock.seats[seat];
  if (!s) return { main: 0, moveLeft: null };
  const running = clock.running === seat && !clock.paused;
  const elapsed = running ? Math.max(0, serverNow - clock.at) : 0;
  return {
    main: Math.max(0, s.main - elapsed),
    moveLeft: s.move_left === null ? null : Math.max(0, s.move_left - elapsed),
  };
}

/** A ping unanswered this long means the socket is dead, as Lichess's client
 * judges it (its `pingMaxLag`). */
export const MAX_LAG_MS = 9_000;

/** Pings every `everyMs` (after each pong, as Lichess's client does): sends
 * `{"t": "ping", "d": {"lag"?}}` through `send` and feeds the estimator. Call
 * `onPong` with each `pong`'s `server_time`; `stop` ends it. With `onDead`,
 * a ping left unanswered for `deadAfterMs` (measured on `now`, so a throttled
 * background tab does not count a late timer as silence) stops the pinging and
 * calls `onDead` once: the socket is dead though it never closed. */
export function startPinging(
  est: LagEstimator,
  send: (d: { lag?: number }) => void,
  everyMs = 2_000,
  now: () => number = localNow,
  onDead?: () => void,
  deadAfterMs = MAX_LAG_MS,
): { onPong: (serverTime: number) => void; stop: () => void } {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let watchdog: ReturnType<typeof setTimeout> | null = null;
  // When the oldest ping still unanswered went out.
  let unanswered: number | null = null;
  let stopped = false;
  const stop = () => {
    stopped = true;
    if (timer !== null) clearTimeout(timer);
    if (watchdog !== null) clearTimeout(watchdog);
  };
  const check = () => {
    watchdog = null;
    if (stopped || unanswered === null || !onDead) return;
    const waited = now() - unanswered;
    if (waited < deadAfterMs) {
      watchdog = setTimeout(check, deadAfterMs - waited);
      return;
    }
    stop();
    onDead();
  };
  const ping = () => {
    if (stopped) return;
    const at = now();
    est.sent(at);
    const lag = est.report();
    send(lag === undefined ? {} : { lag });
    if (unanswered === null) {
      unanswered = at;
      if (onDead) watchdog = setTimeout(check, deadAfterMs);
    }
    // A lost pong does not stop the pings.
    timer = setTimeout(ping, Math.max(everyMs, 5_000));
  };
  ping();
  return {
    onPong(serverTime: number) {
      est.pong(serverTime, now());
      unanswered = null;
      if (watchdog !== null) clearTimeout(watchdog);
      watchdog = null;
      if (timer !== null) clearTimeout(timer);
      if (!stopped) timer = setTimeout(ping, everyMs);
    },
    stop,
  };
}
