// The analysis board (研究) in a real browser against the real server: the engine's
// evaluation and best line appear and deepen, the board's moves are the server's
// legal ones, Go gets a best move and a territory estimate, and "analyse this
// game" marks the blunder of a prepared finished game in the move list.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, newPage, clickMove, waitForMoveCount, moveTexts, consoleErrors } from './harness.mjs';

const web = useServerAndBrowser();
const PANEL = '#analysis-panel';

/** The depth of the latest line shown. */
async function depth(page) {
  const d = await page.locator('#analysis-eval .score').getAttribute('data-depth').catch(() => null);
  return Number(d ?? 0);
}

test('chess: the evaluation and best line appear and deepen; moves are the server\'s', async () => {
  const page = await newPage(web.browser, 'analysis-chess', web.base);
  await page.goto(`${web.base}/#/analysis/chess`);
  await page.locator(`${PANEL} cg-board`).waitFor();
  await page.locator('#analysis-eval .score').waitFor({ timeout: 15_000 });
  const first = await depth(page);
  await page.waitForFunction((d) => Number(document.querySelector('#analysis-eval .score')?.getAttribute('data-depth') ?? 0) > d, first, { timeout: 15_000 });
  assert.match(await page.locator('#analysis-eval').textContent(), /^[+-]\d+\.\d\d$|^#-?\d+$/);
  assert.ok((await page.locator('#analysis-pv .pv-moves').textContent()).trim().length >= 4, 'a best line');
  // A move on the board: the server's position comes back with the move in SAN.
  await clickMove(page, 'e2e4', 'chess', PANEL);
  await waitForMoveCount(page, 1, '#analysis-moves');
  assert.deepEqual(await moveTexts(page, '#analysis-moves'), ['e4']);
  await page.locator('#analysis-eval .score').waitFor({ timeout: 15_000 });
  // An illegal move is not taken: the board offers only the legal ones.
  await clickMove(page, 'e4e6', 'chess', PANEL);
  await page.waitForTimeout(300);
  assert.deepEqual(await moveTexts(page, '#analysis-moves'), ['e4']);
  await page.click('#analysis-back');
  await waitForMoveCount(page, 0, '#analysis-moves').catch(() => undefined);
  await page.context().close();
});

test('xiangqi: an evaluation and a best line', async () => {
  const page = await newPage(web.browser, 'analysis-xiangqi', web.base);
  await page.goto(`${web.base}/#/analysis/xiangqi`);
  await page.locator(`${PANEL} cg-board piece`).first().waitFor();
  await page.locator('#analysis-eval .score').waitFor({ timeout: 15_000 });
  await clickMove(page, 'h2e2', 'xiangqi', PANEL);
  await waitForMoveCount(page, 1, '#analysis-moves');
  assert.deepEqual(await moveTexts(page, '#analysis-moves'), ['炮二平五']);
  await page.locator('#analysis-eval .score').waitFor({ timeout: 15_000 });
  assert.ok((await page.locator('#analysis-pv .pv-moves').textContent()).trim().length >= 4);
  await page.context().close();
});

test('Go: the best move and the territory it expects', async () => {
  const page = await newPage(web.browser, 'analysis-go', web.base);
  await page.goto(`${web.base}/#/analysis/go`);
  await page.locator('#go-board').waitFor();
  await page.locator('#analysis-eval .score').waitFor({ timeout: 15_000 });
  assert.match(await page.locator('#analysis-eval').textContent(), /\d+%/);
  assert.match((await page.locator('#analysis-pv .pv-moves').textContent()).trim(), /^[A-HJ-T]\d{1,2}$|^pass$/);
  await page.context().close();
});

test('"analyse this game" marks the blunder of a finished game', async () => {
  const page = await newPage(web.browser, 'review', web.base);
  await page.goto(`${web.base}/#/offline/chess`);
  // A prepared game, played hot-seat through the server (a guest session is
  // made by the page): 1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6?? 4. Qxf7#.
  await page.click('#offline-hotseat');
  await page.waitForURL(/#\/table\//);
  const id = decodeURIComponent(page.url().split('#/table/')[1]);
  await page.locator('#table-page .board-col cg-board').waitFor();
  const moves = ['e2e4', 'e7e5', 'd1h5', 'b8c6', 'f1c4', 'g8f6', 'h5f7'];
  for (const [i, m] of moves.entries()) {
    await clickMove(page, m, 'chess');
    await waitForMoveCount(page, i + 1);
  }
  await page.locator('#result-dialog').waitFor();
  await page.goto(`${web.base}/#/analysis/chess/${encodeURIComponent(id)}`);
  await page.click('#analyse-game');
  const blunder = page.locator('#analysis-moves .move[data-judgement="blunder"]');
  await blunder.first().waitFor({ timeout: 30_000 });
  assert.equal(await blunder.count(), 1);
  assert.equal(await blunder.getAttribute('data-ply'), '6');
  assert.match(await blunder.textContent(), /^Nf6\?\?/);
  assert.deepEqual((await moveTexts(page, '#analysis-moves')).length, 7);
  assert.match(await page.locator('#review-summary [data-seat="1"]').textContent(), /1 (败着|blunders)/);
  await page.context().close();
});

test('no console errors', () => {
  assert.deepEqual(consoleErrors, []);
});
