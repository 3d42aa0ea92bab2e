// The Go board: Sabaki's Shudan goban (a Preact component) mounted in plain DOM.
// Points are named as GTP vertices (`D4`, letters without I, row 1 at the bottom),
// as the server's Go view and actions name them.
import { h as ph, render } from 'preact';
import { BoundedGoban, type Marker, type Vertex } from '@sabaki/shudan';
import '@sabaki/shudan/css/goban.css';
import { h } from '../../dom';
import { settings } from '../../settings';
import { t } from '../../i18n';
import type { StoneBoard, StoneBoardState } from '../../boards/types';

const LETTERS = 'ABCDEFGHJKLMNOPQRSTUVWXYZ';

export function toVertex(gtp: string, size: number): Vertex | null {
  const m = /^([A-HJ-Z])(\d{1,2})$/i.exec(gtp.trim());
  if (!m) return null;
  const x = LETTERS.indexOf(m[1].toUpperCase());
  const row = Number(m[2]);
  if (x < 0 || x >= size || row < 1 || row > size) return null;
  return [x, size - row];
}

export function toGtp([x, y]: Vertex, size: number): string {
  return `${LETTERS[x]}${size - y}`;
}

export function goBoard(): StoneBoard {
  const el = h('div.go-board', { id: 'go-board' });
  let state: StoneBoardState | null = null;
  let hover: Vertex | null = null;
  // With move confirmation (the `goConfirm` setting): the point tapped once,
  // shown as a stone; a second tap there plays it, a tap elsewhere moves it.
  let pending: Vertex | null = null;
  let cb: (gtp: string) => void = () => undefined;

  function maxSize(): number {
    const col = el.parentElement?.getBoundingClientRect().width ?? 600;
    const fromHeight = window.innerHeight - 120;
    return Math.max(260, Math.min(col, fromHeight, 820));
  }

  function draw() {
    const s = state;
    if (!s) return;
    const n = s.size;
    const grid = <T>(f: (x: number, y: number) => T): T[][] => Array.from({ length: n }, (_, y) => Array.from({ length: n }, (_, x) => f(x, y)));
    const signMap = grid((x, y) => {
      const c = s.rows[y]?.[x];
      return c === 'X' ? 1 : c === 'O' ? -1 : 0;
    }) as Array<Array<0 | 1 | -1>>;
    const markerMap: Array<Array<Marker | null>> = grid(() => null);
    const last = s.lastMove ? toVertex(s.lastMove, n) : null;
    if (last) markerMap[last[1]][last[0]] = { type: 'circle' };
    const ko = s.ko ? toVertex(s.ko, n) : null;
    if (ko && !s.dead) markerMap[ko[1]][ko[0]] = { type: 'square' };
    const paintMap = grid(() => 0) as Array<Array<0 | 1 | -1>>;
    for (const [list, sign] of [[s.blackArea, 1], [s.whiteArea, -1]] as const)
      for (const p of list ?? []) {
        const v = toVertex(p, n);
        if (v) paintMap[v[1]][v[0]] = sign;
      }
    const dimmed: Vertex[] = [];
    for (const p of s.dead ?? []) {
      const v = toVertex(p, n);
      if (v) {
        dimmed.push(v);
        markerMap[v[1]][v[0]] = { type: 'cross' };
      }
    }
    const ghostStoneMap = grid(() => null) as Array<Array<{ sign: 0 | 1 | -1; faint?: boolean; type?: 'good' } | null>>;
    const best = s.best ? toVertex(s.best, n) : null;
    if (best && s.ghost && signMap[best[1]]?.[best[0]] === 0) ghostStoneMap[best[1]][best[0]] = { sign: s.ghost, type: 'good' };
    if (hover && s.clickable && s.ghost && signMap[hover[1]]?.[hover[0]] === 0) ghostStoneMap[hover[1]][hover[0]] = { sign: s.ghost, faint: true };
    if (pending && (!s.clickable || signMap[pending[1]]?.[pending[0]] !== 0)) pending = null;
    if (pending && s.ghost) {
      ghostStoneMap[pending[1]][pending[0]] = { sign: s.ghost };
      markerMap[pending[1]][pending[0]] = { type: 'point', label: '' };
    }
    el.dataset.pending = pending ? toGtp(pending, n) : '';
    el.title = pending ? t('goConfirmHint') : '';
    const size = maxSize();
    render(
      ph(BoundedGoban, {
        maxWidth: size,
        maxHeight: size,
        maxVertexSize: 64,
        showCoordinates: true,
        fuzzyStonePlacement: false,
        animateStonePlacement: true,
        signMap,
        markerMap,
        // The count's areas, or the analysis board's territory estimate.
        paintMap: s.dead || s.blackArea?.length || s.whiteArea?.length ? paintMap : undefined,
        dimmedVertices: dimmed,
        ghostStoneMap,
        onVertexClick: (_e: MouseEvent, v: Vertex) => {
          if (!state?.clickable) return;
          // Marking dead stones (no ghost stone to place) is never confirmed.
          if (settings().goConfirm && state.ghost && signMap[v[1]]?.[v[0]] === 0) {
            const again = pending && pending[0] === v[0] && pending[1] === v[1];
            pending = again ? null : v;
            if (!again) return draw();
          }
          cb(toGtp(v, n));
        },
        onVertexMouseEnter: (_e: MouseEvent, v: Vertex) => {
          hover = v;
          if (state?.clickable && state.ghost) draw();
        },
        onVertexMouseLeave: () => {
          hover = null;
        },
      }),
      el,
    );
    fiveStarPoints(n);
  }

  // A 9×9 board has five star points (the 3-3 points and the centre); Shudan
  // draws nine (the sides' midpoints too): those four are hidden.
  function fiveStarPoints(n: number) {
    const stars = [...el.querySelectorAll<SVGCircleElement>('.shudan-hoshi')];
    stars.forEach((c) => (c.style.display = ''));
    if (n !== 9) return;
    const xs = [...new Set(stars.map((c) => Number(c.getAttribute('cx'))))].sort((a, b) => a - b);
    const ys = [...new Set(stars.map((c) => Number(c.getAttribute('cy'))))].sort((a, b) => a - b);
    if (xs.length !== 3 || ys.length !== 3) return;
    for (const c of stars) {
      const centreX = Number(c.getAttribute('cx')) === xs[1];
      const centreY = Number(c.getAttribute('cy')) === ys[1];
      c.style.display = centreX !== centreY ? 'none' : '';
    }
  }

  const onResize = () => draw();
  window.addEventListener('resize', onResize);

  return {
    el,
    set(s) {
      state = s;
      el.dataset.size = String(s.size);
      draw();
    },
    onVertex: (f) => (cb = f),
    destroy() {
      window.removeEventListener('resize', onResize);
      render(null, el);
    },
  };
}
