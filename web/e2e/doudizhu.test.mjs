// Doudizhu in the browser against the real server: three people sit at a table made
// from the Doudizhu room, bid with the buttons, and play two whole hands by picking
// cards (the hint picks a legal play) or passing; a spectator watches. Nobody's
// page shows another player's cards before the end; the end shows each hand's
// score the same to everyone, and the table's running totals add the hands up.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, register, enterAsGuest, stamp, newPage, consoleErrors, shotPath } from './harness.mjs';

const web = useServerAndBrowser();
let P = [];
let S;

/** The seat each page sits in (from its own seat card). */
async function seatOf(page) {
  return Number(await page.locator('.seat-card.mine').getAttribute('data-seat'));
}

/** Cards shown face up on a page outside its own hand and the public areas. */
async function foreignCards(page) {
  return page.locator('.ddz-seat .ddz-reveal .card').count();
}

async function playHand(shots) {
  let turns = 0;
  let shotMid = false;
  for (;;) {
    if (await P[0].locator('#result-dialog').count()) break;
    let acted = false;
    for (const p of P) {
      const buttons = p.locator('#ddz-buttons button');
      if (!(await buttons.count())) continue;
      // Before the end nobody sees another hand.
      assert.equal(await foreignCards(p), 0, `[${p.label}] sees another player's cards`);
      const logRows = await p.locator('#moves .ddz-log-row').count();
      if (await p.locator('#bid-1').count()) {
        // Only bids above the highest so far are offered.
        const high = Number(await p.locator('#ddz-bid').textContent());
        for (const b of [1, 2, 3]) assert.equal(await p.locator(`#bid-${b}`).isEnabled(), b > high, `bid ${b} after ${high}`);
        const bid = p.locator('#ddz-buttons button[id^="bid-"]:not([id="bid-pass"]):not([disabled])').first();
        if (shots && !turns) await p.screenshot({ path: shotPath('doudizhu-bidding.png') });
        await bid.click();
      } else if (!(await p.locator('#btn-hint').isEnabled())) {
        // Nothing beats the last play.
        await p.click('#btn-pass-play');
      } else {
        await p.click('#btn-hint');
        const play = p.locator('#btn-play');
        await p.locator('#ddz-hand .card.selected').first().waitFor();
        if (shots && !shotMid && turns > 8) {
          shotMid = true;
          await p.screenshot({ path: shotPath('doudizhu-play.png') });
          await S.screenshot({ path: shotPath('doudizhu-spectator.png') });
        }
        assert.equal(await play.isEnabled(), true, `[${p.label}] the hint picks a legal play`);
        await play.click();
      }
      turns++;
      // The action reaches the page (the log grows).
      await p.waitForFunction((n) => document.querySelectorAll('#moves .ddz-log-row').length > n, logRows, { timeout: 10_000 });
      acted = true;
      break;
    }
    if (!acted) await P[0].waitForTimeout(50);
    assert.ok(turns < 200, 'the hand ends');
  }
  for (const p of [...P, S]) await p.locator('#result-dialog').waitFor();
  return turns;
}

async function scores(page) {
  const out = [];
  for (let s = 0; s < 3; s++) out.push((await page.locator(`#hand-score-${s}`).textContent()).trim());
  return out;
}

async function totalsByName(page) {
  const rows = await page.locator('.ddz-score-table tbody tr').all();
  const out = {};
  for (const r of rows) {
    const cells = await r.locator('td').allTextContents();
    out[cells[0]] = Number(cells[3]);
  }
  return out;
}

test('three players bid and play two hands of Doudizhu; scores and totals agree', async () => {
  P = [await newPage(web.browser, 'A', web.base), await newPage(web.browser, 'B', web.base), await newPage(web.browser, 'C', web.base)];
  const names = [`dong${stamp}`, `nan${stamp}`, `xi${stamp}`];
  for (let i = 0; i < 3; i++) await register(P[i], web.base, names[i]);
  S = await newPage(web.browser, 'S', web.base);
  await enterAsGuest(S, web.base);

  const [A, B, C] = P;
  await A.goto(`${web.base}/#/lobby/doudizhu`);
  await A.click('#new-table');
  await A.locator('#new-ddz-dialog').waitFor();
  await A.locator('#new-clock').selectOption('match');
  await A.locator('#new-ddz-dialog .btn.primary').click();
  await A.waitForURL(/#\/table\//);
  const id = decodeURIComponent(A.url().split('#/table/')[1]);
  await A.locator('#seat-0 .player-name').waitFor();
  await B.goto(`${web.base}/#/lobby/doudizhu`);
  await B.locator(`.table-card[data-table="${id}"] .join-table`).click();
  // 坐下 in the lobby took the seat.
  await B.locator('#seat-1 .player-name').waitFor();
  await C.goto(`${web.base}/#/table/${encodeURIComponent(id)}`);
  await C.locator('#sit-2').click();
  await C.locator('#seat-2 .player-name').waitFor();
  await S.goto(`${web.base}/#/lobby/doudizhu`);
  await S.locator(`.table-card[data-table="${id}"]`).waitFor();
  await S.screenshot({ path: shotPath('doudizhu-lobby.png') });
  await S.goto(`${web.base}/#/table/${encodeURIComponent(id)}`);
  await S.locator('#seat-2 .player-name').waitFor();
  for (const p of P) await p.click('#btn-start');
  for (const p of P) await p.locator('#ddz-hand .card').nth(16).waitFor();
  // Each player holds 17 cards, sorted high to low; the others show counts only.
  for (const p of P) {
    assert.equal(await p.locator('#ddz-hand .card').count(), 17);
    const ranks = await p.locator('#ddz-hand .card').evaluateAll((els) => els.map((e) => e.dataset.rank));
    const order = '3456789TJQKA2BR';
    for (let i = 1; i < ranks.length; i++) assert.ok(order.indexOf(ranks[i - 1]) >= order.indexOf(ranks[i]), `sorted: ${ranks}`);
    const me = await seatOf(p);
    for (let s = 0; s < 3; s++) if (s !== me) assert.equal(await p.locator(`#count-${s}`).getAttribute('data-count'), '17');
  }
  assert.equal(await S.locator('#ddz-hand').count(), 0, 'a spectator has no hand');

  const turns = await playHand(true);
  assert.ok(turns > 3, `a whole hand (${turns} turns)`);
  // The end: everyone sees the same scores; the other hands are shown.
  await A.screenshot({ path: shotPath('doudizhu-result.png') });
  const first = await scores(S);
  for (const p of P) assert.deepEqual(await scores(p), first);
  const pts = first.map(Number);
  assert.equal(pts.reduce((a, b) => a + b, 0), 0, `zero-sum: ${first}`);
  assert.ok(pts.some((x) => x !== 0));
  assert.ok((await S.locator('.ddz-reveal').count()) >= 2, 'hands revealed at the end');
  const bottomCards = await S.locator('#ddz-bottom .card:not(.back)').count();
  assert.equal(bottomCards, 3, 'the bottom cards are shown');
  const nameBySeat = [];
  for (let s = 0; s < 3; s++) nameBySeat.push((await S.locator(`#seat-${s} .player-name`).textContent()).trim());
  const after1 = {};
  nameBySeat.forEach((n, s) => (after1[n] = pts[s]));
  await S.waitForFunction((want) => {
    const rows = [...document.querySelectorAll('.ddz-score-table tbody tr')];
    return rows.length === 3 && rows.every((r) => Number(r.children[3].textContent) === want[r.children[0].textContent]);
  }, after1, { timeout: 10_000 });

  // A second hand: everyone asks for it; seats move on; totals add up.
  for (const p of P) await p.locator('#result-dialog .btn.primary').click();
  for (const p of P) await p.locator('#ddz-hand .card').nth(16).waitFor();
  for (const p of [...P, S]) {
    const dlg = p.locator('#result-dialog .btn:last-child');
    if (await dlg.count()) await dlg.click();
  }
  await playHand(false);
  const second = (await scores(S)).map(Number);
  const names2 = [];
  for (let s = 0; s < 3; s++) names2.push((await S.locator(`#seat-${s} .player-name`).textContent()).trim());
  const want = { ...after1 };
  names2.forEach((n, s) => (want[n] = (want[n] ?? 0) + second[s]));
  for (const p of [...P, S])
    await p.waitForFunction((w) => {
      const rows = [...document.querySelectorAll('.ddz-score-table tbody tr')];
      return rows.length === 3 && rows.every((r) => Number(r.children[3].textContent) === w[r.children[0].textContent]);
    }, want, { timeout: 10_000 }).catch(async () => {
      throw new Error(`[${p.label}] totals ${JSON.stringify(await totalsByName(p))}, want ${JSON.stringify(want)}`);
    });
  for (const p of [...P, S]) await p.locator('#result-dialog .btn:last-child').click();
  await S.screenshot({ path: shotPath('doudizhu-table-desktop.png') });
  await A.setViewportSize({ width: 390, height: 844 });
  await A.screenshot({ path: shotPath('doudizhu-table-phone.png'), fullPage: true });
});

test('no console errors', () => {
  assert.deepEqual(consoleErrors, []);
});
