// The Doudizhu table's 托管 and words in a real browser against the real server:
// a game against the computer (the player bids first with the rocket in hand),
// the card log naming cards as players say them (叫3分, 小王 大王), the 托管
// button handing the seat to the computer and the seat showing it, 取消托管
// taking it back; two computer players named apart; and on a phone (390×844)
// the hand in larger overlapping cards, each readable and tappable, with the
// turn's buttons on the first screen.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, enterAsGuest, newPage, consoleErrors, shotPath } from './harness.mjs';
import { installSocket, req } from './finish.mjs';

const web = useServerAndBrowser();
/** Seat 0 holds the rocket and three bombs and bids first; the bottom is 7 2 2. */
const ROCKET_DEAL = '333344445555666BR/677788889999TTTTJ/JJJQQQQKKKKAAAA22/722 first 0';
const PHONE = { width: 390, height: 844 };

/** A game against two computer players from seat 0, on the table page. */
async function againstTheComputer(page) {
  await enterAsGuest(page, web.base);
  await installSocket(page);
  const { table } = await req(page, 'play_computer', {
    game: 'doudizhu',
    level: 'basic',
    colour: 0,
    time: { kind: 'qq', game: 0, per_move: 0, countdown: 30_000 },
    setup: { position: ROCKET_DEAL },
  });
  await page.goto(`${web.base}/#/table/${table}`);
  await page.locator('#bid-3').waitFor();
  return table;
}

/** The card log's rows as text, each without its player's name. */
async function logWords(page) {
  return page.locator('#moves .ddz-log-row').evaluateAll((rows) => rows.map((r) => r.lastChild.textContent.trim()));
}

test('托管 and 取消托管 by button, the seat marked, cards and computers named as players say them', { timeout: 90_000 }, async () => {
  const p = await newPage(web.browser, 'ddz-trust', web.base);
  const table = await againstTheComputer(p);
  // Two computer players, named apart by their seats.
  const names = await p.locator('.seat-card .player-name').allTextContents();
  assert.deepEqual(names.slice(1).map((n) => n.trim()), ['电脑（普通）乙', '电脑（普通）丙']);
  await p.click('#bid-3');
  await p.locator('#btn-play').waitFor();
  for (const rank of ['B', 'R']) await p.locator(`#ddz-hand .card[data-rank="${rank}"]`).click();
  await p.click('#btn-play');
  await p.waitForFunction(() => document.querySelectorAll('#moves .ddz-log-row').length >= 2);
  assert.deepEqual((await logWords(p)).slice(0, 2), ['叫3分', '小王 大王']);

  // 托管: the seat is marked, on the felt and on its seat card, and the computer plays it.
  assert.equal(await p.locator('#trustee-0').count(), 0);
  await p.click('#btn-trust');
  await p.locator('#trustee-0').waitFor();
  assert.equal((await p.locator('#trustee-0').textContent()).trim(), '托管');
  assert.match(await p.locator('#seat-0 .sub').textContent(), /托管/);
  await p.locator('#btn-untrust').waitFor();
  const mine = () => p.evaluate((t) => (window.__q.state(t)?.game?.moves ?? []).filter((m) => m.seat === 0).length, table);
  await p.waitForFunction((t) => (window.__q.state(t)?.game?.moves ?? []).filter((m) => m.seat === 0).length > 2 || window.__q.state(t)?.status === 'over', table, { timeout: 20_000 });
  const played = await mine();
  assert.ok(played > 2, `the computer played for the player: ${played}`);
  // 取消托管: the mark goes, the seat is the player's again.
  if ((await p.evaluate((t) => window.__q.state(t)?.status, table)) === 'playing') {
    await p.click('#btn-untrust');
    await p.locator('#btn-trust').waitFor();
    assert.equal(await p.locator('#trustee-0').count(), 0);
    assert.equal(await p.evaluate((t) => window.__q.state(t).seats[0].trustee, table), false);
  }
  // In English (a spectator whose browser speaks it) the bids and jokers read
  // as English players say them.
  const context = await web.browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
  const e = await context.newPage();
  e.on('pageerror', (err) => consoleErrors.push(`[ddz-en] page error: ${err.message}`));
  await enterAsGuest(e, web.base);
  await e.goto(`${web.base}/#/table/${table}`);
  await e.waitForFunction(() => document.querySelectorAll('#moves .ddz-log-row').length >= 2);
  assert.deepEqual((await logWords(e)).slice(0, 2), ['Bid 3', 'Little Joker Big Joker']);
  await context.close();
  await p.screenshot({ path: shotPath('doudizhu-trustee.png') });
  await req(p, 'resign', { table }).catch(() => undefined);
});

test('on a phone the hand is readable and tappable and the buttons are on the first screen', { timeout: 90_000 }, async () => {
  const p = await newPage(web.browser, 'ddz-phone', web.base, PHONE);
  const table = await againstTheComputer(p);
  const layout = () =>
    p.evaluate(() => {
      const box = (e) => e.getBoundingClientRect().toJSON();
      const rows = [...document.querySelectorAll('#ddz-hand .ddz-hand-row')].map((r) => [...r.querySelectorAll('.card')].map(box));
      const buttons = [...document.querySelectorAll('#ddz-buttons button')].map(box);
      return { rows, buttons, scrollY: window.scrollY, width: document.documentElement.scrollWidth };
    });
  const check = (r, what) => {
    const cards = r.rows.flat();
    assert.ok(cards.length >= 17, `${what}: the hand: ${cards.length}`);
    assert.equal(r.rows.length, 2, `${what}: two rows`);
    for (const row of r.rows) {
      for (const c of row) {
        assert.ok(c.width >= 56 && c.height >= 78, `${what}: a card of ${c.width}×${c.height}`);
        assert.ok(c.left >= 0 && c.right <= PHONE.width, `${what}: a card off the screen`);
      }
      // Each card shows at least 28 px of itself: its rank, and room for a finger.
      for (let k = 1; k < row.length; k++) assert.ok(row[k].left - row[k - 1].left >= 28, `${what}: cards ${row[k].left - row[k - 1].left} px apart`);
    }
    // The lower row leaves the upper row's ranks in view.
    const [upper, lower] = r.rows;
    assert.ok(lower[0].top - upper[0].top >= 36, `${what}: rows ${lower[0].top - upper[0].top} px apart`);
    assert.ok(r.buttons.length >= 1, `${what}: buttons`);
    for (const b of r.buttons) assert.ok(b.bottom <= PHONE.height && b.top >= 0, `${what}: a button off the first screen: ${JSON.stringify(b)}`);
    for (const c of cards) assert.ok(c.bottom <= PHONE.height, `${what}: a card below the first screen`);
    assert.ok(r.width <= PHONE.width, `${what}: wider than the phone: ${r.width}`);
  };
  await p.evaluate(() => window.scrollTo(0, 0));
  check(await layout(), 'bidding');
  // A card is tapped (picked) where it shows.
  await p.click('#bid-3');
  await p.locator('#btn-play').waitFor();
  await p.evaluate(() => window.scrollTo(0, 0));
  const r = await layout();
  check(r, 'play');
  const first = r.rows[0][0];
  await p.mouse.click(first.left + 10, first.top + 20);
  await p.locator('#ddz-hand .card.selected').first().waitFor();
  assert.equal(await p.locator('#ddz-hand .card.selected').count(), 1);
  await p.screenshot({ path: shotPath('doudizhu-phone-hand.png') });
  await req(p, 'resign', { table }).catch(() => undefined);
});

test('no console errors', () => {
  assert.deepEqual(consoleErrors, []);
});
