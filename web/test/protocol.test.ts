import { test } from 'node:test';
import assert from 'node:assert/strict';
import { modelFromView, clockFrom } from '../src/net/protocol.ts';
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
      san_moves: ['e4'],
      uci_moves: ['e2e4'],
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

test('a table view becomes the client model', () => {
  const m = modelFromView('9', view);
  assert.equal(m.game, 'chess');
  assert.equal(m.version, 7);
  assert.equal(m.mySeat, 1);
  assert.equal(m.spectators, 1);
  assert.equal(m.status, 'playing');
  assert.equal(m.turn, 1);
  assert.deepEqual(m.moves, [{ uci: 'e2e4', display: 'e4' }]);
  assert.deepEqual(m.legal, ['e7e5', 'g8f6']);
  assert.equal(m.offers.draw, 0);
  assert.equal(m.seats[1].connected, false);
  assert.equal(m.seats[0].player?.name, 'alice');
  assert.equal(m.timeProposal?.id, 1);
  assert.deepEqual(m.timeProposal?.accepted, [0, 1]);
});

test('patches move the model on: a move, a takeback, the end', () => {
  // As the server sends them (docs/protocol.md "Patches"): the view patched, then the model rebuilt.
  let v = applyPatch(view, [
    { op: 'push', path: ['game', 'moves'], values: [{ seat: 1, action: 'e7e5', display: 'e5', clock: 590000 }] },
    { op: 'set', path: ['game', 'turn', 'seat'], value: 0 },
    { op: 'set', path: ['game', 'draw_offer'], value: null },
    { op: 'set', path: ['game', 'board', 'last_move'], value: { uci: 'e7e5', san: 'e5', capture: false, check: false } },
  ]);
  let m = modelFromView('9', v);
  assert.equal(m.moves.length, 2);
  assert.equal(m.turn, 0);
  assert.equal(m.lastMove, 'e7e5');
  assert.equal(m.offers.draw, undefined, 'a move by the receiver declines the offer');
  v = applyPatch(v, [
    { op: 'trunc', path: ['game', 'moves'], len: 1 },
    { op: 'set', path: ['game', 'turn', 'seat'], value: 1 },
  ]);
  m = modelFromView('9', v);
  assert.equal(m.moves.length, 1);
  assert.equal(m.turn, 1);
  v = applyPatch(v, [
    { op: 'set', path: ['status'], value: 'over' },
    { op: 'set', path: ['game', 'turn'], value: 'over' },
    { op: 'set', path: ['game', 'outcome'], value: { results: ['loss', 'win'], reason: 'resignation', score: '0-1' } },
  ]);
  m = modelFromView('9', v);
  assert.equal(m.status, 'over');
  assert.equal(m.turn, null);
  assert.equal(m.result?.reason, 'resignation');
});

test('clock readings and time controls', () => {
  const c = clockFrom(clock(0))!;
  assert.deepEqual(c.ms, [500000, 600000]);
  assert.deepEqual(c.sub, [50000, 60000]);
  assert.equal(c.running, 0);
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
