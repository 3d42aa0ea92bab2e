// Development helper: screenshots of a few pages of a running client (logged-in
// flag set, for the mock server). usage: node e2e/shot.mjs BASE_URL out-dir hash...
import { chromium } from 'playwright-core';
const [base, out, ...hashes] = process.argv.slice(2);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-quic', '--no-first-run', '--disable-component-update', '--disable-sync'] });
for (const [w, hgt, tag] of [[1280, 800, 'desktop'], [390, 844, 'phone']]) {
  const page = await browser.newPage({ viewport: { width: w, height: hgt }, deviceScaleFactor: 1, locale: 'zh-CN' });
  page.on('console', (m) => m.type() === 'error' && console.log('console error:', m.text()));
  page.on('pageerror', (e) => console.log('page error:', e.message));
  await page.goto(base + '/');
  await page.evaluate(() => localStorage.setItem('qiyuan.session', '1'));
  for (const hash of hashes) {
    await page.goto(base + '/' + hash);
    await page.reload();
    await page.waitForTimeout(700);
    const name = `${out}/${tag}-${hash.replace(/[^a-z0-9]+/gi, '_')}.png`;
    await page.screenshot({ path: name, fullPage: true });
    console.log(name);
  }
}
await browser.close();
