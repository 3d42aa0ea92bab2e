// The offline pages (单机) need nothing of a session: the game picker, and the
// settings dialog switching the language. Playing 单机 itself — hot-seat and
// against the computer, on private tables of the server — is in computer.test.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, newPage, consoleErrors, shotPath } from './harness.mjs';

// These pages need nothing of the server but its pages, so any running one will do.
const web = useServerAndBrowser({ external: true });

test('the offline picker offers every game', async () => {
  const page = await newPage(web.browser, 'offline-pick', web.base);
  await page.goto(`${web.base}/#/offline/`);
  for (const g of ['chess', 'xiangqi', 'go', 'doudizhu']) await page.locator(`#offline-${g}`).waitFor();
  await page.click('#offline-chess');
  await page.locator('#offline[data-game="chess"] #offline-hotseat').waitFor();
  await page.locator('#offline-computer').waitFor();
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
