import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseFen, toFen, legalMoves, play, parseIccs, outcome, START_FEN, inCheck } from '../src/xiangqi/rules.ts';
import { chinese, wxf, iccs } from '../src/xiangqi/notation.ts';

function perft(fen: string, depth: number): number {
  const p = parseFen(fen)!;
  const go = (pos: typeof p, d: number): number => {
    if (d === 0) return 1;
    let n = 0;
    for (const m of legalMoves(pos)) n += go(play(pos, m, false)!, d - 1);
    return n;
  };
  return go(p, depth);
}

test('start position round-trips and has 44 moves', () => {
  const p = parseFen(START_FEN)!;
  assert.equal(toFen(p), START_FEN);
  assert.equal(legalMoves(p).length, 44);
});

test('perft from the start matches the reference counts', () => {
  assert.equal(perft(START_FEN, 2), 1920);
  assert.equal(perft(START_FEN, 3), 79666);
});

test('chinese, WXF and ICCS notation of common openings', () => {
  let p = parseFen(START_FEN)!;
  const mv = parseIccs('h2e2')!;
  assert.equal(chinese(p, mv), '炮二平五');
  assert.equal(wxf(p, mv), 'C2=5');
  assert.equal(iccs(mv), 'H2-E2');
  p = play(p, mv)!;
  const b = parseIccs('h9g7')!;
  assert.equal(chinese(p, b), '马８进７');
  assert.equal(wxf(p, b), 'H8+7');
  p = play(p, b)!;
  const r = parseIccs('i0i1')!;
  assert.equal(chinese(p, r), '车一进一');
});

test('tandem pieces are named front and rear', () => {
  const p = parseFen('4k4/9/9/9/9/9/4C4/9/4C4/3K5 w - - 0 1')!;
  assert.equal(chinese(p, parseIccs('e3d3')!), '前炮平六');
  assert.equal(chinese(p, parseIccs('e1f1')!), '后炮平四');
});

test('flying general is illegal and mate is detected', () => {
  const p = parseFen('4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1')!;
  assert.equal(play(p, parseIccs('d0e0')!), null);
  // Two rooks mate the black general on the back rank.
  const m = parseFen('3k5/R8/1R7/9/9/9/9/9/9/4K4 w - - 0 1')!;
  const after = play(m, parseIccs('b7b9')!)!;
  assert.ok(inCheck(after.board, false));
  assert.deepEqual(outcome(after), { winner: 'red', reason: 'checkmate' });
});
