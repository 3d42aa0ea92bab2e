import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clockLabelText, qqLabels, warns } from '../src/table/clockface.ts';
import type { TimeControl } from '../src/net/generated/protocol.ts';

const qq: TimeControl = { kind: 'qq', game: 600_000, per_move: 60_000, countdown: 30_000 };

test('a QQ clock says 局时 while it lasts, with 步时 under it, then 读秒', () => {
  assert.deepEqual(qqLabels(qq, { main: 600_000, overtime: false, move_left: 60_000 }), { big: 'main', sub: 'move' });
  assert.deepEqual(qqLabels(qq, { main: 0, overtime: true, move_left: 30_000 }), { big: 'countdown', sub: null });
  // Less 局时 left than 步时: the move runs into 读秒, 步时 does not limit it.
  assert.deepEqual(qqLabels(qq, { main: 40_000, overtime: false, move_left: 70_000 }), { big: 'main', sub: null });
  // Without a move limit there is nothing under 局时.
  assert.deepEqual(qqLabels({ ...qq, per_move: 0 }, { main: 600_000, overtime: false, move_left: 630_000 }), { big: 'main', sub: null });
  // A per-turn clock (no game time): every turn counts down.
  assert.deepEqual(qqLabels({ kind: 'qq', game: 0, per_move: 0, countdown: 20_000 }, { main: 0, overtime: true, move_left: 20_000 }), { big: 'countdown', sub: null });
  assert.equal(qqLabels({ kind: 'fischer', base: 180_000, increment: 2_000 }, { main: 180_000, overtime: false, move_left: 180_000 }), null);
  assert.equal(clockLabelText('main', 'zh'), '局时');
  assert.equal(clockLabelText('move', 'zh'), '步时');
  assert.equal(clockLabelText('countdown', 'zh'), '读秒');
  assert.equal(clockLabelText('countdown', 'en'), 'Countdown');
});

test('the warning comes in the last 10 s of any running limit', () => {
  // 步时 nearly gone while 局时 has minutes.
  assert.equal(warns(qq, true, 300_000, 9_000, false), true);
  assert.equal(warns(qq, true, 300_000, 11_000, false), false);
  // 局时 ending, although 读秒 follows it.
  assert.equal(warns(qq, true, 9_000, 39_000, false), true);
  // In 读秒: its own last 10 s.
  assert.equal(warns(qq, true, 0, 15_000, true), false);
  assert.equal(warns(qq, true, 0, 9_999, true), true);
  // Only a running clock warns.
  assert.equal(warns(qq, false, 0, 5_000, true), false);
  assert.equal(warns({ kind: 'fischer', base: 60_000, increment: 0 }, true, 8_000, 8_000, false), true);
  assert.equal(warns({ kind: 'none' }, true, 0, null, false), false);
});
