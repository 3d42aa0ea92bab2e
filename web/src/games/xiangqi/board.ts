// The xiangqi board: chessgroundx on a 9x10 grid. Pieces sit on the points of a
// drawn board (river, palaces) and are round discs with Chinese characters, made
// with CSS alone.
import { Chessground } from 'chessgroundx';
import type { Api } from 'chessgroundx/api';
import type * as cg from 'chessgroundx/types';
import { premove } from 'chessgroundx/premove';
import { h } from '../../dom';
import { settings } from '../../settings';
import type { BoardState, BoardWidget, Side } from '../../boards/types';

const RANKS = '123456789:';
const color = (s: Side) => (s === 0 ? 'white' : 'black');

/** ICCS `e0` to chessgroundx `e1` (its ranks run 1..9 then `:`). */
export function toCg(k: string): cg.Key {
  return (k[0] + RANKS[Number(k[1])]) as cg.Key;
}
export function fromCg(k: string): string {
  return k[0] + String(RANKS.indexOf(k[1]));
}

function boardSvg(): string {
  // Cells are 1x1; lines join cell centres, so points are at (i+0.5, j+0.5).
  const L: string[] = [];
  const x = (i: number) => i + 0.5;
  const y = (j: number) => j + 0.5;
  for (let j = 0; j < 10; j++) L.push(`M${x(0)} ${y(j)}H${x(8)}`);
  for (let i = 0; i < 9; i++) {
    if (i === 0 || i === 8) L.push(`M${x(i)} ${y(0)}V${y(9)}`);
    else L.push(`M${x(i)} ${y(0)}V${y(4)}M${x(i)} ${y(5)}V${y(9)}`);
  }
  // Palaces.
  L.push(`M${x(3)} ${y(0)}L${x(5)} ${y(2)}M${x(5)} ${y(0)}L${x(3)} ${y(2)}`);
  L.push(`M${x(3)} ${y(7)}L${x(5)} ${y(9)}M${x(5)} ${y(7)}L${x(3)} ${y(9)}`);
  // Position marks for cannons and soldiers.
  const marks: Array<[number, number]> = [
    [1, 2], [7, 2], [1, 7], [7, 7],
    [0, 3], [2, 3], [4, 3], [6, 3], [8, 3],
    [0, 6], [2, 6], [4, 6], [6, 6], [8, 6],
  ];
  const d = 0.08;
  const l = 0.2;
  for (const [i, j] of marks) {
    for (const sx of [-1, 1]) {
      if ((i === 0 && sx === -1) || (i === 8 && sx === 1)) continue;
      for (const sy of [-1, 1]) {
        const cx = x(i) + sx * d;
        const cy = y(j) + sy * d;
        L.push(`M${cx + sx * l} ${cy}H${cx}V${cy + sy * l}`);
      }
    }
  }
  const river =
    `<text x="2.5" y="5.18" font-size="0.5" text-anchor="middle" font-family="KaiTi,STKaiti,'Noto Serif CJK SC','Noto Sans CJK SC',serif" fill="currentColor">楚 河</text>` +
    `<text x="6.5" y="5.18" font-size="0.5" text-anchor="middle" font-family="KaiTi,STKaiti,'Noto Serif CJK SC','Noto Sans CJK SC',serif" fill="currentColor">漢 界</text>`;
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 9 10" color="#5b3a1a">` +
    `<rect x="0.42" y="0.42" width="8.16" height="9.16" fill="none" stroke="#5b3a1a" stroke-width="0.05"/>` +
    `<path d="${L.join('')}" stroke="#5b3a1a" stroke-width="0.025" fill="none"/>${river}</svg>`;
  return `url("data:image/svg+xml;utf8,${encodeURIComponent(svg)}")`;
}

let svgCache: string | null = null;

/** `variant`: chessgroundx's name of the game, whose piece moves its premoves
 * follow; without it the board takes no premoves (the replay viewer). */
export function xiangqiBoard(variant?: string): BoardWidget {
  const el = h('div.board-wrap.xiangqi-board');
  const cgEl = h('div.cg-host');
  const topFiles = h('div.xq-files');
  const bottomFiles = h('div.xq-files');
  el.append(topFiles, cgEl, bottomFiles);
  let shownOrientation: Side | null = null;
  const RED = ['九', '八', '七', '六', '五', '四', '三', '二', '一'];
  const BLACK = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];
  function files(o: Side) {
    if (shownOrientation === o) return;
    shownOrientation = o;
    // Each side counts files from its own right.
    const bottom = o === 0 ? RED : [...BLACK].reverse();
    const top = o === 0 ? BLACK : [...RED].reverse();
    topFiles.replaceChildren(...top.map((x) => h('span', null, x)));
    bottomFiles.replaceChildren(...bottom.map((x) => h('span', null, x)));
  }
  svgCache ??= boardSvg();
  el.style.setProperty('--xq-lines', svgCache);
  let cb: (m: string) => void = () => undefined;
  const api: Api = Chessground(cgEl, {
    dimensions: { width: 9, height: 10 },
    coordinates: false,
    kingRoles: ['k-piece'],
    animation: { enabled: settings().animation, duration: 200 },
    movable: {
      free: false,
      showDests: true,
      events: { after: (o, d) => cb(fromCg(o) + fromCg(d)) },
    },
    // Premoves (when the setting and the table allow them) follow the pieces' moves;
    // the table plays one only if the server lists it as legal by then.
    premovable: variant ? { enabled: false, premoveFunc: premove(variant, false, { width: 9, height: 10 }) } : { enabled: false },
    draggable: { enabled: true, showGhost: true },
    highlight: { lastMove: true, check: true },
  });

  function set(s: BoardState) {
    const s2 = settings();
    files(s.orientation);
    el.classList.toggle('flash', s2.flash);
    el.classList.toggle('pieces-modern', s2.pieceTheme === 'modern');
    const dests: cg.Dests = new Map();
    for (const [o, ds] of s.dests) dests.set(toCg(o), ds.map(toCg));
    api.set({
      fen: s.fen.split(' ')[0].replace(/h/g, 'n').replace(/H/g, 'N').replace(/e/g, 'b').replace(/E/g, 'B'),
      orientation: color(s.orientation),
      turnColor: color(s.turn),
      check: s.check ? color(s.turn) : false,
      lastMove: s.lastMove ? [toCg(s.lastMove[0]), toCg(s.lastMove[1])] : undefined,
      animation: { enabled: s2.animation },
      movable: {
        color: s.movable === null ? undefined : s.movable === 'both' ? 'both' : color(s.movable),
        dests,
      },
      premovable: { enabled: !!variant && !!s.premove && s2.premove },
    });
  }

  return {
    el,
    start: 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1',
    premoves: !!variant,
    set,
    onMove: (f) => (cb = f),
    playPremove: () => api.playPremove(),
    cancelPremove: () => api.cancelPremove(),
    redraw: () => api.redrawAll(),
    arrows: (moves) => api.setAutoShapes(moves.map(([orig, dest], i) => ({ orig: toCg(orig), dest: toCg(dest), brush: i === 0 ? 'paleGreen' : 'paleBlue' }))),
    destroy: () => api.destroy(),
  };
}
