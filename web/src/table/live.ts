// A live table as a game's page sees it: the face of the one table connection
// (table/connection.ts) that the table shell opens, every new view (hidden cards
// already removed by the server) with its events; and the seat a table's
// creator takes as its page opens.
import type { SocketState } from '../net/socket';
import type { Batch, ChatMsg, TableView } from '../net/generated/protocol';
import { connect, type CommandType, type FieldsArg, type TableEvent } from './connection';

export interface LiveHandlers<V> {
  /** A new view, with the events that led to it and their batch (none after a `sync`). */
  onState(state: TableView<V>, events: TableEvent[], batch: Batch | null): void;
  onStatus(s: SocketState): void;
  onError(message: string, code: string): void;
  /** The seats' measured lag changed (ms or null per seat). */
  onLag?(seats: Array<number | null>): void;
  /** A chat line at the table, in a room this page reads. */
  onChat?(line: ChatMsg): void;
  /** Who keeps the players' chat closed now (empty: open). */
  onChatPlayers?(off: string[]): void;
}

export interface LiveTable {
  /** Sends a table command (the table id is added). */
  send<T extends CommandType>(t: T, ...d: FieldsArg<T>): void;
  /** Sends a table command, settled by the server's answer (see `Connection.request`). */
  request<T extends CommandType>(t: T, ...d: FieldsArg<T>): Promise<unknown>;
  /** Sends at once, even while the socket is closing (`leave`). */
  sendNow<T extends CommandType>(t: T, ...d: FieldsArg<T>): void;
  /** The server's time now, as this browser estimates it (net/lag.ts). */
  serverNow(): number;
  /** The table's chat (docs/protocol.md "Chat"). */
  say(text: string): Promise<unknown>;
  readSpectators(on: boolean): Promise<unknown>;
  switchPlayers(on: boolean): Promise<unknown>;
  report(line: number, reason?: string): Promise<unknown>;
  close(): void;
}

export function liveTable<V>(id: string, h: LiveHandlers<V>): LiveTable {
  const conn = connect<V>(id, {
    onView: (view, events, batch) => h.onState(view, events, batch),
    onStatus: (s) => h.onStatus(s),
    onError: (message, code) => h.onError(message, code),
    onLag: (seats) => h.onLag?.(seats),
    onChat: (line) => h.onChat?.(line),
    onChatPlayers: (off) => h.onChatPlayers?.(off),
  });
  return {
    send: conn.send,
    request: conn.request,
    sendNow: conn.sendNow,
    serverNow: conn.serverNow,
    say: conn.say,
    readSpectators: conn.readSpectators,
    switchPlayers: conn.switchPlayers,
    report: conn.report,
    close: conn.close,
  };
}

/** Marks a table just created by this browser, so that its page sits down at once. */
export function markAutoSit(id: string, seat = 0) {
  try {
    sessionStorage.setItem('qiyuan.autosit', JSON.stringify({ id, seat }));
  } catch {
    /* private mode: the player sits by hand */
  }
}

export function takeAutoSit(id: string): number | null {
  try {
    const raw = sessionStorage.getItem('qiyuan.autosit');
    if (!raw) return null;
    const v = JSON.parse(raw) as { id: string; seat: number };
    if (v.id !== id) return null;
    sessionStorage.removeItem('qiyuan.autosit');
    return v.seat;
  } catch {
    return null;
  }
}
