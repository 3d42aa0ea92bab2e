import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type SocketLike } from '../src/table/connection.ts';

// A socket that records what is sent and delivers what the test says; a
// request's answer is the test's to give (`answer`).
function fakeSocket() {
  const sent: Array<[string, unknown]> = [];
  const waiting: Array<{ t: string; ok: (d: unknown) => void; fail: (e: Error) => void }> = [];
  const sock = {
    send: (t: string, d?: unknown) => void sent.push([t, d]),
    request: (t: string, d?: unknown) =>
      new Promise((ok, fail) => {
        sent.push([t, d]);
        waiting.push({ t, ok, fail });
      }),
    sendNow: (t: string, d?: unknown) => void sent.push([t, d]),
    close: () => undefined,
    reconnect: () => undefined,
    onMessage: (_m: unknown) => undefined,
    onOpen: () => undefined,
    onState: (_s: unknown) => undefined,
  };
  /** Answers the oldest request still waiting: an ack, or a refusal. */
  const answer = async (refuse = false) => {
    const w = waiting.shift();
    assert.ok(w, 'a request waits for its answer');
    if (refuse) w.fail(new Error('refused'));
    else w.ok({});
    await new Promise((r) => setTimeout(r, 0));
  };
  return { sock: sock as unknown as SocketLike, sent, waiting, answer, deliver: (m: unknown) => (sock.onMessage as (m: unknown) => void)(m) };
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

test('after a lost socket, a command not carried out is sent again once; one carried out or answered is not', async () => {
  const { sock, sent, waiting, answer, deliver } = fakeSocket();
  const errors: string[] = [];
  const conn = connect('T', { onView: () => undefined, onStatus: () => undefined, onError: (m) => errors.push(m) }, sock);
  const sync = (v: number) => deliver({ t: 'sync', d: { table: 'T', v, since: null, complete: true, batches: [], state: { ...state, version: v } } });
  sock.onOpen();
  assert.deepEqual(sent.splice(0), [['watch', { table: 'T' }]]);
  sync(3);
  // A move answered by its ack is done with.
  conn.send('move', { action: 'e2e4' });
  assert.deepEqual(sent.splice(0), [['move', { table: 'T', action: 'e2e4' }]]);
  deliver({ t: 'event', d: { table: 'T', from: 3, v: 4, events: [], patch: [{ op: 'set', path: ['version'], value: 4 }] } });
  await answer();
  // The next move goes out, and the socket dies before any answer.
  conn.send('move', { action: 'g1f3' });
  assert.deepEqual(sent.splice(0), [['move', { table: 'T', action: 'g1f3' }]]);
  sock.onState('reconnecting');
  // A command made while there is no socket waits too.
  conn.send('draw.offer');
  assert.equal(sent.length, 0, 'nothing goes out before the table is seen again');
  sock.onState('open');
  sock.onOpen();
  assert.deepEqual(sent.splice(0), [['watch', { table: 'T', since: 4 }]]);
  // The table is where it was: neither was carried out; both go again, once, in order.
  waiting.splice(0);
  sync(4);
  assert.deepEqual(sent.splice(0), [
    ['move', { table: 'T', action: 'g1f3' }],
    ['draw.offer', { table: 'T' }],
  ]);
  // One is answered, the other refused: neither is sent again after the next loss.
  await answer();
  await answer(true);
  sock.onState('closed');
  sock.onState('reconnecting');
  sock.onState('open');
  sock.onOpen();
  sync(5);
  assert.deepEqual(sent.splice(0), [['watch', { table: 'T', since: 4 }]]);
  // A move lost with the socket, when the table moved on meanwhile (it was
  // carried out, its ack lost; or the opponent acted): dropped, not sent again.
  conn.send('move', { action: 'f1c4' });
  assert.deepEqual(sent.splice(0), [['move', { table: 'T', action: 'f1c4' }]]);
  sock.onState('reconnecting');
  sock.onState('open');
  sock.onOpen();
  sync(6);
  assert.deepEqual(sent.splice(0), [['watch', { table: 'T', since: 5 }]]);
  // Nor after a later loss.
  sock.onState('reconnecting');
  sock.onState('open');
  sock.onOpen();
  sync(6);
  assert.deepEqual(sent.splice(0), [['watch', { table: 'T', since: 6 }]]);
  assert.deepEqual(errors, []);
  conn.close();
});

test('each socket opened gets pinging of its own, none while there is no socket', () => {
  const { sock, sent } = fakeSocket();
  const conn = connect('T', { onView: () => undefined, onStatus: () => undefined, onError: () => undefined }, sock, true);
  sock.onOpen();
  assert.deepEqual(sent.splice(0), [['ping', {}], ['watch', { table: 'T' }]]);
  sock.onState('reconnecting');
  assert.deepEqual(sent.splice(0), [], 'no ping waits for a socket');
  sock.onState('open');
  sock.onOpen();
  assert.deepEqual(sent.splice(0), [['ping', {}], ['watch', { table: 'T' }]], 'the new socket is pinged at once');
  conn.close();
});

test('a request is settled by its answer: resolved on the ack, rejected on a refusal', async () => {
  const { sock, sent, deliver, answer } = fakeSocket();
  const conn = connect('T', { onView: () => undefined, onStatus: () => undefined, onError: () => undefined }, sock);
  sock.onOpen();
  deliver({ t: 'sync', d: { table: 'T', v: 3, since: null, complete: true, batches: [], state } });
  sent.length = 0;
  const outcome = (p: Promise<unknown>) => p.then(() => 'ok', (e: { code?: string }) => `refused ${e?.code ?? ''}`.trim());
  // "Request sent" only once the server took it.
  const taken = outcome(conn.request('draw.offer'));
  assert.deepEqual(sent.shift(), ['draw.offer', { table: 'T' }]);
  await answer();
  assert.equal(await taken, 'ok');
  const refused = outcome(conn.request('takeback.request'));
  await answer(true);
  assert.equal(await refused, 'refused');
  // One lost with the socket and not carried out by the next view's version: dropped, and said so.
  const lost = outcome(conn.request('draw.offer'));
  sock.onState('closed');
  deliver({ t: 'sync', d: { table: 'T', v: 5, since: null, complete: true, batches: [], state: { ...state, version: 5 } } });
  assert.equal(await lost, 'refused dropped');
});
