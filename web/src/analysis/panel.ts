// Analysis (研究): free moves from a position, with the engine's evaluation and best
// line streamed as it thinks (chess, xiangqi), or its best move and the territory
// it expects (Go). The board has no rules of its own: after each move the server
// (`analyse`) answers with the position, its legal moves, and the engine's lines.
// "Analyse this game" asks the server to judge every move of a finished game
// (`POST /api/game/{id}/analysis`) and marks inaccuracies, mistakes and blunders
// in the move list.
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
}

const MARK: Record<Judgement, string> = { inaccuracy: '?!', mistake: '?', blunder: '??' };
const LETTERS = 'ABCDEFGHJKLMNOPQRSTUVWXYZ';
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
  /** A stored game to review ("analyse this game"). */
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
  // The operator's external engines for this game may analyse instead of the built-in one.
  // One entry per engine (its strongest level: the last); the stone board's GTP
  // engines stream no lines.
  const byEngine = new Map<string, { key: string; zh: string; en: string }>();
  if (!stones) for (const l of gameInfo(game)?.bot_levels ?? []) if (l.engine) byEngine.set(l.engine, l);
  const externals = [...byEngine.values()];
  const engineSel = externals.length
    ? (h(
        'select',
        { id: 'analysis-engine', onchange: () => pos && void go(moves) },
        h('option', { value: '' }, tr('内置引擎', 'Built-in engine')),
        externals.map((l) => h('option', { value: l.key }, tr(l.zh, l.en))),
      ) as HTMLSelectElement)
    : null;
  const sock = new Socket('/ws');
  let moves: string[] = [];
  /** How each move is shown (SAN, 中文记谱, GTP), as the server gave it. */
  let displays: string[] = [];
  let pos: Position | null = null;
  let seq = 0;
  let current = '';
  let judged: Map<number, Reviewed> = new Map();
  let setup: Setup = o.fen ? { position: o.fen } : 'standard';
  let options: JsonValue = o.options ?? null;
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
    if (pos) void ask(moves, true);
  };

  /** Asks the server for the position after `list` (and its analysis). */
  function ask(list: string[], think: boolean): Promise<Position> {
    const id = `an${++seq}`;
    if (think) current = id;
    return new Promise<Position>((ok, fail) => {
      waiters.set(id, (m) => (m.t === 'position' ? ok(m.d as unknown as Position) : fail(new Error((m.d as { message: string }).message))));
      // A string id: the socket leaves its answers to `onMessage`, streamed lines too.
      const engine = engineSel?.value || null;
      sock.send('analyse', { game, setup, moves: list, options, think, engine, time_ms: 15000 }, id);
    }).finally(() => waiters.delete(id));
  }

  async function go(list: string[]) {
    try {
      const p = await ask(list, true);
      pos = p;
      moves = p.moves.slice();
      displays = moves.map((m, i) => p.displays[i] ?? m);
      mount(evalEl, p.over ? tr('对局结束', 'Game over') : p.analysable ? tr('思考中…', 'Thinking…') : '—');
      depthEl.textContent = '';
      clear(pvEl);
      redraw();
    } catch (e) {
      toast((e as Error).message, 'error');
    }
  }

  /** Shows the position after `list` (the server gives every move's display). */
  async function load(list: string[]) {
    displays = [];
    await go(list);
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

  function redraw() {
    const p = pos;
    if (!p) return;
    const v = p.view;
    const last = moves[moves.length - 1];
    if (board) {
      board.set({
        fen: String(v.fen),
        orientation: o.orientation,
        turn: (p.to_move ?? 0) as Side,
        movable: p.over || p.to_move === null ? null : 'both',
        dests: dests(p.legal),
        lastMove: last && last.length >= 4 ? [last.slice(0, 2), last.slice(2, 4)] : undefined,
        check: !!v.check,
      });
    }
    if (gob) drawGo(null);
    // A FEN whose second seat is to move starts the numbering at its move.
    const startPly = String(o.fen ?? '').split(' ')[1] === 'b' ? 1 : 0;
    renderMoves(movesEl, displays, startPly, undefined, (ply) => void go(moves.slice(0, ply)));
    markJudgements();
  }

  function drawGo(line: Line | null) {
    const p = pos;
    if (!p || !gob) return;
    const v = p.view;
    const size = Number(v.size);
    const rows = (v.board as string[]) ?? [];
    const blackArea: string[] = [];
    const whiteArea: string[] = [];
    if (line?.ownership) {
      line.ownership.forEach((own, i) => {
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
    });
  }

  function showLine(l: Line) {
    mount(evalEl, h('span.score', { 'data-depth': String(l.depth) }, scoreText(game, l)));
    depthEl.textContent = stones ? `${tr('模拟', 'playouts')} ${l.nodes}` : `${tr('深度', 'depth')} ${l.depth}`;
    mount(pvEl, h('span.hint', null, tr('最佳', 'Best') + ': '), h('span.pv-moves', null, (l.pv.length ? l.pv : [l.best ?? '']).join(' ')));
    if (stones) drawGo(l);
  }

  function markJudgements() {
    for (const [ply, r] of judged) {
      const el = movesEl.querySelector(`[data-ply="${ply}"]`);
      if (!el || !r.judgement || moves[ply - 1] !== r.move) continue;
      el.classList.add(`judgement-${r.judgement}`);
      el.setAttribute('data-judgement', r.judgement);
      el.appendChild(h('span.judgement-mark', { title: r.best ? `${tr('应走', 'Best')} ${r.best}` : '' }, MARK[r.judgement]));
    }
  }

  async function review() {
    if (!o.gameId) return;
    mount(reviewEl, tr('分析中…', 'Analysing…'));
    try {
      const r = await api<{ moves: Reviewed[]; options: JsonValue; setup: Setup; counts: { inaccuracies: number; mistakes: number; blunders: number }[] }>('POST', `/api/game/${encodeURIComponent(o.gameId)}/analysis`, {});
      options = r.options;
      setup = r.setup;
      judged = new Map(r.moves.map((m) => [m.ply, m]));
      await load(r.moves.map((m) => m.move));
      mount(
        reviewEl,
        r.counts.map((c, seat) =>
          h('div.review-row', { 'data-seat': String(seat) }, `${seatName(game, seat)}: ${c.inaccuracies} ${tr('欠佳', 'inaccuracies')} · ${c.mistakes} ${tr('错着', 'mistakes')} · ${c.blunders} ${tr('败着', 'blunders')}`),
        ),
      );
    } catch (e) {
      mount(reviewEl, t('errorPrefix') + (e as Error).message);
    }
  }

  board?.onMove((m) => {
    sound('move');
    void go([...moves, m]);
  });
  gob?.onVertex((gtp) => {
    if (pos?.legal.includes(gtp)) {
      sound('move');
      void go([...moves, gtp]);
    }
  });

  const close = () => {
    sock.send('analyse.stop');
    sock.close();
    board?.destroy();
    gob?.destroy();
    clear(root);
    o.onClose?.();
  };

  mount(
    root,
    h(
      'div.panel',
      { id: 'analysis-panel', 'data-game': game },
      h('div.panel-title', null, t('analysisBoard'), h('span', null,
        h('button.btn.btn-small', { id: 'analysis-back', onclick: () => void go(moves.slice(0, -1)) }, t('back')), ' ',
        stones ? h('button.btn.btn-small', { id: 'analysis-pass', onclick: () => void go([...moves, 'pass']) }, tr('停一手', 'Pass')) : null, ' ',
        h('button.btn.btn-small', { id: 'analysis-save', onclick: () => download(`qiyuan-analysis-${game}.txt`, moves.join(' ') + '\n', 'text/plain') }, t('save')), ' ',
        o.gameId ? h('button.btn.btn-small.primary', { id: 'analyse-game', onclick: () => void review() }, tr('分析这盘棋', 'Analyse this game')) : null, ' ',
        o.onClose ? h('button.btn.btn-small', { id: 'analysis-close', onclick: close }, t('exitAnalysis')) : null)),
      h('div.analysis-engine', null, evalEl, ' ', depthEl, engineSel, pvEl),
      h('div.analysis-body', null, board?.el ?? gob!.el, h('div', null, movesEl, reviewEl)),
    ),
  );
  void load(o.history);
  return close;
}

/** The analysis board under a piece-board game's table: from `fen` with `history`. */
export function analysisBoard(root: HTMLElement, game: string, board: AnalysisBoard, fen: string, orientation: Side, onClose: () => void, history: string[] = []) {
  const close = mountAnalysis(root, { game, board, fen, orientation, history, onClose });
  root.scrollIntoView({ block: 'start' });
  return close;
}

