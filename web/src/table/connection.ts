// One live table, for every game: `watch`, then the view kept up to date from
// each `event`'s patch (docs/protocol.md, "Patches"), the table's version
// followed, and a resync (`watch` with `since`) when a batch does not follow on
// from the last one or a patch does not fit. Typed by the server's generated
// types: the view is a `TableView` of the game's own view `V`. On a real socket it
// also pings (net/lag.ts): the server's time for the clocks, this socket's round
// trip as the lag each move reports, and the seats' lag as the server measures it.
//
// Reconnection: a socket whose pongs stop for 9 s (net/lag.ts, as Lichess's
// client judges it) is given up and a new one opened; a socket that closes is
// opened again by net/socket.ts. Either way the new socket watches the table
// from the last version seen. Table commands sent with `send` are kept until
// answered (`ack` or `error`); those the lost socket left unanswered, and those
// sent while there was no socket, are held until the new `sync`: one made when
// the table stood at the version the `sync` shows was not carried out (each
// carried-out command moves the version) and is sent again; any other is
// dropped, the new view showing what became of it. So nothing is carried out
// twice, and nothing answered is sent again. A command refused `unavailable`
// (nothing was done) is sent again a second later, up to five times.
import { Socket, type DataArg, type SocketState } from '../net/socket';
import { LagEstimator, localNow, startPinging } from '../net/lag';
import { applyPatch, PatchMisfit } from '../net/patch';
import type { Batch, ChatMsg, Envelope, TableCommand, TableView } from '../net/generated/protocol';

/** A table event as the server sends it (`qiyuan_table::Event`, docs/protocol.md "Events"). */
export type TableEvent = Batch['events'][number];

/** A table command's type (`move`, `resign`, ...). */
export type CommandType = TableCommand['t'];

/** A table command's fields, but the table's id: the connection adds it. */
export type Fields<T extends CommandType> = Omit<Extract<TableCommand, { t: T }>['d'], 'table'>;

/** A table command's fields as an argument: one that needs none (`resign`,
 * `draw.offer`) may be sent without. */
export type FieldsArg<T extends CommandType> = {} extends Fields<T> ? [d?: Fields<T>] : [d: Fields<T>];

export interface ConnectionHandlers<V> {
  /** A new view, with the events that led to it (none after a `sync`) and the batch's rating changes. */
  onView(view: TableView<V>, events: TableEvent[], batch: Batch | null): void;
  onStatus(s: SocketState): void;
  onError(message: string, code: string): void;
  /** The seats' measured lag changed (`lag`: ms or null per seat). */
  onLag?(seats: Array<number | null>): void;
  /** A chat line at this table, in a room this socket reads (docs/protocol.md "Chat"). */
  onChat?(line: ChatMsg): void;
  /** Who keeps the players' chat closed now (`chat.players`; empty: open). */
  onChatPlayers?(off: string[]): void;
}

export interface Connection {
  /** Sends a table command (the table id is added); one lost with a dead socket
   * is sent again on the next if it was not carried out (above). */
  send<T extends CommandType>(t: T, ...d: FieldsArg<T>): void;
  /** Sends a table command as `send` does, settled when the server answers: resolved
   * on its `ack`, rejected with the refusal (`{code}`; the page is told of it through
   * `onError` too) or when it is dropped unanswered after a reconnect. */
  request<T extends CommandType>(t: T, ...d: FieldsArg<T>): Promise<unknown>;
  /** Sends at once, even while the socket is closing (`leave`). */
  sendNow<T extends CommandType>(t: T, ...d: FieldsArg<T>): void;
  /** The server's time now, as this socket estimates it (local time until known). */
  serverNow(): number;
  /** Says a line at the table (`chat`): resolved with the ack, rejected with the refusal. */
  say(text: string): Promise<unknown>;
  /** A player reads the spectators' room too, or no more (`chat.spectators`). */
  readSpectators(on: boolean): Promise<unknown>;
  /** The owner or a player asks the players' chat closed (`on` false), or no more (`chat.players`). */
  switchPlayers(on: boolean): Promise<unknown>;
  /** Reports a chat line (`chat.report`). */
  report(line: number, reason?: string): Promise<unknown>;
  close(): void;
}

/** What the connection needs of a socket (`net/socket.ts`; a test's fake). */
export type SocketLike = Pick<Socket, 'send' | 'request' | 'sendNow' | 'close' | 'reconnect' | 'onMessage' | 'onOpen' | 'onState'>;

/** A table command sent and not yet answered, with the version of the view it was made on. */
interface Command {
  msg: TableCommand;
  v: number | null;
  /** Told of the answer, for `request`. */
  settle?: { ok: (d: unknown) => void; fail: (e: unknown) => void };
}

/** A command's type and data as `send`'s arguments. (TypeScript checks a union's
 * `t` and `d` apart, and cannot see that they belong together.) */
const parts = (m: TableCommand) => [m.t, m.d] as [CommandType, ...DataArg<CommandType>];

/** Watches table `id`, whose game's own view is `V`. `ping`: whether to ping
 * (a real socket does; a test's fake only when asked). */
export function connect<V>(id: string, h: ConnectionHandlers<V>, sock: SocketLike = new Socket('/ws'), ping = sock instanceof Socket): Connection {
  let view: TableView<V> | null = null;
  // The last version seen: a reconnect asks for what came after it.
  let lastV: number | null = null;
  const watch = () => sock.send('watch', lastV === null ? { table: id } : { table: id, since: lastV });
  const est = new LagEstimator();
  // Pings on the socket open now: a new one each time a socket opens.
  let pinger: ReturnType<typeof startPinging> | null = null;
  const unacked = new Set<Command>();
  // The socket was lost: commands wait for the next `sync`.
  let held = false;
  const issue = (c: Command, tries = 0) => {
    const done = () => unacked.delete(c);
    // A refusal reaches the page as an `error` message too (onError below).
    // `unavailable` (several nodes: the table's node is being replaced) did
    // nothing: the command is sent again a second later, a few times.
    sock.request(...parts(c.msg)).then(
      (d) => {
        done();
        c.settle?.ok(d);
      },
      (e: { code?: string }) => {
        if (e?.code === 'unavailable' && tries < 5) setTimeout(() => issue(c, tries + 1), 1000);
        else {
          done();
          c.settle?.fail(e);
        }
      },
    );
  };
  sock.onState = (s) => {
    if (s !== 'open') {
      pinger?.stop();
      pinger = null;
      held = true;
    }
    h.onStatus(s);
  };
  sock.onOpen = () => {
    pinger?.stop();
    pinger = ping ? startPinging(est, (d) => sock.send('ping', d), undefined, undefined, () => sock.reconnect()) : null;
    watch();
  };
  sock.onMessage = (msg: Envelope) => {
    switch (msg.t) {
      case 'hello':
        est.hello(msg.d.server_time, localNow());
        return;
      case 'pong':
        pinger?.onPong(msg.d.server_time);
        return;
      case 'lag':
        if (msg.d.table === id) h.onLag?.(msg.d.seats);
        return;
      case 'sync': {
        if (msg.d.table !== id) return;
        lastV = msg.d.v;
        view = msg.d.state as TableView<V>;
        h.onView(view, [], null);
        if (held) {
          held = false;
          for (const c of [...unacked]) {
            if (c.v === lastV) issue(c);
            else {
              unacked.delete(c);
              c.settle?.fail({ code: 'dropped' });
            }
          }
        }
        return;
      }
      case 'event': {
        const d = msg.d;
        if (d.table !== id) return;
        let next: TableView<V>;
        try {
          next = applyPatch(view, d.patch);
        } catch (e) {
          if (!(e instanceof PatchMisfit)) throw e;
          watch();
          return;
        }
        // A batch that does not follow on from the last one: something was missed.
        if (lastV !== null && d.from !== lastV) sock.send('watch', { table: id, since: lastV });
        lastV = d.v;
        view = next;
        h.onView(view, d.events, d);
        return;
      }
      case 'chat':
        if (msg.d.table === id) h.onChat?.(msg.d);
        return;
      case 'chat.players':
        if (msg.d.table === id) h.onChatPlayers?.(msg.d.off);
        return;
      case 'error':
        if (msg.d.table !== undefined && msg.d.table !== id) return;
        h.onError(msg.d.message, msg.d.code);
        return;
    }
  };
  // The one place a command is made whole: this table's id added to its fields.
  // (A generic `t` does not tell TypeScript which command's fields `d` holds.)
  const command = (t: CommandType, d: object | undefined): TableCommand => ({ t, d: { table: id, ...d } }) as TableCommand;
  const send = (t: CommandType, d: object | undefined, settle?: Command['settle']) => {
    // A move carries this client's lag (docs/protocol.md: `move`'s `lag`).
    const lag = t === 'move' ? est.report() : undefined;
    const c: Command = { msg: command(t, lag === undefined ? d : { ...d, lag }), v: lastV, settle };
    unacked.add(c);
    if (!held) issue(c);
  };
  return {
    send: (t, ...[d]) => send(t, d),
    request: (t, ...[d]) => new Promise((ok, fail) => send(t, d, { ok, fail })),
    sendNow: (t, ...[d]) => sock.sendNow(...parts(command(t, d))),
    serverNow: () => est.serverNow(localNow()),
    say: (text) => sock.request('chat', { table: id, text }),
    readSpectators: (on) => sock.request('chat.spectators', { table: id, on }),
    switchPlayers: (on) => sock.request('chat.players', { table: id, on }),
    report: (line, reason) => sock.request('chat.report', reason ? { line, reason } : { line }),
    close: () => {
      pinger?.stop();
      sock.close();
    },
  };
}
