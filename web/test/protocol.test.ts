import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clockFace } from '../src/table/clocks.ts';
import { applyPatch, PatchMisfit } from '../src/net/patch.ts';
import { describeTc, presetOf } from '../src/net/model.ts';
import { setGames, quickPairing, recordExtension, type GameInfo } from '../src/net/games.ts';

// QQ's quick (快棋) and match (比赛) modes, as the server's registry describes
// chess (`GET /api/games`).
const PRESETS = {
  quick: { kind: 'qq', game: 600000, per_move: 60000, countdown: 30000 },
  match: { kind: 'qq', game: 1800000, per_move: 300000, countdown: 180000 },
} as const;
const chessInfo: GameInfo = {
  name: 'chess',
  seats: 2,
  phases: ['play', 'over'],
  record: { extension: 'pgn', mime: 'application/x-chess-pgn; charset=utf-8' },
  hides_information: false,
  secret_deal: false,
  presets: [
    { key: 'quick', zh: '快棋', en: 'quick', time: PRESETS.quick },
    { key: 'match', zh: '比赛', en: 'match', time: PRESETS.match },
  ],
  rating_pools: 'by_speed',
  bots: [],
};
setGames([chessInfo]);

const clock = (running: number | null) => ({
  control: { kind: 'qq', game: 600000, per_move: 60000, countdown: 30000 },
  running,
  paused: false,
  at: 0,
  seats: [
    { main: 500000, move_left: 50000, periods: 0, moves_left: 0, overtime: false, flagged: false },
    { main: 600000, move_left: 60000, periods: 0, moves_left: 0, overtime: false, flagged: false },
  ],
});

const view = {
  version: 7,
  game_name: 'chess',
  seats: [
    { user: 'alice', connected: true, accepted: 1, ready: true, swap_with: null, rematch: false, escape_at: null },
    { user: 'bob', connected: false, accepted: 1, ready: true, swap_with: null, rematch: false, escape_at: 123 },
  ],
  spectators: ['carol'],
  proposal: { id: 1, by: 0, settings: { time: PRESETS.quick, options: null, setup: 'standard', rated: true, takebacks: true } },
  status: 'playing',
  you: 1,
  game: {
    number: 1,
    settings: { time: PRESETS.quick },
    players: ['alice', 'bob'],
    moves: [{ seat: 0, action: 'e2e4', display: 'e4', clock: 590000 }],
    turn: { seat: 1 },
    phase: 'play',
    clock: clock(1),
    board: {
      fen: 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1',
      start_fen: null,
      side_to_move: 'black',
      to_move: 1,
      last_move: { uci: 'e2e4', san: 'e4', capture: false, check: false },
      check: false,
      legal_moves: ['e7e5', 'g8f6'],
      halfmove_clock: 0,
      fullmove_number: 1,
      repetitions: 1,
      claims: [],
      outcome: null,
    },
    draw_offer: 0,
    takeback_request: null,
    outcome: null,
  },
};

test('a table view as the table reads it', () => {
  // The shell and the piece board read the generated view as it comes (no model of their own).
  assert.equal(view.game_name, 'chess');
  assert.equal(view.version, 7);
  assert.equal(view.you, 1);
  assert.equal(view.spectators.length, 1);
  assert.equal(view.status, 'playing');
  assert.deepEqual(view.game.turn, { seat: 1 });
  assert.deepEqual(view.game.moves.map((m) => [m.action, m.display]), [['e2e4', 'e4']]);
  assert.deepEqual(view.game.board.legal_moves, ['e7e5', 'g8f6']);
  assert.equal(view.game.draw_offer, 0);
  assert.equal(view.seats[1].connected, false);
  assert.equal(view.seats[0].user, 'alice');
  assert.equal(view.proposal.id, 1);
  assert.deepEqual(view.seats.flatMap((s, i) => (s.accepted === view.proposal.id ? [i] : [])), [0, 1]);
});

test('patches move the view on: a move, a takeback, the end', () => {
  // As the server sends them (docs/protocol.md "Patches").
  let v = applyPatch(view, [
    { op: 'push', path: ['game', 'moves'], values: [{ seat: 1, action: 'e7e5', display: 'e5', clock: 590000 }] },
    { op: 'set', path: ['game', 'turn', 'seat'], value: 0 },
    { op: 'set', path: ['game', 'draw_offer'], value: null },
    { op: 'set', path: ['game', 'board', 'last_move'], value: { uci: 'e7e5', san: 'e5', capture: false, check: false } },
  ]);
  assert.equal(v.game.moves.length, 2);
  assert.deepEqual(v.game.turn, { seat: 0 });
  assert.equal(v.game.board.last_move.uci, 'e7e5');
  assert.equal(v.game.draw_offer, null, 'a move by the receiver declines the offer');
  v = applyPatch(v, [
    { op: 'trunc', path: ['game', 'moves'], len: 1 },
    { op: 'set', path: ['game', 'turn', 'seat'], value: 1 },
  ]);
  assert.equal(v.game.moves.length, 1);
  assert.deepEqual(v.game.turn, { seat: 1 });
  v = applyPatch(v, [
    { op: 'set', path: ['status'], value: 'over' },
    { op: 'set', path: ['game', 'turn'], value: 'over' },
    { op: 'set', path: ['game', 'outcome'], value: { results: ['loss', 'win'], reason: 'resignation', score: '0-1' } },
  ]);
  assert.equal(v.status, 'over');
  assert.equal(v.game.turn, 'over');
  assert.equal(v.game.outcome.reason, 'resignation');
});

test('clock faces from the server time, and time controls', () => {
  // The running seat's time runs from the clock's `at`; the other seat's is shown as sent.
  const c = clock(0);
  const at = (ms: number) => [0, 1].map((s) => clockFace(c, s, ms, true));
  let [a, b] = at(0);
  assert.equal(a.big, 500000);
  assert.equal(a.sub, '00:50', 'QQ: the move time (步时) under the game time (局时)');
  assert.equal(a.running, true);
  assert.equal(b.big, 600000);
  assert.equal(b.running, false);
  [a, b] = at(20_000);
  assert.equal(a.big, 480000);
  assert.equal(a.sub, '00:30');
  assert.equal(b.big, 600000, 'a stopped seat does not run');
  [a] = at(45_000);
  assert.equal(a.low, true, 'under 10 s of the move time');
  [a] = at(90_000);
  assert.equal(a.sub, '00:00.0', 'never below 0');
  assert.equal(clockFace(c, 0, 45_000, false).running, false, 'nothing runs between games');
  assert.equal(clockFace(null, 0, 0, true).big, null, 'no clock');
  assert.equal(describeTc(PRESETS.match), '30′ / 5′ / 3′');
  assert.equal(describeTc({ kind: 'fischer', base: 300000, increment: 3000 }), '5+3');
  assert.equal(presetOf({ kind: 'qq', game: 600000, per_move: 60000, countdown: 30000 }), 'quick');
  assert.equal(presetOf({ kind: 'qq', game: 600000, per_move: 60000, countdown: 30000 }, 'chess'), 'quick');
  assert.equal(presetOf(PRESETS.match, 'go'), 'custom', 'a game without that preset');
});

test('quick pairing and record files come from the descriptors', () => {
  assert.deepEqual(quickPairing('chess'), PRESETS.quick);
  assert.equal(quickPairing('count'), undefined);
  assert.equal(recordExtension('chess'), 'pgn');
});

test('patches: a view follows its patches, sharing what did not change', () => {
  const view = { v: 1, game: { moves: [{ a: 'e2e4' }], clock: { at: 1 } }, seats: [{ u: 'a' }, { u: 'b' }], x: 1 };
  const next = applyPatch(view, [
    { op: 'push', path: ['game', 'moves'], values: [{ a: 'e7e5' }] },
    { op: 'set', path: ['v'], value: 2 },
    { op: 'set', path: ['seats', 1, 'u'], value: 'c' },
    { op: 'del', path: ['x'] },
  ]);
  assert.deepEqual(next, { v: 2, game: { moves: [{ a: 'e2e4' }, { a: 'e7e5' }], clock: { at: 1 } }, seats: [{ u: 'a' }, { u: 'c' }] });
  assert.equal(view.v, 1, 'the old view is unchanged');
  assert.equal(view.game.moves.length, 1);
  assert.equal(next.seats[0], view.seats[0], 'an unchanged seat is shared');
  assert.equal(next.game.clock, view.game.clock);
  const back = applyPatch(next, [{ op: 'trunc', path: ['game', 'moves'], len: 1 }]);
  assert.deepEqual(back.game.moves, [{ a: 'e2e4' }]);
  assert.deepEqual(applyPatch(null, [{ op: 'set', path: [], value: { v: 9 } }]), { v: 9 });
  assert.throws(() => applyPatch(null, [{ op: 'set', path: ['v'], value: 1 }]), PatchMisfit);
  assert.throws(() => applyPatch(view, [{ op: 'push', path: ['v'], values: [1] }]), PatchMisfit);
  assert.throws(() => applyPatch(view, [{ op: 'trunc', path: ['game', 'moves'], len: 5 }]), PatchMisfit);
  assert.throws(() => applyPatch(view, [{ op: 'set', path: ['seats', 7, 'u'], value: 1 }]), PatchMisfit);
});
