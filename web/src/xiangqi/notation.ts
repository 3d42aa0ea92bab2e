// Xiangqi move notation: Chinese (炮二平五 / 马８进７), WXF (C2=5) and ICCS (h2e2),
// computed from the position before the move.
import { type Position, type XMove, internals } from './rules';

const { fileOf, rankOf, isRed } = internals;

export type XNotation = 'chinese' | 'wxf' | 'iccs';

const RED_NAMES: Record<string, string> = { k: '帅', a: '仕', b: '相', n: '马', r: '车', c: '炮', p: '兵' };
const BLACK_NAMES: Record<string, string> = { k: '将', a: '士', b: '象', n: '马', r: '车', c: '炮', p: '卒' };
const RED_NUM = ['', '一', '二', '三', '四', '五', '六', '七', '八', '九'];
const BLACK_NUM = ['', '１', '２', '３', '４', '５', '６', '７', '８', '９'];
const WXF_LETTER: Record<string, string> = { k: 'K', a: 'A', b: 'E', n: 'H', r: 'R', c: 'C', p: 'P' };

/** A file as the mover counts it: 1 on the mover's right. */
function sideFile(f: number, red: boolean): number {
  return red ? 9 - f : f + 1;
}

/** How far forward a rank is for the mover. */
function forwardness(r: number, red: boolean): number {
  return red ? r : 9 - r;
}

interface Parts {
  piece: string; // lowercase role
  red: boolean;
  fromFile: number; // mover's count, 1..9
  tandem: { index: number; count: number } | null; // 0 = front
  op: '+' | '-' | '=';
  arg: number; // steps or target file (mover's count)
}

function parts(p: Position, mv: XMove): Parts | null {
  const c = p.board[mv.from];
  if (!c) return null;
  const red = isRed(c);
  const role = c.toLowerCase();
  const ff = fileOf(mv.from);
  const fr = rankOf(mv.from);
  const tf = fileOf(mv.to);
  const tr = rankOf(mv.to);
  // Same pieces on the same file, ordered front to back.
  const same: number[] = [];
  for (let r = 0; r < 10; r++) if (p.board[r * 9 + ff] === c) same.push(r);
  let tandem: Parts['tandem'] = null;
  if (same.length > 1 && role !== 'k' && role !== 'a' && role !== 'b') {
    same.sort((a, b) => forwardness(b, red) - forwardness(a, red));
    tandem = { index: same.indexOf(fr), count: same.length };
  }
  const dFwd = forwardness(tr, red) - forwardness(fr, red);
  const op: Parts['op'] = dFwd > 0 ? '+' : dFwd < 0 ? '-' : '=';
  const straight = role === 'r' || role === 'c' || role === 'p' || role === 'k';
  const arg = op === '=' || !straight ? sideFile(tf, red) : Math.abs(dFwd);
  return { piece: role, red, fromFile: sideFile(ff, red), tandem, op, arg };
}

function tandemWord(t: { index: number; count: number }): string {
  if (t.count === 2) return t.index === 0 ? '前' : '后';
  if (t.count === 3) return ['前', '中', '后'][t.index];
  return ['一', '二', '三', '四', '五'][t.index] ?? '';
}

export function chinese(p: Position, mv: XMove): string {
  const x = parts(p, mv);
  if (!x) return '?';
  const names = x.red ? RED_NAMES : BLACK_NAMES;
  const nums = x.red ? RED_NUM : BLACK_NUM;
  const op = x.op === '+' ? '进' : x.op === '-' ? '退' : '平';
  const head = x.tandem ? tandemWord(x.tandem) + names[x.piece] : names[x.piece] + nums[x.fromFile];
  return head + op + nums[x.arg];
}

export function wxf(p: Position, mv: XMove): string {
  const x = parts(p, mv);
  if (!x) return '?';
  const letter = WXF_LETTER[x.piece];
  let from = String(x.fromFile);
  if (x.tandem) from = x.tandem.count === 2 ? (x.tandem.index === 0 ? '+' : '-') : String(x.tandem.index + 1);
  return `${letter}${from}${x.op === '=' ? '.' : x.op}${x.arg}`.replace('.', '=');
}

export function iccs(mv: XMove): string {
  const n = (s: number) => 'ABCDEFGHI'[fileOf(s)] + String(rankOf(s));
  return `${n(mv.from)}-${n(mv.to)}`;
}

export function notate(p: Position, mv: XMove, kind: XNotation): string {
  if (kind === 'iccs') return iccs(mv);
  if (kind === 'wxf') return wxf(p, mv);
  return chinese(p, mv);
}
