// Playing the computer in a real browser against the real server: from each
// game's lobby (the "play the computer" dialog: level, side, clock) a few moves
// each with the computer answering, and 单机 — with no account, against the
// computer on a private table listed nowhere, and hot-seat (one screen, every
// seat) to the end of a chess game.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, enterAsGuest, newPage, clickMove, waitForMoveCount, waitForPlaying, moveTexts, consoleErrors } from './harness.mjs';

const web = useServerAndBrowser();
const LETTERS = 'ABCDEFGHJKLMNOPQRST';

/** Opens the lobby's dialog and starts a game against the computer. */
async function playComputer(page, game, { colour, size } = {}) {
  await page.goto(`${web.base}/#/lobby/${game}`);
  await page.locator(`#lobby[data-game="${game}"]`).waitFor();
  await page.click('#play-computer');
  await page.locator('#computer-dialog').waitFor();
  // The levels are the game's, from its descriptor.
  const levels = await page.locator('#computer-level option').count();
  assert.ok(levels >= 2, `${game}: levels offered`);
  await page.locator('#computer-level').selectOption({ index: 0 });
  if (colour !== undefined) await page.locator('#computer-colour').selectOption(colour);
  await page.locator('#computer-time').selectOption('none');
  if (size) await page.locator('#computer-size').selectOption(String(size));
  await page.locator('#computer-dialog .btn.primary').click();
  await page.waitForURL(/#\/table\//);
  return decodeURIComponent(page.url().split('#/table/')[1]);
}

function vertex(page, gtp, size = 9) {
  const x = LETTERS.indexOf(gtp[0]);
  const y = size - Number(gtp.slice(1));
  return page.locator(`#go-board .shudan-vertex[data-x="${x}"][data-y="${y}"]`);
}

async function goMoves(page) {
  return page.locator('#moves .go-move').count();
}

/**
 * Plays Doudizhu as the human up to `times` actions whenever it is their turn
 * (a bid, else the hint's play, else a pass); the computer players act in
 * between. Returns how many actions the human made.
 */
async function actInHand(page, times) {
  let acted = 0;
  for (let i = 0; i < 200 && acted < times; i++) {
    if (await page.locator('#result-dialog').count()) break;
    if (!(await page.locator('#ddz-buttons button').count())) {
      await page.waitForTimeout(100);
      continue;
    }
    const rows = await page.locator('#moves .ddz-log-row').count();
    if (await page.locator('#bid-1').count()) {
      await page.locator('#ddz-buttons button[id^="bid-"]:not([id="bid-pass"]):not([disabled])').first().click();
    } else if (!(await page.locator('#btn-hint').isEnabled())) {
      await page.click('#btn-pass-play');
    } else {
      await page.click('#btn-hint');
      await page.locator('#ddz-hand .card.selected').first().waitFor();
      await page.click('#btn-play');
    }
    await page.waitForFunction((n) => document.querySelectorAll('#moves .ddz-log-row').length > n, rows, { timeout: 10_000 });
    acted++;
  }
  return acted;
}

test('chess from the lobby: the computer answers each move', async () => {
  const page = await newPage(web.browser, 'chess', web.base);
  await enterAsGuest(page, web.base);
  await playComputer(page, 'chess', { colour: 'white' });
  await page.locator('#table-page .board-col cg-board').waitFor();
  // The computer is named in words, with no profile link.
  const opponent = page.locator('#seat-1 .player-name');
  assert.match(await opponent.textContent(), /^电脑（.+）$/);
  assert.equal(await page.locator('#seat-1 a.player-name').count(), 0);
  await clickMove(page, 'e2e4', 'chess');
  await waitForMoveCount(page, 2, '#moves', 20_000);
  await clickMove(page, 'g1f3', 'chess');
  await waitForMoveCount(page, 4, '#moves', 20_000);
  const texts = await moveTexts(page);
  assert.equal(texts[0], 'e4');
  assert.equal(texts[2], 'Nf3');
  await page.context().close();
});

test('xiangqi from the lobby: the computer answers', async () => {
  const page = await newPage(web.browser, 'xiangqi', web.base);
  await enterAsGuest(page, web.base);
  await playComputer(page, 'xiangqi', { colour: 'red' });
  await page.locator('#table-page .board-col cg-board').waitFor();
  await clickMove(page, 'h2e2', 'xiangqi');
  await waitForMoveCount(page, 2, '#moves', 20_000);
  await clickMove(page, 'b0c2', 'xiangqi');
  await waitForMoveCount(page, 4, '#moves', 20_000);
  assert.equal((await moveTexts(page))[0], '炮二平五');
  await page.context().close();
});

test('Go from the lobby: 9x9, the computer answers', async () => {
  const page = await newPage(web.browser, 'go', web.base);
  await enterAsGuest(page, web.base);
  await playComputer(page, 'go', { colour: 'black', size: 9 });
  await page.locator('#go-board').waitFor();
  assert.equal(await page.locator('#go-board').getAttribute('data-size'), '9');
  await waitForPlaying(page);
  await vertex(page, 'E5').click();
  await page.waitForFunction(() => document.querySelectorAll('#moves .go-move').length >= 2, null, { timeout: 20_000 });
  // A second move on a point the computer left empty.
  const taken = (await page.locator('#moves .go-move').allTextContents()).join(' ');
  const next = ['C3', 'G7', 'C7', 'G3'].find((p) => !taken.includes(p));
  await vertex(page, next).click();
  await page.waitForFunction(() => document.querySelectorAll('#moves .go-move').length >= 4, null, { timeout: 20_000 });
  assert.ok((await goMoves(page)) >= 4);
  await page.context().close();
});

test('Doudizhu from the lobby: two computer players, the hand goes round', async () => {
  const page = await newPage(web.browser, 'doudizhu', web.base);
  await enterAsGuest(page, web.base);
  await playComputer(page, 'doudizhu', { colour: '0' });
  await page.locator('#ddz-hand').waitFor();
  const acted = await actInHand(page, 3);
  assert.ok(acted >= 1, 'the human acted');
  // The computer players acted too: more log rows than the human's actions.
  await page.waitForFunction((n) => document.querySelectorAll('#moves .ddz-log-row').length > n, acted, { timeout: 15_000 });
  await page.context().close();
});

test('单机 without an account: hot-seat chess to checkmate on one screen', async () => {
  const page = await newPage(web.browser, 'hotseat', web.base);
  await page.goto(`${web.base}/#/offline/chess`);
  await page.click('#offline-hotseat');
  await page.waitForURL(/#\/table\//);
  const id = decodeURIComponent(page.url().split('#/table/')[1]);
  assert.match(id, /^solo/);
  await page.locator('#table-page .board-col cg-board').waitFor();
  // One person moves for both sides: the board turns to the side to move.
  const moves = ['f2f3', 'e7e5', 'g2g4', 'd8h4'];
  for (const [i, m] of moves.entries()) {
    await clickMove(page, m, 'chess');
    await waitForMoveCount(page, i + 1);
  }
  assert.deepEqual(await moveTexts(page), ['f3', 'e5', 'g4', 'Qh4#']);
  await page.locator('#result-dialog').waitFor();
  // Listed nowhere.
  const listed = await (await fetch(`${web.base}/api/lobby/chess`)).text();
  assert.ok(!listed.includes(id), listed);
  await page.context().close();
});

test('单机 hot-seat xiangqi: red mates with two cannons, moves in Chinese notation', async () => {
  const page = await newPage(web.browser, 'hotseat-xiangqi', web.base, { width: 390, height: 844 });
  await page.goto(`${web.base}/#/offline/xiangqi`);
  await page.click('#offline-hotseat');
  await page.waitForURL(/#\/table\//);
  await page.locator('#table-page .board-col cg-board').waitFor();
  const moves = ['h2e2', 'a6a5', 'e2e6', 'i6i5', 'b2b5', 'a5a4', 'b5e5'];
  for (const [i, m] of moves.entries()) {
    await clickMove(page, m, 'xiangqi');
    await waitForMoveCount(page, i + 1);
  }
  // Black's files as the server writes them (full-width or ASCII digits).
  const texts = (await moveTexts(page)).map((m) => m.replace(/[１-９]/g, (d) => String.fromCharCode(d.charCodeAt(0) - 0xfee0)));
  assert.deepEqual(texts, ['炮二平五', '卒1进1', '炮五进四', '卒9进1', '炮八进三', '卒1进1', '炮八平五']);
  await page.locator('#result-dialog').waitFor();
  assert.match(await page.locator('#result-dialog').textContent(), /1-0/);
  await page.context().close();
});

test('单机 without an account: the computer on a private xiangqi table', async () => {
  const page = await newPage(web.browser, 'solo-computer', web.base);
  await page.goto(`${web.base}/#/offline/xiangqi`);
  await page.click('#offline-computer');
  await page.locator('#computer-dialog').waitFor();
  await page.locator('#computer-colour').selectOption('red');
  await page.locator('#computer-time').selectOption('none');
  await page.locator('#computer-dialog .btn.primary').click();
  await page.waitForURL(/#\/table\//);
  const id = decodeURIComponent(page.url().split('#/table/')[1]);
  assert.match(id, /^solo/);
  await page.locator('#table-page .board-col cg-board').waitFor();
  await clickMove(page, 'h2e2', 'xiangqi');
  await waitForMoveCount(page, 2, '#moves', 20_000);
  const listed = await (await fetch(`${web.base}/api/lobby/xiangqi`)).text();
  assert.ok(!listed.includes(id), listed);
  await page.context().close();
});

test('单机: every game is offered, Go hot-seat on 9x9', async () => {
  const page = await newPage(web.browser, 'solo-go', web.base);
  await page.goto(`${web.base}/#/offline/`);
  for (const g of ['chess', 'xiangqi', 'go', 'doudizhu']) await page.locator(`#offline-${g}`).waitFor();
  await page.click('#offline-go');
  await page.locator('#hotseat-size').selectOption('9');
  await page.click('#offline-hotseat');
  await page.waitForURL(/#\/table\//);
  await page.locator('#go-board').waitFor();
  await waitForPlaying(page);
  let n = 0;
  for (const p of ['E5', 'D4', 'C3']) {
    await vertex(page, p).click();
    n++;
    await page.waitForFunction((c) => document.querySelectorAll('#moves .go-move').length === c, n, { timeout: 10_000 });
  }
  await page.context().close();
});

test('单机 without an account: the computer in chess, Go and Doudizhu on private tables', async () => {
  /** Opens the 单机 page of `game` and starts a private game against the computer. */
  const solo = async (page, game, colour, size) => {
    await page.goto(`${web.base}/#/offline/${game}`);
    await page.click('#offline-computer');
    await page.locator('#computer-dialog').waitFor();
    await page.locator('#computer-colour').selectOption(colour);
    await page.locator('#computer-time').selectOption('none');
    if (size) await page.locator('#computer-size').selectOption(String(size));
    await page.locator('#computer-dialog .btn.primary').click();
    await page.waitForURL(/#\/table\//);
    const id = decodeURIComponent(page.url().split('#/table/')[1]);
    assert.match(id, /^solo/, `${game}: a private table`);
    const listed = await (await fetch(`${web.base}/api/lobby/${game}`)).text();
    assert.ok(!listed.includes(id), `${game}: listed nowhere: ${listed}`);
  };
  const chess = await newPage(web.browser, 'solo-chess', web.base);
  await solo(chess, 'chess', 'white');
  await chess.locator('#table-page .board-col cg-board').waitFor();
  await clickMove(chess, 'e2e4', 'chess');
  await waitForMoveCount(chess, 2, '#moves', 20_000);
  await chess.context().close();

  const go = await newPage(web.browser, 'solo-go-computer', web.base);
  await solo(go, 'go', 'black', 9);
  await go.locator('#go-board').waitFor();
  await waitForPlaying(go);
  await vertex(go, 'E5').click();
  await go.waitForFunction(() => document.querySelectorAll('#moves .go-move').length >= 2, null, { timeout: 20_000 });
  await go.context().close();

  const ddz = await newPage(web.browser, 'solo-doudizhu', web.base);
  await solo(ddz, 'doudizhu', '0');
  await ddz.locator('#ddz-hand').waitFor();
  // The computer players act between the human's actions.
  const acted = await actInHand(ddz, 3);
  assert.ok(acted >= 1, 'the human acted');
  await ddz.waitForFunction((n) => document.querySelectorAll('#moves .ddz-log-row').length > n, acted, { timeout: 15_000 });
  await ddz.context().close();
});

test('no console errors', () => {
  assert.deepEqual(consoleErrors, []);
});
