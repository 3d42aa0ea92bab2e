import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { endReasonText, KNOWN_DETAILS, KNOWN_REASONS } from '../src/table/reasons.ts';

// The server's end reasons and details, as the generated protocol types list them.
const root = path.resolve(process.cwd(), process.cwd().endsWith('web') ? '..' : '.');
const generated = readFileSync(path.join(root, 'web/src/net/generated/protocol.ts'), 'utf8');
function union(name: string): string[] {
  const m = generated.match(new RegExp(`export type ${name} = ([^;]+);`));
  assert.ok(m, `${name} in the generated types`);
  return [...m[1].matchAll(/"([a-z_]+)"/g)].map((x) => x[1]);
}

const loss = ['loss', 'win'] as const;

test('every end reason and detail the server sends has words of its own', () => {
  const reasons = union('EndReason');
  assert.ok(reasons.includes('checkmate') && reasons.includes('aborted'));
  assert.deepEqual([...reasons].sort(), [...KNOWN_REASONS].sort());
  assert.deepEqual([...union('EndDetail')].sort(), [...KNOWN_DETAILS].sort());
  for (const reason of reasons) {
    const zh = endReasonText({ reason: reason as never, results: [...loss] }, null, 'zh');
    const en = endReasonText({ reason: reason as never, results: [...loss] }, null, 'en');
    assert.notEqual(zh, reason, `${reason} in Chinese`);
    assert.doesNotMatch(zh, /[a-z]/i, `no English in the Chinese words for ${reason}: ${zh}`);
    assert.match(en, /^[\x20-\x7e（）长将捉困毙]+$/, `English words for ${reason}: ${en}`);
  }
});

test('the result names the limit that ran out and why a game did not count', () => {
  const timeout = { reason: 'timeout' as const, results: [...loss] };
  assert.equal(endReasonText(timeout, 'move_time', 'zh'), '步时超时');
  assert.equal(endReasonText(timeout, 'countdown', 'zh'), '读秒超时');
  assert.match(endReasonText(timeout, 'main_time', 'zh'), /局时/);
  assert.match(endReasonText(timeout, 'move_time', 'en'), /per move/);
  const aborted = { reason: 'aborted' as const, results: ['void', 'void'] as ('void')[] };
  assert.equal(endReasonText(aborted, 'not_counted', 'zh'), '只有一方走了棋，不计分');
  assert.equal(endReasonText(aborted, 'not_counted', 'en'), 'only one side had moved: not counted');
  assert.match(endReasonText(aborted, 'first_move', 'zh'), /首步超时/);
  assert.match(endReasonText(aborted, 'abort', 'en'), /aborted/);
  // No detail: the reason itself.
  assert.equal(endReasonText(timeout, null, 'zh'), '超时');
  assert.equal(endReasonText({ reason: 'perpetual_check', results: [...loss] }, null, 'zh'), '长将判负');
  assert.equal(endReasonText({ reason: 'checkmate', results: [...loss] }, null, 'zh'), '将死');
  assert.equal(endReasonText({ reason: 'resignation', results: [...loss] }, null, 'zh'), '认输');
  assert.match(endReasonText({ reason: 'agreement', results: ['draw', 'draw'] }, null, 'zh'), /同意和棋/);
  assert.match(endReasonText({ reason: 'threefold_repetition', results: ['draw', 'draw'] }, null, 'en'), /repetition/);
  assert.match(endReasonText({ reason: 'escape', results: [...loss] }, null, 'zh'), /逃跑/);
});

test('a stalemate someone wins is 困毙; one nobody wins is a draw', () => {
  assert.match(endReasonText({ reason: 'stalemate', results: ['win', 'loss'] }, null, 'zh'), /困毙/);
  assert.match(endReasonText({ reason: 'stalemate', results: ['draw', 'draw'] }, null, 'zh'), /逼和/);
  assert.doesNotMatch(endReasonText({ reason: 'stalemate', results: ['draw', 'draw'] }, null, 'en'), /困毙/);
});
