// The adapter between the server's WebSocket protocol (docs/protocol.md) and the
// client's TableModel. Everything wire-specific lives here.
import { Socket } from './socket';
import { connect, type TableEvent } from '../table/connection';
import type { BoardView, ChessView, ClockView as WireClock, Outcome, RatingChange, TableSummary as WireSummary, TableView, XiangqiView } from './generated/protocol';
import { api } from './api';
import { quickPairing } from './games';
import { emptyModel, type ClockView, type Player, type TableActions, type TableModel, type TimeControl } from './model';
import { session } from '../session';

type J = Record<string, unknown>;
const obj = (x: unknown): J => (x && typeof x === 'object' ? (x as J) : {});
const str = (x: unknown): string | null => (typeof x === 'string' ? x : typeof x === 'number' ? String(x) : null);

export function clockFrom(c: WireClock): ClockView {
  const k = c.control.kind;
  const showSub = k === 'qq' || k === 'byo_yomi' || k === 'canadian' || k === 'correspondence';
  return {
    ms: c.seats.map((s) => s.main),
    sub: c.seats.map((s) => (showSub ? s.move_left : null)),
    overtime: c.seats.map((s) => s.overtime),
    running: c.paused ? null : c.running,
    receivedAt: performance.now(),
  };
}

/** The board of a chess or xiangqi view (the pages of pages/table.ts). */
export type PieceBoard = ChessView | XiangqiView;

const isChess = (b: BoardView): b is ChessView => 'san_moves' in b;
const isXiangqi = (b: BoardView): b is XiangqiView => 'wxf_moves' in b;

/** Rebuilds the model from a table view (qiyuan-table's TableView). */
export function modelFromView(id: string, v: TableView<BoardView>): TableModel {
  const m = emptyModel(id, v.game_name);
  m.version = v.version;
  m.seats = v.seats.map((x) => ({ player: x.user === null ? null : { name: x.user }, ready: x.ready, connected: x.connected }));
  m.spectators = v.spectators.length;
  m.mySeat = v.you;
  m.status = v.status;
  const prop = v.proposal;
  const tc = prop.settings.time;
  m.timeProposal = { id: prop.id, by: prop.by, tc, accepted: v.seats.flatMap((s, i) => (s.accepted === prop.id ? [i] : [])) };
  m.timeControl = tc;
  m.rated = prop.settings.rated;
  v.seats.forEach((x, i) => {
    if (x.swap_with !== null) m.offers.swap = i;
    if (x.rematch) m.offers.rematch = i;
  });
  const g = v.game;
  if (!g) return m;
  if (m.status !== 'waiting') m.timeControl = g.settings.time;
  if (m.status === 'playing') m.rated = g.settings.rated;
  m.moves = g.moves.map((a) => ({ uci: a.action.toLowerCase().replace('-', ''), display: a.display }));
  m.clock = clockFrom(g.clock);
  if (g.draw_offer !== null) m.offers.draw = g.draw_offer;
  if (g.takeback_request !== null) m.offers.takeback = g.takeback_request;
  if (g.outcome) m.result = resultFrom(g.outcome);
  m.turn = typeof g.turn === 'object' && 'seat' in g.turn ? g.turn.seat : null;
  const board = g.board;
  const setup = g.settings.setup;
  const loaded = typeof setup === 'object' && 'position' in setup ? setup.position : undefined;
  if (isChess(board)) {
    m.startFen = board.start_fen ?? loaded;
    m.fen = board.fen;
    m.legal = board.legal_moves;
    m.check = board.check;
    m.lastMove = board.last_move ? board.last_move.uci : null;
  } else if (isXiangqi(board)) {
    m.startFen = loaded;
    m.fen = board.fen;
    m.legal = board.legal_moves;
    m.check = board.check;
    m.wxf = board.wxf_moves;
    m.lastMove = board.last_move ? board.last_move.iccs : null;
  }
  return m;
}

function resultFrom(o: Outcome): TableModel['result'] {
  // The rating changes come with the batch that ended the game (see connectTable).
  return { results: o.results, reason: o.reason, score: o.score, ratingDelta: o.results.map(() => null), ratingAfter: o.results.map(() => null) };
}

export interface TableHandlers {
  onModel(m: TableModel): void;
  onStatus(s: 'connecting' | 'open' | 'closed'): void;
  onError(message: string): void;
  /** The events of one batch, for sounds. */
  onEvents?(events: TableEvent[]): void;
}

// Players' ratings are not part of a table view: ask each profile once
// (`GET /api/user/{name}`, docs/protocol.md).
interface Profile {
  ratings: Array<{ pool: string; rating: number; provisional: boolean }>;
}
type Rating = { rating: number; provisional: boolean };
const ratingCache = new Map<string, Promise<Profile | null>>();
function ratingsOf(name: string): Promise<Profile | null> {
  let p = ratingCache.get(name);
  // Computer players (`bot:…`) and hot-seat stand-ins (`hotseat:…`) have no
  // profile: a colon is never in an account's name.
  if (!p && name.includes(':')) {
    p = Promise.resolve(null);
    ratingCache.set(name, p);
  }
  if (!p) {
    p = api<Profile>('GET', `/api/user/${encodeURIComponent(name)}`).catch(() => null);
    ratingCache.set(name, p);
  }
  return p;
}
export function forgetRatings(): void {
  ratingCache.clear();
}

function ratingFor(profile: Profile | null, game: string): Rating | null {
  const list = profile?.ratings ?? [];
  const r = list.find((x) => x.pool === game) ?? list.find((x) => x.pool.startsWith(game + ':'));
  return r ? { rating: r.rating, provisional: r.provisional } : null;
}

export function connectTable(id: string, handlers: TableHandlers): TableActions {
  let model: TableModel | null = null;
  let ratings: RatingChange[] | null = null;
  const known = new Map<string, Rating | null>();

  function publish(state: TableView<BoardView>) {
    const m = modelFromView(id, state);
    // Game ids: the table's first game is stored under the table's id.
    const n = state.game?.number;
    if (n !== undefined) m.gameId = n <= 1 ? id : `${id}-${n}`;
    if (m.result && ratings) {
      for (const r of ratings) {
        m.result.ratingDelta[r.seat] = r.diff;
        m.result.ratingAfter[r.seat] = r.after;
      }
    }
    for (const s of m.seats) {
      const p = s.player;
      if (!p) continue;
      const r = known.get(p.name);
      if (r) {
        p.rating = r.rating;
        p.provisional = r.provisional;
      } else if (!known.has(p.name) && !/^guest-/i.test(p.name)) {
        known.set(p.name, null);
        void ratingsOf(p.name).then((profile) => {
          const found = ratingFor(profile, m.game) ?? (profile ? { rating: 1500, provisional: true } : null);
          known.set(p.name, found);
          if (found && lastState) publish(lastState);
        });
      }
    }
    model = m;
    handlers.onModel(m);
  }
  let lastState: TableView<BoardView> | null = null;

  const conn = connect(id, {
    onStatus: (s) => handlers.onStatus(s),
    onError: (message) => handlers.onError(message),
    onView: (view, events, batch) => {
      if (batch?.ratings) {
        ratings = batch.ratings;
        // A finished rated game changes ratings: ask again next time.
        for (const r of ratings) {
          ratingCache.delete(r.user);
          known.delete(r.user);
        }
      }
      if (events.some((e) => e.type === 'started')) ratings = null;
      if (events.length) handlers.onEvents?.(events);
      lastState = view;
      publish(view);
    },
  });
  const send = (t: string, d: Record<string, unknown> = {}) => conn.send(t, d);
  const proposalId = () => model?.timeProposal?.id;
  const other = () => (model?.mySeat === 0 ? 1 : 0);
  return {
    sit: (seat) => send('sit', { seat }),
    stand: () => send('stand'),
    ready: () => send('ready', { proposal: proposalId() }),
    move: (uci) => send('move', { action: uci }),
    proposeTime: (tc) => send('propose', { settings: { time: tc, setup: 'standard', rated: model?.rated ?? false, takebacks: true } }),
    acceptTime: () => send('accept', { proposal: proposalId() }),
    offerDraw: () => send('draw.offer'),
    answerDraw: (yes) => send(yes ? 'draw.accept' : 'draw.decline'),
    takeback: () => send('takeback.request'),
    answerTakeback: (yes) => send(yes ? 'takeback.accept' : 'takeback.decline'),
    swap: () => send('swap', { with: other() }),
    answerSwap: (yes) => (yes ? send('swap', { with: other() }) : undefined),
    resign: () => send('resign'),
    load: (fen) => send('propose', { settings: { time: model?.timeControl ?? { kind: 'none' }, setup: { position: fen }, rated: false, takebacks: true } }),
    rematch: () => send('rematch'),
    leave: () => conn.sendNow('leave'),
    close: () => conn.close(),
  };
}

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
        handlers.onError(msg.d.message);
        return;
    }
  };
  return {
    quickPair: () => {
      void sock
        .request('seek', { game, time: quickPairing(game) })
        .then((r) => {
          const t = str(obj(r).table);
          if (t) handlers.onPaired(t);
        })
        .catch((e: Error) => handlers.onError(e.message));
    },
    cancelPair: () => sock.send('seek.cancel'),
    createTable: async (): Promise<string> => {
      // Registered players' tables count for ratings (积分), as at 联众; guests play casual games.
      const r = obj(await sock.request('create', { game, seat: 0, rated: !session()?.guest }));
      return str(r.table) ?? '';
    },
    close: () => sock.close(),
  };
}
