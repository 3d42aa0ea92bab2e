// A duplicate Doudizhu event (复式) in a real browser against the real server:
// the operator makes an organiser with `qiyuan admin grant`; the organiser
// creates the event on the organiser's page (#/new-event: three-seat game,
// kind 复式, one board — the fewest the server takes), six players register
// over the HTTP API and never come to their tables, so the computer plays
// their hands (托管, after the operator's short away time), the organiser starts
// the event from its page, and once it has ended the page shows the per-board
// comparison: the board at both tables, each seat's player, points and
// matchpoints, the matchpoints of each seat summing to n(n−1) = 2 over the two
// tables (docs/card-events.md, "Scoring: matchpoints"), and the JSON and CSV
// exports linked and agreeing with the page. On the way the form refuses a
// points event's final with a wrong number of finalists, in words; after it a
// table arbiter's referral is decided by the chief on the event's page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';

// The away time before 托管 plays for an absent player (the harness passes the
// environment to `qiyuan serve`): short, so that the test stays short.
process.env.QIYUAN_ESCAPE_GRACE = '1';

const { useServerAndBrowser, findBinary, register, stamp, newPage, consoleErrors, shotPath, apiCall, sessionOf, PASSWORD } = await import('./harness.mjs');

const web = useServerAndBrowser();

async function account(base, username) {
  const r = await fetch(`${base}/api/account/register`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ username, password: PASSWORD }) });
  const text = await r.text();
  assert.equal(r.status, 201, text);
  return JSON.parse(text).token;
}

test('a duplicate event from the organiser’s page to the comparison page', { timeout: 180_000 }, async () => {
  const base = web.base;
  const org = `dorg${stamp}`;
  const O = await newPage(web.browser, 'O', base);
  await register(O, base, org);
  const granted = spawnSync(findBinary(), ['admin', 'grant', org, 'organiser', '--data', web.data], { encoding: 'utf8' });
  assert.equal(granted.status, 0, granted.stderr);

  // The form: a three-seat game offers the kinds of events at tables of three.
  await O.goto(`${base}/#/new-event`);
  await O.locator('#event-form').waitFor();
  assert.ok(await O.locator('[data-field="kind"]').isHidden(), 'no kind for a two-seat game');
  await O.locator('#ev-game').selectOption('doudizhu');
  assert.ok(await O.locator('[data-field="kind"]').isVisible());
  const kinds = await O.locator('#ev-kind option').evaluateAll((os) => os.map((o) => o.value));
  assert.deepEqual(kinds, ['points', 'duplicate']);
  // A points event's final: both fields or neither, a multiple of 3 finalists.
  await O.locator('#ev-kind').selectOption('points');
  assert.ok(await O.locator('#ev-points-fields').isVisible());
  await O.fill('#ev-name', `积分 ${stamp}`);
  await O.fill('#ev-final-players', '4');
  await O.click('#ev-submit');
  assert.equal((await O.locator('#err-final_hands').textContent()).trim(), '决赛人数和局数须同时填写');
  await O.fill('#ev-final-hands', '2');
  await O.click('#ev-submit');
  assert.equal((await O.locator('#err-final_players').textContent()).trim(), '决赛人数为 3 到 999 之间 3 的倍数');
  assert.equal(new URL(O.url()).hash, '#/new-event');
  await O.locator('#ev-kind').selectOption('duplicate');
  assert.ok(await O.locator('[data-field="rounds"]').isHidden(), 'a duplicate event is one round');
  assert.ok(await O.locator('#ev-points-fields').isHidden());
  await O.fill('#ev-name', `复式 ${stamp}`);
  // Checked before sending, with the reason in words.
  await O.fill('#ev-hands', '0');
  await O.click('#ev-submit');
  assert.equal((await O.locator('#err-hands_per_round').textContent()).trim(), '牌副数为 1 到 50');
  assert.equal(new URL(O.url()).hash, '#/new-event');
  await O.fill('#ev-hands', '1');
  await O.locator('#ev-clock-kind').selectOption('qq');
  await O.fill('#ev-clock-game', '0');
  await O.fill('#ev-clock-per_move', '0');
  await O.fill('#ev-clock-countdown', '20');
  await O.click('#ev-submit');
  await O.waitForURL(/#\/event\//);
  const id = new URL(O.url()).hash.split('/')[2];
  await O.locator('#event-kind').waitFor();
  assert.match(await O.locator('#event-kind').textContent(), /复式赛/);

  const cfg = (await apiCall(base, await account(base, `dx${stamp}`), 'GET', `/api/event/${id}`)).body.config;
  assert.equal(cfg.kind, 'duplicate');
  assert.deepEqual(cfg.cards.hands_per_round, 1);
  assert.equal(cfg.rounds, 1);

  // Six players register over the API; none of them comes to a table.
  const names = [1, 2, 3, 4, 5, 6].map((i) => `dp${i}${stamp}`);
  for (const n of names) {
    const token = await account(base, n);
    const r = await apiCall(base, token, 'POST', `/api/event/${id}/register`, {});
    assert.equal(r.status, 200, JSON.stringify(r.body));
  }
  await O.locator('#org-start').waitFor();
  await O.click('#org-start');

  // The round's two tables appear; 托管 plays every hand to the end.
  await O.locator('.ev-card-table').nth(1).waitFor({ timeout: 30_000 });
  await O.waitForFunction(() => document.querySelector('#event-status')?.textContent?.includes('已结束'), null, { timeout: 150_000 });
  await O.locator('#event-comparison .ev-board').first().waitFor({ timeout: 10_000 });
  await O.screenshot({ path: shotPath('duplicate-comparison.png'), fullPage: true });

  // The page's comparison: the one board, at both tables, three seats.
  const boards = O.locator('#event-comparison .ev-board');
  assert.equal(await boards.count(), 1);
  assert.equal(await boards.first().getAttribute('data-published'), 'true');
  const seen = new Set();
  for (let seat = 0; seat < 3; seat++) {
    const row = boards.first().locator(`tr.ev-board-seat[data-seat="${seat}"]`);
    const mps = await row.locator('td.ev-mp').allTextContents();
    assert.equal(mps.length, 2, `seat ${seat}: both tables`);
    let sum = 0;
    for (const m of mps) {
      const [mp, top] = m.split('/').map(Number);
      assert.equal(top, 2, `seat ${seat}: the top is 2(n−1) with two tables`);
      sum += mp;
    }
    assert.equal(sum, 2, `seat ${seat}: matchpoints sum to n(n−1)`);
    const cells = await row.locator('td').allTextContents();
    // seat, then per table: player, cards, bid, points, matchpoints.
    seen.add(cells[1]).add(cells[6]);
    assert.ok(cells[2].length > 0 && cells[7].length > 0, `seat ${seat}: the cards held are shown`);
  }
  assert.deepEqual([...seen].sort(), [...names].sort(), 'every player once on the board');

  // The exports, linked from the page, agree with it.
  assert.equal(await O.locator('#event-json').getAttribute('href'), `/event/${id}.json`);
  assert.equal(await O.locator('#event-csv').getAttribute('href'), `/event/${id}.csv`);
  const cmp = await (await fetch(`${base}/event/${id}.json`)).json();
  assert.equal(cmp.boards.length, 1);
  assert.equal(cmp.boards[0].tables.length, 2);
  const csv = await (await fetch(`${base}/event/${id}.csv`)).text();
  assert.equal(csv.trim().split('\n').length, 1 + 6, csv);
  for (const t of cmp.boards[0].tables)
    for (const s of t.seats) {
      const cell = O.locator(`#event-comparison tr.ev-board-seat[data-seat="${s.seat}"] td.ev-mp[data-table="${t.table}"]`);
      assert.equal((await cell.textContent()).trim(), `${s.matchpoints}/${s.top}`);
    }
  // The standings in matchpoints: six players, the percentages of the top.
  assert.equal(await O.locator('#event-standings tr.ev-standing').count(), 6);
  assert.match(await O.locator('#event-standings tr.ev-standing .ev-percent').first().textContent(), /%$/);

  // A table arbiter's referral reaches the chief, who decides it on the page.
  const arb = `darb${stamp}`;
  const chief = `dchf${stamp}`;
  const arbToken = await account(base, arb);
  const C = await newPage(web.browser, 'C', base);
  await register(C, base, chief);
  for (const who of [arb, chief]) {
    const g = spawnSync(findBinary(), ['admin', 'grant', who, 'arbiter', '--data', web.data], { encoding: 'utf8' });
    assert.equal(g.status, 0, g.stderr);
  }
  const orgToken = await sessionOf(base, org);
  for (const [user, role] of [[arb, 'table'], [chief, 'chief']]) {
    const r = await apiCall(base, orgToken, 'POST', `/api/event/${id}/arbiters`, { user, role });
    assert.ok(r.status === 200 || r.status === 201, JSON.stringify(r.body));
  }
  const referred = await apiCall(base, arbToken, 'POST', `/api/event/${id}/action`, { kind: 'refer', player: names[0], reason: '疑似场外指导' });
  assert.ok(referred.status === 200 || referred.status === 201, JSON.stringify(referred.body));
  await C.goto(`${base}/#/event/${id}`);
  const open = C.locator(`#arbiter-referrals .ev-referral[data-referral="${referred.body.id}"]`);
  await open.waitFor();
  assert.match(await open.textContent(), /疑似场外指导/);
  await open.locator('input').fill('查无实据，不予处罚');
  await open.locator('.ev-decide').click();
  await open.waitFor({ state: 'detached' });
  const after = (await apiCall(base, orgToken, 'GET', `/api/event/${id}`)).body.referrals;
  const decided = after.find((r) => r.id === referred.body.id);
  assert.equal(decided.open, false);
  assert.equal(decided.decision.text, '查无实据，不予处罚');
  assert.equal(decided.decision.by, chief);

  const errors = consoleErrors.filter((e) => !/favicon/.test(e));
  assert.deepEqual(errors, []);
});
