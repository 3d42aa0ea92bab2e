// Settings follow the account (#14 point 6) and the language switch (point 3):
// a logged-in user's settings are kept by the server and come back in another
// browser; a guest's stay in this browser; the language switch relabels the page
// and the open settings dialog at once, reopening nothing (no new socket). Also
// (point 7) the music setting makes no AudioContext before the user has
// interacted with the page, so the browser logs no autoplay warnings.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, newPage, register, enterAsGuest, consoleErrors, shotPath, stamp, PASSWORD } from './harness.mjs';

const env = useServerAndBrowser();

async function logIn(page, base, name) {
  await page.goto(`${base}/#/login`);
  await page.fill('#username', name);
  await page.fill('#password', PASSWORD);
  await page.click('#submit');
  await page.locator('#lobby').waitFor();
}

test('settings follow the account to another browser; the language switch applies in place', { timeout: 90_000 }, async () => {
  const { base, browser } = env;
  const a = await newPage(browser, 'first-browser', base);
  const name = `st${stamp}`;
  await register(a, base, name);
  assert.equal((await a.locator('#nav-chess').textContent()).trim(), '国际象棋');
  let sockets = 0;
  a.on('websocket', () => sockets++);
  await a.waitForTimeout(300);
  const before = sockets;

  await a.click('#open-settings');
  await a.locator('#settings-dialog').waitFor();
  const saved = a.waitForResponse((r) => r.url().endsWith('/api/account/settings') && r.request().method() === 'PUT' && r.ok());
  await a.selectOption('#settings-dialog select[name="lang"]', 'en');
  // At once, with the dialog still open: the header, the page and the dialog itself.
  await a.locator('#nav-chess', { hasText: 'Chess' }).waitFor();
  assert.ok(await a.locator('#settings-dialog').isVisible(), 'the dialog stays open');
  assert.equal((await a.locator('#settings-dialog .modal-title').textContent()).trim(), 'Settings');
  assert.match(await a.locator('#lobby h2').textContent(), /Chess · Tables/);
  assert.match(await a.locator('#online-count').textContent(), /online/);
  assert.equal(await a.locator('html').getAttribute('lang'), 'en');
  await a.selectOption('#settings-dialog select[name="boardTheme"]', 'blue');
  assert.equal(await a.locator('body').getAttribute('data-board'), 'blue');
  const put = await saved;
  const body = JSON.parse(put.request().postData());
  assert.equal(body.lang, 'en');
  await a.screenshot({ path: shotPath('settings-language-switch.png') });
  await a.locator('#settings-dialog .modal-buttons .btn').click();
  await a.waitForTimeout(500);
  assert.equal(sockets, before, 'the language switch reopened no connection');
  assert.equal(await a.locator('.modal-overlay').count(), 0);
  // Let the last change reach the server.
  await a.waitForTimeout(600);

  // Another browser, the same account: the settings follow.
  const b = await newPage(browser, 'second-browser', base);
  await logIn(b, base, name);
  await b.locator('#nav-chess', { hasText: 'Chess' }).waitFor();
  assert.equal(await b.locator('body').getAttribute('data-board'), 'blue');
  await b.click('#open-settings');
  assert.equal(await b.locator('#settings-dialog select[name="lang"]').inputValue(), 'en');
  assert.equal(await b.locator('#settings-dialog select[name="boardTheme"]').inputValue(), 'blue');
  await b.screenshot({ path: shotPath('settings-second-browser.png') });
  // And back: a change there reaches the first browser's next visit.
  const saved2 = b.waitForResponse((r) => r.url().endsWith('/api/account/settings') && r.request().method() === 'PUT' && r.ok());
  await b.selectOption('#settings-dialog select[name="lang"]', 'zh-CN');
  await saved2;
  await b.locator('#nav-chess', { hasText: '国际象棋' }).waitFor();
  await a.reload();
  await a.locator('#nav-chess', { hasText: '国际象棋' }).waitFor();

  // A guest's settings stay in the browser, and never go to the server.
  const g = await newPage(browser, 'guest', base);
  const asked = [];
  g.on('request', (r) => r.url().includes('/api/account/settings') && asked.push(r.method()));
  await enterAsGuest(g, base);
  await g.click('#open-settings');
  await g.selectOption('#settings-dialog select[name="lang"]', 'en');
  await g.locator('#nav-chess', { hasText: 'Chess' }).waitFor();
  await g.locator('#settings-dialog .modal-buttons .btn').click();
  await g.reload();
  await g.locator('#nav-chess', { hasText: 'Chess' }).waitFor();
  assert.deepEqual(asked, []);
  assert.match(await g.evaluate(() => localStorage.getItem('qiyuan.settings.guest')), /"lang":"en"/);

  assert.deepEqual(consoleErrors, []);
});

test('background music waits for the first click: no AudioContext, so no autoplay warning, before it', { timeout: 60_000 }, async () => {
  const { base, browser } = env;
  const page = await newPage(browser, 'music', base);
  const warnings = [];
  page.on('console', (m) => (m.type() === 'warning' || m.type() === 'error') && /AudioContext|autoplay/i.test(m.text()) && warnings.push(m.text()));
  await page.addInitScript(() => {
    localStorage.setItem('qiyuan.settings.guest', JSON.stringify({ music: true, sound: true }));
    window.__audioContexts = 0;
    const Real = window.AudioContext;
    window.AudioContext = class extends Real {
      constructor(...args) {
        super(...args);
        window.__audioContexts++;
      }
    };
  });
  await page.goto(`${base}/#/login`);
  await page.locator('#login-form').waitFor();
  await page.waitForTimeout(2500);
  assert.equal(await page.evaluate(() => window.__audioContexts), 0, 'no audio before any interaction');
  await page.mouse.click(5, 300);
  await page.waitForFunction(() => window.__audioContexts === 1, null, { timeout: 5000 });
  await page.waitForTimeout(2000);
  assert.equal(await page.evaluate(() => window.__audioContexts), 1, 'one context, made once');
  assert.deepEqual(warnings, []);
  assert.deepEqual(consoleErrors, []);
});

test('a refusal reads in the interface language: the server code, not its English text', { timeout: 60_000 }, async () => {
  const { base, browser } = env;
  const p = await newPage(browser, 'refusals', base);
  const tryLogin = async () => {
    await p.fill('#username', `nobody${stamp}`);
    await p.fill('#password', 'not-the-password');
    await p.click('#submit');
    await p.locator('#form-error:not(:empty)').waitFor();
    return (await p.locator('#form-error').textContent()).trim();
  };
  await p.goto(`${base}/#/login`);
  assert.equal(await tryLogin(), '错误：用户名或密码错误');
  await p.click('#open-settings');
  await p.selectOption('#settings-dialog select[name="lang"]', 'en');
  await p.locator('#settings-dialog .modal-title', { hasText: 'Settings' }).waitFor();
  await p.locator('#settings-dialog .modal-buttons .btn').click();
  assert.equal(await tryLogin(), 'Error: Wrong username or password');
  await p.screenshot({ path: shotPath('refusal-in-english.png') });
  // The two refused logins are the only errors the page logged (the browser
  // reports each 401 on the console).
  const mine = consoleErrors.filter((e) => e.startsWith('[refusals]'));
  assert.ok(mine.length >= 2 && mine.every((e) => /401/.test(e)), mine.join('\n'));
  for (const e of mine) consoleErrors.splice(consoleErrors.indexOf(e), 1);
  assert.deepEqual(consoleErrors, []);
});
