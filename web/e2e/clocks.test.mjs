// Clocks that never lie (#22): two players and a spectator, each in a browser of
// their own, at a chess table of the real server. Every page draws the clocks from
// the server's clock state and its own estimate of the server's time (pings), so
// sampled at one moment the three agree within 100 ms, several times in a game.
// A premove set while the opponent thinks is played the moment the opponent's
// move arrives: the server's record charges it next to nothing; a right click
// drops one. Each seat shows
// its connection indicator to everyone. Screenshots go to test-artifacts/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, register, stamp, newPage, clickMove, squareCenter, waitForMoveCount, consoleErrors, shotPath } from './harness.mjs';

const web = useServerAndBrowser();
const names = { A: `cla${stamp}`, B: `clb${stamp}`, C: `clc${stamp}` };
let A;
let B;
let C;

/**
 * Each page's displayed clocks at one moment: every page, on its next frame,
 * reads the milliseconds its clocks show (`data-ms`, what the text is drawn from)
 * and its own epoch time; the running clock is brought to the latest of those
 * times (it runs down 1 ms a ms), the stopped one is compared as shown.
 */
async function sample(running) {
  const reads = await Promise.all(
    [A, B, C].map((p) =>
      p.evaluate(
        () =>
          new Promise((resolve) =>
            requestAnimationFrame(() =>
              resolve({
                at: performance.timeOrigin + performance.now(),
                ms: [0, 1].map((s) => Number(document.querySelector(`#clock-${s}`)?.getAttribute('data-ms'))),
                cls: [0, 1].map((s) => document.querySelector(`#clock-${s}`)?.className ?? ''),
              }),
            ),
          ),
      ),
    ),
  );
  const latest = Math.max(...reads.map((r) => r.at));
  for (const r of reads) assert.match(r.cls[running], /running/, `seat ${running}'s clock runs in every page: ${JSON.stringify(reads)}`);
  const shown = reads.map((r) => [0, 1].map((s) => (s === running ? r.ms[s] - (latest - r.at) : r.ms[s])));
  for (const s of [0, 1]) {
    const xs = shown.map((x) => x[s]);
    for (const x of xs) assert.ok(Number.isFinite(x) && x > 0, `a clock shows a time: ${JSON.stringify(reads)}`);
    const spread = Math.max(...xs) - Math.min(...xs);
    assert.ok(spread <= 100, `seat ${s}'s clock differs by ${Math.round(spread)} ms between the browsers: ${JSON.stringify(xs)}`);
  }
  return { spread: [0, 1].map((s) => Math.max(...shown.map((x) => x[s])) - Math.min(...shown.map((x) => x[s]))), reads };
}

/** A opens a new table of `game` from its lobby and sits; B sits opposite. The table's id. */
async function seatBoth(game) {
  await A.goto(`${web.base}/#/lobby/${game}`);
  await A.click('#new-table');
  await A.waitForURL(/#\/table\//);
  const id = decodeURIComponent(A.url().split('#/table/')[1]);
  await A.locator('#seat-0').waitFor();
  if (await A.locator('#sit-0').count()) await A.click('#sit-0');
  await A.locator('#seat-0 .player-name').waitFor();
  await B.goto(`${web.base}/#/table/${encodeURIComponent(id)}`);
  await B.click('#sit-1');
  await B.locator('#seat-1 .player-name').waitFor();
  return id;
}

/** Both players agree to start; the game runs. */
async function startGame() {
  await A.click('#btn-start');
  await B.click('#btn-start');
  for (const p of [A, B]) await p.locator('#btn-resign:not([disabled])').waitFor();
}

/** The table as the server has it (`GET /api/game/{id}`). */
async function serverState(id) {
  return (await (await fetch(`${web.base}/api/game/${encodeURIComponent(id)}`)).json()).state;
}

test('two players and a spectator see the same clocks; a premove is played at once and costs nothing', { timeout: 120_000 }, async () => {
  A = await newPage(web.browser, 'A', web.base);
  B = await newPage(web.browser, 'B', web.base);
  C = await newPage(web.browser, 'C', web.base);
  await register(A, web.base, names.A);
  await register(B, web.base, names.B);
  await register(C, web.base, names.C);
  // Black turns premoves on.
  await B.click('#open-settings');
  await B.locator('#settings-dialog input[name=premove]').check();
  await B.locator('#settings-dialog .btn.primary').click();

  const id = await seatBoth('chess');
  await C.goto(`${web.base}/#/table/${encodeURIComponent(id)}`);
  await C.locator('#seat-1 .player-name').waitFor();
  await startGame();

  // White's clock runs from the start: three samples a moment apart.
  const spreads = [];
  await C.locator('#clock-0.running').waitFor();
  for (let i = 0; i < 3; i++) {
    await A.waitForTimeout(300);
    spreads.push((await sample(0)).spread);
  }
  await clickMove(A, 'e2e4', 'chess');
  for (const p of [A, B, C]) await waitForMoveCount(p, 1);
  await C.locator('#clock-1.running').waitFor();
  for (let i = 0; i < 3; i++) {
    await B.waitForTimeout(300);
    spreads.push((await sample(1)).spread);
  }
  await clickMove(B, 'e7e5', 'chess');
  for (const p of [A, B, C]) await waitForMoveCount(p, 2);
  await C.locator('#clock-0.running').waitFor();

  // A premove is dropped by a right click: d6, then cancelled.
  await clickMove(B, 'd7d6', 'chess');
  await B.locator('#table-page square.current-premove').first().waitFor();
  const d6 = await squareCenter(B, 'd6', 'chess');
  await B.mouse.click(d6.x, d6.y, { button: 'right' });
  await B.locator('#table-page square.current-premove').first().waitFor({ state: 'detached' });
  // Black premoves Nc6 while white thinks; white takes its time, then plays.
  await clickMove(B, 'b8c6', 'chess');
  await B.locator('#table-page square.current-premove').first().waitFor();
  await A.waitForTimeout(1200);
  spreads.push((await sample(0)).spread);
  await B.screenshot({ path: shotPath('clocks-premove-set.png') });
  await clickMove(A, 'g1f3', 'chess');
  // The premove went out as white's move arrived: no click of black's in between.
  for (const p of [A, B, C]) await waitForMoveCount(p, 4);
  const state = await serverState(id);
  const moves = state.game.moves;
  assert.deepEqual(moves.map((m) => m.action), ['e2e4', 'e7e5', 'g1f3', 'b8c6']);
  // Black's time: what it had after e5, less what it has after the premove.
  const premoveUse = moves[1].clock - moves[3].clock;
  const whiteThought = moves[0].clock - moves[2].clock;
  console.log(`premove clock use ${premoveUse} ms; white thought ${whiteThought} ms; clock spreads ${JSON.stringify(spreads.map((s) => s.map(Math.round)))}`);
  assert.ok(whiteThought >= 1000, `white thought a while: ${whiteThought} ms`);
  assert.ok(premoveUse >= 0 && premoveUse <= 150, `the premove cost ${premoveUse} ms of black's time`);
  await C.locator('#clock-0.running').waitFor();
  spreads.push((await sample(0)).spread);

  // The connection indicator: each seat's measured lag, shown to the spectator too.
  await C.locator('#lag-0[data-ms]:not([data-ms=""])').waitFor({ timeout: 15_000 });
  await C.locator('#lag-1[data-ms]:not([data-ms=""])').waitFor({ timeout: 15_000 });
  for (const p of [A, B, C]) assert.match(await p.locator('#lag-0').getAttribute('title'), /\d+ ms/);
  await C.screenshot({ path: shotPath('clocks-spectator.png') });
  await A.screenshot({ path: shotPath('clocks-white.png') });

  // The spectator switches to English mid-game: the table is relabelled in place,
  // with no new connection, and its clocks still agree with the players'.
  let sockets = 0;
  C.on('websocket', () => sockets++);
  await C.click('#open-settings');
  await C.selectOption('#settings-dialog select[name="lang"]', 'en');
  await C.locator('#table-title', { hasText: 'Chess' }).waitFor();
  await C.locator('#settings-dialog .modal-buttons .btn').click();
  assert.match(await C.locator('#seat-0 .sub').textContent(), /White/);
  assert.match(await C.locator('.moves-panel .panel-title').textContent(), /Moves/);
  assert.match(await C.locator('#btn-analysis').textContent(), /Analysis/);
  assert.match(await C.locator('#time-control').textContent(), /rated/);
  spreads.push((await sample(0)).spread);
  await B.click('#btn-resign');
  await B.locator('#resign-dialog .btn.primary').click();
  for (const p of [A, B, C]) await p.locator('#result-dialog').waitFor();
  assert.match(await C.locator('#result-text').textContent(), /White wins \(resignation\)/);
  assert.equal(sockets, 0, 'the language switch opened no socket');
  await C.screenshot({ path: shotPath('clocks-spectator-english.png') });
});

test('xiangqi: a premove is played the moment the opponent moves', { timeout: 90_000 }, async () => {
  for (const p of [A, B, C]) await p.locator('#result-dialog .btn:last-child').click();
  const id = await seatBoth('xiangqi');
  await startGame();
  await clickMove(A, 'h2e2', 'xiangqi');
  await waitForMoveCount(B, 1);
  await clickMove(B, 'h9g7', 'xiangqi');
  await waitForMoveCount(A, 2);
  // Black premoves its other horse while red thinks.
  await clickMove(B, 'b9c7', 'xiangqi');
  await B.locator('#table-page square.current-premove').first().waitFor();
  await A.waitForTimeout(800);
  await clickMove(A, 'b0c2', 'xiangqi');
  for (const p of [A, B]) await waitForMoveCount(p, 4);
  const moves = (await serverState(id)).game.moves;
  assert.deepEqual(moves.map((m) => m.action.replace('-', '').toLowerCase()), ['h2e2', 'h9g7', 'b0c2', 'b9c7']);
  const premoveUse = moves[1].clock - moves[3].clock;
  console.log(`xiangqi premove clock use ${premoveUse} ms`);
  assert.ok(premoveUse >= 0 && premoveUse <= 150, `the premove cost ${premoveUse} ms of black's time`);
  await B.screenshot({ path: shotPath('clocks-xiangqi-premove.png') });
  await B.click('#btn-resign');
  await B.locator('#resign-dialog .btn.primary').click();
  for (const p of [A, B]) await p.locator('#result-dialog').waitFor();
});

test('a premove made illegal by the opponent\'s move is not played', { timeout: 90_000 }, async () => {
  for (const p of [A, B]) await p.locator('#result-dialog .btn:last-child').click();
  const id = await seatBoth('chess');
  await startGame();
  await clickMove(A, 'e2e4', 'chess');
  await waitForMoveCount(B, 1);
  await clickMove(B, 'f7f5', 'chess');
  await waitForMoveCount(A, 2);
  // Black premoves Nc6; white's Qh5+ leaves it illegal (the king is in check).
  await clickMove(B, 'b8c6', 'chess');
  await B.locator('#table-page square.current-premove').first().waitFor();
  await clickMove(A, 'd1h5', 'chess');
  await waitForMoveCount(B, 3);
  await B.locator('#table-page square.current-premove').first().waitFor({ state: 'detached' });
  await B.waitForTimeout(500);
  assert.equal((await serverState(id)).game.moves.length, 3, 'the illegal premove was not sent');
  // Black answers the check by hand.
  await clickMove(B, 'g7g6', 'chess');
  for (const p of [A, B]) await waitForMoveCount(p, 4);
  await B.click('#btn-resign');
  await B.locator('#resign-dialog .btn.primary').click();
  for (const p of [A, B]) await p.locator('#result-dialog').waitFor();
});

test('no console errors in any browser', () => {
  assert.deepEqual(consoleErrors, []);
});
