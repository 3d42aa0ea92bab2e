// Offline hot-seat play (单机) in a real browser: chess to checkmate with a
// promotion-free fool's mate, xiangqi to checkmate (double cannon, 重炮), a takeback,
// the analysis of nothing, and phone-sized screenshots.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, newPage, clickMove, waitForMoveCount, moveTexts, consoleErrors, shotPath } from './harness.mjs';

// Offline play needs nothing from the server but its pages, so any running one will do.
const web = useServerAndBrowser({ external: true });

test('offline chess: two players on one screen play to checkmate', async () => {
  const page = await newPage(web.browser, 'offline-chess', web.base);
  await page.goto(`${web.base}/#/offline/chess`);
  await page.locator('.chess-board cg-board').waitFor();
  const moves = ['f2f3', 'e7e5', 'g2g4'];
  for (const [i, m] of moves.entries()) {
    await clickMove(page, m, 'chess', '.board-col');
    await waitForMoveCount(page, i + 1);
  }
  // Take back g4 and play it again.
  await page.click('#btn-takeback');
  await waitForMoveCount(page, 2);
  await clickMove(page, 'g2g4', 'chess', '.board-col');
  await clickMove(page, 'd8h4', 'chess', '.board-col');
  await waitForMoveCount(page, 4);
  assert.deepEqual(await moveTexts(page), ['f3', 'e5', 'g4', 'Qh4#']);
  await page.locator('#result-dialog').waitFor();
  assert.match(await page.locator('#result-dialog .result-text').textContent(), /黑方胜|Black wins/);
  await page.screenshot({ path: shotPath('offline-chess-desktop.png') });
  await page.context().close();
});

test('offline chess: a position read in (读入), a promotion chosen in the dialog', async () => {
  const page = await newPage(web.browser, 'offline-promotion', web.base);
  await page.goto(`${web.base}/#/offline/chess`);
  await page.click('#btn-load');
  await page.fill('.record-input', '4k3/P7/8/8/8/8/8/4K3 w - - 0 1');
  await page.locator('.modal .btn.primary').click();
  await clickMove(page, 'a7a8n', 'chess', '.board-col');
  await waitForMoveCount(page, 1);
  assert.deepEqual(await moveTexts(page), ['a8=N']);
  await page.context().close();
});

test('offline xiangqi: red mates with two cannons, moves in Chinese notation', async () => {
  const page = await newPage(web.browser, 'offline-xiangqi', web.base, { width: 390, height: 844 });
  await page.goto(`${web.base}/#/offline/xiangqi`);
  await page.locator('.xiangqi-board cg-board').waitFor();
  const moves = ['h2e2', 'a6a5', 'e2e6', 'i6i5', 'b2b5', 'a5a4', 'b5e5'];
  for (const [i, m] of moves.entries()) {
    await clickMove(page, m, 'xiangqi', '.board-col');
    await waitForMoveCount(page, i + 1);
  }
  assert.deepEqual(await moveTexts(page), ['炮二平五', '卒１进１', '炮五进四', '卒９进１', '炮八进三', '卒１进１', '炮八平五']);
  await page.locator('#result-dialog').waitFor();
  assert.match(await page.locator('#result-dialog .result-text').textContent(), /红方胜|Red wins/);
  await page.screenshot({ path: shotPath('offline-xiangqi-phone.png') });
  await page.context().close();
});

test('settings: the language switches to English and back, and is kept', async () => {
  const page = await newPage(web.browser, 'settings', web.base);
  await page.goto(`${web.base}/#/offline/`);
  await page.click('#open-settings');
  await page.selectOption('#settings-dialog select[name=lang]', 'en');
  await page.locator('#settings-dialog .btn.primary').click();
  assert.equal((await page.locator('#nav-chess').textContent()).trim(), 'Chess');
  await page.reload();
  assert.equal((await page.locator('#nav-chess').textContent()).trim(), 'Chess');
  await page.click('#open-settings');
  await page.screenshot({ path: shotPath('settings-desktop.png') });
  await page.selectOption('#settings-dialog select[name=lang]', 'zh-CN');
  await page.locator('#settings-dialog .btn.primary').click();
  assert.equal((await page.locator('#nav-chess').textContent()).trim(), '国际象棋');
  await page.context().close();
});

test('no console errors offline', () => {
  assert.deepEqual(consoleErrors, []);
});
