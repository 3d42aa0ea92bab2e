// The adapter between the server's WebSocket protocol (docs/protocol.md) and the
// client's TableModel. Everything wire-specific lives here.
import { Socket } from './socket';
import { applyPatch, PatchMisfit } from './patch';
import type { Envelope, RatingChange, TableSummary as WireSummary } from './generated/protocol';
import { api } from './api';
import { quickPairing } from './games';
import { emptyModel, type ClockView, type Player, type TableActions, type TableModel, type TimeControl } from './model';
import type { GameKind } from '../games';
import { session } from '../session';

type J = Record<string, unknown>;
const obj = (x: unknown): J => (x && typeof x === 'object' ? (x as J) : {});
const num = (x: unknown, d = 0): number => (typeof x === 'number' ? x : d);
const str = (x: unknown): string | null => (typeof x === 'string' ? x : typeof x === 'number' ? String(x) : null);

export function clockFrom(raw: unknown): ClockView | null {
  const c = obj(raw);
  if (!Array.isArray(c.seats)) return null;
  const seats = c.seats.map(obj);
  const control = obj(c.control);
  const showSub = control.kind === 'qq' || control.kind === 'byo_yomi' || control.kind === 'canadian' || control.kind === 'correspondence';
  return {
    ms: seats.map((s) => num(s.main)),
    sub: seats.map((s) => (showSub && typeof s.move_left === 'number' ? s.move_left : null)),
    overtime: seats.map((s) => !!s.overtime),
    running: c.paused ? null : typeof c.running === 'number' ? c.running : null,
    receivedAt: performance.now(),
  };
}

function playerFrom(raw: unknown, ratings: J, game: GameKind): Player | null {
  if (raw === null || raw === undefined) return null;
  if (typeof raw === 'string') {
    const r = obj(ratings[raw]);
    return { name: raw, rating: typeof r.rating === 'number' ? r.rating : undefined, provisional: !!r.provisional };
  }
  const p = obj(raw);
  const name = str(p.name ?? p.username ?? p.user);
  if (!name) return null;
  let rating: number | undefined;
  let provisional = false;
  const rs = p.rating ?? p.ratings;
  if (typeof rs === 'number') rating = rs;
  else if (rs && typeof rs === 'object') {
    const r = obj(Array.isArray(rs) ? rs.find((x) => obj(x).pool === game) : (rs as J)[game] ?? rs);
    if (typeof r.rating === 'number') rating = r.rating;
    provisional = !!r.provisional;
  }
  if (typeof p.provisional === 'boolean') provisional = p.provisional;
  return { name, rating, provisional };
}

/** Rebuilds the model from a full table view (qiyuan-table's TableView). */
export function modelFromView(id: string, raw: unknown): TableModel {
  const v = obj(raw);
  const game = (str(v.game_name) ?? str(v.kind) ?? (typeof v.game === 'string' ? v.game : null) ?? 'chess') as GameKind;
  const m = emptyModel(str(v.id) ?? str(v.table) ?? id, game);
  m.version = num(v.version ?? v.v);
  const ratings = obj(v.ratings);
  const seats = Array.isArray(v.seats) ? v.seats : [];
  m.seats = seats.map((s) => {
    const x = obj(s);
    const player = playerFrom(x.player ?? x.user ?? null, ratings, game);
    return { player, ready: !!x.ready, connected: x.connected !== false };
  });
  while (m.seats.length < 2) m.seats.push({ player: null, ready: false, connected: false });
  m.spectators = Array.isArray(v.spectators) ? v.spectators.length : num(v.spectators);
  const me = session()?.name;
  const mySeat = typeof v.you === 'number' ? v.you : m.seats.findIndex((s) => !!me && s.player?.name === me);
  m.mySeat = mySeat >= 0 ? mySeat : null;
  m.status = (str(v.status) ?? 'waiting') as TableModel['status'];
  const prop = obj(v.proposal);
  if (prop.settings) {
    const tc = obj(obj(prop.settings).time) as unknown as TimeControl;
    const accepted = seats.map((s, i) => (obj(s).accepted === prop.id ? i : -1)).filter((i) => i >= 0);
    m.timeProposal = { id: num(prop.id), by: num(prop.by), tc, accepted };
    m.timeControl = tc;
    m.rated = !!obj(prop.settings).rated;
  }
  const g = obj(typeof v.game === 'object' ? v.game : null);
  if (Object.keys(g).length) {
    const settings = obj(g.settings);
    if (m.status !== 'waiting' && settings.time) m.timeControl = settings.time as TimeControl;
    if (m.status === 'playing') m.rated = !!settings.rated;
    const board = obj(g.board ?? g.view);
    const setup = obj(settings.setup);
    m.startFen = str(board.start_fen) ?? str(setup.position) ?? undefined;
    const moves = Array.isArray(g.moves) ? g.moves : Array.isArray(g.actions) ? g.actions : [];
    m.moves = moves.map((a) => ({ uci: (str(obj(a).action) ?? '').toLowerCase().replace('-', ''), display: str(obj(a).display) ?? '' }));
    m.clock = clockFrom(g.clock);
    if (typeof g.draw_offer === 'number') m.offers.draw = g.draw_offer;
    if (typeof g.takeback_request === 'number') m.offers.takeback = g.takeback_request;
    const gid = g.id ?? v.game_id;
    m.gameId = typeof gid === 'string' || typeof gid === 'number' ? String(gid) : null;
    if (g.outcome) m.result = resultFrom(g.outcome, v);
    if (typeof board.fen === 'string') m.fen = board.fen;
    if (Array.isArray(board.legal_moves)) m.legal = board.legal_moves.map((x) => String(x).toLowerCase().replace('-', ''));
    if (typeof board.check === 'boolean') m.check = board.check;
    const turn = g.turn;
    m.turn = typeof obj(turn).seat === 'number' ? num(obj(turn).seat) : typeof board.to_move === 'number' ? board.to_move : turn === 'over' ? null : m.moves.length % 2;
  }
  seats.forEach((s, i) => {
    const x = obj(s);
    if (typeof x.swap_with === 'number') m.offers.swap = i;
    if (x.rematch) m.offers.rematch = i;
  });
  return m;
}

function resultFrom(raw: unknown, extra: J = {}): TableModel['result'] {
  const o = obj(raw);
  const deltas = Array.isArray(extra.rating_changes) ? extra.rating_changes : Array.isArray(o.rating_changes) ? o.rating_changes : [];
  return {
    results: Array.isArray(o.results) ? o.results.map(String) : [],
    reason: str(o.reason) ?? '',
    score: str(o.score) ?? '',
    ratingDelta: deltas.map((d) => (typeof d === 'number' ? d : typeof obj(d).delta === 'number' ? num(obj(d).delta) : null)),
    ratingAfter: deltas.map((d) => (typeof obj(d).after === 'number' ? num(obj(d).after) : typeof obj(d).rating === 'number' ? num(obj(d).rating) : null)),
  };
}

/** Applies one table event (qiyuan-table's Event) to the model. */
export function applyEvent(m: TableModel, ev: J): boolean {
  const seat = typeof ev.seat === 'number' ? ev.seat : -1;
  switch (ev.type) {
    case 'acted': {
      m.moves.push({ uci: str(ev.action) ?? '', display: str(ev.display) ?? '' });
      m.clock = clockFrom(ev.clock) ?? m.clock;
      m.turn = seat === 0 ? 1 : 0;
      m.offers.takeback = undefined;
      if (m.offers.draw !== undefined && m.offers.draw !== seat) m.offers.draw = undefined;
      m.legal = null; // recomputed from the position
      m.fen = undefined;
      m.check = !!ev.check;
      return true;
    }
    case 'took_back': {
      m.moves.splice(Math.max(0, m.moves.length - num(ev.plies)));
      m.clock = clockFrom(ev.clock) ?? m.clock;
      m.turn = m.moves.length % 2;
      m.offers.takeback = undefined;
      m.legal = null;
      m.fen = undefined;
      return true;
    }
    case 'draw_offered':
      m.offers.draw = seat;
      return true;
    case 'draw_declined':
      m.offers.draw = undefined;
      return true;
    case 'takeback_requested':
      m.offers.takeback = seat;
      return true;
    case 'takeback_declined':
      m.offers.takeback = undefined;
      return true;
    case 'ended':
      m.status = 'over';
      m.result = resultFrom(ev.outcome, ev);
      if (m.clock) m.clock.running = null;
      m.offers = {};
      return true;
    case 'ready':
      if (m.seats[seat]) m.seats[seat].ready = !!ev.ready;
      return true;
    case 'disconnected':
      if (m.seats[seat]) m.seats[seat].connected = false;
      return true;
    case 'reconnected':
      if (m.seats[seat]) m.seats[seat].connected = true;
      return true;
    case 'resumed':
      m.clock = clockFrom(ev.clock) ?? m.clock;
      return true;
  }
  // Seating, proposals, starts and the rest change much; ask for a fresh view.
  return false;
}

export interface TableHandlers {
  onModel(m: TableModel): void;
  onStatus(s: 'connecting' | 'open' | 'closed'): void;
  onError(message: string): void;
  /** The events of one batch, for sounds. */
  onEvents?(events: J[]): void;
}

// Players' ratings are not part of a table view: ask each profile once.
const ratingCache = new Map<string, Promise<J | null>>();
function ratingsOf(name: string): Promise<J | null> {
  let p = ratingCache.get(name);
  if (!p) {
    p = api('GET', `/api/user/${encodeURIComponent(name)}`)
      .then((r) => obj(r))
      .catch(() => null);
    ratingCache.set(name, p);
  }
  return p;
}
export function forgetRatings(): void {
  ratingCache.clear();
}

function ratingFor(profile: J | null, game: string): { rating: number; provisional: boolean } | null {
  const list = Array.isArray(profile?.ratings) ? (profile!.ratings as J[]) : [];
  const r = list.find((x) => x.pool === game) ?? list.find((x) => typeof x.pool === 'string' && x.pool.startsWith(game + ':'));
  return r && typeof r.rating === 'number' ? { rating: r.rating, provisional: !!r.provisional } : null;
}

export function connectTable(id: string, handlers: TableHandlers): TableActions {
  const sock = new Socket('/ws');
  let model: TableModel | null = null;
  let ratings: RatingChange[] | null = null;
  const known: J = {};
  const send = (t: string, d: J = {}) => sock.send(t, { table: id, ...d });

  function publish(state: unknown) {
    const m = modelFromView(id, state);
    // Game ids: the table's first game is stored under the table's id.
    const g = obj(obj(state).game);
    if (typeof g.number === 'number') m.gameId = g.number <= 1 ? id : `${id}-${g.number}`;
    if (m.result && ratings) {
      for (const r of ratings) {
        m.result.ratingDelta[r.seat] = r.diff;
        m.result.ratingAfter[r.seat] = r.after;
      }
    }
    for (const s of m.seats) {
      const p = s.player;
      if (!p) continue;
      const r = known[p.name] as { rating: number; provisional: boolean } | null | undefined;
      if (r) {
        p.rating = r.rating;
        p.provisional = r.provisional;
      } else if (!(p.name in known) && !/^guest-/i.test(p.name)) {
        known[p.name] = null;
        void ratingsOf(p.name).then((profile) => {
          known[p.name] = ratingFor(profile, m.game) ?? (profile ? { rating: 1500, provisional: true } : null);
          if (known[p.name] && model) publish(lastState);
        });
      }
    }
    model = m;
    handlers.onModel(m);
  }
  let lastState: unknown = null;

  sock.onState = (s) => handlers.onStatus(s);
  // The last table version seen: a reconnect asks for what came after it, and an
  // event that does not follow on from it means something was missed.
  let lastV: number | null = null;
  sock.onOpen = () => sock.send('watch', lastV === null ? { table: id } : { table: id, since: lastV });
  sock.onMessage = (msg: Envelope) => {
    switch (msg.t) {
      case 'sync': {
        const d = msg.d;
        if (d.table !== id) return;
        lastV = d.v;
        lastState = d.state;
        publish(d.state);
        return;
      }
      case 'event': {
        const d = msg.d;
        if (d.table !== id) return;
        if (d.ratings) {
          ratings = d.ratings;
          // A finished rated game changes ratings: ask again next time.
          for (const r of ratings) {
            ratingCache.delete(r.user);
            delete known[r.user];
          }
        }
        if (lastV !== null && d.from !== lastV) send('watch', { since: lastV });
        let state: unknown;
        try {
          state = applyPatch(lastState, d.patch);
        } catch (e) {
          if (!(e instanceof PatchMisfit)) throw e;
          // A patch that does not fit what this page holds: ask for the whole view.
          send('watch', lastV === null ? {} : { since: lastV });
          return;
        }
        lastV = d.v;
        const events: J[] = d.events;
        if (events.some((e) => e.type === 'started')) ratings = null;
        handlers.onEvents?.(events);
        lastState = state;
        publish(state);
        return;
      }
      case 'error':
        if (msg.d.table !== undefined && msg.d.table !== id) return;
        handlers.onError(msg.d.message);
        return;
    }
  };
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
    leave: () => sock.sendNow('leave', { table: id }),
    close: () => sock.close(),
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
