// Local game logic for both boards: chess through chessops, xiangqi through our own
// small rules module. Used offline, on the analysis board, and to turn a list of
// UCI/ICCS moves into the notation the player chose.
import { Chess } from 'chessops/chess';
import { parseFen, makeFen } from 'chessops/fen';
import { makeSan } from 'chessops/san';
import { parseUci } from 'chessops/util';
import { chessgroundDests } from 'chessops/compat';
import { parsePgn, startingPosition } from 'chessops/pgn';
import { parseSan } from 'chessops/san';
import { makeUci } from 'chessops/util';
import * as xq from './xiangqi/rules';
import { notate, type XNotation } from './xiangqi/notation';
import type { Side } from './boards/types';

export type GameKind = 'chess' | 'xiangqi';

export const START: Record<GameKind, string> = {
  chess: 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
  xiangqi: xq.START_FEN,
};

export interface Played {
  uci: string;
  display: string;
  capture: boolean;
  check: boolean;
}

export interface LocalOutcome {
  winner: Side | null;
  reason: string;
}

export interface LocalGame {
  kind: GameKind;
  fen(): string;
  turn(): Side;
  dests(): Map<string, string[]>;
  check(): boolean;
  play(move: string): Played | null;
  outcome(): LocalOutcome | null;
}

class ChessGame implements LocalGame {
  kind = 'chess' as const;
  constructor(private pos: Chess) {}
  static from(fen: string): ChessGame | null {
    const setup = parseFen(fen);
    if (setup.isErr) return null;
    const pos = Chess.fromSetup(setup.value);
    return pos.isErr ? null : new ChessGame(pos.value);
  }
  fen() {
    return makeFen(this.pos.toSetup());
  }
  turn(): Side {
    return this.pos.turn === 'white' ? 0 : 1;
  }
  dests() {
    return chessgroundDests(this.pos) as Map<string, string[]>;
  }
  check() {
    return this.pos.isCheck();
  }
  play(move: string): Played | null {
    const m = parseUci(move);
    if (!m || !this.pos.isLegal(m)) return null;
    const capture = 'from' in m && (this.pos.board.has(m.to) || (this.pos.board.getRole(m.from) === 'pawn' && m.to === this.pos.epSquare));
    const display = makeSan(this.pos, m);
    this.pos.play(m);
    return { uci: move, display, capture, check: this.pos.isCheck() };
  }
  outcome(): LocalOutcome | null {
    const o = this.pos.outcome();
    if (!o) return null;
    let reason = 'checkmate';
    if (this.pos.isStalemate()) reason = 'stalemate';
    else if (this.pos.isInsufficientMaterial()) reason = 'insufficient_material';
    return { winner: o.winner === undefined ? null : o.winner === 'white' ? 0 : 1, reason };
  }
}

class XiangqiGame implements LocalGame {
  kind = 'xiangqi' as const;
  constructor(private pos: xq.Position, public notation: XNotation = 'chinese') {}
  static from(fen: string): XiangqiGame | null {
    const p = xq.parseFen(fen);
    return p ? new XiangqiGame(p) : null;
  }
  fen() {
    return xq.toFen(this.pos);
  }
  turn(): Side {
    return this.pos.red ? 0 : 1;
  }
  dests() {
    return xq.legalDests(this.pos);
  }
  check() {
    return xq.inCheck(this.pos.board, this.pos.red);
  }
  play(move: string): Played | null {
    const m = xq.parseIccs(move);
    if (!m) return null;
    const next = xq.play(this.pos, m);
    if (!next) return null;
    const display = notate(this.pos, m, this.notation);
    const capture = this.pos.board[m.to] !== '';
    this.pos = next;
    return { uci: move.toLowerCase(), display, capture, check: xq.inCheck(next.board, next.red) };
  }
  outcome(): LocalOutcome | null {
    const o = xq.outcome(this.pos);
    return o ? { winner: o.winner === 'red' ? 0 : 1, reason: o.reason } : null;
  }
}

export function newGame(kind: GameKind, fen?: string, notation: XNotation = 'chinese'): LocalGame | null {
  if (kind === 'chess') return ChessGame.from(fen ?? START.chess);
  const g = XiangqiGame.from(fen ?? START.xiangqi);
  if (g) g.notation = notation;
  return g;
}

/** Replays moves from a position; stops at the first move it cannot play. */
export function replay(kind: GameKind, fen: string | undefined, moves: string[], notation: XNotation = 'chinese') {
  const g = newGame(kind, fen, notation);
  const played: Played[] = [];
  if (!g) return { game: null, played };
  for (const m of moves) {
    const p = g.play(m);
    if (!p) break;
    played.push(p);
  }
  return { game: g, played };
}

/** Reads a pasted record: a FEN, a PGN (chess), or a xiangqi PGN / ICCS move list. */
export function readRecord(kind: GameKind, text: string): { fen: string; moves: string[] } | null {
  const s = text.trim();
  if (!s) return null;
  if (newGame(kind, s) && !s.includes('[') && s.split('/').length >= 8) return { fen: s, moves: [] };
  if (kind === 'chess') {
    const games = parsePgn(s);
    const g = games[0];
    if (!g) return null;
    const start = startingPosition(g.headers);
    if (start.isErr) return null;
    const pos = start.value;
    const fen = makeFen(pos.toSetup());
    const moves: string[] = [];
    for (const node of g.moves.mainline()) {
      const mv = parseSan(pos, node.san);
      if (!mv) break;
      moves.push(makeUci(mv));
      pos.play(mv);
    }
    return { fen, moves };
  }
  const fenTag = /\[FEN\s+"([^"]+)"\]/i.exec(s);
  const fen = fenTag ? fenTag[1] : START.xiangqi;
  if (!xq.parseFen(fen)) return null;
  const body = s.replace(/\[[^\]]*\]/g, ' ').replace(/\{[^}]*\}/g, ' ');
  const moves = (body.match(/[a-iA-I][0-9]-?[a-iA-I][0-9]/g) ?? []).map((m) => m.replace('-', '').toLowerCase());
  const r = replay('xiangqi', fen, moves);
  if (!r.game) return null;
  return { fen, moves: r.played.map((p) => p.uci) };
}
