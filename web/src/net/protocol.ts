// The lobby's side of the server's WebSocket protocol (docs/protocol.md): the
// table list of one game, quick pairing and new tables. Tables themselves are
// followed by table/connection.ts.
import { Socket } from './socket';
import type { TableSummary as WireSummary } from './generated/protocol';
import { quickPairing } from './games';
import type { Player, TimeControl } from './model';
import { session } from '../session';
import { errorText } from '../errors';

type J = Record<string, unknown>;
const obj = (x: unknown): J => (x && typeof x === 'object' ? (x as J) : {});
const str = (x: unknown): string | null => (typeof x === 'string' ? x : typeof x === 'number' ? String(x) : null);

export interface TableSummary {
  id: string;
  game: string;
  seats: Array<Player | null>;
  spectators: number;
  status: 'waiting' | 'playing' | 'over';
  timeControl?: TimeControl | null;
}

export interface LobbyHandlers {
  onTables(t: TableSummary[]): void;
  onOnline(names: string[]): void;
  onPaired(tableId: string): void;
  onError(message: string): void;
}

function summaryFrom(x: WireSummary): TableSummary {
  const seats = x.seats.map((s) => (s.user === null ? null : { name: s.user }));
  while (seats.length < 2) seats.push(null);
  return {
    id: x.id,
    game: x.game,
    seats,
    spectators: x.spectators,
    status: x.status,
    timeControl: x.time,
  };
}

export function connectLobby(game: string, handlers: LobbyHandlers) {
  const sock = new Socket('/ws');
  const tables = new Map<string, TableSummary>();
  const publish = () => {
    // Newest tables first, open ones before full ones.
    const list = [...tables.values()].sort((a, b) => Number(b.id.replace(/\D/g, '') || 0) - Number(a.id.replace(/\D/g, '') || 0));
    handlers.onTables(list);
    const names = new Set<string>();
    for (const t of list) for (const s of t.seats) if (s) names.add(s.name);
    handlers.onOnline([...names]);
  };
  sock.onOpen = () => sock.send('lobby.subscribe', { game });
  sock.onMessage = (msg) => {
    switch (msg.t) {
      case 'lobby': {
        tables.clear();
        for (const x of msg.d.tables) {
          const s = summaryFrom(x);
          tables.set(s.id, s);
        }
        publish();
        return;
      }
      case 'lobby.table': {
        const s = summaryFrom(msg.d);
        if (s.game === game) tables.set(s.id, s);
        publish();
        return;
      }
      case 'lobby.gone':
        tables.delete(msg.d.id);
        publish();
        return;
      case 'paired':
        handlers.onPaired(msg.d.table);
        return;
      case 'error':
        handlers.onError(errorText(msg.d.code, msg.d.message));
        return;
    }
  };
  return {
    quickPair: (rated = false) => {
      // The server hosts no game without clock presets: none here means no such game.
      const time = quickPairing(game);
      if (!time) {
        handlers.onError(errorText('unknown_game'));
        return;
      }
      void sock
        .request('seek', { game, time, rated: rated && !session()?.guest })
        .then((r) => {
          const t = str(obj(r).table);
          if (t) handlers.onPaired(t);
        })
        .catch((e: Error & { code?: string }) => handlers.onError(e.code ? errorText(e.code, e.message) : e.message));
    },
    cancelPair: () => sock.send('seek.cancel'),
    createTable: async (rated = !session()?.guest): Promise<string> => {
      // Registered players choose rated (积分, the default, as at 联众) or casual; guests play casual games.
      const r = obj(await sock.request('create', { game, seat: 0, rated: rated && !session()?.guest }));
      return str(r.table) ?? '';
    },
    close: () => sock.close(),
  };
}
