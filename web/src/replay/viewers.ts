// Each game's part of the replay viewer (replay.ts): the board it draws a position
// with and its move notations. Which game uses which is table/route.ts's choice
// (`replayViewer`), so that no page here dispatches on a game's name.
import { h, mount } from '../dom';
import { t } from '../i18n';
import { playerLink } from '../players';
import { settings } from '../settings';
import { chessBoard } from '../boards/chessBoard';
import { xiangqiBoard } from '../boards/xiangqiBoard';
import { goBoard } from '../boards/goBoard';
import type { BoardWidget, Side } from '../boards/types';
import { cardEl, sortHand } from '../doudizhu/cards';
import { doudizhuText } from './notation';

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

export type View = Record<string, unknown>;

/** What the viewer draws a position with. */
export interface Stage {
  el: HTMLElement;
  /** Shows position `i` (0: the start); `orientation`: the seat at the bottom. */
  show(i: number, orientation: Side): void;
  /** Redraws once the board is in the page (chessground measures itself). */
  redraw?(): void;
  destroy(): void;
}

/** One game's part of the viewer: its board and its move notations. */
export interface Viewer {
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

export const view = (data: ReplayData, i: number, seat = 0): View => (data.positions[i]?.[seat] ?? {}) as View;

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

export const chessViewer: Viewer = {
  flips: true,
  notations: [
    ['display', () => t('notationSan')],
    ['action', () => t('notationUci')],
  ],
  stage: (data) => squareStage(data, chessBoard, (v) => (v.side_to_move === 'black' ? 1 : 0)),
  text: (data, i, n) => (n === 'action' ? data.plies[i - 1].action : data.plies[i - 1].display),
};

export const xiangqiViewer: Viewer = {
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

export const goViewer: Viewer = {
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

export const doudizhuViewer: Viewer = {
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

