import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LagEstimator, seatTimeLeft, startPinging, MAX_SAMPLE_MS } from '../src/net/lag.ts';

// The server's clock reads 1000 ms ahead of the local one.
const AHEAD = 1000;

test('the offset comes from the midpoint of the fastest round trip', () => {
  const est = new LagEstimator();
  assert.equal(est.offset, null);
  assert.equal(est.rtt, null);
  assert.equal(est.report(), undefined);
  // A first guess from hello, replaced by the first pong.
  est.hello(5000 + AHEAD + 40, 5000);
  assert.equal(est.offset, AHEAD + 40);
  // Symmetric 100 ms round trip: the server read its clock at the midpoint.
  est.sent(10_000);
  est.pong(10_050 + AHEAD, 10_100);
  assert.equal(est.offset, AHEAD);
  assert.equal(est.rtt, 100);
  // A slow, lopsided sample (the pong held 300 ms) does not move the offset.
  est.sent(20_000);
  est.pong(20_010 + AHEAD, 20_310);
  assert.equal(est.offset, AHEAD);
  // The round trip is a running mean: (100 + 310) / 2 after two samples.
  assert.equal(est.rtt, 205);
  assert.equal(est.report(), 205);
  assert.equal(est.serverNow(30_000), 30_000 + AHEAD);
});

test('a pong with no ping outstanding is ignored; samples are capped', () => {
  const est = new LagEstimator();
  est.pong(123, 456);
  assert.equal(est.rtt, null);
  est.sent(0);
  est.pong(AHEAD + 30_000, 60_000);
  assert.equal(est.rtt, MAX_SAMPLE_MS);
  assert.equal(est.report(), MAX_SAMPLE_MS);
  // The same pong twice counts once.
  est.pong(AHEAD, 60_001);
  assert.equal(est.rtt, MAX_SAMPLE_MS);
});

test('the offset follows a drifting clock: only the last samples count', () => {
  const est = new LagEstimator(3);
  est.sent(0);
  est.pong(AHEAD + 5, 10); // rtt 10, offset AHEAD
  for (let i = 1; i <= 3; i++) {
    est.sent(i * 1000);
    est.pong(i * 1000 + 20 + AHEAD + 50, i * 1000 + 40); // rtt 40, offset AHEAD + 50
  }
  assert.equal(est.offset, AHEAD + 50);
});

test('the running seat is rendered from the view time, the other as sent', () => {
  const clock = {
    running: 0,
    paused: false,
    at: 100_000,
    seats: [
      { main: 60_000, move_left: 60_500 },
      { main: 42_000, move_left: 42_000 },
    ],
  };
  assert.deepEqual(seatTimeLeft(clock, 0, 101_500), { main: 58_500, moveLeft: 59_000 });
  assert.deepEqual(seatTimeLeft(clock, 1, 101_500), { main: 42_000, moveLeft: 42_000 });
  // Never more than the server said (a local clock behind the view), never below 0.
  assert.deepEqual(seatTimeLeft(clock, 0, 99_000), { main: 60_000, moveLeft: 60_500 });
  assert.deepEqual(seatTimeLeft(clock, 0, 200_000), { main: 0, moveLeft: 0 });
  // Paused: shown as sent; no clock: no move time.
  assert.deepEqual(seatTimeLeft({ ...clock, paused: true }, 0, 101_500), { main: 60_000, moveLeft: 60_500 });
  assert.deepEqual(seatTimeLeft({ ...clock, seats: [{ main: 0, move_left: null }] }, 0, 101_500), { main: 0, moveLeft: null });
});

test('the pinger pings at once, reports its lag, and pings again after each pong', async () => {
  const est = new LagEstimator();
  let t = 0;
  const sent: { lag?: number }[] = [];
  const p = startPinging(est, (d) => sent.push(d), 5, () => t);
  assert.deepEqual(sent, [{}]);
  t = 80;
  p.onPong(40 + AHEAD);
  assert.equal(est.rtt, 80);
  await new Promise((r) => setTimeout(r, 30));
  assert.deepEqual(sent[1], { lag: 80 });
  p.stop();
  const n = sent.length;
  await new Promise((r) => setTimeout(r, 30));
  assert.equal(sent.length, n);
});

test('a ping unanswered for the max lag makes the pinger give up once; a pong in time does not', async () => {
  const est = new LagEstimator();
  let t = 0;
  let dead = 0;
  const sent: { lag?: number }[] = [];
  // Pings every 5 ms, dead after 40 ms without a pong, on a clock the test moves.
  const p = startPinging(est, (d) => sent.push(d), 5, () => t, () => dead++, 40);
  // The first ping is answered in time: nothing.
  t = 10;
  p.onPong(10);
  await new Promise((r) => setTimeout(r, 60));
  assert.equal(dead, 0, 'a pong in time keeps the socket');
  // The next pings go unanswered, but the clock says only 30 ms passed (a
  // throttled timer fired late): not yet.
  t = 30;
  await new Promise((r) => setTimeout(r, 60));
  assert.equal(dead, 0, 'the clock, not the timer, measures the silence');
  // 40 ms after the first unanswered ping: dead, once, and no more pings.
  t = 100;
  await new Promise((r) => setTimeout(r, 80));
  assert.equal(dead, 1);
  const n = sent.length;
  await new Promise((r) => setTimeout(r, 30));
  assert.equal(sent.length, n, 'the pinging stopped');
  assert.equal(dead, 1);
  p.stop();
});
