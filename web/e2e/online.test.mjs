// Online play against the real server in a real browser: three people register;
// two meet at a chess table, agree on the time settings, take a move back, decline a
// draw, reload in the middle, and play to checkmate by clicking squares while the
// third watches every move; then the same at a xiangqi table. Screenshots of the
// lobby and both tables, desktop and phone, go to test-artifacts/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, register, enterAsGuest, stamp, newPage, clickMove, waitForMoveCount, moveTexts, consoleErrors, shotPath } from './harness.mjs';

const web = useServerAndBrowser();
let A;
let B;
let C;
const names = { A: `alice${stamp}`, B: `bob${stamp}`, C: `carol${stamp}` };

async function startGame(kind) {
  await A.goto(`${web.base}/#/lobby/${kind}`);
  await A.locator('#lobby').waitFor();
  await A.click('#new-table');
  await A.waitForURL(/#\/table\//);
  const id = decodeURIComponent(A.url().split('#/table/')[1]);
  await A.locator('#seat-0').waitFor();
  if (await A.locator('#sit-0').count()) await A.click('#sit-0');
  await A.locator('#seat-0 .player-name').waitFor();
  // B finds the table in the lobby list and sits in the second seat.
  await B.goto(`${web.base}/#/lobby/${kind}`);
  await B.locator(`.table-card[data-table="${id}"] .join-table`).click();
  // 坐下 in the lobby took the seat.
  await B.locator('#seat-1 .player-name').waitFor();
  await A.locator('#seat-1 .player-name').waitFor();
  if (kind === 'xiangqi') {
    // Swap (交换): both agree, the colours change; then back again.
    for (let i = 0; i < 2; i++) {
      await A.click('#btn-swap');
      await B.locator('#offer-swap').waitFor();
      await B.click('#accept-swap');
      await A.locator(`#seat-bottom #seat-${i === 0 ? 1 : 0}`).waitFor();
    }
  }
  // C watches, coming in by the table's invitation link.
  await C.goto(`${web.base}/table/${encodeURIComponent(id)}`);
  await C.locator('#seat-1 .player-name').waitFor();
  // The first seat proposes the time settings; the other accepts; both start.
  await A.click('#btn-time');
  await A.locator('#time-dialog label:has(input[value=quick])').click();
  if (kind === 'chess') await A.screenshot({ path: shotPath('time-dialog-desktop.png') });
  await A.locator('#time-dialog .btn.primary').click();
  await B.locator('#time-accept-dialog').waitFor();
  assert.match(await B.locator('#proposed-tc').textContent(), /10′ \/ 1′ \/ 30″/);
  await B.locator('#time-accept-dialog .btn.primary').click();
  await A.click('#btn-start');
  await B.click('#btn-start');
  for (const p of [A, B]) await p.locator('#btn-resign:not([disabled])').waitFor();
  await C.locator('#seat-0.to-move').waitFor();
  return id;
}

async function allSee(n, kind) {
  for (const p of [A, B, C]) await waitForMoveCount(p, n);
  void kind;
}

test('three people register', async () => {
  A = await newPage(web.browser, 'A', web.base);
  B = await newPage(web.browser, 'B', web.base);
  C = await newPage(web.browser, 'C', web.base);
  await register(A, web.base, names.A);
  await register(B, web.base, names.B);
  await register(C, web.base, names.C);
  // B turns premoves on (settings are kept per user).
  await B.click('#open-settings');
  await B.locator('#settings-dialog input[name=premove]').check();
  await B.locator('#settings-dialog .btn.primary').click();
});

async function lobbyShots() {
  // A guest looks at the lobby while a game is on.
  const D = await newPage(web.browser, 'D', web.base);
  await enterAsGuest(D, web.base);
  assert.match(await D.locator('#me').textContent(), /^Guest-/i);
  await D.locator('.table-card').first().waitFor();
  await D.screenshot({ path: shotPath('lobby-desktop.png') });
  await D.setViewportSize({ width: 390, height: 844 });
  await D.screenshot({ path: shotPath('lobby-phone.png'), fullPage: true });
  await D.context().close();
}

test('chess: time settings, takeback, draw offer, reload, checkmate; a spectator sees every move', async () => {
  await startGame('chess');
  // A takeback: white plays e3, asks to take it back, black agrees.
  await clickMove(A, 'e2e3', 'chess');
  await allSee(1);
  await A.click('#btn-takeback');
  await B.locator('#offer-takeback').waitFor();
  await B.click('#accept-takeback');
  await allSee(0);
  // Black premoves e5 while white thinks; it is played as soon as white has moved.
  await clickMove(B, 'e7e5', 'chess');
  await B.locator('#table-page square.current-premove').first().waitFor();
  await clickMove(A, 'f2f3', 'chess');
  await allSee(2);
  // Black offers a draw right after its move; white declines.
  await B.click('#btn-draw');
  await A.locator('#offer-draw').waitFor();
  await A.click('#decline-draw');
  await A.locator('#offer-draw').waitFor({ state: 'detached' });
  // A reload in the middle restores the game.
  await B.reload();
  await waitForMoveCount(B, 2);
  assert.deepEqual(await moveTexts(B), ['f3', 'e5']);
  await clickMove(A, 'g2g4', 'chess');
  await allSee(3);
  await lobbyShots();
  await C.screenshot({ path: shotPath('chess-table-desktop.png') });
  await C.setViewportSize({ width: 390, height: 844 });
  await C.screenshot({ path: shotPath('chess-table-phone.png'), fullPage: true });
  await C.setViewportSize({ width: 1280, height: 800 });
  await clickMove(B, 'd8h4', 'chess');
  await allSee(4);
  for (const p of [A, B, C]) assert.deepEqual(await moveTexts(p), ['f3', 'e5', 'g4', 'Qh4#']);
  for (const p of [A, B, C]) await p.locator('#result-dialog').waitFor();
  assert.match(await A.locator('#result-text').textContent(), /你输了.*将死/);
  assert.match(await B.locator('#result-text').textContent(), /你赢了.*将死/);
  assert.match(await C.locator('#result-text').textContent(), /黑方胜.*将死/);
  await B.screenshot({ path: shotPath('chess-result-desktop.png') });
  // The game was rated: both players see their rating change.
  assert.match(await B.locator('#result-dialog .rating-delta[data-seat="1"]').textContent(), /^\+\d+/);
  assert.match(await A.locator('#result-dialog .rating-delta[data-seat="0"]').textContent(), /^-\d+/);
  // The result dialog opens the game's replay.
  for (const p of [A, B, C]) assert.match(await p.locator('#result-dialog .replay-link').getAttribute('href'), /^#\/replay\/[^/]+$/);
  for (const p of [A, B, C]) await p.locator('#result-dialog .btn:last-child').click();
  // The record can be saved: the server serves the PGN the save button points at.
  assert.equal(await A.locator('#btn-save').isEnabled(), true);
  const tableId = await A.evaluate(() => decodeURIComponent(location.hash.split('/').pop()));
  const pgn = await A.evaluate((id) => fetch(`/game/${id}.pgn`).then((r) => r.text()), tableId);
  assert.match(pgn, /1\. f3 .*e5 .*2\. g4 [^]*Qh4#/);
  assert.match(pgn, /\[Result "0-1"\]/);
  // Analysis: free moves on a board of its own, from the final position back.
  await C.click('#btn-analysis');
  await C.locator('#analysis-panel').waitFor();
  await waitForMoveCount(C, 4, '#analysis-moves');
  // Back one: the line stays, its third move shown; a move there replaces the rest.
  await C.click('#analysis-back');
  await C.waitForFunction(() => document.querySelector('#analysis-moves .move.active')?.getAttribute('data-ply') === '3');
  await clickMove(C, 'g8f6', 'chess', '#analysis-panel');
  await C.waitForFunction(() => document.querySelector('#analysis-moves .move.active')?.textContent === 'Nf6');
  await waitForMoveCount(C, 4, '#analysis-moves');
  assert.deepEqual(await moveTexts(C, '#analysis-moves'), ['f3', 'e5', 'g4', 'Nf6']);
  await C.screenshot({ path: shotPath('analysis-desktop.png'), fullPage: true });
  await C.click('#analysis-close');
});

test('quick pairing seats two players at a new table; a resignation ends it', async () => {
  await A.goto(`${web.base}/#/lobby/chess`);
  await B.goto(`${web.base}/#/lobby/chess`);
  await A.locator('#quick-pair').click();
  await A.locator('#cancel-pair').waitFor();
  await B.locator('#quick-pair').click();
  await A.waitForURL(/#\/table\//);
  await B.waitForURL(/#\/table\//);
  assert.equal(A.url(), B.url());
  for (const p of [A, B]) await p.locator('#btn-resign:not([disabled])').waitFor();
  const white = (await A.locator('#seat-bottom [data-seat="0"]').count()) ? A : B;
  const black = white === A ? B : A;
  await clickMove(white, 'e2e4', 'chess');
  await waitForMoveCount(black, 1);
  await clickMove(black, 'e7e5', 'chess');
  await waitForMoveCount(white, 2);
  await white.click('#btn-resign');
  await white.locator('#resign-dialog .btn.primary').click();
  for (const p of [A, B]) await p.locator('#result-dialog').waitFor();
  assert.match(await white.locator('#result-text').textContent(), /你输了.*认输/);
  assert.match(await black.locator('#result-text').textContent(), /你赢了.*认输/);
  // Rematch (再来一局): both ask, a new game starts with the colours swapped.
  for (const p of [white, black]) await p.locator('#result-dialog .btn.primary').click();
  for (const p of [A, B]) await p.locator('#btn-resign:not([disabled])').waitFor();
  await white.locator('#seat-bottom #seat-1').waitFor();
  await black.locator('#seat-bottom #seat-0').waitFor();
  await clickMove(black, 'd2d4', 'chess');
  await waitForMoveCount(white, 1);
});

test('xiangqi: red mates with two cannons; moves in Chinese notation for all', async () => {
  await startGame('xiangqi');
  const moves = ['h2e2', 'a6a5', 'e2e6', 'i6i5', 'b2b5', 'a5a4', 'b5e5'];
  for (const [i, m] of moves.entries()) {
    await clickMove(i % 2 === 0 ? A : B, m, 'xiangqi');
    await allSee(i + 1);
    if (i === 3) {
      await C.screenshot({ path: shotPath('xiangqi-table-desktop.png') });
      await C.setViewportSize({ width: 390, height: 844 });
      await C.screenshot({ path: shotPath('xiangqi-table-phone.png'), fullPage: true });
      await C.setViewportSize({ width: 1280, height: 800 });
    }
  }
  // Black's file numbers may be written with full-width or ASCII digits.
  const narrow = (xs) => xs.map((x) => x.replace(/[１-９]/g, (d) => String.fromCharCode(d.charCodeAt(0) - 0xfee0)));
  const expected = ['炮二平五', '卒1进1', '炮五进四', '卒9进1', '炮八进三', '卒1进1', '炮八平五'];
  for (const p of [A, B, C]) assert.deepEqual(narrow(await moveTexts(p)), expected);
  for (const p of [A, B, C]) await p.locator('#result-dialog').waitFor();
  assert.match(await A.locator('#result-text').textContent(), /你赢了/);
  assert.match(await B.locator('#result-text').textContent(), /你输了/);
  assert.match(await C.locator('#result-text').textContent(), /红方胜/);
  // WXF and ICCS are a click away.
  await C.locator('#result-dialog .btn:last-child').click();
  await C.click('#notation-switch [data-notation=wxf]');
  assert.equal((await moveTexts(C))[0], 'C2=5');
  await C.click('#notation-switch [data-notation=iccs]');
  assert.equal((await moveTexts(C))[0], 'H2-E2');
});

test('load (读入): a xiangqi position read in at the same table starts the next game from it', async () => {
  // Still at the finished xiangqi table: red reads in a position, black accepts, both start.
  for (const p of [A, B]) await p.locator('#result-dialog .btn:last-child').click();
  await A.click('#btn-load');
  await A.fill('#load-input', '3k5/R8/1R7/9/9/9/9/9/9/4K4 w - - 0 1');
  await A.locator('#load-dialog .btn.primary').click();
  await B.locator('#time-accept-dialog').waitFor();
  await B.locator('#time-accept-dialog .btn.primary').click();
  // 开始 after a game asks whether to swap sides (再来一局 would): both keep theirs.
  for (const p of [A, B]) {
    await p.click('#btn-start');
    await p.locator('#start-dialog .btn:not(.primary)').click();
  }
  for (const p of [A, B]) await p.locator('#btn-resign:not([disabled])').waitFor();
  for (const p of [A, B, C]) await waitForMoveCount(p, 0);
  await clickMove(A, 'b7b9', 'xiangqi');
  for (const p of [A, B, C]) await waitForMoveCount(p, 1);
  for (const p of [A, B, C]) await p.locator('#result-dialog').waitFor();
  assert.match(await A.locator('#result-text').textContent(), /你赢了.*将死/);
  assert.match(await C.locator('#result-text').textContent(), /红方胜/);
  for (const p of [A, B, C]) await p.locator('#result-dialog .btn:last-child').click();
});

test('the profile lists the games played', async () => {
  await A.goto(`${web.base}/#/profile/${names.A}`);
  await A.locator('#history').waitFor();
  assert.ok((await A.locator('#history tbody tr').count()) >= 2);
  await A.screenshot({ path: shotPath('profile-desktop.png'), fullPage: true });
});

test('no console errors in any browser', () => {
  assert.deepEqual(consoleErrors, []);
});
