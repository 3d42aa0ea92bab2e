import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type SocketLike } from '../src/table/connection.ts';

// A socket that records what is sent and delivers what the test says.
function fakeSocket() {
  const sent: Array<[string, unknown]> = [];
  const sock = {
    send: (t: string, d?: unknown) => void sent.push([t, d]),
    request: async () => undefined,
    sendNow: (t: string, d?: unknown) => void sent.push([t, d]),
    close: () => undefined,
    onMessage: (_m: unknown) => undefined,
    onOpen: () => undefined,
    onState: (_s: unknown) => undefined,
  };
  return { sock: sock as unknown as SocketLike, sent, deliver: (m: unknown) => (sock.onMessage as (m: unknown) => void)(m) };
}

const state = { version: 3, game_name: 'x', seats: [], spectators: [], proposal: {}, status: 'waiting', you: null, game: null, at: 1 };

test('the connection: sync, patches, a missed batch and a patch that does not fit', () => {
  const { sock, sent, deliver } = fakeSocket();
  const views: unknown[] = [];
  const events: unknown[][] = [];
  connect('T', { onView: (v, e) => (views.push(v), events.push(e)), onStatus: () => undefined, onError: () => undefined }, sock);
  sock.onOpen();
  assert.deepEqual(sent.pop(), ['watch', { table: 'T' }], 'it watches on open');
  deliver({ t: 'sync', d: { table: 'T', v: 3, since: null, complete: true, batches: [], state } });
  assert.deepEqual(views.pop(), state);
  // A batch from the last version: the patch applied.
  deliver({ t: 'event', d: { table: 'T', from: 3, v: 4, events: [{ type: 'sat', seat: 0, user: 'a' }], patch: [{ op: 'set', path: ['version'], value: 4 }] } });
  assert.equal((views.pop() as { version: number }).version, 4);
  assert.deepEqual(events.pop(), [{ type: 'sat', seat: 0, user: 'a' }]);
  assert.equal(sent.length, 0, 'nothing to ask');
  // Another table's messages are not this one's.
  deliver({ t: 'event', d: { table: 'U', from: 4, v: 5, events: [], patch: [{ op: 'set', path: ['version'], value: 99 }] } });
  assert.equal(views.length, 0);
  // A batch that does not follow on: applied, and what was missed asked for.
  deliver({ t: 'event', d: { table: 'T', from: 6, v: 7, events: [], patch: [{ op: 'set', path: ['version'], value: 7 }] } });
  assert.deepEqual(sent.pop(), ['watch', { table: 'T', since: 4 }]);
  assert.equal((views.pop() as { version: number }).version, 7);
  // A patch that does not fit: no view, a fresh watch from the last version.
  deliver({ t: 'event', d: { table: 'T', from: 7, v: 8, events: [], patch: [{ op: 'push', path: ['status'], values: [1] }] } });
  assert.equal(views.length, 0);
  assert.deepEqual(sent.pop(), ['watch', { table: 'T', since: 7 }]);
  // Reconnecting resumes from the last version.
  sock.onOpen();
  assert.deepEqual(sent.pop(), ['watch', { table: 'T', since: 7 }]);
});

test('the connection pings, and each move reports the round trip it measured', async () => {
  const { sock, sent, deliver } = fakeSocket();
  const lags: unknown[] = [];
  const conn = connect('T', { onView: () => undefined, onStatus: () => undefined, onError: () => undefined, onLag: (s) => lags.push(s) }, sock, true);
  sock.onOpen();
  assert.deepEqual(sent.shift(), ['ping', {}], 'a first ping, with no lag to report yet');
  assert.deepEqual(sent.shift(), ['watch', { table: 'T' }]);
  // Before any pong, a move reports nothing.
  conn.send('move', { action: 'e2e4' });
  assert.deepEqual(sent.shift(), ['move', { table: 'T', action: 'e2e4' }]);
  await new Promise((r) => setTimeout(r, 30));
  deliver({ t: 'pong', d: { server_time: 1_000_000 } });
  conn.send('move', { action: 'e7e5' });
  const [t, d] = sent.shift() as [string, { lag?: number }];
  assert.equal(t, 'move');
  assert.ok(typeof d.lag === 'number' && d.lag >= 25 && d.lag < 5000, `the move reports its lag: ${JSON.stringify(d)}`);
  // The server's time: the pong's, plus what passed since (about half the round trip).
  const skew = conn.serverNow() - 1_000_000;
  assert.ok(skew >= 0 && skew < 5000, `server time from the pong: ${skew}`);
  // Other commands carry no lag; the seats' lag goes to the page, this table's only.
  conn.send('draw.offer');
  assert.deepEqual(sent.shift(), ['draw.offer', { table: 'T' }]);
  deliver({ t: 'lag', d: { table: 'T', at: 1, seats: [12, null] } });
  deliver({ t: 'lag', d: { table: 'U', at: 1, seats: [99, 99] } });
  assert.deepEqual(lags, [[12, null]]);
  conn.close();
});
