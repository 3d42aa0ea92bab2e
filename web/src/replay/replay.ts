// The replay viewer (复盘): any finished game of any game, from a shareable link
// (`/replay/{id}`, `#/replay/{id}`), the profile's game list and the result dialog.
// The server replays the stored log with the game's rules (`GET
// /api/game/{id}/replay`, docs/protocol.md) and sends every position as the
// game's own view; this page only draws them: no rules in the browser.
import { h, mount } from '../dom';
import { t, paren, reasonText, onLanguage } from '../i18n';
import { api } from '../net/api';
import { gameName } from '../net/games';
import { errorOf } from '../errors';
import { playerLink, playerName } from '../players';
import { settings } from '../settings';
import { chessBoard } from '../boards/chessBoard';
import { xiangqiBoard } from '../boards/xiangqiBoard';
import { goBoard } from '../boards/goBoard';
import type { BoardWidget, Side } from '../boards/types';
import { cardEl, sortHand } from '../doudizhu/cards';
import { doudizhuText } from './notation';
export { doudizhuText, playText } from './notation';

/** The viewer's address for game `id` (a table id for its first game, `{table}-{n}` after). */
export function replayLink(id: string): string {
  return `#/replay/${encodeURIComponent(id)}`;
}

/** A small button opening the replay of game `id` (for the result dialog and game lists). */
export function replayButton(id: string, cls = 'btn.btn-small'): HTMLElement {
  return h(`a${cls ? '.' + cls : ''}.replay-link`, { href: replayLink(id), 'data-game-id': id }, t('replay'));
}

export interface ReplayPly {
  seat: number;
  action: string;
  display: string;
  notations?: Record<string, string>;
  clock: number | null;
}

export interface ReplayOutcome {
  results: string[];
  reason: string;
  score: string;
  points?: number[];
}

export interface ReplayData {
  id: string;
  table: string;
  game: string;
  finished: boolean;
  record: string;
  number: number;
  players: string[];
  outcome: ReplayOutcome | null;
  /** Before the first ply, then after each: the game's views (one per seat where it hides information). */
  positions: unknown[][];
  plies: ReplayPly[];
}

type View = Record<string, unknown>;

/** What the viewer draws a position with. */
interface Stage {
  el: HTMLElement;
  /** Shows position `i` (0: the start); `orientation`: the seat at the bottom. */
  show(i: number, orientation: Side): void;
  /** Redraws once the board is in the page (chessground measures itself). */
  redraw?(): void;
  destroy(): void;
}

/** One game's part of the viewer: its board and its move notations. */
interface Viewer {
  /** Whether the board can be turned round. */
  flips: boolean;
  /** The notations offered, the first the default: a name and its label. */
  notations: Array<[string, () => string]>;
  /** The default notation from the user's settings, if it is one of them. */
  preferred?: () => string;
  stage(data: ReplayData, root: HTMLElement): Stage;
  /** Ply `i` (1-based) in notation `n`. */
  text(data: ReplayData, i: number, n: string): string;
}

const view = (data: ReplayData, i: number, seat = 0): View => (data.positions[i]?.[seat] ?? {}) as View;

/** A board of squares (chessground / chessgroundx) from each position's FEN. */
function squareStage(data: ReplayData, make: () => BoardWidget, sideOf: (v: View) => Side): Stage {
  const board = make();
  return {
    el: board.el,
    show(i, orientation) {
      const v = view(data, i);
      const ply = data.plies[i - 1];
      board.set({
        fen: String(v.fen ?? ''),
        orientation,
        turn: sideOf(v),
        movable: null,
        dests: new Map(),
        lastMove: ply && /^[a-i]\d+[a-i]\d+/.test(ply.action) ? splitMove(ply.action) : undefined,
        check: v.check === true,
      });
    },
    redraw: () => board.redraw(),
    destroy: () => board.destroy(),
  };
}

/** `e2e4` → [`e2`, `e4`]; ICCS `h2e2` likewise (ranks 0–9). */
function splitMove(m: string): [string, string] {
  const r = /^([a-i]\d)([a-i]\d)/.exec(m);
  return r ? [r[1], r[2]] : [m.slice(0, 2), m.slice(2, 4)];
}

const chess: Viewer = {
  flips: true,
  notations: [
    ['display', () => t('notationSan')],
    ['action', () => t('notationUci')],
  ],
  stage: (data) => squareStage(data, chessBoard, (v) => (v.side_to_move === 'black' ? 1 : 0)),
  text: (data, i, n) => (n === 'action' ? data.plies[i - 1].action : data.plies[i - 1].display),
};

const xiangqi: Viewer = {
  flips: true,
  notations: [
    ['display', () => t('chineseNotation')],
    ['action', () => 'ICCS'],
    ['wxf', () => 'WXF'],
  ],
  preferred: () => ({ chinese: 'display', iccs: 'action', wxf: 'wxf' })[settings().xqNotation],
  stage: (data) => squareStage(data, xiangqiBoard, (v) => (v.turn === 'black' ? 1 : 0)),
  text: (data, i, n) => {
    const p = data.plies[i - 1];
    return n === 'action' ? p.action : n === 'wxf' ? (p.notations?.wxf ?? p.action) : p.display;
  },
};

const go: Viewer = {
  flips: false,
  notations: [['action', () => t('notationCoords')]],
  stage: (data) => {
    const board = goBoard();
    return {
      el: board.el,
      show(i) {
        const v = view(data, i);
        const marking = v.marking as { dead?: string[]; black_area?: string[]; white_area?: string[] } | null | undefined;
        const last = typeof v.last_move === 'string' && v.last_move !== 'pass' ? v.last_move : null;
        board.set({
          size: Number(v.size ?? 19),
          rows: (v.board as string[] | undefined) ?? [],
          lastMove: last,
          ko: (v.ko as string | null | undefined) ?? null,
          dead: marking?.dead,
          blackArea: marking?.black_area,
          whiteArea: marking?.white_area,
          ghost: 0,
          clickable: false,
        });
      },
      destroy: () => board.destroy(),
    };
  },
  text: (data, i) => {
    const a = data.plies[i - 1].action;
    return a === 'pass' ? t('goPass') : a;
  },
};

const doudizhu: Viewer = {
  flips: false,
  notations: [['cards', () => t('notationCards')]],
  stage: (data) => {
    const el = h('div.replay-ddz', { id: 'replay-ddz' });
    return {
      el,
      show(i) {
        const start = view(data, i, 0);
        const landlord = typeof start.landlord === 'number' ? start.landlord : null;
        const seats = [0, 1, 2].map((s) => {
          const v = view(data, i, s);
          const hands = start.hands as string[][] | null | undefined;
          const hand = (v.hand as string[] | null | undefined) ?? hands?.[s] ?? [];
          // What the seat did last in this go-round (the last three plies).
          let acted: HTMLElement | null = null;
          for (let j = i; j > Math.max(0, i - 3); j--) {
            const p = data.plies[j - 1];
            if (p && p.seat === s) {
              const phase = view(data, j - 1, 0).phase;
              const cards = p.action !== 'pass' && !p.action.startsWith('bid');
              acted = h(
                `div.ddz-acted${j === i ? '.current' : ''}`,
                { 'data-ply': j },
                cards ? [...p.action].map((r) => cardEl(r, { small: true })) : h('span.ddz-word', null, doudizhuText(p.action, phase)),
              );
              break;
            }
          }
          return h(
            `div.replay-seat${data.plies[i - 1]?.seat === s ? '.to-move' : ''}`,
            { 'data-seat': s },
            h(
              'div.replay-seat-head',
              null,
              playerLink(data.players[s]),
              landlord === null ? null : h(`span.role${landlord === s ? '.landlord' : ''}`, null, landlord === s ? t('landlord') : t('farmer')),
              h('span.hint.count', null, String(hand.length)),
            ),
            h('div.replay-hand', null, sortHand(hand).map((c) => cardEl(c, { small: true }))),
            acted,
          );
        });
        const bottom = start.bottom as string[] | null | undefined;
        mount(
          el,
          h(
            'div.replay-ddz-info',
            null,
            bottom ? h('div.replay-bottom', null, h('span.hint', null, t('bottomCards')), sortHand(bottom).map((c) => cardEl(c, { small: true }))) : null,
            h('span.hint', null, `${t('multiplier')} ×${String(start.multiplier ?? 1)}`),
            Number(start.redeals ?? 0) > 0 ? h('span.hint', null, `${t('redeal')} ×${String(start.redeals)}`) : null,
          ),
          seats,
        );
      },
      destroy: () => undefined,
    };
  },
  text: (data, i) => doudizhuText(data.plies[i - 1].action, view(data, i - 1, 0).phase),
};

/** The viewer of each game, by the registry's name. */
const VIEWERS: Record<string, Viewer> = { chess, xiangqi, go, doudizhu };

function gameLabel(game: string): string {
  // The descriptor's name (the name itself for a game the server does not describe).
  return gameName(game);
}

function resultText(data: ReplayData): string {
  const o = data.outcome;
  if (!o) return t('notFinished');
  const winners = o.results.map((r, s) => (r === 'win' ? playerName(data.players[s]) : null)).filter(Boolean);
  const who = winners.length ? `${t('winner')}: ${winners.join(', ')}` : t('drawResult');
  return `${o.score} · ${who}${paren(reasonText(o.reason))}`;
}

export function replayPage(root: HTMLElement, id: string): () => void {
  let alive = true;
  let data: ReplayData | null = null;
  let viewer: Viewer | null = null;
  let stage: Stage | null = null;
  let ply = 0;
  let orientation: Side = 0;
  let notation = '';
  mount(root, h('div.panel', { id: 'replay-loading' }, t('connecting')));

  const last = () => data?.plies.length ?? 0;
  function go(to: number) {
    if (!data) return;
    ply = Math.max(0, Math.min(last(), to));
    paint();
  }

  const onKey = (e: KeyboardEvent) => {
    const tag = (e.target as HTMLElement | null)?.tagName;
    if (tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA' || e.altKey || e.ctrlKey || e.metaKey) return;
    const to = { ArrowLeft: ply - 1, ArrowRight: ply + 1, Home: 0, End: last() }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    go(to);
  };
  document.addEventListener('keydown', onKey);

  function movesList(): HTMLElement {
    const d = data!;
    const v = viewer!;
    const list = h('div.replay-moves.moves', { id: 'replay-moves' });
    const pairs = d.players.length === 2;
    const entry = (i: number) =>
      h(`span.move${i === ply ? '.active' : ''}`, { 'data-ply': i, onclick: () => go(i) }, v.text(d, i, notation));
    if (!d.plies.length) list.appendChild(h('div.moves-empty', null, t('noMoves')));
    if (pairs) {
      for (let i = 1; i <= d.plies.length; i += 2)
        list.appendChild(h('div.move-row', null, h('span.move-no', null, `${(i + 1) / 2}.`), entry(i), i + 1 <= d.plies.length ? entry(i + 1) : null));
    } else {
      d.plies.forEach((p, k) => list.appendChild(h('div.move-row', null, h('span.move-no', null, `${k + 1}.`), h('span.move-who', null, playerName(d.players[p.seat])), entry(k + 1))));
    }
    return list;
  }

  function paint() {
    if (!data || !viewer || !stage) return;
    stage.show(ply, orientation);
    const counter = document.getElementById('replay-ply');
    if (counter) counter.textContent = ply === 0 ? `${t('startPosition')} · 0 / ${last()}` : `${ply} / ${last()}`;
    const old = document.getElementById('replay-moves');
    if (old) {
      const fresh = movesList();
      old.replaceWith(fresh);
      fresh.querySelector('.move.active')?.scrollIntoView({ block: 'nearest' });
    }
    for (const [sel, off] of [['#replay-first', ply === 0], ['#replay-prev', ply === 0], ['#replay-next', ply === last()], ['#replay-last', ply === last()]] as const) {
      const b = root.querySelector<HTMLButtonElement>(sel);
      if (b) b.disabled = off;
    }
  }

  function render() {
    if (!alive || !data) return;
    const d = data;
    const v = VIEWERS[d.game];
    if (!v) {
      mount(root, h('div.panel', null, t('notFound')));
      return;
    }
    viewer = v;
    if (!notation) notation = (v.preferred?.() && v.notations.some(([n]) => n === v.preferred!()) ? v.preferred() : v.notations[0][0]) ?? '';
    stage?.destroy();
    const boardCol = h('div.replay-board-col');
    stage = v.stage(d, boardCol);
    boardCol.appendChild(stage.el);
    const button = (id: string, label: string, symbol: string, to: () => number) =>
      h('button.btn.btn-small', { id, title: label, 'aria-label': label, onclick: () => go(to()) }, symbol);
    const select = h(
      'select',
      { id: 'replay-notation', onchange: () => ((notation = select.value), paint()) },
      v.notations.map(([n, label]) => h('option', { value: n, selected: n === notation }, label())),
    );
    mount(
      root,
      h(
        'div.replay-page',
        { id: 'replay', 'data-game': d.game, 'data-id': d.id },
        h(
          'div.replay-head.panel',
          null,
          h('h2', null, `${t('replayOf')} · ${gameLabel(d.game)}`),
          h(
            'div.replay-players',
            { id: 'replay-players' },
            d.players.map((p, s) => [s ? h('span.hint', null, ` ${t('vs')} `) : null, playerLink(p)]),
          ),
          h('div.replay-result', { id: 'replay-result' }, resultText(d)),
        ),
        h(
          'div.replay-body',
          null,
          boardCol,
          h(
            'div.replay-side.panel',
            null,
            h(
              'div.replay-controls',
              null,
              button('replay-first', t('firstPly'), '|◀', () => 0),
              button('replay-prev', t('prevPly'), '◀', () => ply - 1),
              h('span.replay-ply', { id: 'replay-ply' }),
              button('replay-next', t('nextPly'), '▶', () => ply + 1),
              button('replay-last', t('lastPly'), '▶|', () => last()),
            ),
            h(
              'div.replay-tools',
              null,
              v.flips ? h('button.btn.btn-small', { id: 'replay-flip', onclick: () => ((orientation = orientation === 0 ? 1 : 0), paint()) }, t('flip')) : null,
              h('label.replay-notation', null, h('span.hint', null, t('notation')), select),
              h('a.btn.btn-small', { id: 'replay-download', href: d.record, download: '' }, t('download')),
            ),
            movesList(),
          ),
        ),
      ),
    );
    paint();
    requestAnimationFrame(() => stage?.redraw?.());
  }

  const offLanguage = onLanguage(render);
  void api<ReplayData>('GET', `/api/game/${encodeURIComponent(id)}/replay`)
    .then((d) => {
      if (!alive) return;
      data = d;
      ply = d.plies.length;
      render();
    })
    .catch((e) => alive && mount(root, h('div.panel', { id: 'replay-error' }, t('errorPrefix') + errorOf(e))));

  return () => {
    alive = false;
    offLanguage();
    document.removeEventListener('keydown', onKey);
    stage?.destroy();
  };
}
