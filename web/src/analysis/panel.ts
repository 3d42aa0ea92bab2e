// Analysis (研究): free moves from a position, with the engine's evaluation and best
// line streamed as it thinks (chess, xiangqi), or its best move and the territory
// it expects (Go). The board has no rules of its own: after each move the server
// (`analyse`) answers with the position, its legal moves, and the engine's lines.
// The moves played form one line the board walks along (first, back, forward,
// last; the arrow keys); a move off the line replaces the rest of it. A stored
// game opens at once on its last position (`GET /api/game/{id}/analysis?evaluate=false`);
// "review this game" asks the server to judge every move
// (`POST /api/game/{id}/analysis`), marks inaccuracies, mistakes and blunders in
// the move list and draws the evaluation graph, whose marks lead to their moves.
import { h, mount, clear } from '../dom';
import { t, type Key } from '../i18n';
import type { AnalysisBoard, BoardWidget, Side, StoneBoard } from '../boards/types';
import { renderMoves, download, toast } from '../ui';
import { api } from '../net/api';
import { Socket } from '../net/socket';
import type { Envelope } from '../net/socket';
import { play as sound } from '../sound';
import { tr } from '../pages/computer';
import { gameInfo } from '../net/games';
import { errorOf, errorText } from '../errors';
import { settings } from '../settings';
import type { JsonValue, Line as ServerLine, Position as ServerPosition, Setup } from '../net/generated/protocol';

// The server's `position` and `analysis` lines (docs/protocol.md "Analysis").
type Position = ServerPosition;
type Line = ServerLine;

type Judgement = 'inaccuracy' | 'mistake' | 'blunder';

interface Reviewed {
  ply: number;
  move: string;
  seat: number;
  judgement: Judgement | null;
  best: string | null;
  best_display?: string | null;
}

interface Review {
  options: JsonValue;
  setup: Setup;
  played: string[];
  positions: { chances: number }[];
  moves: Reviewed[];
  counts: { inaccuracies: number; mistakes: number; blunders: number }[];
}

const MARK: Record<Judgement, string> = { inaccuracy: '?!', mistake: '?', blunder: '??' };
const LETTERS = 'ABCDEFGHJKLMNOPQRSTUVWXYZ';
const SVG = 'http://www.w3.org/2000/svg';

/** The name of `game`'s seat, by its descriptor's side names (白方, 红方, 黑方), else its number. */
function seatName(game: string, seat: number): string {
  const side = gameInfo(game)?.seat_names[seat];
  return side ? t(side as Key) : String(seat + 1);
}

/** The score of a line as people read it, from the first seat's side. */
export function scoreText(game: string, l: Line): string {
  if (l.mate !== undefined) return `#${l.mate}`;
  if (l.cp !== undefined) return `${l.cp >= 0 ? '+' : ''}${(l.cp / 100).toFixed(2)}`;
  const first = gameInfo(game)?.seat_names[0] ? seatName(game, 0) : tr('先手', 'First');
  return `${first} ${Math.round(l.win * 100)}%`;
}

/** A line's moves in the notation of the page's language: the display one
 * (SAN, 中文记谱, vertices), xiangqi's WXF in English; the game's notation where
 * the server wrote none. */
export function lineText(l: Line): string[] {
  const wxf = l.pv_notations?.wxf;
  if (settings().lang === 'en' && wxf?.length) return wxf;
  if (l.pv_display?.length) return l.pv_display;
  return l.pv.length ? l.pv : [l.best ?? ''];
}

/** The side to move in a FEN (its second field): `b` is the second seat. */
function fenTurn(fen: string): Side {
  return fen.split(' ')[1] === 'b' ? 1 : 0;
}

function svg(tag: string, attrs: Record<string, string | number>): SVGElement {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
}

interface Options {
  game: string;
  /** The board the game's positions are shown on (its plugin's). */
  board: AnalysisBoard;
  /** The start position (FEN), or the game's standard one. */
  fen?: string;
  orientation: Side;
  history: string[];
  /** The game's options (null: its defaults). */
  options?: JsonValue;
  /** A stored game to open on and review ("analyse this game"). */
  gameId?: string;
  onClose?: () => void;
}

export function mountAnalysis(root: HTMLElement, o: Options): () => void {
  const { game } = o;
  // A piece board or the stone board, as the game's plugin has it.
  const stones = 'stones' in o.board;
  const board: BoardWidget | null = 'pieces' in o.board ? o.board.pieces() : null;
  const gob: StoneBoard | null = 'stones' in o.board ? o.board.stones() : null;
  const movesEl = h('div.move-list', { id: 'analysis-moves' });
  const evalEl = h('div.analysis-eval', { id: 'analysis-eval' }, '…');
  const depthEl = h('span.hint', { id: 'analysis-depth' });
  const pvEl = h('div.analysis-pv', { id: 'analysis-pv' });
  const reviewEl = h('div.analysis-review', { id: 'review-summary' });
  const graphEl = h('div.analysis-graph-box', { id: 'analysis-graph-box' });
  // The evaluation bar: the first seat's share, drawn from its side of the board.
  const barFill = h('div.eval-fill');
  const barEl = h('div.eval-bar', { id: 'eval-bar', 'data-win': '0.5', class: o.orientation === 1 ? 'flipped' : '' }, barFill);
  // The operator's external engines for this game may analyse instead of the built-in one.
  // One entry per engine (its strongest level: the last); the stone board's GTP
  // engines stream no lines.
  const byEngine = new Map<string, { key: string; zh: string; en: string }>();
  if (!stones) for (const l of gameInfo(game)?.bot_levels ?? []) if (l.engine) byEngine.set(l.engine, l);
  const externals = [...byEngine.values()];
  const engineSel = externals.length
    ? (h(
        'select',
        { id: 'analysis-engine', onchange: () => pos && void go(ply) },
        h('option', { value: '' }, tr('内置引擎', 'Built-in engine')),
        externals.map((l) => h('option', { value: l.key }, tr(l.zh, l.en))),
      ) as HTMLSelectElement)
    : null;
  const sock = new Socket('/ws');
  /** The line of moves the board walks along, and how each reads. */
  let line: string[] = o.history.slice();
  let lineDisplays: string[] = [];
  /** How many moves of the line the board shows. */
  let ply = 0;
  let pos: Position | null = null;
  let seq = 0;
  let current = '';
  let judged: Map<number, Reviewed> = new Map();
  let review: Review | null = null;
  let setup: Setup = o.fen ? { position: o.fen } : 'standard';
  let options: JsonValue = o.options ?? null;
  let closed = false;
  const waiters = new Map<string, (m: Envelope) => void>();

  sock.onMessage = (m: Envelope) => {
    const id = typeof m.id === 'string' ? m.id : '';
    const w = waiters.get(id);
    if (w && (m.t === 'position' || m.t === 'error')) {
      waiters.delete(id);
      w(m);
      return;
    }
    if (m.t === 'analysis' && id === current && !m.d.done && m.d.line) showLine(m.d.line as Line);
  };
  sock.onOpen = () => {
    // After a reconnect the search is asked for again.
    if (pos) void go(ply);
  };

  /** Asks the server for the position after `list` (and its analysis). */
  function ask(list: string[], think: boolean): Promise<{ id: string; p: Position }> {
    const id = `an${++seq}`;
    if (think) current = id;
    return new Promise<{ id: string; p: Position }>((ok, fail) => {
      waiters.set(id, (m) => {
        if (m.t === 'position') ok({ id, p: m.d as unknown as Position });
        else {
          const d = m.d as { message: string; code?: string };
          fail(new Error(d.code ? errorText(d.code, d.message) : d.message));
        }
      });
      // A string id: the socket leaves its answers to `onMessage`, streamed lines too.
      const engine = engineSel?.value || null;
      sock.send('analyse', { game, setup, moves: list, options, think, engine, time_ms: 15000 }, id);
    }).finally(() => waiters.delete(id));
  }

  /** Shows the position after the line's first `to` moves. */
  async function go(to: number) {
    to = Math.max(0, Math.min(line.length, to));
    try {
      const { id, p } = await ask(line.slice(0, to), true);
      // A newer request went out meanwhile: its answer is the one to show.
      if (closed || id !== current) return;
      pos = p;
      ply = to;
      p.displays.forEach((d, i) => (lineDisplays[i] = d));
      mount(evalEl, p.over ? tr('对局结束', 'Game over') : p.analysable ? tr('思考中…', 'Thinking…') : '—');
      depthEl.textContent = '';
      clear(pvEl);
      if (p.over) setBar(p.winner === 0 ? 1 : p.winner === 1 ? 0 : 0.5);
      redraw();
    } catch (e) {
      toast((e as Error).message, 'error');
    }
  }

  /** A move on the board: along the line if it is the line's next, else a new line from here. */
  function play(m: string) {
    sound('move');
    if (line[ply] !== m) {
      line = [...line.slice(0, ply), m];
      lineDisplays = lineDisplays.slice(0, ply);
    }
    void go(ply + 1);
  }

  function dests(legal: string[]): Map<string, string[]> {
    const d = new Map<string, string[]>();
    for (const m of legal) {
      const from = m.slice(0, 2);
      const to = m.slice(2, 4);
      const list = d.get(from) ?? [];
      if (!list.includes(to)) list.push(to);
      d.set(from, list);
    }
    return d;
  }

  /** A FEN whose second seat is to move starts the numbering at its move. */
  const startPly = () => (fenTurn(String(o.fen ?? (typeof setup === 'object' && 'position' in setup ? setup.position : ''))) === 1 ? 1 : 0);

  function redraw() {
    const p = pos;
    if (!p) return;
    const v = p.view;
    const last = line[ply - 1];
    if (board) {
      const fen = String(v.fen);
      board.set({
        fen,
        orientation: o.orientation,
        // The side to move by the position itself: in a finished game (no seat
        // to move) the mated king is the one in check.
        turn: p.to_move === null ? fenTurn(fen) : (p.to_move as Side),
        movable: p.over || p.to_move === null ? null : 'both',
        dests: dests(p.legal),
        lastMove: last && last.length >= 4 ? [last.slice(0, 2), last.slice(2, 4)] : undefined,
        check: !!v.check,
      });
      board.arrows?.([]);
      board.el.dataset.arrow = '';
    }
    if (gob) drawGo(null);
    // A move whose reading the server has not sent yet shows in the game's notation.
    const shown = Array.from({ length: line.length }, (_, i) => lineDisplays[i] ?? line[i]);
    renderMoves(movesEl, shown, startPly(), ply - 1, (to) => void go(to));
    movesEl.querySelector('.move.active')?.scrollIntoView({ block: 'nearest' });
    markJudgements();
    drawGraph();
    for (const [id, off] of [['#analysis-first', ply === 0], ['#analysis-back', ply === 0], ['#analysis-forward', ply >= line.length], ['#analysis-last', ply >= line.length]] as const) {
      const b = root.querySelector<HTMLButtonElement>(id);
      if (b) b.disabled = off;
    }
  }

  function drawGo(l: Line | null) {
    const p = pos;
    if (!p || !gob) return;
    const v = p.view;
    const size = Number(v.size);
    const rows = (v.board as string[]) ?? [];
    const blackArea: string[] = [];
    const whiteArea: string[] = [];
    if (l?.ownership) {
      l.ownership.forEach((own, i) => {
        const row = Math.floor(i / size);
        const col = i % size;
        const stone = rows[size - 1 - row]?.[col];
        const gtp = `${LETTERS[col]}${row + 1}`;
        if (own > 0.5 && stone !== 'X') blackArea.push(gtp);
        else if (own < -0.5 && stone !== 'O') whiteArea.push(gtp);
      });
    }
    gob.set({
      size,
      rows,
      lastMove: (v.last_move as string) ?? null,
      ko: (v.ko as string) ?? null,
      blackArea,
      whiteArea,
      ghost: p.over || p.to_move === null ? 0 : p.to_move === 0 ? 1 : -1,
      clickable: !p.over && p.to_move !== null,
      best: l?.best && l.best !== 'pass' ? l.best : null,
    });
    gob.el.dataset.best = l?.best ?? '';
  }

  /** The evaluation bar at the first seat's expected score `win` (0 … 1). */
  function setBar(win: number) {
    const w = Math.max(0, Math.min(1, win));
    barFill.style.height = `${(w * 100).toFixed(1)}%`;
    barEl.dataset.win = w.toFixed(3);
    barEl.title = `${seatName(game, 0)} ${Math.round(w * 100)}%`;
  }

  /** A line's moves numbered from the shown position (`12. Nf3 Nc6`, `12… Nc6`). */
  function numbered(moves: string[]): string {
    if (gameInfo(game)?.seats !== 2 || stones) return moves.join(' ');
    const start = startPly() + ply;
    return moves
      .map((m, i) => {
        const at = start + i;
        const no = Math.floor(at / 2) + 1;
        if (at % 2 === 0) return `${no}. ${m}`;
        return i === 0 ? `${no}… ${m}` : m;
      })
      .join(' ');
  }

  function showLine(l: Line) {
    mount(evalEl, h('span.score', { 'data-depth': String(l.depth) }, scoreText(game, l)));
    depthEl.textContent = stones ? `${tr('模拟', 'playouts')} ${l.nodes}` : `${tr('深度', 'depth')} ${l.depth}`;
    mount(pvEl, h('span.hint', null, t('bestMove') + ': '), h('span.pv-moves', null, numbered(lineText(l))));
    setBar(l.mate !== undefined ? (l.mate > 0 ? 1 : 0) : l.win);
    if (stones) drawGo(l);
    const best = l.best ?? l.pv[0];
    if (board && best && best.length >= 4) {
      const arrows: Array<[string, string]> = [[best.slice(0, 2), best.slice(2, 4)]];
      board.arrows?.(arrows);
      board.el.dataset.arrow = best;
    }
  }

  function markJudgements() {
    for (const [at, r] of judged) {
      const el = movesEl.querySelector(`[data-ply="${at}"]`);
      if (!el || !r.judgement || line[at - 1] !== r.move) continue;
      el.classList.add(`judgement-${r.judgement}`);
      el.setAttribute('data-judgement', r.judgement);
      const better = r.best_display ?? r.best;
      el.appendChild(h('span.judgement-mark', { title: better ? `${t('bestMove')} ${better}` : '' }, MARK[r.judgement]));
    }
  }

  /** The evaluation graph over the reviewed game: the first seat's winning
   * chances after each move, the judged moves marked; a mark or a point leads to its move. */
  function drawGraph() {
    const r = review;
    if (!r || !r.positions.length) {
      clear(graphEl);
      return;
    }
    const n = r.positions.length - 1;
    const W = 300;
    const H = 80;
    const x = (i: number) => (n ? (i / n) * W : 0);
    const y = (c: number) => H / 2 - (Math.max(-1, Math.min(1, c)) * H) / 2;
    const graph = svg('svg', { id: 'analysis-graph', viewBox: `0 0 ${W} ${H}`, preserveAspectRatio: 'none', role: 'img', 'aria-label': t('evalGraph') });
    const pts = r.positions.map((p, i) => `${x(i).toFixed(1)},${y(p.chances).toFixed(1)}`);
    graph.appendChild(svg('polygon', { class: 'graph-area', points: `0,${H / 2} ${pts.join(' ')} ${x(n)},${H / 2}` }));
    graph.appendChild(svg('line', { class: 'graph-mid', x1: 0, y1: H / 2, x2: W, y2: H / 2 }));
    graph.appendChild(svg('polyline', { class: 'graph-line', points: pts.join(' ') }));
    graph.appendChild(svg('line', { class: 'graph-cursor', x1: x(ply), y1: 0, x2: x(ply), y2: H }));
    graph.addEventListener('click', (e) => {
      const box = graph.getBoundingClientRect();
      if (!box.width || (e.target as Element).classList.contains('graph-mark')) return;
      void go(Math.round(((e.clientX - box.left) / box.width) * n));
    });
    const marks = h('div.graph-marks');
    for (const m of r.moves) {
      if (!m.judgement) continue;
      const c = r.positions[m.ply]?.chances ?? 0;
      // The marks are HTML over the graph (an SVG stretched to its box would squash circles).
      marks.appendChild(
        h(
          `button.graph-mark.judgement-${m.judgement}`,
          {
            'data-ply': String(m.ply),
            'data-judgement': m.judgement,
            title: `${lineDisplays[m.ply - 1] ?? m.move}${MARK[m.judgement]}`,
            style: { left: `${(x(m.ply) / W) * 100}%`, top: `${(y(c) / H) * 100}%` },
            onclick: (e: Event) => (e.stopPropagation(), void go(m.ply)),
          },
          MARK[m.judgement],
        ),
      );
    }
    mount(graphEl, h('div.hint', null, t('evalGraph')), h('div.analysis-graph', null, graph, marks));
  }

  /** A stored game's options, start and moves, at once: the board opens on its last position. */
  async function openGame() {
    if (!o.gameId) return void go(line.length);
    try {
      const r = await api<Review>('GET', `/api/game/${encodeURIComponent(o.gameId)}/analysis?evaluate=false`);
      options = r.options;
      setup = r.setup;
      line = r.played.slice();
      lineDisplays = [];
    } catch (e) {
      mount(reviewEl, t('errorPrefix') + errorOf(e));
    }
    await go(line.length);
  }

  async function reviewGame() {
    if (!o.gameId) return;
    mount(reviewEl, tr('分析中…', 'Analysing…'));
    try {
      const r = await api<Review>('POST', `/api/game/${encodeURIComponent(o.gameId)}/analysis`, {});
      options = r.options;
      setup = r.setup;
      review = r;
      judged = new Map(r.moves.map((m) => [m.ply, m]));
      const played = r.moves.map((m) => m.move);
      if (played.join(' ') !== line.slice(0, played.length).join(' ') || line.length !== played.length) {
        line = played;
        lineDisplays = [];
      }
      mount(
        reviewEl,
        r.counts.map((c, seat) =>
          h('div.review-row', { 'data-seat': String(seat) }, `${seatName(game, seat)}: ${c.inaccuracies} ${tr('欠佳', 'inaccuracies')} · ${c.mistakes} ${tr('错着', 'mistakes')} · ${c.blunders} ${tr('败着', 'blunders')}`),
        ),
      );
      await go(Math.min(ply, line.length) || line.length);
    } catch (e) {
      mount(reviewEl, t('errorPrefix') + errorOf(e));
    }
  }

  board?.onMove((m) => play(m));
  gob?.onVertex((gtp) => {
    if (pos?.legal.includes(gtp)) play(gtp);
  });

  const onKey = (e: KeyboardEvent) => {
    const tag = (e.target as HTMLElement | null)?.tagName;
    if (tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA' || e.altKey || e.ctrlKey || e.metaKey) return;
    const to = { ArrowLeft: ply - 1, ArrowRight: ply + 1, ArrowUp: 0, Home: 0, ArrowDown: line.length, End: line.length }[e.key];
    if (to === undefined || !pos) return;
    e.preventDefault();
    void go(to);
  };
  document.addEventListener('keydown', onKey);

  const close = () => {
    if (closed) return;
    closed = true;
    document.removeEventListener('keydown', onKey);
    sock.send('analyse.stop');
    sock.close();
    board?.destroy();
    gob?.destroy();
    clear(root);
    o.onClose?.();
  };

  const nav = (id: string, label: string, symbol: string, to: () => number) =>
    h('button.btn.btn-small', { id, title: label, 'aria-label': label, disabled: true, onclick: () => void go(to()) }, symbol);
  mount(
    root,
    h(
      'div.panel',
      { id: 'analysis-panel', 'data-game': game },
      h('div.panel-title', null, t('analysisBoard'), h('span', null,
        h('button.btn.btn-small', { id: 'analysis-save', onclick: () => download(`qiyuan-analysis-${game}.txt`, line.slice(0, ply).join(' ') + '\n', 'text/plain') }, t('save')), ' ',
        o.gameId ? h('button.btn.btn-small.primary', { id: 'analyse-game', onclick: () => void reviewGame() }, t('reviewGame')) : null, ' ',
        o.onClose ? h('button.btn.btn-small', { id: 'analysis-close', onclick: close }, t('exitAnalysis')) : null)),
      h(
        'div.analysis-body',
        null,
        barEl,
        board?.el ?? gob!.el,
        h(
          'div.analysis-side',
          null,
          h(
            'div.analysis-nav',
            null,
            nav('analysis-first', t('firstPly'), '|◀', () => 0),
            nav('analysis-back', t('back'), '◀', () => ply - 1),
            nav('analysis-forward', t('forwardPly'), '▶', () => ply + 1),
            nav('analysis-last', t('lastPly'), '▶|', () => line.length),
            stones ? h('button.btn.btn-small', { id: 'analysis-pass', onclick: () => pos && !pos.over && play('pass') }, tr('停一手', 'Pass')) : null,
          ),
          h('div.analysis-engine', null, evalEl, ' ', depthEl, engineSel),
          pvEl,
          movesEl,
          graphEl,
          reviewEl,
        ),
      ),
    ),
  );
  void openGame();
  return close;
}

/** The analysis board under a piece-board game's table: from `fen` with `history`. */
export function analysisBoard(root: HTMLElement, game: string, board: AnalysisBoard, fen: string, orientation: Side, onClose: () => void, history: string[] = []) {
  const close = mountAnalysis(root, { game, board, fen, orientation, history, onClose });
  root.scrollIntoView({ block: 'start' });
  return close;
}
