// A live table as raw server state: watch, then every `event` batch's patch is
// applied to the view (the server computed both for this viewer, hidden cards
// already removed). The Go and Doudizhu pages read the game's own view from it.
import { Socket, type SocketState } from '../net/socket';
import { applyPatch, PatchMisfit } from '../net/patch';

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
  const sock = new Socket('/ws');
  sock.onState = (s) => h.onStatus(s);
  sock.onOpen = () => sock.send('watch', { table: id });
  let view: J | null = null;
  sock.onMessage = (msg) => {
    if (msg.t === 'sync') {
      if (msg.d.table !== id) return;
      view = msg.d.state as J;
      h.onState(view, []);
    } else if (msg.t === 'event') {
      if (msg.d.table !== id) return;
      try {
        view = applyPatch(view, msg.d.patch);
      } catch (e) {
        if (!(e instanceof PatchMisfit)) throw e;
        sock.send('watch', { table: id });
        return;
      }
      h.onState(view, msg.d.events as J[]);
    } else if (msg.t === 'error') {
      if (msg.d.table !== undefined && msg.d.table !== id) return;
      h.onError(msg.d.message, msg.d.code);
    }
  };
  return {
    send: (t, d = {}) => sock.send(t, { table: id, ...d }),
    request: (t, d = {}) =>
      sock.request(t, { table: id, ...d }).catch((e: Error) => {
        h.onError(e.message, '');
        throw e;
      }),
    sendNow: (t, d = {}) => sock.sendNow(t, { table: id, ...d }),
    close: () => sock.close(),
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
