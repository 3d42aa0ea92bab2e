// The analysis board (研究) in a real browser against the real server: the engine's
// evaluation and best line appear and deepen, the board's moves are the server's
// legal ones, Go gets a best move and a territory estimate, and "analyse this
// game" marks the blunder of a prepared finished game in the move list. Issue 46:
// the menu leads to it; lines are in the game's own notation (SAN; Chinese in
// Chinese and WXF in English for xiangqi), not cut off; first/back/forward/last
// and the arrow keys; an evaluation bar, the best move's arrow; a finished game
// opens ready on its last position (the check glow on the mated king) from the
// result dialog and the replay, and its review draws a graph whose marks lead to
// their moves.
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

/** The text of the best line shown. */
const pvText = (page) => page.locator('#analysis-pv .pv-moves').textContent();

test('the menu leads to the board; SAN lines, the bar and the arrow; first, back, forward, last and the keys', async () => {
  const page = await newPage(web.browser, 'analysis-nav', web.base);
  await page.goto(`${web.base}/#/offline/`);
  await page.click('#nav-analysis');
  await page.waitForURL(/#\/analysis$/);
  await page.locator(`${PANEL} cg-board`).waitFor();
  for (const g of ['chess', 'xiangqi', 'go']) assert.equal(await page.locator(`#analysis-games a[data-game="${g}"]`).count(), 1, g);
  await page.locator('#analysis-eval .score').waitFor({ timeout: 15_000 });
  // The best line in SAN, numbered from the position: `1. e4 e5 2. Nf3`, never `e2e4`.
  await page.waitForFunction(() => (document.querySelector('#analysis-pv .pv-moves')?.textContent ?? '').split(' ').length >= 4, null, { timeout: 15_000 });
  const pv = await pvText(page);
  assert.match(pv, /^1\. (?:[NBRQK]?[a-h]?[1-8]?x?[a-h][1-8]|O-O)/, pv);
  assert.doesNotMatch(pv, /\b[a-h][1-8][a-h][1-8]\b/, pv);
  // The whole line is in view, below the board's top edge and inside the panel.
  const box = await page.locator('#analysis-pv').boundingBox();
  const panel = await page.locator(PANEL).boundingBox();
  assert.ok(box && panel && box.y >= panel.y && box.x + box.width <= panel.x + panel.width + 1, JSON.stringify({ box, panel }));
  assert.equal(await page.locator('#analysis-pv').evaluate((el) => el.scrollWidth <= el.clientWidth + 1), true, 'the line is not cut off');
  // The bar: white's share, between 0 and 1, drawn.
  const win = Number(await page.locator('#eval-bar').getAttribute('data-win'));
  assert.ok(win > 0 && win < 1, `eval bar ${win}`);
  assert.ok((await page.locator('#eval-bar .eval-fill').boundingBox()).height > 0);
  // The best move's arrow on the board.
  // (A straight up arrow's line has no width: attached, on a drawn layer.)
  await page.locator(`${PANEL} svg.cg-shapes line`).first().waitFor({ state: 'attached', timeout: 5000 });
  assert.ok((await page.locator(`${PANEL} svg.cg-shapes`).boundingBox()).width > 100);
  assert.match(await page.locator(`${PANEL} .board-wrap`).getAttribute('data-arrow'), /^[a-h][1-8][a-h][1-8]/);
  // Two moves, then along the line and back with the buttons and the keys.
  await clickMove(page, 'e2e4', 'chess', PANEL);
  await waitForMoveCount(page, 1, '#analysis-moves');
  await clickMove(page, 'e7e5', 'chess', PANEL);
  await waitForMoveCount(page, 2, '#analysis-moves');
  const active = () => page.locator('#analysis-moves .move.active').textContent().catch(() => '');
  const activeIs = (text) => page.waitForFunction((t) => (document.querySelector('#analysis-moves .move.active')?.textContent ?? '') === t, text, { timeout: 5000 });
  assert.equal(await active(), 'e5');
  assert.equal(await page.locator('#analysis-forward').isDisabled(), true);
  await page.click('#analysis-back');
  await activeIs('e4');
  await page.click('#analysis-first');
  await page.waitForFunction(() => !document.querySelector('#analysis-moves .move.active'));
  assert.deepEqual(await moveTexts(page, '#analysis-moves'), ['e4', 'e5'], 'the line stays');
  await page.click('#analysis-forward');
  await activeIs('e4');
  await page.click('#analysis-last');
  await activeIs('e5');
  await page.keyboard.press('ArrowLeft');
  await activeIs('e4');
  await page.keyboard.press('ArrowLeft');
  await page.waitForFunction(() => !document.querySelector('#analysis-moves .move.active'));
  await page.keyboard.press('ArrowRight');
  await activeIs('e4');
  await page.keyboard.press('End');
  await activeIs('e5');
  // Back one and another move: the line goes that way.
  await page.keyboard.press('ArrowLeft');
  await activeIs('e4');
  await clickMove(page, 'd7d5', 'chess', PANEL);
  await activeIs('d5');
  assert.deepEqual(await moveTexts(page, '#analysis-moves'), ['e4', 'd5']);
  await page.context().close();
});

test('xiangqi lines: Chinese notation in Chinese, WXF in English', async () => {
  const page = await newPage(web.browser, 'analysis-wxf', web.base);
  await page.goto(`${web.base}/#/analysis/xiangqi`);
  await page.locator('#analysis-eval .score').waitFor({ timeout: 15_000 });
  await page.waitForFunction(() => (document.querySelector('#analysis-pv .pv-moves')?.textContent ?? '').length >= 4);
  const zh = await pvText(page);
  assert.match(zh, /^1\. [车马相仕帅炮兵前后中一二三四五][一二三四五六七八九车马相仕炮兵][进退平][一二三四五六七八九]/, zh);
  await page.click('#open-settings');
  await page.locator('#settings-dialog').waitFor();
  await page.selectOption('#settings-dialog select[name="lang"]', 'en');
  await page.locator('#settings-dialog .modal-buttons .btn').click();
  await page.locator('#analysis-eval .score').waitFor({ timeout: 15_000 });
  await page.waitForFunction(() => /^1\. [KAEHRCP+-]/.test(document.querySelector('#analysis-pv .pv-moves')?.textContent ?? ''), null, { timeout: 15_000 });
  const en = await pvText(page);
  assert.match(en, /^1\. [KAEHRCP+-][1-9+-][+=-][1-9]( |$)/, en);
  assert.doesNotMatch(en, /[\u4e00-\u9fff]/, en);
  await page.click('#open-settings');
  await page.selectOption('#settings-dialog select[name="lang"]', 'zh-CN');
  await page.locator('#settings-dialog .modal-buttons .btn').click();
  await page.context().close();
});

test('Go: the best move is on the board', async () => {
  const page = await newPage(web.browser, 'analysis-go-best', web.base);
  await page.goto(`${web.base}/#/analysis/go`);
  await page.locator('#analysis-eval .score').waitFor({ timeout: 15_000 });
  await page.waitForFunction(() => /^[A-HJ-T]\d{1,2}$/.test(document.querySelector('#go-board')?.dataset.best ?? ''), null, { timeout: 15_000 });
  await page.locator('#go-board .shudan-ghost_good').first().waitFor();
  assert.ok(Number(await page.locator('#eval-bar').getAttribute('data-win')) > 0);
  await page.context().close();
});

test('"analyse this game": ready at once on the last position, the right king in check; the review marks the blunder and its graph leads to it', async () => {
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
  // The result dialog links to the analysis board.
  await page.locator('#result-dialog').waitFor();
  await page.locator('#result-dialog a.analysis-link').click();
  await page.waitForURL(new RegExp(`#/analysis/chess/${id}$`));
  // At once, without a click: the game's moves, its last one shown.
  await waitForMoveCount(page, 7, '#analysis-moves');
  await page.waitForFunction(() => (document.querySelector('#analysis-moves .move.active')?.textContent ?? '') === 'Qxf7#');
  assert.match(await page.locator('#analysis-eval').textContent(), /对局结束|Game over/);
  // The glow is on the mated king: black's, on e8.
  const check = page.locator(`${PANEL} cg-board square.check`);
  await check.waitFor();
  const at = (loc) => loc.evaluate((el) => el.style.transform);
  assert.equal(await at(check), await at(page.locator(`${PANEL} cg-board piece.king.black`)), 'the check glow is on the black king');
  assert.notEqual(await at(check), await at(page.locator(`${PANEL} cg-board piece.king.white`)));
  // The review: the blunder marked in the list and on the graph; its mark leads to it.
  await page.click('#analyse-game');
  const blunder = page.locator('#analysis-moves .move[data-judgement="blunder"]');
  await blunder.first().waitFor({ timeout: 30_000 });
  assert.equal(await blunder.count(), 1);
  assert.equal(await blunder.getAttribute('data-ply'), '6');
  assert.match(await blunder.textContent(), /^Nf6\?\?/);
  assert.deepEqual((await moveTexts(page, '#analysis-moves')).length, 7);
  assert.match(await page.locator('#review-summary [data-seat="1"]').textContent(), /1 (败着|blunders)/);
  await page.locator('#analysis-graph polyline').waitFor();
  const mark = page.locator('#analysis-graph-box .graph-mark[data-judgement="blunder"]');
  assert.equal(await mark.getAttribute('data-ply'), '6');
  await mark.click();
  await page.waitForFunction(() => document.querySelector('#analysis-moves .move.active')?.getAttribute('data-ply') === '6');
  // The replay links to it too.
  await page.goto(`${web.base}/#/replay/${encodeURIComponent(id)}`);
  assert.equal(await page.locator('#replay a.analysis-link').getAttribute('href'), `#/analysis/chess/${encodeURIComponent(id)}`);
  await page.context().close();
});

test('no console errors', () => {
  assert.deepEqual(consoleErrors, []);
});
