// The lobby (#14 point 3, lobby bullet), with three browsers against the real
// server: 坐下 on a table card takes the seat; tables nobody sits at leave the
// list, and a table whose game is over stays while a player sits there waiting
// (#46, tables); the online count counts the viewer; the
// sidebar's rating shows the change of a rated game just played.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, newPage, register, consoleErrors, shotPath, stamp } from './harness.mjs';
import { finishedGame, installSocket, req, send } from './finish.mjs';

const env = useServerAndBrowser();

async function tableState(base, id) {
  return (await (await fetch(`${base}/api/game/${id}`)).json()).state;
}

test('坐下 takes the seat; empty tables leave, a finished one with a player waiting stays; the viewer is counted; the rating updates', { timeout: 90_000 }, async () => {
  const { base, browser } = env;
  const a = await newPage(browser, 'alice', base);
  const b = await newPage(browser, 'bob', base);
  const nameA = `la${stamp}`;
  const nameB = `lb${stamp}`;
  await register(a, base, nameA);
  await register(b, base, nameB);
  await installSocket(a);
  await installSocket(b);

  // Alice opens a table and sits; Bob's lobby shows it, and 坐下 seats him.
  const { table: open } = await req(a, 'create', { game: 'chess', seat: 0 });
  const card = b.locator(`#table-list .table-card[data-table="${open}"]`);
  await card.locator('.join-table').click();
  await b.waitForURL(new RegExp(`#/table/${open}$`));
  await b.waitForFunction(
    async ([id, me]) => (await (await fetch(`/api/game/${id}`)).json()).state?.seats?.[1]?.user === me,
    [open, nameB],
    { timeout: 10_000 },
  );
  assert.equal((await tableState(base, open)).seats[1].user, nameB, 'Bob took the empty seat');
  await b.screenshot({ path: shotPath('lobby-sat-down.png') });

  // A table nobody sits at: listed by the server, not shown; one whose game is
  // over with its player still sitting there: shown, waiting for an opponent.
  const empty = await a.evaluate(async () => {
    const r = await fetch('/api/tables', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ game: 'chess' }) });
    return (await r.json()).table;
  });
  // (A game against the computer is kept out of the lobby while the computer
  // sits there; with its seat freed, the finished table is listed again.)
  const over = await finishedGame(a, { game: 'chess', level: '1', moves: ['e2e4'] });
  let listed = (await (await fetch(`${base}/api/lobby/chess`)).json()).map((x) => x.id);
  assert.ok(!listed.includes(over), `a game against the computer is not listed: ${listed}`);
  await req(a, 'remove_bot', { table: over, seat: 1 });
  listed = (await (await fetch(`${base}/api/lobby/chess`)).json()).map((x) => x.id);
  assert.ok(listed.includes(empty) && listed.includes(over), `the server lists both: ${listed}`);
  await b.goto(`${base}/#/lobby/chess`);
  await b.locator(`#table-list .table-card[data-table="${open}"]`).waitFor();
  assert.equal(await b.locator(`#table-list .table-card[data-table="${empty}"]`).count(), 0, 'no empty table');
  const waiting = b.locator(`#table-list .table-card[data-table="${over}"]`);
  await waiting.waitFor();
  assert.match(await waiting.locator('.table-no').textContent(), /等待中/);

  // A third user alone in the room of another game: the count includes them.
  const c = await newPage(browser, 'carol', base);
  const nameC = `lc${stamp}`;
  await register(c, base, nameC);
  await c.goto(`${base}/#/lobby/go`);
  await c.locator('#lobby[data-game="go"]').waitFor();
  await c.locator('#online-list li', { hasText: nameC }).waitFor();
  const n = await c.locator('#online-list li').count();
  assert.ok(n >= 1);
  assert.match(await c.locator('#online-count').textContent(), new RegExp(`^${n} 在线$`));
  await c.screenshot({ path: shotPath('lobby-online-count.png') });

  // A rated game between Alice and Bob; Alice's sidebar shows her new rating.
  await a.goto(`${base}/#/lobby/chess`);
  await a.locator('#my-rating').waitFor();
  assert.match(await a.locator('#my-rating').textContent(), /1500\?/);
  const { table: rated } = await req(a, 'create', { game: 'chess', seat: 0, rated: true });
  await send(b, 'watch', { table: rated });
  await req(b, 'sit', { table: rated, seat: 1 });
  await req(a, 'ready', { table: rated });
  await req(b, 'ready', { table: rated });
  await req(a, 'move', { table: rated, action: 'e2e4' });
  await req(b, 'move', { table: rated, action: 'e7e5' });
  await req(a, 'resign', { table: rated });
  await a.locator('#nav-xiangqi').click();
  await a.locator('#lobby[data-game="xiangqi"]').waitFor();
  await a.locator('#nav-chess').click();
  await a.locator('#lobby[data-game="chess"]').waitFor();
  await a.waitForFunction(() => {
    const r = document.querySelector('#my-rating')?.getAttribute('data-rating');
    return r && Number(r) < 1500;
  }, null, { timeout: 10_000 });
  await a.screenshot({ path: shotPath('lobby-rating-after-game.png') });

  assert.deepEqual(consoleErrors, []);
});
