// The phone (#14 point 5, #46) at 390×844: a game of chess, xiangqi and Go in
// progress shows the board, both clocks and the buttons that can act on the first
// screen, every room of the menu in reach, nothing wider than the phone; Go's
// move confirmation; at the end of a Doudizhu hand played out, the seats, the centre and the
// player's own area do not overlap, every revealed hand stays inside its seat
// with each card's rank in view.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, newPage, register, consoleErrors, shotPath, stamp } from './harness.mjs';
import { finishedGame, installSocket, req } from './finish.mjs';

const env = useServerAndBrowser();
const PHONE = { width: 390, height: 844 };

const overlap = (a, b) => a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;

test('at 390×844 the board and both clocks fit on one screen', { timeout: 90_000 }, async () => {
  const { base, browser } = env;
  const p = await newPage(browser, 'phone', base, PHONE);
  await register(p, base, `ph${stamp}`);
  await installSocket(p);
  for (const [game, options] of [['chess'], ['xiangqi'], ['go', { size: 19 }]]) {
    const { table } = await req(p, 'play_computer', { game, level: '1', colour: 0, ...(options ? { options } : {}) });
    await p.goto(`${base}/#/table/${table}`);
    const board = p.locator('cg-board, .shudan-goban').first();
    await board.waitFor();
    await p.locator('.clock').nth(1).waitFor();
    await p.locator('#table-page[data-status="playing"]').waitFor();
    await p.locator('#btn-resign:not([disabled])').waitFor();
    // The first screen (issue 46): the board, both clocks and every button that
    // can act now (resign, draw, ...) within 844 px without scrolling.
    await p.evaluate(() => window.scrollTo(0, 0));
    const first = await p.evaluate(() => {
      const box = (e) => ({ id: e.id || e.className, ...e.getBoundingClientRect().toJSON() });
      const shown = (e) => e.getBoundingClientRect().height > 0;
      return [document.querySelector('cg-board, .shudan-goban'), ...document.querySelectorAll('.clock'), ...document.querySelectorAll('#table-buttons button:not([disabled])')].filter(shown).map(box);
    });
    assert.ok(first.filter((b) => /^btn-/.test(b.id)).length >= 3, `${game}: the buttons that act: ${JSON.stringify(first.map((b) => b.id))}`);
    assert.ok(first.some((b) => b.id === 'btn-resign'), `${game}: resign is shown`);
    for (const b of first) assert.ok(b.top >= 0 && b.bottom <= PHONE.height && b.right <= PHONE.width + 1, `${game}: ${b.id} on the first screen: ${Math.round(b.top)}–${Math.round(b.bottom)}`);
    // The whole menu in reach: every room's link inside the screen, 比赛 included.
    const nav = await p.evaluate(() => [...document.querySelectorAll('.nav-link')].map((e) => ({ id: e.id, ...e.getBoundingClientRect().toJSON() })));
    assert.ok(nav.some((n) => n.id === 'nav-events'));
    for (const n of nav) assert.ok(n.left >= 0 && n.right <= PHONE.width && n.top >= 0 && n.bottom <= PHONE.height, `${game}: ${n.id} in reach: ${JSON.stringify(n)}`);
    await board.scrollIntoViewIfNeeded();
    const r = await p.evaluate(() => {
      const box = (e) => e.getBoundingClientRect().toJSON();
      const boardEl = document.querySelector('cg-board, .shudan-goban');
      const clocks = [...document.querySelectorAll('.clock')].filter((c) => c.getBoundingClientRect().height > 0);
      return { board: box(boardEl), clocks: clocks.map(box), width: document.documentElement.scrollWidth };
    });
    assert.ok(r.clocks.length >= 2, `${game}: two clocks: ${r.clocks.length}`);
    const all = [r.board, ...r.clocks];
    const top = Math.min(...all.map((x) => x.top));
    const bottom = Math.max(...all.map((x) => x.bottom));
    assert.ok(bottom - top <= PHONE.height, `${game}: board and clocks span ${Math.round(bottom - top)} px of ${PHONE.height}`);
    // Scrolled so that the first of them is at the top, all are on screen.
    await p.evaluate((y) => window.scrollBy(0, y - 4), top);
    const seen = await p.evaluate(() => [document.querySelector('cg-board, .shudan-goban'), ...document.querySelectorAll('.clock')].filter((e) => e.getBoundingClientRect().height > 0).map((e) => e.getBoundingClientRect().toJSON()));
    for (const b of seen) assert.ok(b.top >= 0 && b.bottom <= PHONE.height + 1 && b.left >= 0 && b.right <= PHONE.width + 1, `${game}: on screen: ${JSON.stringify(b)}`);
    assert.ok(r.width <= PHONE.width, `${game}: nothing wider than the phone: ${r.width}`);
    await p.screenshot({ path: shotPath(`phone-${game}.png`) });
    await req(p, 'resign', { table }).catch(() => undefined);
  }
  // 比赛 is a tap away.
  await p.goto(`${base}/#/lobby/chess`);
  await p.locator('#lobby').waitFor();
  await p.click('#nav-events');
  await p.locator('#events-page').waitFor();
  assert.deepEqual(consoleErrors, []);
});

test('Go on a phone: with move confirmation a tap shows the stone and a second tap plays it', { timeout: 60_000 }, async () => {
  const { base, browser } = env;
  const p = await newPage(browser, 'phone-go', base, PHONE);
  await register(p, base, `pg${stamp}`);
  // The setting, in the settings dialog.
  await p.click('#open-settings');
  const box = p.locator('#settings-dialog input[name="goConfirm"]');
  await box.check();
  await p.click('#settings-dialog .modal-buttons .btn');
  await installSocket(p);
  const { table } = await req(p, 'play_computer', { game: 'go', level: '1', colour: 0, options: { size: 19 } });
  await p.goto(`${base}/#/table/${table}`);
  await p.locator('#table-page[data-status="playing"]').waitFor();
  const point = p.locator('#go-board .shudan-vertex[data-x="3"][data-y="15"]'); // D4
  await point.click();
  await p.locator('#go-board[data-pending="D4"]').waitFor();
  await p.waitForTimeout(500);
  assert.equal(await p.locator('#moves .go-move').count(), 0, 'one tap plays nothing');
  await p.screenshot({ path: shotPath('phone-go-confirm.png') });
  // A tap elsewhere moves the stone shown; a second tap there plays it.
  const other = p.locator('#go-board .shudan-vertex[data-x="15"][data-y="3"]'); // Q16
  await other.click();
  await p.locator('#go-board[data-pending="Q16"]').waitFor();
  await other.click();
  await p.waitForFunction(() => document.querySelectorAll('#moves .go-move').length >= 1, null, { timeout: 10_000 });
  assert.match(await p.locator('#moves .go-move').first().textContent(), /Q16/);
  await req(p, 'resign', { table }).catch(() => undefined);
  assert.deepEqual(consoleErrors, []);
});

test('at 390×844 nothing overlaps at the end of a Doudizhu hand', { timeout: 90_000 }, async () => {
  const { base, browser } = env;
  const p = await newPage(browser, 'phone-ddz', base, PHONE);
  await register(p, base, `pd${stamp}`);
  const table = await finishedGame(p, { game: 'doudizhu', level: 'basic', turns: 60, strategy: 'doudizhu', deadlineMs: 60_000 });
  await p.goto(`${base}/#/table/${table}`);
  await p.locator('.ddz-felt').waitFor();
  // The result dialog, if the page shows one, is closed first (it covers the felt by design).
  await p.waitForTimeout(800);
  const close = p.locator('.modal-overlay .modal-buttons .btn').last();
  if (await close.count()) await close.click();
  const r = await p.evaluate(() => {
    const box = (e) => e.getBoundingClientRect().toJSON();
    const zones = [...document.querySelectorAll('.ddz-top > .ddz-seat, .ddz-centre, .ddz-me')].map((e) => ({ cls: e.className, ...box(e) }));
    const reveals = [...document.querySelectorAll('.ddz-seat .ddz-reveal')].map((rv) => {
      const seat = rv.closest('.ddz-seat');
      const cards = [...rv.querySelectorAll('.card')].map(box);
      return { seat: box(seat), box: box(rv), cards };
    });
    return { zones, reveals, felt: box(document.querySelector('.ddz-felt')), width: document.documentElement.scrollWidth };
  });
  const state = (await (await fetch(`${base}/api/game/${table}`)).json()).state;
  assert.equal(state.status, 'over', 'the hand was played to its end');
  assert.ok(r.zones.length >= 3, JSON.stringify(r.zones));
  for (let i = 0; i < r.zones.length; i++)
    for (let j = i + 1; j < r.zones.length; j++) assert.ok(!overlap(r.zones[i], r.zones[j]), `${r.zones[i].cls} overlaps ${r.zones[j].cls}`);
  for (const rv of r.reveals) {
    for (const c of rv.cards) {
      assert.ok(c.left >= rv.seat.left - 1 && c.right <= rv.seat.right + 1, `a revealed card leaves its seat: ${JSON.stringify(c)} in ${JSON.stringify(rv.seat)}`);
      assert.ok(c.left >= r.felt.left && c.right <= r.felt.right && c.bottom <= r.felt.bottom, 'a revealed card leaves the table');
    }
    // Each card's corner (its rank) stays in view: cards of a row are at least 16 px apart.
    const rows = new Map();
    for (const c of rv.cards) rows.set(Math.round(c.top), [...(rows.get(Math.round(c.top)) ?? []), c.left]);
    for (const lefts of rows.values()) {
      lefts.sort((x, y) => x - y);
      for (let k = 1; k < lefts.length; k++) assert.ok(lefts[k] - lefts[k - 1] >= 16, `ranks hidden: cards ${lefts[k] - lefts[k - 1]} px apart`);
    }
  }
  assert.ok(r.width <= PHONE.width, `nothing wider than the phone: ${r.width}`);
  await p.screenshot({ path: shotPath('phone-doudizhu-end.png'), fullPage: true });
  assert.deepEqual(consoleErrors, []);
});
