// What a newcomer meets at a table (issue 46), two guests at a chess table and a
// hot-seat game against the real server: an empty seat waits for a player, not
// for an answer; after 交换 nobody is asked for the settings again; a refused
// draw offer says so in the page's language with no "request sent"; a declined
// draw is told to the offerer; the result dialog links to the analysis board;
// 开始 after a game offers swapping sides as 再来一局 does; 读入 of a PGN fills
// the move list and says the game is casual; the promotion dialog shows its four
// pieces with their names.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, newPage, enterAsGuest, clickMove, waitForMoveCount, moveTexts, consoleErrors } from './harness.mjs';

const web = useServerAndBrowser();
let A;
let B;
let table;

const status = (p) => p.locator('#status').textContent();
/** The texts of the toasts on screen now. */
const toasts = (p) => p.locator('#toasts .toast').allTextContents();
const toastShows = (p, re) => p.waitForFunction((src) => [...document.querySelectorAll('#toasts .toast')].some((t) => new RegExp(src).test(t.textContent ?? '')), re.source, { timeout: 5000 });
const me = async (p) => (await p.locator('#me').textContent()).trim();
const state = async () => (await (await fetch(`${web.base}/api/game/${encodeURIComponent(table)}`)).json()).state;

test('an empty seat waits for a player; after 交换 nobody is asked for the settings again', async () => {
  A = await newPage(web.browser, 'A', web.base);
  B = await newPage(web.browser, 'B', web.base);
  await enterAsGuest(A, web.base);
  await enterAsGuest(B, web.base);
  await A.goto(`${web.base}/#/lobby/chess`);
  await A.click('#new-table');
  await A.waitForURL(/#\/table\//);
  table = decodeURIComponent(A.url().split('#/table/')[1]);
  if (await A.locator('#sit-0').count()) await A.click('#sit-0');
  await A.locator('#seat-0 .player-name').waitFor();
  await A.waitForFunction(() => /等待对手入座/.test(document.querySelector('#status')?.textContent ?? ''));
  assert.doesNotMatch(await status(A), /等待对方同意/);
  await B.goto(`${web.base}/#/table/${encodeURIComponent(table)}`);
  await B.click('#sit-1');
  await B.locator('#seat-1 .player-name').waitFor();
  // A proposes 快棋; B agrees in the dialog (asked once: no bar beside it).
  await A.click('#btn-time');
  await A.locator('#time-dialog label:has(input[value=quick])').click();
  await A.locator('#time-dialog .btn.primary').click();
  await B.locator('#time-accept-dialog').waitFor();
  assert.equal(await B.locator('#offer-proposal').count(), 0, 'the proposal is asked once, in the dialog');
  await B.locator('#time-accept-dialog .btn.primary').click();
  await A.waitForFunction(() => !/等待对方同意/.test(document.querySelector('#status')?.textContent ?? ''));
  // 交换: A asks, B agrees; the sides change and the settings stay agreed.
  await A.click('#btn-swap');
  await toastShows(A, /请求已发送/);
  await B.locator('#offer-swap').waitFor();
  await B.click('#accept-swap');
  await A.locator('#seat-bottom #seat-1').waitFor();
  await A.waitForTimeout(800);
  for (const p of [A, B]) {
    assert.equal(await p.locator('#time-accept-dialog').count(), 0, 'no dialog asks again');
    assert.equal(await p.locator('#offer-proposal').count(), 0, 'no bar asks again');
    assert.doesNotMatch(await status(p), /等待对方同意/);
  }
  const s = await state();
  assert.equal(s.seats[1].user, await me(A));
  assert.equal(s.proposal.by, 1, 'the proposal stays A\'s');
  for (const p of [B, A]) await p.click('#btn-start');
  for (const p of [A, B]) await p.locator('#btn-resign:not([disabled])').waitFor();
});

test('a refused draw offer: no "request sent", the reason in Chinese; a decline is told to the offerer', async () => {
  // A plays black and has not moved: a draw is offered right after one's own move.
  // (The swap's toast goes first.)
  await A.waitForFunction(() => !document.querySelector('#toasts .toast'), null, { timeout: 6000 });
  await A.click('#btn-draw');
  await toastShows(A, /现在不允许这样做/);
  await A.waitForTimeout(500);
  const shown = await toasts(A);
  assert.ok(!shown.some((t) => /请求已发送/.test(t)), `no success toast on a refusal: ${shown}`);
  assert.ok(!shown.some((t) => /[A-Za-z]{4,}/.test(t)), `no English in the Chinese page: ${shown}`);
  // White moves and offers; Black declines; White is told.
  await clickMove(B, 'e2e4', 'chess');
  await waitForMoveCount(A, 1);
  await B.click('#btn-draw');
  await toastShows(B, /请求已发送/);
  await A.locator('#offer-draw').waitFor();
  await A.click('#decline-draw');
  await toastShows(B, /对方拒绝了和棋/);
});

test('the result links to the analysis board; 开始 after a game offers to swap sides', async () => {
  await B.click('#btn-resign');
  await B.locator('#resign-dialog .btn.primary').click();
  for (const p of [A, B]) await p.locator('#result-dialog').waitFor();
  assert.match(await A.locator('#result-dialog a.analysis-link').getAttribute('href'), new RegExp(`^#/analysis/chess/${table}$`));
  for (const p of [A, B]) await p.locator('#result-dialog .btn:last-child').click();
  // A presses 开始: asked whether to swap, as 再来一局 does; A swaps.
  await A.click('#btn-start');
  await A.locator('#start-dialog').waitFor();
  await A.locator('#start-dialog .btn.primary').click();
  await B.locator('#offer-rematch').waitFor();
  // B's 开始 agrees to it at once: the sides change and the game starts.
  await B.click('#btn-start');
  for (const p of [A, B]) await p.locator('#btn-resign:not([disabled])').waitFor();
  assert.equal((await state()).seats[0].user, await me(A), 'A plays white again');
  await A.click('#btn-resign');
  await A.locator('#resign-dialog .btn.primary').click();
  for (const p of [A, B]) await p.locator('#result-dialog').waitFor();
  for (const p of [A, B]) await p.locator('#result-dialog .btn:last-child').click();
});

test('读入 of a PGN fills the move list and says the game is casual', async () => {
  await A.click('#btn-load');
  await A.locator('#load-dialog #load-casual').waitFor();
  assert.match(await A.locator('#load-casual').textContent(), /不计积分/);
  await A.fill('#load-input', '[Event "?"]\n\n1. e4 e5 2. Nf3 Nc6 *');
  await A.locator('#load-dialog .btn.primary').click();
  await toastShows(A, /不计积分/);
  await B.locator('#time-accept-dialog').waitFor();
  await B.locator('#time-accept-dialog .btn.primary').click();
  // 开始, keeping the sides.
  for (const p of [A, B]) {
    await p.click('#btn-start');
    await p.locator('#start-dialog').waitFor();
    await p.locator('#start-dialog .btn:not(.primary)').click();
  }
  for (const p of [A, B]) await p.locator('#btn-resign:not([disabled])').waitFor();
  for (const p of [A, B]) assert.deepEqual(await moveTexts(p), ['e4', 'e5', 'Nf3', 'Nc6'], p.label);
  // The game goes on from there: White's third move is the fifth in the list.
  await clickMove(A, 'f1c4', 'chess');
  await waitForMoveCount(B, 5);
  assert.equal((await moveTexts(B))[4], 'Bc4');
  assert.equal((await state()).game.rated, false);
});

test('the promotion dialog shows its four pieces, named in the page\'s language', async () => {
  const page = await newPage(web.browser, 'promotion', web.base);
  await page.goto(`${web.base}/#/offline/chess`);
  await page.click('#offline-hotseat');
  await page.waitForURL(/#\/table\//);
  await page.locator('#table-page .board-col cg-board').waitFor();
  const moves = ['a2a4', 'h7h5', 'a4a5', 'h5h4', 'a5a6', 'h4h3', 'a6b7', 'h3g2'];
  for (const [i, m] of moves.entries()) {
    await clickMove(page, m, 'chess');
    await waitForMoveCount(page, i + 1);
  }
  await clickMove(page, 'b7a8', 'chess');
  await page.locator('.promotion').waitFor();
  const choices = page.locator('.promotion .promo-choice');
  assert.equal(await choices.count(), 4);
  assert.deepEqual(await page.locator('.promotion .promo-label').allTextContents(), ['后', '车', '象', '马']);
  for (let i = 0; i < 4; i++) {
    const piece = choices.nth(i).locator('piece');
    const look = await piece.evaluate((el) => {
      const cs = getComputedStyle(el);
      const r = el.getBoundingClientRect();
      return { image: cs.backgroundImage, w: r.width, h: r.height, visible: cs.visibility !== 'hidden' && cs.display !== 'none' };
    });
    assert.match(look.image, /^url\(/, `piece ${i} has its image`);
    assert.ok(look.w >= 24 && look.h >= 24 && look.visible, JSON.stringify(look));
  }
  await page.locator('.promotion .promo-q').click();
  await waitForMoveCount(page, 9);
  assert.equal((await moveTexts(page))[8], 'bxa8=Q');
  await page.context().close();
});

test('the profile\'s games link to the analysis board', async () => {
  const name = await me(A);
  await A.goto(`${web.base}/#/profile/${encodeURIComponent(name)}`);
  await A.locator('#history').waitFor();
  const link = A.locator(`#history tr[data-game="${table}"] a.analysis-link`);
  assert.equal(await link.getAttribute('href'), `#/analysis/chess/${table}`);
  await link.click();
  await A.waitForURL(new RegExp(`#/analysis/chess/${table}$`));
  await waitForMoveCount(A, 1, '#analysis-moves');
});

test('no console errors', () => {
  assert.deepEqual(consoleErrors, []);
});
