// Feedback a player can trust at the table, two accounts and a guest against the
// real server in three browser contexts: rated or casual chosen in the lobby
// (guests casual); the time-setting handshake seen by both (the proposal shows
// when the second player sits, a decline reaches the proposer, agreement clears
// "waiting", preset names kept); 读入 shows the loaded position to both at once;
// the QQ clock says 局时 / 步时 / 读秒 and warns (flash and sound) in the last 10 s;
// the result says in words which limit ran out, and that a game where only one
// side moved does not count; no rematch once the opponent left. Fails on any
// console error; screenshots go to test-artifacts/feedback-*.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, register, enterAsGuest, stamp, newPage, clickMove, waitForMoveCount, consoleErrors, shotPath } from './harness.mjs';

const web = useServerAndBrowser();
let A;
let B;
let G;
let table;
// Black keeps a rook, so that White's flag loses (a lone king could not mate: a draw).
const LOADED = '4k2r/8/8/8/8/8/4P3/4K3 w - - 0 1';

const shot = (p, name) => p.screenshot({ path: shotPath(`feedback-${name}.png`) });
const status = (p) => p.locator('#status').textContent();

test('rated or casual is chosen in the lobby; guests play casual games', async () => {
  A = await newPage(web.browser, 'A', web.base);
  B = await newPage(web.browser, 'B', web.base);
  G = await newPage(web.browser, 'G', web.base);
  await register(A, web.base, `fbA${stamp}`);
  await register(B, web.base, `fbB${stamp}`);
  await enterAsGuest(G, web.base);
  await G.goto(`${web.base}/#/lobby/chess`);
  const guestChoice = G.locator('#rated-choice');
  assert.equal(await guestChoice.inputValue(), 'casual');
  assert.equal(await guestChoice.isDisabled(), true, 'a guest cannot choose rated');
  await A.goto(`${web.base}/#/lobby/chess`);
  assert.equal(await A.locator('#rated-choice').inputValue(), 'rated', 'accounts play rated by default');
  await A.locator('#rated-choice').selectOption('casual');
  await shot(A, 'lobby-rated-choice');
  await A.click('#new-table');
  await A.waitForURL(/#\/table\//);
  table = decodeURIComponent(A.url().split('#/table/')[1]);
  await A.locator('#seat-0').waitFor();
  if (await A.locator('#sit-0').count()) await A.click('#sit-0');
  await A.locator('#seat-0 .player-name').waitFor();
  assert.match(await A.locator('#time-control').textContent(), /友谊赛/);
  // The Go room's dialog asks too.
  await G.goto(`${web.base}/#/lobby/go`);
  await G.click('#new-table');
  await G.locator('#new-go-dialog #new-rated').waitFor();
  assert.equal(await G.locator('#new-go-dialog #new-rated').isDisabled(), true);
  await G.locator('#new-go-dialog .btn:not(.primary)').first().click();
});

test('the time settings: shown when the second player sits, declined, then agreed', async () => {
  // A proposes 比赛 while alone at the table.
  await A.click('#btn-time');
  await A.locator('#time-dialog label:has(input[value=match])').click();
  await A.locator('#time-dialog .btn.primary').click();
  await A.waitForFunction(() => /比赛/.test(document.querySelector('#time-control')?.textContent ?? ''));
  // B comes in and sits: the proposal is there, by its preset's name.
  await B.goto(`${web.base}/table/${encodeURIComponent(table)}`);
  await B.click('#sit-1');
  await B.locator('#offer-proposal').waitFor();
  assert.match(await B.locator('#offer-proposal-tc').textContent(), /比赛/);
  assert.match(await B.locator('#offer-proposal-tc').textContent(), /友谊赛/);
  await shot(B, 'proposal-on-sitting');
  assert.match(await status(A), /等待对方同意/);
  // B declines: A is told.
  await B.click('#decline-proposal');
  await A.waitForFunction(() => /对方不同意你的设置/.test(document.querySelector('#status')?.textContent ?? ''));
  await shot(A, 'proposal-declined');
  assert.equal(await B.locator('#offer-proposal').count(), 0);
  // A proposes 快棋; B agrees; "waiting for the opponent" goes.
  await A.click('#btn-time');
  await A.locator('#time-dialog label:has(input[value=quick])').click();
  await A.locator('#time-dialog .btn.primary').click();
  await B.locator('#time-accept-dialog').waitFor();
  assert.match(await B.locator('#proposed-tc').textContent(), /快棋/);
  await B.locator('#time-accept-dialog .btn.primary').click();
  await A.waitForFunction(() => !/等待对方同意|不同意/.test(document.querySelector('#status')?.textContent ?? ''));
  assert.match(await A.locator('#time-control').textContent(), /快棋/);
  await shot(A, 'proposal-agreed');
});

test('读入 shows the loaded position to both players at once', async () => {
  // A short QQ clock of A's own first: 局时 12 s, 步时 10 s, 读秒 12 s.
  await A.click('#btn-time');
  await A.locator('#time-dialog label:has(input[value=custom])').click();
  await A.locator('#time-dialog select[name=kind]').selectOption('qq');
  await A.fill('#time-dialog input[name=base]', '0.2');
  await A.fill('#time-dialog input[name=moveTime]', '10');
  await A.fill('#time-dialog input[name=countdown]', '12');
  await A.locator('#time-dialog .btn.primary').click();
  await B.locator('#time-accept-dialog').waitFor();
  await B.locator('#time-accept-dialog .btn.primary').click();
  await A.click('#btn-load');
  await A.fill('#load-input', LOADED);
  await A.locator('#load-dialog .btn.primary').click();
  for (const p of [A, B]) await p.locator(`.piece-main[data-fen="${LOADED}"]`).waitFor({ timeout: 5000 });
  // Four pieces on both boards.
  for (const p of [A, B]) assert.equal(await p.locator('cg-board piece').count(), 4, p.label);
  await B.locator('#time-accept-dialog').waitFor();
  assert.match(await B.locator('#proposed-setup').textContent(), /4k2r/);
  await shot(A, 'loaded-proposer');
  await shot(B, 'loaded-opponent');
  await B.locator('#time-accept-dialog .btn.primary').click();
  await A.click('#btn-start');
  await B.click('#btn-start');
  for (const p of [A, B]) await p.locator('#btn-resign:not([disabled])').waitFor();
});

test('the QQ clock says 局时, 步时 and 读秒, warns in the last 10 s, and the result names the limit', async () => {
  const clock = (p, seat) => p.locator(`#clock-${seat}`);
  // White (A) moves at once, Black (B) too: now A's 局时 runs with 步时 under it.
  await clickMove(A, 'e2e3', 'chess');
  await waitForMoveCount(B, 1);
  await waitForMoveCount(A, 1);
  const before = Number((await A.evaluate(() => document.documentElement.dataset.soundLowtime)) ?? 0);
  await clickMove(B, 'e8d7', 'chess');
  await waitForMoveCount(A, 2);
  await A.waitForFunction(() => document.querySelector('#clock-0')?.classList.contains('running'));
  assert.equal(await clock(A, 0).getAttribute('data-label'), 'main');
  assert.equal(await clock(A, 0).getAttribute('data-label-text'), '局时');
  assert.equal(await clock(A, 0).locator('.clock-sub').getAttribute('data-label-text'), '步时');
  // The spectator-side view (B) labels A's clock the same.
  assert.equal(await clock(B, 0).getAttribute('data-label-text'), '局时');
  await shot(A, 'clock-game-time');
  // 步时 (10 s) is in its last 10 s: the clock flashes and the warning sounds.
  await A.waitForFunction(() => document.querySelector('#clock-0')?.classList.contains('low'), null, { timeout: 6000 });
  assert.equal(await clock(A, 0).evaluate((el) => getComputedStyle(el).animationName), 'clock-flash');
  await A.waitForFunction((n) => Number(document.documentElement.dataset.soundLowtime ?? 0) > n, before);
  await shot(A, 'clock-move-time-warning');
  // A takes a while, so that less 局时 is left than 步时; B answers at once.
  await A.waitForTimeout(2500);
  await clickMove(A, 'e3e4', 'chess');
  await waitForMoveCount(B, 3);
  await clickMove(B, 'd7d6', 'chess');
  await waitForMoveCount(A, 4);
  // Now the move runs into 读秒: 局时 alone is labelled, and its last 10 s warn.
  await A.waitForFunction(() => document.querySelector('#clock-0')?.classList.contains('running'));
  assert.equal(await clock(A, 0).getAttribute('data-label'), 'main');
  assert.equal(await clock(A, 0).locator('.clock-sub[data-label=move]').count(), 0);
  await A.waitForFunction(() => document.querySelector('#clock-0')?.classList.contains('low'), null, { timeout: 3000 });
  await A.waitForFunction(() => document.querySelector('#clock-0')?.dataset.label === 'countdown', null, { timeout: 15_000 }).catch(async (e) => {
    throw new Error(`no 读秒: clock ${await clock(A, 0).evaluate((el) => JSON.stringify({ ...el.dataset, text: el.textContent }))}, status ${await status(A)}: ${e.message}`);
  });
  assert.equal(await clock(A, 0).getAttribute('data-label-text'), '读秒');
  // B's page turns its own copy of the clock: it reaches 读秒 on its own
  // tick, a moment before or after A's.
  await B.waitForFunction(() => document.querySelector('#clock-0')?.dataset.label === 'countdown', null, { timeout: 3000 });
  await shot(B, 'clock-countdown');
  await A.waitForFunction(() => document.querySelector('#clock-0')?.classList.contains('low'), null, { timeout: 15_000 });
  // 读秒 runs out: the result says so, in words, to both.
  for (const p of [A, B]) await p.locator('#result-dialog').waitFor({ timeout: 25_000 });
  assert.match(await A.locator('#result-text').textContent(), /你输了.*读秒超时/);
  assert.match(await B.locator('#result-text').textContent(), /你赢了.*读秒超时/);
  await shot(A, 'result-countdown');
});

test('only one side moved: not counted, said in words; no rematch once the opponent left', async () => {
  // Rematch: colours change, B is White now and moves; A lets 步时 run out.
  for (const p of [A, B]) await p.locator('#result-dialog .btn.primary').click();
  for (const p of [A, B]) await p.locator('#btn-resign:not([disabled])').waitFor();
  await B.locator('#seat-bottom #seat-0').waitFor();
  await clickMove(B, 'e2e4', 'chess');
  await waitForMoveCount(A, 1);
  for (const p of [A, B]) await p.locator('#result-dialog').waitFor({ timeout: 20_000 });
  for (const p of [A, B]) assert.equal(await p.locator('#result-text').textContent(), '只有一方走了棋，不计分');
  await shot(A, 'result-not-counted');
  // B leaves: A's dialog offers no rematch any more, and the button is off.
  assert.equal(await A.locator('#result-dialog .btn.primary').count(), 1, 'a rematch is offered while both sit');
  await B.locator('#result-dialog .btn:not(.primary)').last().click();
  await B.click('#btn-leave');
  // B sat in the first seat after the rematch's swap: it is empty now.
  await A.locator('#seat-0 .hint', { hasText: '空位' }).waitFor();
  await A.locator('#opponent-left').waitFor();
  assert.equal(await A.locator('#result-dialog .btn', { hasText: '再来一局' }).count(), 0);
  assert.equal(await A.locator('#btn-rematch:not([disabled]), #offer-rematch').count(), 0);
  await shot(A, 'no-rematch-after-leaving');
});

test('the result in English too', async () => {
  await A.locator('#result-dialog .btn').last().click();
  await A.click('#open-settings');
  await A.locator('#settings-dialog').waitFor();
  await A.selectOption('#settings-dialog select[name="lang"]', 'en');
  await A.waitForFunction(() => /only one side had moved: not counted/.test(document.querySelector('#status')?.textContent ?? ''));
  await shot(A, 'result-english');
  await A.selectOption('#settings-dialog select[name="lang"]', 'zh-CN');
  await A.locator('#settings-dialog .modal-buttons .btn').click();
  await A.waitForFunction(() => /只有一方走了棋/.test(document.querySelector('#status')?.textContent ?? ''));
});

test('the same shell at a Go table (the handshake, rated chosen) and a Doudizhu table (读秒 each turn)', async () => {
  // Go: A makes a rated table with the QQ match clock; B sits and is shown it.
  await A.goto(`${web.base}/#/lobby/go`);
  await A.click('#new-table');
  await A.locator('#new-go-dialog').waitFor();
  await A.locator('#new-go-dialog input[name=size][value="9"]').check();
  await A.locator('#new-clock').selectOption('qq');
  await A.locator('#new-go-dialog #new-rated').selectOption('rated');
  await A.locator('#new-go-dialog .btn.primary').click();
  await A.waitForURL(/#\/table\//);
  const go = decodeURIComponent(A.url().split('#/table/')[1]);
  await A.locator('#seat-0 .player-name').waitFor();
  assert.match(await A.locator('#time-control').textContent(), /计积分/);
  await B.goto(`${web.base}/table/${encodeURIComponent(go)}`);
  await B.click('#sit-1');
  await B.locator('#offer-proposal').waitFor();
  assert.match(await B.locator('#offer-proposal-tc').textContent(), /QQ 30\/5\/3.*计积分/);
  await B.click('#decline-proposal');
  await A.waitForFunction(() => /对方不同意你的设置/.test(document.querySelector('#status')?.textContent ?? ''));
  await shot(A, 'go-proposal-declined');
  // Agreeing clears the waiting line.
  await B.click('#btn-start');
  await A.waitForFunction(() => !/等待对方同意|不同意/.test(document.querySelector('#status')?.textContent ?? ''));
  await B.click('#btn-leave');
  await A.click('#btn-leave');
  // Doudizhu against two computer players: the per-turn clock is 读秒.
  await A.goto(`${web.base}/#/lobby/doudizhu`);
  await A.click('#new-table');
  await A.locator('#new-ddz-dialog').waitFor();
  assert.equal(await A.locator('#new-ddz-dialog #new-rated').inputValue(), 'casual');
  await A.locator('#new-ddz-dialog .btn.primary').click();
  await A.waitForURL(/#\/table\//);
  await A.locator('#seat-0 .player-name').waitFor();
  await A.click('#addbot-1-basic');
  await A.locator('#removebot-1').waitFor();
  await A.click('#addbot-2-basic');
  await A.locator('#removebot-2').waitFor();
  await A.click('#btn-start');
  await A.locator('#ddz-hand .card').nth(16).waitFor();
  for (const seat of [0, 1, 2]) {
    const c = A.locator(`#clock-${seat}`);
    assert.equal(await c.getAttribute('data-label'), 'countdown', `seat ${seat}`);
    assert.equal(await c.getAttribute('data-label-text'), '读秒');
  }
  await shot(A, 'doudizhu-countdown');
});

test('no console errors in any browser', () => {
  assert.deepEqual(consoleErrors, []);
});
