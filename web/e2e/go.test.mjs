// Go in the browser against the real server: two people make a 9x9 table from the
// lobby (Japanese byo-yomi), play by clicking the board to two passes, mark the
// dead stone (changing their mind once), accept, and both see the same count; a
// spectator sees it too. Screenshots of the lobby, the marking and the result go
// to test-artifacts/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, register, enterAsGuest, stamp, newPage, consoleErrors, shotPath } from './harness.mjs';

const web = useServerAndBrowser();
let A;
let B;
let C;
const names = { A: `kuro${stamp}`, B: `shiro${stamp}` };
const LETTERS = 'ABCDEFGHJKLMNOPQRST';

/** The Shudan vertex of a GTP point on a board of `size`. */
function vertex(page, gtp, size = 9) {
  const x = LETTERS.indexOf(gtp[0]);
  const y = size - Number(gtp.slice(1));
  return page.locator(`#go-board .shudan-vertex[data-x="${x}"][data-y="${y}"]`);
}

async function movesSeen(page) {
  return page.locator('#moves .go-move').count();
}

async function allSee(n) {
  for (const p of [A, B, C]) {
    await p
      .waitForFunction((count) => document.querySelectorAll('#moves .go-move').length === count, n, { timeout: 10_000 })
      .catch(async () => {
        throw new Error(`[${p.label}] expected ${n} moves, see ${await movesSeen(p)}`);
      });
  }
}

test('two players play 9x9 Go to the count; both see the same result', async () => {
  A = await newPage(web.browser, 'A', web.base);
  B = await newPage(web.browser, 'B', web.base);
  C = await newPage(web.browser, 'C', web.base);
  await register(A, web.base, names.A);
  await register(B, web.base, names.B);
  await enterAsGuest(C, web.base);

  // A makes a 9x9 table with Japanese byo-yomi from the Go room.
  await A.goto(`${web.base}/#/lobby/go`);
  await A.locator('#lobby[data-game="go"]').waitFor();
  await A.click('#new-table');
  await A.locator('#new-go-dialog').waitFor();
  await A.locator('#new-go-dialog input[name=size][value="9"]').check();
  await A.locator('#new-clock').selectOption('byo_yomi_fast');
  await A.screenshot({ path: shotPath('go-new-table.png') });
  await A.locator('#new-go-dialog .btn.primary').click();
  await A.waitForURL(/#\/table\//);
  const id = decodeURIComponent(A.url().split('#/table/')[1]);
  await A.locator('#seat-0 .player-name').waitFor();
  assert.match(await A.locator('#time-control').textContent(), /10′ \+ 5×30″/);

  // B finds it in the lobby and takes the white seat; C watches.
  await B.goto(`${web.base}/#/lobby/go`);
  await B.locator(`.table-card[data-table="${id}"] .join-table`).click();
  // 坐下 in the lobby took the seat.
  await A.locator('#seat-1 .player-name').waitFor();
  await C.goto(`${web.base}/#/lobby/go`);
  await C.locator(`.table-card[data-table="${id}"]`).waitFor();
  await C.screenshot({ path: shotPath('go-lobby.png') });
  await C.goto(`${web.base}/#/table/${encodeURIComponent(id)}`);
  await C.locator('#seat-1 .player-name').waitFor();
  await A.click('#btn-start');
  await B.click('#btn-start');
  for (const p of [A, B]) await p.locator('#btn-resign:not([disabled])').waitFor();
  assert.equal(await A.locator('#go-board').getAttribute('data-size'), '9');

  // Black walls the E file, white the F file; white invades at B5 and both pass.
  const script = [];
  for (let row = 1; row <= 9; row++) script.push([A, `E${row}`], [B, `F${row}`]);
  script.push([A, 'pass'], [B, 'B5'], [A, 'pass'], [B, 'pass']);
  let n = 0;
  for (const [p, mv] of script) {
    if (mv === 'pass') await p.locator('#btn-pass:not([disabled])').click();
    else {
      await p.locator('.seat-card.to-move.mine').waitFor();
      await vertex(p, mv).click();
    }
    n++;
    await allSee(n);
    if (n === 2) {
      // White takes its move back with black's consent, then plays it again;
      // black offers a draw, white declines.
      await B.click('#btn-takeback');
      await A.locator('#offer-takeback').waitFor();
      await A.click('#accept-takeback');
      await allSee(1);
      await vertex(B, 'F1').click();
      await allSee(2);
      await A.click('#btn-draw');
      await B.locator('#offer-draw').waitFor();
      await B.click('#decline-draw');
      await B.locator('#offer-draw').waitFor({ state: 'detached' });
    }
    if (n === 6) {
      // The last-move marker follows the moves.
      assert.equal(await vertex(C, 'F3').evaluate((el) => el.classList.contains('shudan-marker_circle')), true);
    }
  }
  assert.equal(await vertex(C, 'B5').evaluate((el) => el.classList.contains('shudan-sign_-1')), true);

  // The marking phase: both see it; the clock stops.
  for (const p of [A, B, C]) await p.locator('#go-marking #go-score').waitFor();
  for (const p of [A, B]) await p.locator('#btn-accept-marking').waitFor();
  const dead = (p) => vertex(p, 'B5').evaluate((el) => el.classList.contains('shudan-dimmed'));
  const waitDead = async (p, want) => {
    await p.waitForFunction(
      ([x, y, w]) => document.querySelector(`#go-board .shudan-vertex[data-x="${x}"][data-y="${y}"]`)?.classList.contains('shudan-dimmed') === w,
      [1, 4, want],
      { timeout: 10_000 },
    );
  };
  // Black toggles the stone (whatever the estimator suggested) until it is dead,
  // changing its mind once on the way.
  const first = await dead(A);
  await vertex(A, 'B5').click();
  await waitDead(B, !first);
  if (first) {
    await vertex(A, 'B5').click();
    await waitDead(B, true);
  } else {
    await vertex(B, 'B5').click();
    await waitDead(A, false);
    await vertex(A, 'B5').click();
    await waitDead(B, true);
  }
  for (const p of [A, B, C]) await waitDead(p, true);
  for (const p of [A, B, C]) await p.waitForFunction(() => document.querySelector('#go-score')?.textContent === 'B+1.5');
  await C.screenshot({ path: shotPath('go-marking.png') });

  // Black accepts; white sees it, then accepts too.
  await A.click('#btn-accept-marking');
  await B.locator('#opponent-accepted').waitFor();
  assert.equal(await B.locator('#accepted-0').getAttribute('data-accepted'), 'true');
  assert.equal(await B.locator('#accepted-1').getAttribute('data-accepted'), 'false');
  await B.screenshot({ path: shotPath('go-opponent-accepted.png') });
  await B.click('#btn-accept-marking');

  for (const p of [A, B, C]) await p.locator('#result-dialog').waitFor();
  const texts = [];
  for (const p of [A, B, C]) texts.push(await p.locator('#result-text').textContent());
  for (const t of texts) assert.match(t, /B\+1\.5/);
  for (const p of [A, B, C]) assert.match(await p.locator('#result-dialog .replay-link').getAttribute('href'), /^#\/replay\/[^/]+$/);
  assert.match(texts[0], /你赢了.*数子/);
  assert.match(texts[1], /你输了.*数子/);
  assert.match(texts[2], /黑方胜.*数子/);
  const scores = [];
  for (const p of [A, B, C]) scores.push(await p.locator('#go-score').textContent());
  assert.deepEqual(scores, ['B+1.5', 'B+1.5', 'B+1.5']);
  await A.screenshot({ path: shotPath('go-result.png') });
  for (const p of [A, B, C]) await p.locator('#result-dialog .btn:last-child').click();
  await C.screenshot({ path: shotPath('go-table-desktop.png') });
  await C.setViewportSize({ width: 390, height: 844 });
  await C.screenshot({ path: shotPath('go-table-phone.png'), fullPage: true });

  // The record.
  const sgf = await A.evaluate((t) => fetch(`/game/${t}.sgf`).then((r) => r.text()), id);
  assert.match(sgf, /RE\[B\+1\.5\]/);
  assert.match(sgf, /SZ\[9\]/);
});

test('a 19x19 table with four handicap stones: white moves first', async () => {
  await C.setViewportSize({ width: 1280, height: 800 });
  await A.goto(`${web.base}/#/lobby/go`);
  await A.click('#new-table');
  await A.locator('#new-go-dialog input[name=size][value="19"]').check();
  await A.locator('#new-handicap').selectOption('4');
  await A.fill('#new-komi', '0.5');
  await A.locator('#new-go-dialog .btn.primary').click();
  await A.waitForURL(/#\/table\//);
  const id = decodeURIComponent(A.url().split('#/table/')[1]);
  await A.locator('#seat-0 .player-name').waitFor();
  await B.goto(`${web.base}/#/table/${encodeURIComponent(id)}`);
  await B.locator('#sit-1').click();
  await A.locator('#seat-1 .player-name').waitFor();
  await A.click('#btn-start');
  await B.click('#btn-start');
  await B.locator('.seat-card.to-move.mine').waitFor();
  for (const p of ['D4', 'Q4', 'D16', 'Q16']) assert.equal(await vertex(A, p, 19).evaluate((el) => el.classList.contains('shudan-sign_1')), true, p);
  assert.match(await A.locator('#go-info').textContent(), /19×19.*0\.5.*4/);
  await vertex(B, 'K10', 19).click();
  await A.locator('#moves .go-move').first().waitFor();
  await vertex(A, 'C3', 19).click();
  await B.locator('#moves .go-move').nth(1).waitFor();
  await A.screenshot({ path: shotPath('go-19-handicap.png') });
  // Two passes start the marking; black resumes play instead, so white moves.
  await B.locator('#btn-pass:not([disabled])').click();
  await A.locator('#btn-pass:not([disabled])').click();
  await A.locator('#btn-resume').click();
  await B.locator('#btn-pass:not([disabled])').waitFor();
  await A.locator('#go-marking').waitFor({ state: 'hidden' });
  assert.match(await B.locator('#status').textContent(), /轮到你/);
  await A.setViewportSize({ width: 390, height: 844 });
  await A.screenshot({ path: shotPath('go-19-phone.png'), fullPage: true });
  await A.setViewportSize({ width: 1280, height: 800 });
});

test('no console errors', () => {
  assert.deepEqual(consoleErrors, []);
});
