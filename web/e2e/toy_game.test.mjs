// A fifth game opens in the browser with its folder and one registry line: the
// toy hall (crates/server/examples/toy_hall.rs) hosts the count game, two
// players make and share a table from its lobby, count to 21 by clicking its
// board, both see the result, and its replay opens in the replay viewer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, findToyBinary, register, stamp, newPage, waitForPlaying, consoleErrors, shotPath } from './harness.mjs';

const web = useServerAndBrowser({ bin: findToyBinary });

test('two players count to 21 at a count table and both see the result', async () => {
  const A = await newPage(web.browser, 'A', web.base);
  const B = await newPage(web.browser, 'B', web.base);
  await register(A, web.base, `count_a${stamp}`);
  await register(B, web.base, `count_b${stamp}`);

  // The count game has a room like every hosted game; A makes a table there.
  await A.locator('#nav-count').waitFor();
  await A.goto(`${web.base}/#/lobby/count`);
  await A.locator('#lobby[data-game="count"]').waitFor();
  await A.click('#new-table');
  await A.waitForURL(/#\/table\//);
  const id = decodeURIComponent(A.url().split('#/table/')[1]);
  await A.locator('#table-page[data-game="count"] #count-board').waitFor();
  await A.locator('#seat-0 .player-name').waitFor();

  // B takes the other seat from the lobby; both start.
  await B.goto(`${web.base}/#/lobby/count`);
  await B.locator(`.table-card[data-table="${id}"] .join-table`).click();
  await B.waitForURL(/#\/table\//);
  await A.locator('#seat-1 .player-name').waitFor();
  await A.click('#btn-start');
  await B.click('#btn-start');
  for (const p of [A, B]) await waitForPlaying(p);

  // Each adds 3 in turn: A's seventh turn brings the total to 21.
  let total = 0;
  for (let turn = 0; total < 21; turn++) {
    const p = turn % 2 === 0 ? A : B;
    await p.locator('#count-add-3:not([disabled])').click();
    total += 3;
    for (const q of [A, B]) await q.locator(`#count-board[data-total="${total}"]`).waitFor();
  }
  assert.equal((await B.locator('#count-total').textContent()).trim(), '21');
  assert.equal(await A.locator('#moves .move:not(.move-empty)').count(), 7);

  // Both see the result; the winner is the seat that reached the target.
  for (const p of [A, B]) await p.locator('#result-dialog #result-text').waitFor();
  assert.match(await A.locator('#result-text').textContent(), /你赢了/);
  assert.match(await B.locator('#result-text').textContent(), /你输了/);
  await A.screenshot({ path: shotPath('count-result.png') });

  // The game opens in the replay viewer, drawn by the count game's own viewer.
  await A.goto(`${web.base}/#/replay/${encodeURIComponent(id)}`);
  await A.locator('#replay[data-game="count"] #replay-count').waitFor();
  assert.equal(await A.locator('#replay-moves .move').count(), 7);
  assert.equal((await A.locator('#replay-count .count-total').textContent()).trim(), '21');

  assert.deepEqual(consoleErrors, []);
});
