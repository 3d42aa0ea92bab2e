// A game on a piece board (chessground, chessgroundx) plugged into the one table
// shell (table/shell.ts): the board, the move list in the game's notations,
// premoves, and 研究 (the analysis board). Everything it shows comes from the
// server's view: the position, the legal moves, each move as written (SAN,
// Chinese, WXF); it has no rules of its own. It names no game: the board comes
// from the game's plugin (games/), the sides from the game's descriptor.
import { h, mount, clear } from '../dom';
import { t, type Key } from '../i18n';
import { settings, update } from '../settings';
import type { BoardWidget, Side } from '../boards/types';
import { renderMoves } from '../ui';
import { gameInfo } from '../net/games';
import { analysisBoard } from '../analysis/panel';
import type { TablePage } from '../games/plugin';
import { tableShell, type ShellContext } from './shell';
import type { ChessView, XiangqiView } from '../net/generated/protocol';

/** The view of a game on a piece board. */
type PieceView = ChessView | XiangqiView;
type Ctx = ShellContext<PieceView>;

const isXiangqi = (b: PieceView): b is XiangqiView => 'wxf_moves' in b;

/** The table page of `game`, played on the piece boards `makeBoard` makes. */
export function pieceTablePage(game: string, makeBoard: () => BoardWidget): TablePage {
  return (root, id) => pieceTable(root, id, game, makeBoard);
}

function pieceTable(root: HTMLElement, id: string, game: string, makeBoard: () => BoardWidget): () => void {
  const board = makeBoard();
  const analysisEl = h('div.analysis-wrap', { id: 'analysis' });
  const movesEl = h('div.move-list', { id: 'moves' });
  const notationEl = h('span.notation-switch', { id: 'notation-switch' });
  const main = h('div.piece-main', null, board.el, analysisEl);
  let ctx: Ctx | null = null;
  let lastPly = -1;
  let closeAnalysis: (() => void) | null = null;

  // A right click drops the premove (a left click elsewhere does, in the board itself).
  board.el.addEventListener('contextmenu', () => board.cancelPremove());

  board.onMove((uci) => {
    const c = ctx;
    if (!c || !c.playing || c.me === null || turnOf(c) !== c.me) return;
    c.live.send('move', { action: uci });
  });

  /** The side at `seat` in the game's own words (白 / 红 / 黑). */
  function sideName(seat: number) {
    const name = gameInfo(game)?.seat_names[seat];
    return name ? t(name as Key) : '';
  }

  function turnOf(c: Ctx): number | null {
    const turn = c.state.game?.turn;
    return c.playing && turn && typeof turn === 'object' && 'seat' in turn ? turn.seat : null;
  }

  /** The position the game started from, if not the standard one (读入). */
  function startFen(c: Ctx): string | undefined {
    const g = c.state.game;
    const b = g?.board;
    if (b && !isXiangqi(b) && b.start_fen) return b.start_fen;
    // A record read in (its moves are `loaded`) starts from its own start, the standard one.
    if (g?.loaded?.length) return undefined;
    const setup = g?.settings.setup;
    return typeof setup === 'object' && 'position' in setup ? setup.position : undefined;
  }

  /** Each move in the game's canonical notation (UCI, ICCS), those read in with a record first. */
  function ucis(c: Ctx): string[] {
    const g = c.state.game;
    return [...(g?.loaded ?? []), ...(g?.moves ?? [])].map((a) => a.action.toLowerCase().replace('-', ''));
  }

  function render(c: Ctx) {
    ctx = c;
    const g = c.state.game;
    // Between games, a position read in (读入) shows as soon as it is proposed,
    // to every seat and spectator alike (the server's `preview`).
    const b = !c.playing && c.state.preview ? c.state.preview : g?.board;
    const me = c.me;
    const orientation: Side = me === 1 ? 1 : 0;
    const fen = b?.fen ?? startFen(c) ?? board.start;
    main.dataset.fen = fen;
    const toMove = turnOf(c);
    const turn: Side = toMove === 1 || (toMove === null && fen.split(' ')[1] === 'b') ? 1 : 0;
    const myTurn = me !== null && toMove === me;
    // Legal destinations by origin square, as the server lists the legal moves.
    const dests = new Map<string, string[]>();
    for (const u of myTurn ? b?.legal_moves ?? [] : []) {
      const o = u.slice(0, 2);
      const list = dests.get(o) ?? [];
      if (!list.includes(u.slice(2, 4))) list.push(u.slice(2, 4));
      dests.set(o, list);
    }
    const moves = ucis(c);
    const last = b ? (isXiangqi(b) ? b.last_move?.iccs : b.last_move?.uci) ?? moves[moves.length - 1] : undefined;
    board.set({
      fen,
      orientation,
      turn,
      movable: c.playing && me !== null ? (me as Side) : null,
      dests,
      lastMove: last ? [last.slice(0, 2), last.slice(2, 4)] : undefined,
      check: !!b?.check,
      premove: board.premoves && c.playing && me !== null && !myTurn,
    });
    if (moves.length !== lastPly) {
      const grew = lastPly >= 0 && moves.length > lastPly;
      lastPly = moves.length;
      // A premove goes out the moment the opponent's move arrives, if the
      // server's legal moves (just set) still allow it.
      if (grew && myTurn) board.playPremove();
    }
    renderMoveList(c);
  }

  function renderMoveList(c: Ctx) {
    const g = c.state.game;
    const b = g?.board;
    // Each move as the server wrote it (SAN, Chinese); xiangqi's WXF from the
    // board's list, ICCS from the move itself.
    const want = settings().xqNotation;
    const wxf = b && isXiangqi(b) ? b.wxf_moves : null;
    // The moves read in with a record (读入) come first: WXF's list holds them too.
    const displays = [...(g?.loaded ?? []), ...(g?.moves ?? [])].map((x, i) => {
      if (wxf && want === 'wxf') return wxf[i] ?? x.display;
      if (wxf && want === 'iccs') return `${x.action.slice(0, 2)}-${x.action.replace('-', '').slice(2, 4)}`.toUpperCase();
      return x.display || x.action;
    });
    const black = (startFen(c) ?? '').split(' ')[1] === 'b';
    renderMoves(movesEl, displays, black ? 1 : 0);
    if (wxf) {
      mount(
        notationEl,
        (['chinese', 'wxf', 'iccs'] as const).map((n) =>
          h(`button${want === n ? '.on' : ''}`, { 'data-notation': n, onclick: () => update({ xqNotation: n }) }, n === 'chinese' ? t('chineseNotation') : n.toUpperCase()),
        ),
      );
    } else clear(notationEl);
  }

  function openAnalysis() {
    const c = ctx;
    if (!c) return;
    if (closeAnalysis) {
      closeAnalysis();
      return;
    }
    // The analysis board starts from the game's start with its moves, so that one
    // can step back through them and branch off anywhere.
    const start = startFen(c) ?? board.start;
    closeAnalysis = analysisBoard(analysisEl, game, { pieces: makeBoard }, start, c.me === 1 ? 1 : 0, () => {
      closeAnalysis = null;
    }, ucis(c));
  }

  const movesTitle = h('span', null, t('moves'));
  const cleanup = tableShell<PieceView>(root, id, {
    game,
    seats: 2,
    main,
    panels: [h('div.panel.moves-panel', null, h('div.panel-title', null, movesTitle, notationEl), movesEl)],
    offers: true,
    swap: true,
    load: true,
    customTime: true,
    ratings: true,
    showScore: true,
    seatOrder: (me) => (me === 1 ? [0, 1] : [1, 0]),
    seatSub: (_c, seat) => sideName(seat),
    buttons: () => [h('button.btn', { id: 'btn-analysis', onclick: openAnalysis }, t('analysis'))],
    render: (c) => {
      movesTitle.textContent = t('moves');
      render(c);
    },
    status: (c) => {
      const seat = turnOf(c);
      const text = seat !== null && seat === c.me ? t('yourTurn') : `${sideName(seat ?? 0)}${t('toMove')}`;
      return c.state.game?.board?.check ? `${text} · ${t('check')}` : text;
    },
  });
  return () => {
    cleanup();
    closeAnalysis?.();
    board.destroy();
  };
}
