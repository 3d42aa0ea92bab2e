// Clients that notice (#40): the server stops answering, and the page finds out
// by itself. Page A reaches the server through a TCP proxy of the test's own;
// page B goes straight to it. A and B start a chess game; then the proxy
// freezes every connection open at that moment (no byte goes either way, none is
// closed) while new connections still go through. A plays a move into the
// frozen socket; its pongs stop; within 9–12 s it shows that it is reconnecting
// (正在重新连接…), opens a new connection through the proxy, watches the table
// again and sends the move that was never answered, once; B sees it, replies,
// A sees the reply, and a move A makes on the new connection reaches B.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { useServerAndBrowser, register, stamp, newPage, clickMove, waitForMoveCount, moveTexts, consoleErrors } from './harness.mjs';

const web = useServerAndBrowser();
const names = { A: `rca${stamp}`, B: `rcb${stamp}` };

/**
 * A TCP proxy to `port` on 127.0.0.1. `freeze()` stops every connection open
 * now: nothing more is read from either side or written to it, and neither side
 * is closed; later connections forward as before.
 */
function startProxy(port) {
  const conns = new Set();
  let opened = 0;
  const server = net.createServer((client) => {
    opened++;
    const upstream = net.connect(port, '127.0.0.1');
    const c = { client, upstream, frozen: false };
    conns.add(c);
    client.pipe(upstream);
    upstream.pipe(client);
    // A frozen connection passes on nothing, not even its end.
    const end = () => {
      if (c.frozen) return;
      conns.delete(c);
      client.destroy();
      upstream.destroy();
    };
    for (const s of [client, upstream]) {
      s.on('error', end);
      s.on('close', end);
    }
  });
  return new Promise((resolve, reject) => {
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () =>
      resolve({
        base: `http://127.0.0.1:${server.address().port}`,
        get opened() {
          return opened;
        },
        /** Freezes the connections open now; how many. */
        freeze() {
          let n = 0;
          for (const c of conns) {
            if (c.frozen) continue;
            c.frozen = true;
            c.client.unpipe(c.upstream);
            c.upstream.unpipe(c.client);
            c.client.pause();
            c.upstream.pause();
            n++;
          }
          return n;
        },
        close() {
          for (const c of conns) {
            c.client.destroy();
            c.upstream.destroy();
          }
          conns.clear();
          server.close();
        },
      }),
    );
  });
}

let proxy;
after(() => proxy?.close());

test('the page reconnects by itself when the server stops answering pings, and the game goes on', { timeout: 60_000 }, async (t) => {
  proxy = await startProxy(Number(new URL(web.base).port));
  const A = await newPage(web.browser, 'A', proxy.base);
  const B = await newPage(web.browser, 'B', web.base);
  await register(A, proxy.base, names.A);
  await register(B, web.base, names.B);

  // A opens a chess table and sits as white; B sits as black; both start.
  await A.goto(`${proxy.base}/#/lobby/chess`);
  await A.click('#new-table');
  await A.waitForURL(/#\/table\//);
  const id = decodeURIComponent(A.url().split('#/table/')[1]);
  await A.locator('#seat-0').waitFor();
  if (await A.locator('#sit-0').count()) await A.click('#sit-0');
  await A.locator('#seat-0 .player-name').waitFor();
  await B.goto(`${web.base}/#/table/${encodeURIComponent(id)}`);
  await B.click('#sit-1');
  await B.locator('#seat-1 .player-name').waitFor();
  await A.click('#btn-start');
  await B.click('#btn-start');
  for (const p of [A, B]) await p.locator('#btn-resign:not([disabled])').waitFor();
  await clickMove(A, 'e2e4', 'chess');
  await waitForMoveCount(B, 1);
  await clickMove(B, 'e7e5', 'chess');
  await waitForMoveCount(A, 2);
  assert.equal(await A.locator('#table-page').getAttribute('data-conn'), 'open');

  // A's page notes each change of its connection's state, and every error toast.
  await A.evaluate(() => {
    const page = document.querySelector('#table-page');
    const banner = document.querySelector('#conn-banner');
    window.__conn = [];
    window.__toasts = [];
    new MutationObserver(() =>
      window.__conn.push({ at: performance.now(), state: page.dataset.conn, shown: banner.style.display !== 'none', text: banner.textContent }),
    ).observe(page, { attributes: true, attributeFilter: ['data-conn'] });
    new MutationObserver((records) => {
      for (const r of records) for (const n of r.addedNodes) if (n.classList?.contains('toast-error')) window.__toasts.push(n.textContent);
    }).observe(document.body, { childList: true, subtree: true });
  });

  // The server stops answering: A's connections freeze. A plays at once, into
  // the frozen socket; its board shows the move, the server never hears of it.
  const before = proxy.opened;
  const frozen = proxy.freeze();
  assert.ok(frozen >= 1, 'A has a connection to freeze');
  const frozenAt = await A.evaluate(() => performance.now());
  await clickMove(A, 'g1f3', 'chess');

  // A notices, says so, and is back on a new connection.
  await A.waitForFunction(() => window.__conn.some((e) => e.state === 'reconnecting') && document.querySelector('#table-page').dataset.conn === 'open', null, { timeout: 20_000 }).catch(async () => {
    throw new Error(`A did not reconnect: ${JSON.stringify(await A.evaluate(() => window.__conn))}`);
  });
  const log = await A.evaluate(() => window.__conn);
  const noticed = log.find((e) => e.state === 'reconnecting');
  const waited = noticed.at - frozenAt;
  assert.ok(waited >= 7_000 && waited <= 13_000, `A noticed the dead socket ${Math.round(waited)} ms after the freeze: ${JSON.stringify(log)}`);
  t.diagnostic(`A noticed ${Math.round(waited)} ms after the freeze; states: ${log.map((e) => `${e.state}@${Math.round(e.at - frozenAt)}`).join(' ')}`);
  assert.equal(noticed.shown, true, 'the banner shows');
  assert.equal(noticed.text, '正在重新连接…');
  assert.deepEqual(log.at(-1).shown, false, 'the banner goes once open again');
  assert.ok(proxy.opened > before, 'A opened a new connection through the proxy');
  // The move the frozen socket swallowed was sent again, once: B sees it.
  await waitForMoveCount(B, 3, '#moves', 10_000);
  await clickMove(B, 'b8c6', 'chess');
  await waitForMoveCount(A, 4, '#moves', 10_000);
  // A move made on the new connection reaches B.
  await clickMove(A, 'f1c4', 'chess');
  await waitForMoveCount(B, 5, '#moves', 10_000);
  const expected = ['e4', 'e5', 'Nf3', 'Nc6', 'Bc4'];
  for (const p of [A, B]) assert.deepEqual(await moveTexts(p), expected);
  const state = (await (await fetch(`${web.base}/api/game/${encodeURIComponent(id)}`)).json()).state;
  assert.deepEqual(
    state.game.moves.map((m) => m.action),
    ['e2e4', 'e7e5', 'g1f3', 'b8c6', 'f1c4'],
  );
  assert.equal(state.status, 'playing');
  // Nothing was refused (a move sent twice would be: not_your_turn).
  assert.deepEqual(await A.evaluate(() => window.__toasts), []);
  assert.equal(await A.locator('#table-page').getAttribute('data-conn'), 'open');
  assert.equal(await A.locator('#conn-banner').isVisible(), false);
});

test('no console errors in any browser', () => {
  assert.deepEqual(consoleErrors, []);
});
