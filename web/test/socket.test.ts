import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Socket } from '../src/net/socket.ts';

// A browser WebSocket that keeps the text sent on it; opened by the test.
class FakeWebSocket {
  static OPEN = 1;
  static made: FakeWebSocket[] = [];
  readyState = 0;
  sent: string[] = [];
  onopen: () => void = () => undefined;
  onmessage: (e: { data: string }) => void = () => undefined;
  onclose: () => void = () => undefined;
  onerror: () => void = () => undefined;
  constructor(readonly url: string) {
    FakeWebSocket.made.push(this);
  }
  send(text: string) {
    this.sent.push(text);
  }
  close() {
    this.readyState = 3;
  }
  open() {
    this.readyState = FakeWebSocket.OPEN;
    this.onopen();
  }
}
Object.assign(globalThis, { WebSocket: FakeWebSocket, location: { protocol: 'http:', host: 'qiyuan.test' } });

test('the socket writes each message as the wire has it: {t, d}, an id where there is one, no d where there is none', async () => {
  const sock = new Socket('/ws');
  const ws = FakeWebSocket.made.at(-1)!;
  assert.equal(ws.url, 'ws://qiyuan.test/ws');
  // Sent before the socket opens: kept, and written in order once it does; `sendNow` is not kept.
  sock.send('watch', { table: 'T' });
  sock.sendNow('leave', { table: 'T' });
  ws.open();
  assert.deepEqual(ws.sent.splice(0), ['{"t":"watch","d":{"table":"T"}}']);
  sock.send('seek.cancel');
  sock.sendNow('analyse.stop');
  sock.send('move', { table: 'T', action: 'e2e4', lag: 40 });
  sock.send('analyse', { game: 'chess', moves: ['e2e4'], engine: null, time_ms: 15000 }, 'an1');
  assert.deepEqual(ws.sent.splice(0), [
    '{"t":"seek.cancel"}',
    '{"t":"analyse.stop"}',
    '{"t":"move","d":{"table":"T","action":"e2e4","lag":40}}',
    '{"t":"analyse","d":{"game":"chess","moves":["e2e4"],"engine":null,"time_ms":15000},"id":"an1"}',
  ]);
  // A request carries a number of the socket's own, and its ack settles it.
  const answer = sock.request('create', { game: 'chess', seat: 0, rated: false });
  assert.deepEqual(ws.sent.splice(0), ['{"t":"create","d":{"game":"chess","seat":0,"rated":false},"id":1}']);
  ws.onmessage({ data: '{"t":"ack","d":{"table":"t1"},"id":1}' });
  assert.deepEqual(await answer, { table: 't1' });
  sock.close();
});
