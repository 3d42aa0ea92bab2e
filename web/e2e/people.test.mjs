// The page's channel to its person in a real browser: two players wait on the
// lobby page (and one of them looks at a profile) when the organiser starts
// their event; the moment the round is paired, each page is taken to its
// tournament table, as Lichess does — nothing polls for it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { findBinary, useServerAndBrowser, apiCall, sessionOf as loginOf, register, stamp, newPage, consoleErrors, shotPath, PASSWORD } from './harness.mjs';

// A server of its own: the organiser's role is granted on its data folder.
const env = useServerAndBrowser();
const bin = findBinary();
const call = (token, method, p, body) => apiCall(env.base, token, method, p, body);
const sessionOf = (username) => loginOf(env.base, username);

test('a player waiting on the lobby page is taken to their table when their round is paired', { timeout: 60_000 }, async () => {
  const { base, browser, data } = env;
  const org = `porg${stamp}`;
  const reg = await fetch(`${base}/api/account/register`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ username: org, password: PASSWORD }) });
  assert.equal(reg.status, 201);
  const { token } = await reg.json();
  const granted = spawnSync(bin, ['admin', 'grant', org, 'organiser', '--data', data], { encoding: 'utf8' });
  assert.equal(granted.status, 0, granted.stderr);
  const config = (startsAt) => ({
    name: `通知 ${stamp}`,
    game: 'chess',
    time: { kind: 'fischer', base: 300000, increment: 0 },
    rounds: 1,
    starts_at: startsAt,
    schedule: { kind: 'after_previous', pause_secs: 3600 },
    forfeit_secs: 120,
  });
  const created = await call(token, 'POST', '/api/events', config(Date.now() + 3_600_000));
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const id = created.body.id;

  const names = [`pann${stamp}`, `pben${stamp}`];
  const pages = [];
  for (const [i, name] of names.entries()) {
    const page = await newPage(browser, i ? 'B' : 'A', base);
    await register(page, base, name);
    const joined = await call(await sessionOf(name), 'POST', `/api/event/${id}/register`, {});
    assert.equal(joined.status, 200, JSON.stringify(joined.body));
    pages.push(page);
  }
  // A waits on the lobby page; B moved on from it to a profile page.
  await pages[0].locator('#lobby').waitFor();
  await pages[1].click('#me');
  await pages[1].waitForFunction(() => location.hash.startsWith('#/profile/'));

  const started = await call(token, 'PATCH', `/api/event/${id}`, config(Date.now()));
  assert.equal(started.status, 200, JSON.stringify(started.body));
  // The round's table, as the event tells it once paired.
  let board;
  for (let i = 0; i < 150 && !board?.table; i++) {
    await new Promise((r) => setTimeout(r, 100));
    board = (await call(token, 'GET', `/api/event/${id}`)).body.rounds[0]?.games[0];
  }
  assert.ok(board?.table, 'the round is paired with a table');
  for (const p of pages) {
    await p.waitForFunction((t) => location.hash === `#/table/${t}`, board.table, { timeout: 5_000 });
    await p.locator('#table-page cg-board').waitFor();
  }
  await pages[0].screenshot({ path: shotPath('people-round-paired.png'), fullPage: true });
  assert.deepEqual(consoleErrors, []);
});
