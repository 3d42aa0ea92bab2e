// Issue 46's pure rules: the username and password rules the register page
// checks (the server's figures), speeds and rating pools as the server forms
// them, and words for every end reason the server names.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { displayWidth, nameFault, passwordFault, NAME_WIDTH, PASSWORD_MIN } from '../src/pages/names.ts';
import { speedOf, poolOf, poolName } from '../src/net/pools.ts';
import { setGames } from '../src/net/games.ts';
import { reasonText } from '../src/i18n.ts';
import { playerName, standInSeat } from '../src/players.ts';

const root = path.resolve(process.cwd(), process.cwd().endsWith('web') ? '..' : '.');
const rust = (p: string) => readFileSync(path.join(root, p), 'utf8');

test('a name is as wide as it looks: a CJK character two columns', () => {
  assert.equal(displayWidth('小王'), 4);
  assert.equal(displayWidth('棋手小王'), 8);
  assert.equal(displayWidth('abc'), 3);
  assert.equal(displayWidth('ゆき'), 4);
  assert.equal(displayWidth('김민'), 4);
  assert.equal(displayWidth('12_'), 3);
  assert.equal(displayWidth('王Wang_2'), 8);
});

test('the register page judges names as the server does', () => {
  // The server's figures, read from its source.
  const src = rust('crates/server/src/auth/usernames.rs');
  const m = /USERNAME_WIDTH: std::ops::RangeInclusive<usize> = (\d+)..=(\d+);/.exec(src);
  assert.ok(m, 'USERNAME_WIDTH in usernames.rs');
  assert.deepEqual([Number(m[1]), Number(m[2])], [NAME_WIDTH.min, NAME_WIDTH.max]);
  const pw = /pub const PASSWORD_MIN: usize = (\d+);/.exec(rust('crates/server/src/auth/passwords.rs'));
  assert.ok(pw);
  assert.equal(Number(pw[1]), PASSWORD_MIN);
  assert.equal(PASSWORD_MIN, 8);

  for (const ok of ['小王', '王伟', '棋手小王', 'magnus', 'Hou_Yifan-2', 'Иван', '王Wang', '王a', 'ゆき', '王'.repeat(10), 'a'.repeat(20), 'ａｄｍｉｎ'])
    assert.equal(nameFault(ok), null, ok);
  assert.equal(nameFault('王'), 'width');
  assert.equal(nameFault('ab'), 'width');
  assert.equal(nameFault('王'.repeat(11)), 'width');
  assert.equal(nameFault('a'.repeat(21)), 'width');
  assert.equal(nameFault('1abc'), 'start');
  assert.equal(nameFault('a b c'), 'chars');
  assert.equal(nameFault('a<script>'), 'chars');
  assert.equal(nameFault('GuestX1'), 'guest');
  assert.equal(nameFault('ｇｕｅｓｔ1'), 'guest');

  assert.equal(passwordFault('1234567', null), 'short');
  assert.equal(passwordFault('12345678', null), null);
  assert.equal(passwordFault('一二三四五六七八', null), null, 'characters, not bytes');
  assert.equal(passwordFault('12345678', '12345679'), 'mismatch');
  assert.equal(passwordFault('12345678', '12345678'), null);
});

test('speeds and pools as the server forms them; 快棋 is where the 快棋 preset plays', () => {
  const qq = (g: number, m: number, c: number) => ({ kind: 'qq', game: g * 60_000, per_move: m * 60_000, countdown: c * 1000 }) as const;
  const fischer = (b: number, i: number) => ({ kind: 'fischer', base: b * 60_000, increment: i * 1000 }) as const;
  assert.equal(speedOf(fischer(1, 0)), 'bullet');
  assert.equal(speedOf(fischer(3, 2)), 'blitz');
  assert.equal(speedOf(fischer(10, 0)), 'rapid');
  assert.equal(speedOf(fischer(20, 10)), 'classical');
  assert.equal(speedOf(qq(10, 1, 30)), 'rapid');
  assert.equal(speedOf(qq(30, 5, 180)), 'classical');
  assert.equal(speedOf({ kind: 'none' }), 'correspondence');
  setGames([
    { name: 'chess', zh: '国际象棋', en: 'Chess', rating_pools: 'by_speed', presets: [] },
    { name: 'xiangqi', zh: '中国象棋', en: 'Xiangqi', rating_pools: 'one', presets: [] },
  ] as never);
  assert.equal(poolOf('chess', qq(10, 1, 30)), 'chess:rapid');
  assert.equal(poolOf('xiangqi', qq(10, 1, 30)), 'xiangqi');
  assert.equal(poolName('chess:rapid'), '国际象棋 · 快棋');
  assert.equal(poolName('chess:blitz'), '国际象棋 · 超快棋');
  assert.equal(poolName('xiangqi'), '中国象棋');
  // The clock crate names the speeds the same way.
  const labels = rust('crates/clock/src/control.rs');
  for (const [speed, zh] of [['Rapid', '快棋'], ['Blitz', '超快棋'], ['Bullet', '子弹棋'], ['Classical', '慢棋']])
    assert.match(labels, new RegExp(`Speed::${speed} => \\("${zh}"`), speed);
});

test('every end reason the server names has words; an unknown one is no code', () => {
  const generated = rust('web/src/net/generated/protocol.ts');
  const m = generated.match(/export type EndReason = ([^;]+);/);
  assert.ok(m);
  for (const [, reason] of m[1].matchAll(/"([a-z_]+)"/g)) {
    const words = reasonText(reason);
    assert.notEqual(words, reason, reason);
    assert.notEqual(words, reasonText('no_such_reason'), `${reason} has words of its own`);
  }
  assert.doesNotMatch(reasonText('no_such_reason'), /no_such/);
});

test('a hot-seat stand-in is a player by number, never its id', () => {
  assert.equal(standInSeat('hotseat:2:Guest-abc'), 2);
  assert.equal(standInSeat('amy'), null);
  assert.equal(playerName('hotseat:2:Guest-abc'), '2号玩家');
  assert.equal(playerName('amy'), 'amy');
});
