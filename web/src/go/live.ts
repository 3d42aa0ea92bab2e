// The Go and Doudizhu pages' face of the one table connection (table/connection.ts):
// every new view (hidden cards already removed by the server) with its events.
import type { SocketState } from '../net/socket';
import { connect } from '../table/connection';

export type J = Record<string, any>;

export interface LiveHandlers {
  onState(state: J, events: J[]): void;
  onStatus(s: SocketState): void;
  onError(message: string, code: string): void;
}

export interface LiveTable {
  /** Sends a table command (the table id is added). */
  send(t: string, d?: J): void;
  /** Sends a table command and resolves on its ack, rejects on refusal. */
  request(t: string, d?: J): Promise<unknown>;
  sendNow(t: string, d?: J): void;
  close(): void;
}

export function liveTable(id: string, h: LiveHandlers): LiveTable {
  const conn = connect(id, {
    onView: (view, events) => h.onState(view as J, events as J[]),
    onStatus: (s) => h.onStatus(s),
    onError: (message, code) => h.onError(message, code),
  });
  return {
    send: conn.send,
    request: (t, d = {}) =>
      conn.request(t, d).catch((e: Error) => {
        h.onError(e.message, '');
        throw e;
      }),
    sendNow: conn.sendNow,
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
