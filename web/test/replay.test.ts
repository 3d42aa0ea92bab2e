import { test } from 'node:test';
import assert from 'node:assert/strict';
import { biddingFlags, doudizhuText, playText } from '../src/games/doudizhu/notation.ts';
import { update } from '../src/settings.ts';

test('Doudizhu actions read as players say them: 不叫 while bidding, 不出 in play, 10 and the jokers', () => {
  update({ lang: 'zh-CN' });
  assert.equal(doudizhuText('pass', 'bidding'), '不叫');
  assert.equal(doudizhuText('pass', 'play'), '不出');
  assert.equal(doudizhuText('bid 2', 'bidding'), '叫2分');
  assert.equal(doudizhuText('TTT', 'play'), '10 10 10');
  assert.equal(doudizhuText('BR', 'play'), '小王 大王');
  assert.equal(playText('3334'), '3 3 3 4');
  update({ lang: 'en' });
  assert.equal(doudizhuText('pass', 'bidding'), 'No bid');
  assert.equal(doudizhuText('pass', 'play'), 'Pass');
  assert.equal(doudizhuText('bid 3', 'bidding'), 'Bid 3');
  assert.equal(doudizhuText('BR', 'play'), 'Little Joker Big Joker');
  assert.equal(doudizhuText('2R', 'play'), '2 Big Joker');
});

test('a pass in the move list is a bid until the first cards are played', () => {
  // Two passes, a redeal, a bid of 3, the landlord's lead, a farmer's pass.
  assert.deepEqual(biddingFlags(['pass', 'pass', 'pass', 'bid 3', 'BR', 'pass']), [true, true, true, true, false, false]);
  assert.deepEqual(biddingFlags(['pass', 'bid 1']), [true, true]);
  assert.deepEqual(biddingFlags([]), []);
});

test('computer players are named by level, never by their ids', async () => {
  const { setGames } = await import('../src/net/games.ts');
  const { playerName, isComputer, computerLevel } = await import('../src/players.ts');
  const level = (key: string, zh: string, en: string) => ({ key, zh, en });
  setGames([
    { name: 'chess', bot_levels: [level('1', '1级 入门', 'Level 1'), level('3', '3级', 'Level 3'), level('stockfish.weak', 'Stockfish 弱', 'Stockfish weak')] },
    { name: 'doudizhu', bot_levels: [level('basic', '普通', 'Basic'), level('strong', '高手', 'Strong')] },
  ] as unknown as Parameters<typeof setGames>[0]);
  update({ lang: 'zh-CN' });
  assert.equal(playerName('bot:strong-k3x9q2'), '电脑（高手）');
  assert.equal(playerName('bot:basic-k3x9q2'), '电脑（普通）');
  assert.equal(playerName('bot:1-k3x9q2'), '电脑（1级）');
  assert.equal(playerName('bot:stockfish.weak-abcdef'), '电脑（Stockfish 弱）');
  assert.equal(playerName('bot:9-abcdef'), '电脑（9级）');
  assert.equal(playerName('alice'), 'alice');
  assert.ok(isComputer('bot:3-abc') && !isComputer('alice'));
  assert.equal(computerLevel('bot:stockfish.weak-abcdef'), 'stockfish.weak');
  update({ lang: 'en' });
  assert.equal(playerName('bot:strong-k3x9q2'), 'Computer (strong)');
  assert.equal(playerName('bot:3-k3x9q2'), 'Computer (Level 3)');
  // Several at one table: apart by their seats, as the records name them.
  const { computersApart } = await import('../src/players.ts');
  assert.ok(computersApart(['alice', 'bot:basic-aaaaaa', 'bot:basic-bbbbbb']));
  assert.ok(!computersApart(['alice', 'bob', 'bot:basic-bbbbbb']));
  assert.equal(playerName('bot:basic-bbbbbb', 2), 'Computer (basic) C');
  update({ lang: 'zh-CN' });
  assert.equal(playerName('bot:basic-aaaaaa', 1), '电脑（普通）乙');
});
