import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { ERRORS } from '../src/errors.ts';

// The server's error codes, read from its Rust sources: every `ApiError::new(status,
// "code", …)`, `bad_request("code", …)`, `forbidden("code", …)` (and `Self::new` in
// error.rs), and the arms of the functions mapping refusals and HTTP statuses to
// codes (`refusal_error`, `json_errors`).
function rustFiles(dir: string, out: string[] = []): string[] {
  for (const f of readdirSync(dir)) {
    const p = path.join(dir, f);
    if (statSync(p).isDirectory()) rustFiles(p, out);
    else if (p.endsWith('.rs')) out.push(p);
  }
  return out;
}

function serverCodes(): Set<string> {
  const src = path.resolve(process.cwd(), process.cwd().endsWith('web') ? '..' : '.', 'crates/server/src');
  const codes = new Set<string>();
  for (const f of rustFiles(src)) {
    const text = readFileSync(f, 'utf8')
      .split('\n')
      .filter((l) => !l.trim().startsWith('//'))
      .join('\n');
    // Only the code above a file's tests: tests name codes they expect, not ones the server makes.
    const code = text.split('#[cfg(test)]')[0];
    for (const m of code.matchAll(/ApiError::(?:bad_request|forbidden)\(\s*"([a-z_]+)"/g)) codes.add(m[1]);
    for (const m of code.matchAll(/(?:ApiError|Self)::new\(\s*[\w:.()]+,\s*"([a-z_]+)"/g)) codes.add(m[1]);
    for (const fn of ['refusal_error', 'json_errors']) {
      const i = code.indexOf(`fn ${fn}(`);
      if (i < 0) continue;
      const body = code.slice(i, code.indexOf('\n}\n', i));
      for (const m of body.matchAll(/=> "([a-z_]+)"/g)) codes.add(m[1]);
    }
  }
  return codes;
}

test('every error code the server defines has a Chinese and an English message', () => {
  const codes = serverCodes();
  // The scan finds the codes (a broken scan would pass vacuously).
  for (const known of ['not_logged_in', 'not_found', 'internal', 'illegal', 'not_your_turn', 'bad_credentials', 'no_bots', 'too_many_tables', 'method_not_allowed']) {
    assert.ok(codes.has(known), `the scan misses ${known}: ${[...codes].join(' ')}`);
  }
  const missing = [...codes].filter((c) => !ERRORS[c]);
  assert.deepEqual(missing, [], `codes without messages: ${missing.join(', ')}`);
  for (const c of codes) {
    const [zh, en] = ERRORS[c];
    assert.ok(/[\u4e00-\u9fff]/.test(zh), `${c}: the Chinese message has Chinese: ${zh}`);
    assert.ok(en && !/[\u4e00-\u9fff]/.test(en), `${c}: the English message is English: ${en}`);
  }
});

test('every code docs/protocol.md lists under "Error codes" has both messages', () => {
  const root = path.resolve(process.cwd(), process.cwd().endsWith('web') ? '..' : '.');
  const doc = readFileSync(path.join(root, 'docs/protocol.md'), 'utf8');
  const section = doc.slice(doc.indexOf('### Error codes'), doc.indexOf('### Example'));
  const listed = [...section.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]);
  assert.ok(listed.length > 30, `the section lists codes: ${listed.length}`);
  const missing = listed.filter((c) => !ERRORS[c]);
  assert.deepEqual(missing, []);
});
