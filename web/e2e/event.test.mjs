// A Swiss event in a real browser against the real server: the operator makes
// an organiser with `qiyuan admin grant`, the organiser creates an event over
// the API, two people register on the event page, the round is paired and the
// page offers each their game; they play it at the tournament table (moves by
// clicking squares, an arbiter's warning and pause shown at both players'
// tables, then a resignation) and the event page's standings show the result.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { findBinary, launch, register, stamp, newPage, clickMove, waitForMoveCount, consoleErrors, shotPath, PASSWORD } from './harness.mjs';

let server;
let browser;
let base;
let data;
const bin = findBinary();

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

before(async () => {
  data = mkdtempSync(path.join(tmpdir(), 'qiyuan-e2e-event-'));
  const listen = `127.0.0.1:${await freePort()}`;
  server = spawn(bin, ['serve', '--listen', listen, '--data', data], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, RUST_LOG: 'warn' } });
  let log = '';
  server.stdout.on('data', (d) => (log += d));
  server.stderr.on('data', (d) => (log += d));
  base = `http://${listen}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      if ((await fetch(`${base}/api/health`)).ok) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) throw new Error(`no server:\n${log}`);
    await new Promise((r) => setTimeout(r, 150));
  }
  browser = await launch();
});

after(async () => {
  await browser?.close();
  server?.kill('SIGTERM');
  await new Promise((r) => server.on('exit', r));
  rmSync(data, { recursive: true, force: true });
});

async function call(token, method, p, body) {
  const r = await fetch(`${base}${p}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await r.text();
  return { status: r.status, body: text ? JSON.parse(text) : null };
}

test('register for an event, get paired, play the round, see the standings', { timeout: 90_000 }, async () => {
  const org = `org${stamp}`;
  const reg = await fetch(`${base}/api/account/register`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ username: org, password: PASSWORD }) });
  assert.equal(reg.status, 201);
  const { token } = await reg.json();
  const granted = spawnSync(bin, ['admin', 'grant', org, 'organiser', '--data', data], { encoding: 'utf8' });
  assert.equal(granted.status, 0, granted.stderr);
  assert.match(granted.stdout, /organiser granted/);
  const config = (startsAt, pause = 3600) => ({
    name: `周末快棋 ${stamp}`,
    game: 'chess',
    time: { kind: 'fischer', base: 300000, increment: 0 },
    rounds: 2,
    starts_at: startsAt,
    schedule: { kind: 'after_previous', pause_secs: pause },
    forfeit_secs: 120,
  });
  const created = await call(token, 'POST', '/api/events', config(Date.now() + 3_600_000));
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const id = created.body.id;
  // A table arbiter (监局裁判), named without a role.
  const arb = `arb${stamp}`;
  const arbReg = await fetch(`${base}/api/account/register`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ username: arb, password: PASSWORD }) });
  assert.equal(arbReg.status, 201);
  const arbToken = (await arbReg.json()).token;
  assert.equal(spawnSync(bin, ['admin', 'grant', arb, 'arbiter', '--data', data], { encoding: 'utf8' }).status, 0);
  const named = await call(token, 'POST', `/api/event/${id}/arbiters`, { user: arb });
  assert.equal(named.status, 200, JSON.stringify(named.body));
  assert.equal(named.body.role, 'table');

  const names = [`ann${stamp}`, `ben${stamp}`];
  const pages = [];
  for (const [i, name] of names.entries()) {
    const page = await newPage(browser, i ? 'B' : 'A', base);
    await register(page, base, name);
    await page.click('#nav-events');
    await page.locator(`.event-row[data-event="${id}"] .event-link`).click();
    await page.locator('#event-register').click();
    await page.locator('#event-withdraw').waitFor();
    pages.push(page);
  }
  await pages[0].locator('#event-players tr', { hasText: names[1] }).waitFor();
  // The organiser plays too (over the API): three players, a pairing bye.
  assert.equal((await call(token, 'POST', `/api/event/${id}/register`, {})).status, 200);
  await pages[0].screenshot({ path: shotPath('event-registration.png'), fullPage: true });

  // The organiser starts the event now: round 1 is paired, each player is offered their game.
  const startsAt = Date.now();
  const started = await call(token, 'PATCH', `/api/event/${id}`, config(startsAt));
  assert.equal(started.status, 200, JSON.stringify(started.body));
  for (const p of pages) await p.locator('#my-game').waitFor({ timeout: 15_000 });
  const ev = (await call(token, 'GET', `/api/event/${id}`)).body;
  const game = ev.rounds[0].games.find((g) => g.black !== null);
  assert.ok(ev.rounds[0].games.some((g) => g.black === null && g.white === org), 'the third player has the bye');
  const white = pages[names.indexOf(game.white)];
  const black = pages[names.indexOf(game.black)];
  // Black from the event page; White from the banner every page shows.
  await black.click('#my-game');
  await white.goto(`${base}/#/lobby/chess`);
  await white.locator('#event-game-banner').click();
  for (const p of [white, black]) await p.locator('#table-page cg-board').waitFor();
  assert.equal(await white.locator('#event-game-banner').count(), 0, 'no banner at the game itself');
  await clickMove(white, 'e2e4', 'chess');
  await waitForMoveCount(black, 1);
  await clickMove(black, 'e7e5', 'chess');
  await waitForMoveCount(white, 2);
  // An event's table offers no 悔棋 (its settings allow none) and no 再来一局.
  for (const p of [white, black]) {
    assert.equal(await p.locator('#btn-takeback').count(), 0, 'no takeback at an event table');
    assert.equal(await p.locator('#btn-rematch').count(), 0, 'no rematch at an event table');
  }
  // The arbiter warns White and stops the clocks: both players' tables show
  // the warning in the arbiter's record and the pause in the status line.
  const act = (body) => call(arbToken, 'POST', `/api/event/${id}/action`, { player: game.white, ...body });
  assert.equal((await act({ kind: 'warning', reason: 'spoke to a spectator' })).status, 200);
  assert.equal((await act({ kind: 'pause', reason: 'a dispute' })).status, 200);
  for (const p of [white, black]) {
    await p.locator('#arbiter-marks', { hasText: /警告 1|warnings 1/ }).waitFor();
    assert.match(await p.locator('#arbiter-marks').textContent(), new RegExp(game.white));
    await p.locator('#status', { hasText: /裁判暂停了比赛|The arbiter paused the game/ }).waitFor();
  }
  await black.screenshot({ path: shotPath('event-arbiter-marks.png'), fullPage: true });
  assert.equal((await act({ kind: 'resume', reason: 'settled' })).status, 200);
  await black.locator('#status', { hasText: /裁判暂停了比赛|The arbiter paused the game/ }).waitFor({ state: 'detached' });
  await black.locator('#btn-resign:not([disabled])').click();
  await black.locator('#resign-dialog .btn.primary').click();
  await white.locator('#result-dialog').waitFor();
  // Nor 再来一局: the result says the table plays this one game, not that
  // the opponent left, and no button asks for a rematch.
  await white.locator('#result-dialog #event-one-game').waitFor();
  assert.equal(await white.locator('#result-dialog #opponent-left').count(), 0);
  assert.equal(await white.locator('#result-dialog button', { hasText: /再来一局|Rematch/ }).count(), 0, 'no rematch in the result');
  assert.equal(await white.locator('#btn-rematch').count(), 0, 'no rematch button');

  // The event page: the result in the pairings and the standings.
  await white.goto(`${base}/#/event/${id}`);
  await white.locator(`.ev-standing[data-user="${game.white}"] .ev-score`, { hasText: '1' }).waitFor({ timeout: 15_000 });
  assert.equal((await white.locator(`.ev-standing[data-user="${game.black}"] .ev-score`).textContent()).trim(), '0');
  assert.match(await white.locator('#round-1 .ev-pairing .ev-result').first().textContent(), /1 – 0/);
  await white.screenshot({ path: shotPath('event-standings.png'), fullPage: true });
  // Between the rounds: the event's TRF, served and exported, pairs round 2 as
  // the server then does.
  const trf = await (await fetch(`${base}/event/${id}.trf`)).text();
  assert.match(trf, /XXR 2/);
  const exported = spawnSync(bin, ['swiss', 'export', id, '--data', data], { encoding: 'utf8' });
  assert.equal(exported.status, 0, exported.stderr);
  assert.equal(exported.stdout, trf);
  const file = path.join(data, 'event.trf');
  writeFileSync(file, trf);
  const paired = spawnSync(bin, ['swiss', 'pair', file], { encoding: 'utf8' });
  assert.equal(paired.status, 0, paired.stderr);
  // The organiser changes the schedule (allowed once running): round 2 now.
  assert.equal((await call(token, 'PATCH', `/api/event/${id}`, config(startsAt, 0))).status, 200);
  let round2;
  for (let i = 0; i < 100 && !round2; i++) {
    await new Promise((r) => setTimeout(r, 100));
    round2 = (await call(token, 'GET', `/api/event/${id}`)).body.rounds[1];
  }
  assert.ok(round2, 'round 2 paired');
  const rankOf = (u) => ev.players.find((p) => p.user === u).start_rank;
  const lines = round2.games.map((g) => (g.black === null ? `${rankOf(g.white)} 0` : `${rankOf(g.white)} ${rankOf(g.black)}`));
  assert.equal(paired.stdout, `${lines.length}\n${lines.join('\n')}\n`);
  assert.deepEqual(consoleErrors, []);
});
