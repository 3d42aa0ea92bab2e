// Analysis (研究): free moves from a position, with the engine's evaluation and best
// line streamed as it thinks (chess, xiangqi), or its best move and the territory
// it expects (Go). The board has no rules of its own: after each move the server
// (`analyse`) answers with the position, its legal moves, and the engine's lines.
// "Analyse this game" asks the server to judge every move of a finished game
// (`POST /api/game/{id}/analysis`) and marks inaccuracies, mistakes and blunders
// in the move list.
import { h, mount, clear } from '../dom';
import { t, type Key } from '../i18n';
import { makeBoard } from '../boards/make';
import { goBoard, type GoBoardWidget } from '../boards/goBoard';
import type { BoardWidget, Side } from '../boards/types';
import { renderMoves, download, toast } from '../ui';
import { api } from '../net/api';
import { Socket } from '../net/socket';
import type { Envelope } from '../net/socket';
import { play as sound } from '../sound';
import { tr } from './computer';
import { gameInfo } from '../net/games';

type J = Record<string, unknown>;

interface Line {
  depth: number;
  cp?: number;
  mate?: number;
  win: number;
  best?: string;
  pv: string[];
  nodes: number;
  ownership?: number[];
}

interface Position {
  game: string;
  moves: string[];
  to_move: number | null;
  legal: string[];
  over: boolean;
  winner: number | null;
  analysable: boolean;
  view: J;
}

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
const STANDARD_FEN: Record<string, string> = {
  chess: 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
  xiangqi: 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1',
};

/** The score of a line as people read it, from the first seat's side. */
export function scoreText(game: string, l: Line): string {
  if (l.mate !== undefined) return `#${l.mate}`;
  if (l.cp !== undefined) return `${l.cp >= 0 ? '+' : ''}${(l.cp / 100).toFixed(2)}`;
  const first = game === 'go' ? tr('黑', 'Black') : tr('先手', 'First');
  return `${first} ${Math.round(l.win * 100)}%`;
}

interface Options {
  game: string;
  /** The start position (FEN), or the game's standard one. */
  fen?: string;
  orientation: Side;
  history: string[];
  /** Go's rule options. */
  options?: unknown;
  /** A stored game to review ("analyse this game"). */
  gameId?: string;
  onClose?: () => void;
}

function mountAnalysis(root: HTMLElement, o: Options): () => void {
  const { game } = o;
  const isGo = game === 'go';
  const board: BoardWidget | null = isGo ? null : makeBoard(game as 'chess' | 'xiangqi');
  const gob: GoBoardWidget | null = isGo ? goBoard() : null;
  const movesEl = h('div.move-list', { id: 'analysis-moves' });
  const evalEl = h('div.analysis-eval', { id: 'analysis-eval' }, '…');
  const depthEl = h('span.hint', { id: 'analysis-depth' });
  const pvEl = h('div.analysis-pv', { id: 'analysis-pv' });
  const reviewEl = h('div.analysis-review', { id: 'review-summary' });
  // The operator's external engines for this game may analyse instead of the built-in one.
  // One entry per engine (its strongest level: the last); GTP engines (Go) stream no lines.
  const byEngine = new Map<string, { key: string; zh: string; en: string }>();
  if (!isGo) for (const l of gameInfo(game)?.bot_levels ?? []) if (l.engine) byEngine.set(l.engine, l);
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
  /** How each move is shown (SAN, 中文记谱, GTP), as the server's views gave it. */
  let displays: string[] = [];
  let pos: Position | null = null;
  let seq = 0;
  let current = '';
  let judged: Map<number, Reviewed> = new Map();
  let setup: unknown = o.fen && o.fen !== STANDARD_FEN[game] ? { position: o.fen } : 'standard';
  let options: unknown = o.options ?? null;
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
      sock.send('analyse', { game, setup, moves: list, options, think, engine, time_ms: 15000 }, id as unknown as number);
    }).finally(() => waiters.delete(id));
  }

  function displayOf(p: Position): string | null {
    const v = p.view;
    const last = v.last_move as J | null | undefined;
    if (game === 'chess') return (last?.san as string) ?? null;
    if (game === 'xiangqi') return (last?.chinese as string) ?? (last?.iccs as string) ?? null;
    return (v.last_move as string) ?? null;
  }

  async function go(list: string[]) {
    try {
      const p = await ask(list, true);
      pos = p;
      moves = p.moves.slice();
      if (game === 'chess' && Array.isArray(p.view.san_moves)) displays = (p.view.san_moves as string[]).slice();
      else {
        displays = displays.slice(0, Math.min(displays.length, moves.length - 1));
        while (displays.length < moves.length - 1) displays.push(moves[displays.length]);
        if (moves.length) displays[moves.length - 1] = displayOf(p) ?? moves[moves.length - 1];
      }
      mount(evalEl, p.over ? tr('对局结束', 'Game over') : p.analysable ? tr('思考中…', 'Thinking…') : '—');
      depthEl.textContent = '';
      clear(pvEl);
      redraw();
    } catch (e) {
      toast((e as Error).message, 'error');
    }
  }

  /** Replays `list` a move at a time, so that each move gets its display. */
  async function load(list: string[]) {
    displays = [];
    if (game !== 'chess') {
      for (let i = 1; i < list.length; i++) {
        const p = await ask(list.slice(0, i), false).catch(() => null);
        if (!p) break;
        displays.push(displayOf(p) ?? list[i - 1]);
      }
    }
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
    const startPly = game === 'chess' && String(o.fen ?? '').split(' ')[1] === 'b' ? 1 : 0;
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
    depthEl.textContent = isGo ? `${tr('模拟', 'playouts')} ${l.nodes}` : `${tr('深度', 'depth')} ${l.depth}`;
    mount(pvEl, h('span.hint', null, tr('最佳', 'Best') + ': '), h('span.pv-moves', null, (l.pv.length ? l.pv : [l.best ?? '']).join(' ')));
    if (isGo) drawGo(l);
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
      const r = await api<{ moves: Reviewed[]; options: unknown; setup: unknown; counts: { inaccuracies: number; mistakes: number; blunders: number }[] }>('POST', `/api/game/${encodeURIComponent(o.gameId)}/analysis`, {});
      options = r.options;
      setup = r.setup;
      judged = new Map(r.moves.map((m) => [m.ply, m]));
      await load(r.moves.map((m) => m.move));
      mount(
        reviewEl,
        r.counts.map((c, seat) =>
          h('div.review-row', { 'data-seat': String(seat) }, `${seatName(seat)}: ${c.inaccuracies} ${tr('欠佳', 'inaccuracies')} · ${c.mistakes} ${tr('错着', 'mistakes')} · ${c.blunders} ${tr('败着', 'blunders')}`),
        ),
      );
    } catch (e) {
      mount(reviewEl, t('errorPrefix') + (e as Error).message);
    }
  }

  function seatName(seat: number) {
    const names: Record<string, [string, string][]> = {
      chess: [['白方', 'White'], ['黑方', 'Black']],
      xiangqi: [['红方', 'Red'], ['黑方', 'Black']],
      go: [['黑方', 'Black'], ['白方', 'White']],
    };
    const n = names[game]?.[seat];
    return n ? tr(n[0], n[1]) : String(seat + 1);
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
        isGo ? h('button.btn.btn-small', { id: 'analysis-pass', onclick: () => void go([...moves, 'pass']) }, tr('停一手', 'Pass')) : null, ' ',
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

/** The analysis board under a table (chess, xiangqi): from `fen` with `history`. */
export function analysisBoard(root: HTMLElement, kind: 'chess' | 'xiangqi', fen: string, orientation: Side, onClose: () => void, history: string[] = []) {
  const close = mountAnalysis(root, { game: kind, fen, orientation, history, onClose });
  root.scrollIntoView({ block: 'start' });
  return close;
}

/**
 * The analysis page, `#/analysis/{game}` (a free board) or
 * `#/analysis/{game}/{gameId}` (a stored game, with "analyse this game").
 */
export function analysisPage(root: HTMLElement, game: string, gameId?: string) {
  if (!['chess', 'xiangqi', 'go'].includes(game)) {
    mount(root, h('div.panel', null, t('notFound')));
    return () => undefined;
  }
  const wrap = h('div.analysis-page', { id: 'analysis-page' });
  mount(root, h('h2', null, `${t('analysisBoard')} · ${t(game as Key)}`), wrap);
  return mountAnalysis(wrap, {
    game,
    orientation: 0,
    history: [],
    options: game === 'go' ? { size: 19, komi: 7.5, handicap: 0 } : undefined,
    gameId,
  });
}
