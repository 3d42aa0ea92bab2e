import { test } from 'node:test';
import assert from 'node:assert/strict';
import { doudizhuText, playText } from '../src/replay/notation.ts';
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
  assert.equal(doudizhuText('BR', 'play'), 'Black Joker Red Joker');
});
