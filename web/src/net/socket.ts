// One WebSocket with automatic reconnection. Messages are JSON envelopes
// `{"t": type, "d": data}`, typed both ways by the server's own generated types
// (./generated/protocol.ts): what arrives is an `Envelope`, what is sent a
// `ClientMsg`, so a misspelled type or a wrong field does not compile; the
// adapter in protocol.ts knows their meaning.
// A socket that closes is opened again (after 0.3 s, then twice as long each
// time, up to 5 s); one that stays open but went dead (no pong: table/connection.ts
// judges it) is given up with `reconnect()`.
import type { ClientMsg, Envelope, Outgoing } from './generated/protocol';

export type { Envelope };

/** A client message's type (`t`). */
export type ClientType = ClientMsg['t'];

/** The id a request carries, for its reply to carry back. */
export type RequestId = NonNullable<Outgoing['id']>;

/** The data (`d`) a client message of type `T` carries, as an argument:
 * required where the message has data, absent where it has none (`seek.cancel`). */
export type DataArg<T extends ClientType> = Extract<ClientMsg, { t: T }> extends { d: infer D } ? [d: D] : [d?: undefined];

/** `DataArg`, then an id of the caller's. */
type DataAndId<T extends ClientType> = Extract<ClientMsg, { t: T }> extends { d: infer D } ? [d: D, id?: RequestId] : [d?: undefined, id?: RequestId];

/** `connecting`: the first time; `open`; `closed`: lost, waiting to try again;
 * `reconnecting`: lost, opening a new one. */
export type SocketState = 'connecting' | 'open' | 'closed' | 'reconnecting';

export class Socket {
  private ws: WebSocket | null = null;
  private closed = false;
  private retry = 0;
  /** A WebSocket of ours was open once: connecting again is reconnecting. */
  private wasOpen = false;
  private queue: string[] = [];
  onMessage: (m: Envelope) => void = () => undefined;
  onOpen: () => void = () => undefined;
  onState: (s: SocketState) => void = () => undefined;

  constructor(private path: string) {
    this.connect();
  }

  private connect() {
    if (this.closed) return;
    const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${this.path}`;
    this.onState(this.wasOpen ? 'reconnecting' : 'connecting');
    const ws = new WebSocket(url);
    this.ws = ws;
    ws.onopen = () => {
      this.retry = 0;
      this.wasOpen = true;
      this.onState('open');
      this.onOpen();
      for (const q of this.queue.splice(0)) ws.send(q);
    };
    ws.onmessage = (e) => {
      // A socket given up (`reconnect`) says nothing any more.
      if (this.ws !== ws) return;
      let m: Envelope;
      try {
        m = JSON.parse(String(e.data)) as Envelope;
      } catch {
        return;
      }
      if (this.settle(m) && m.t !== 'error') return;
      this.onMessage(m);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.closed) return;
      this.onState('closed');
      const delay = Math.min(5000, 300 * 2 ** this.retry++);
      setTimeout(() => this.connect(), delay);
    };
    ws.onerror = () => undefined;
  }

  private nextId = 1;
  private pending = new Map<number, { ok: (d: unknown) => void; fail: (e: Error) => void }>();

  /** Sends a message with an id and resolves with the `ack` (or rejects on `error`) that carries it. */
  request<T extends ClientType>(t: T, ...[d]: DataArg<T>): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((ok, fail) => {
      this.pending.set(id, { ok, fail });
      this.write(t, d, id);
    });
  }

  /** Settles a pending request; true when the message answered one. */
  settle(m: Envelope): boolean {
    if (typeof m.id !== 'number') return false;
    const p = this.pending.get(m.id);
    if (!p) return false;
    this.pending.delete(m.id);
    // The refusal's code rides along, for a message in the interface language (errors.ts).
    if (m.t === 'error') p.fail(Object.assign(new Error(m.d.message), { code: m.d.code }));
    else p.ok(m.d);
    return true;
  }

  /** Sends a message, now or once the socket is open. `id`: the caller's own (the
   * analysis board's strings), which its replies carry back to `onMessage`. */
  send<T extends ClientType>(t: T, ...[d, id]: DataAndId<T>) {
    this.write(t, d, id);
  }

  /** Sends only when open now (no queueing across reconnects). */
  sendNow<T extends ClientType>(t: T, ...[d]: DataArg<T>) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(d === undefined ? { t } : { t, d }));
  }

  /** The envelope on the wire: `{"t", "d"}`, with `"id"` when there is one. */
  private write(t: ClientType, d: unknown, id?: RequestId) {
    const text = JSON.stringify(id === undefined ? { t, d } : { t, d, id });
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(text);
    else this.queue.push(text);
  }

  /** Gives up the WebSocket, which is open but dead (its pongs stopped), and
   * opens a new one at once. Whatever the old one was sending is lost: what was
   * not answered is the caller's to send again. */
  reconnect() {
    const ws = this.ws;
    if (this.closed || !ws) return;
    this.ws = null;
    // Its close event, whenever the dead connection gets to it, is ignored.
    ws.close();
    this.connect();
  }

  close() {
    this.closed = true;
    this.ws?.close();
    this.ws = null;
  }
}
