// A small xiangqi rules engine for the browser: legal moves (palace, river,
// blocked horse legs and elephant eyes, cannon screens, flying generals, no
// self-check), used by offline hot-seat play, the analysis board and notation
// switching. The server stays authoritative for online games.

/** A square index: rank * 9 + file, rank 0 is red's back rank, file 0 is ICCS `a`. */
export type Sq = number;
/** Uppercase red (K A B N R C P), lowercase black; '' for empty. */
export type Cell = string;

export interface Position {
  board: Cell[]; // 90 cells
  red: boolean; // red to move
  halfmoves: number;
  fullmoves: number;
}

export const START_FEN = 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1';

const fileOf = (s: Sq) => s % 9;
const rankOf = (s: Sq) => Math.floor(s / 9);
const sq = (f: number, r: number): Sq => r * 9 + f;
const onBoard = (f: number, r: number) => f >= 0 && f < 9 && r >= 0 && r < 10;
const isRed = (c: Cell) => c !== '' && c === c.toUpperCase();

export function parseFen(fen: string): Position | null {
  const parts = fen.trim().split(/\s+/);
  const rows = (parts[0] ?? '').split('/');
  if (rows.length !== 10) return null;
  const board: Cell[] = new Array(90).fill('');
  for (let i = 0; i < 10; i++) {
    const r = 9 - i;
    let f = 0;
    for (const ch of rows[i]) {
      if (/[1-9]/.test(ch)) f += Number(ch);
      else {
        let c = ch;
        if (c === 'h' || c === 'H') c = c === 'h' ? 'n' : 'N';
        if (c === 'e' || c === 'E') c = c === 'e' ? 'b' : 'B';
        if (!/^[kabnrcpKABNRCP]$/.test(c) || f > 8) return null;
        board[sq(f, r)] = c;
        f++;
      }
    }
    if (f !== 9) return null;
  }
  const side = (parts[1] ?? 'w').toLowerCase();
  return {
    board,
    red: side !== 'b',
    halfmoves: Number(parts[4] ?? 0) || 0,
    fullmoves: Number(parts[5] ?? 1) || 1,
  };
}

export function toFen(p: Position): string {
  const rows: string[] = [];
  for (let r = 9; r >= 0; r--) {
    let row = '';
    let empty = 0;
    for (let f = 0; f < 9; f++) {
      const c = p.board[sq(f, r)];
      if (c === '') empty++;
      else {
        if (empty) row += empty;
        empty = 0;
        row += c;
      }
    }
    if (empty) row += empty;
    rows.push(row);
  }
  return `${rows.join('/')} ${p.red ? 'w' : 'b'} - - ${p.halfmoves} ${p.fullmoves}`;
}

export function sqName(s: Sq): string {
  return 'abcdefghi'[fileOf(s)] + String(rankOf(s));
}

export function parseSq(name: string): Sq | null {
  const m = /^([a-i])([0-9])$/.exec(name);
  if (!m) return null;
  return sq(m[1].charCodeAt(0) - 97, Number(m[2]));
}

function inPalace(f: number, r: number, red: boolean): boolean {
  return f >= 3 && f <= 5 && (red ? r <= 2 : r >= 7);
}

/** Pseudo-legal destinations of the piece on `from` (ignores self-check). */
function pseudoDests(board: Cell[], from: Sq): Sq[] {
  const c = board[from];
  if (c === '') return [];
  const red = isRed(c);
  const f = fileOf(from);
  const r = rankOf(from);
  const out: Sq[] = [];
  const own = (t: Sq) => board[t] !== '' && isRed(board[t]) === red;
  const tryAdd = (nf: number, nr: number) => {
    if (!onBoard(nf, nr)) return;
    const t = sq(nf, nr);
    if (!own(t)) out.push(t);
  };
  const dirs = [
    [1, 0],
    [-1, 0],
    [0, 1],
    [0, -1],
  ];
  switch (c.toLowerCase()) {
    case 'k':
      for (const [df, dr] of dirs) if (inPalace(f + df, r + dr, red)) tryAdd(f + df, r + dr);
      break;
    case 'a':
      for (const df of [-1, 1])
        for (const dr of [-1, 1]) if (inPalace(f + df, r + dr, red)) tryAdd(f + df, r + dr);
      break;
    case 'b':
      for (const df of [-2, 2])
        for (const dr of [-2, 2]) {
          const nf = f + df;
          const nr = r + dr;
          if (!onBoard(nf, nr)) continue;
          if (red ? nr > 4 : nr < 5) continue;
          if (board[sq(f + df / 2, r + dr / 2)] !== '') continue;
          tryAdd(nf, nr);
        }
      break;
    case 'n':
      for (const [df, dr] of [
        [1, 2],
        [-1, 2],
        [1, -2],
        [-1, -2],
        [2, 1],
        [2, -1],
        [-2, 1],
        [-2, -1],
      ]) {
        const nf = f + df;
        const nr = r + dr;
        if (!onBoard(nf, nr)) continue;
        const leg = Math.abs(df) === 2 ? sq(f + df / 2, r) : sq(f, r + dr / 2);
        if (board[leg] !== '') continue;
        tryAdd(nf, nr);
      }
      break;
    case 'r':
      for (const [df, dr] of dirs) {
        let nf = f + df;
        let nr = r + dr;
        while (onBoard(nf, nr)) {
          const t = sq(nf, nr);
          if (board[t] === '') out.push(t);
          else {
            if (!own(t)) out.push(t);
            break;
          }
          nf += df;
          nr += dr;
        }
      }
      break;
    case 'c':
      for (const [df, dr] of dirs) {
        let nf = f + df;
        let nr = r + dr;
        let screen = false;
        while (onBoard(nf, nr)) {
          const t = sq(nf, nr);
          if (!screen) {
            if (board[t] === '') out.push(t);
            else screen = true;
          } else if (board[t] !== '') {
            if (!own(t)) out.push(t);
            break;
          }
          nf += df;
          nr += dr;
        }
      }
      break;
    case 'p': {
      const fwd = red ? 1 : -1;
      tryAdd(f, r + fwd);
      const crossed = red ? r >= 5 : r <= 4;
      if (crossed) {
        tryAdd(f - 1, r);
        tryAdd(f + 1, r);
      }
      break;
    }
  }
  return out;
}

function kingSq(board: Cell[], red: boolean): Sq {
  return board.indexOf(red ? 'K' : 'k');
}

/** Is the general of `red` attacked (or facing the other general)? */
export function inCheck(board: Cell[], red: boolean): boolean {
  const k = kingSq(board, red);
  if (k < 0) return true;
  // Flying general: the two generals on one file with nothing between.
  const ok = kingSq(board, !red);
  if (ok >= 0 && fileOf(ok) === fileOf(k)) {
    const lo = Math.min(rankOf(k), rankOf(ok));
    const hi = Math.max(rankOf(k), rankOf(ok));
    let blocked = false;
    for (let r = lo + 1; r < hi; r++) if (board[sq(fileOf(k), r)] !== '') blocked = true;
    if (!blocked) return true;
  }
  for (let s = 0; s < 90; s++) {
    const c = board[s];
    if (c === '' || isRed(c) === red) continue;
    if (pseudoDests(board, s).includes(k)) return true;
  }
  return false;
}

export interface XMove {
  from: Sq;
  to: Sq;
}

export function legalMoves(p: Position): XMove[] {
  const out: XMove[] = [];
  for (let s = 0; s < 90; s++) {
    const c = p.board[s];
    if (c === '' || isRed(c) !== p.red) continue;
    for (const t of pseudoDests(p.board, s)) {
      const b = p.board.slice();
      b[t] = b[s];
      b[s] = '';
      if (!inCheck(b, p.red)) out.push({ from: s, to: t });
    }
  }
  return out;
}

/** Destinations keyed by ICCS square name, for a board widget. */
export function legalDests(p: Position): Map<string, string[]> {
  const m = new Map<string, string[]>();
  for (const mv of legalMoves(p)) {
    const k = sqName(mv.from);
    const list = m.get(k) ?? [];
    list.push(sqName(mv.to));
    m.set(k, list);
  }
  return m;
}

export function parseIccs(uci: string): XMove | null {
  const s = uci.trim().toLowerCase().replace('-', '');
  const from = parseSq(s.slice(0, 2));
  const to = parseSq(s.slice(2, 4));
  if (from === null || to === null || s.length !== 4) return null;
  return { from, to };
}

/** Plays a move; returns the new position or null if illegal. */
export function play(p: Position, mv: XMove, checkLegal = true): Position | null {
  if (checkLegal && !legalMoves(p).some((m) => m.from === mv.from && m.to === mv.to)) return null;
  const board = p.board.slice();
  const captured = board[mv.to] !== '';
  board[mv.to] = board[mv.from];
  board[mv.from] = '';
  return {
    board,
    red: !p.red,
    halfmoves: captured ? 0 : p.halfmoves + 1,
    fullmoves: p.red ? p.fullmoves : p.fullmoves + 1,
  };
}

export type XOutcome = { winner: 'red' | 'black'; reason: 'checkmate' | 'stalemate' } | null;

/** In xiangqi a side with no legal move loses, in check (将死) or not (困毙). */
export function outcome(p: Position): XOutcome {
  if (legalMoves(p).length > 0) return null;
  return { winner: p.red ? 'black' : 'red', reason: inCheck(p.board, p.red) ? 'checkmate' : 'stalemate' };
}

export const internals = { fileOf, rankOf, sq, isRed, pseudoDests };
