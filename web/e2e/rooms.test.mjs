// The chat beyond the tables in a real browser against the real server: two
// people talk in the chess room on its lobby page (a line with `<script>` is
// shown as those characters, and one in the xiangqi room never reaches them),
// then one opens the other's profile and sends a private message, which opens
// a conversation on the other's page; a profile's report button files a
// report.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, register, stamp, newPage } from './harness.mjs';

const web = useServerAndBrowser();
const names = { A: `amy${stamp}`, B: `bo${stamp}`, C: `cy${stamp}` };

async function lines(page, list) {
  return page.locator(`${list} .chat-line .chat-text`).allTextContents();
}

async function say(page, input, text) {
  await page.fill(input, text);
  await page.press(input, 'Enter');
}

test('a game room, a private message and a report from a profile', async () => {
  const A = await newPage(web.browser, 'A', web.base);
  const B = await newPage(web.browser, 'B', web.base);
  const C = await newPage(web.browser, 'C', web.base);
  await register(A, web.base, names.A);
  await register(B, web.base, names.B);
  await register(C, web.base, names.C);
  await A.goto(`${web.base}/#/lobby/chess`);
  await B.goto(`${web.base}/#/lobby/chess`);
  await C.goto(`${web.base}/#/lobby/xiangqi`);
  for (const p of [A, B, C]) await p.locator('#room-chat').waitFor();

  const script = '<script>window.pwned = 1</script> anyone?';
  await say(A, '#room-input', script);
  await B.locator('#room-lines .chat-text', { hasText: 'pwned' }).waitFor();
  assert.deepEqual(await lines(B, '#room-lines'), [script], 'the line is shown as the text it is');
  assert.equal(await B.evaluate(() => window.pwned), undefined, 'nothing in a line runs');
  assert.equal(await B.locator('#room-lines script').count(), 0);
  await say(C, '#room-input', '下棋吗');
  await C.locator('#room-lines .chat-text', { hasText: '下棋吗' }).waitFor();
  await B.waitForTimeout(300);
  assert.deepEqual(await lines(B, '#room-lines'), [script], 'another game’s room does not reach this one');

  // B writes to A from A's profile: A's page opens the conversation.
  await B.goto(`${web.base}/#/profile/${names.A}`);
  await B.locator('#message-person').click();
  await B.locator('#pm-box').waitFor();
  await say(B, '#pm-input', 'gg <b>wp</b>');
  await A.locator('#pm-box .chat-text', { hasText: 'gg' }).waitFor();
  assert.deepEqual(await lines(A, '#pm-lines'), ['gg <b>wp</b>']);
  assert.equal(await A.locator('#pm-box').getAttribute('data-with'), names.B);
  await say(A, '#pm-input', 'thanks');
  await B.locator('#pm-lines .chat-text', { hasText: 'thanks' }).waitFor();
  assert.equal(await C.locator('#pm-box').count(), 0, 'nobody else reads it');

  // B reports A from the profile.
  B.once('dialog', (d) => d.accept('spam'));
  await B.locator('#report-person').click();
  await B.locator('.toast', { hasText: /已举报|Reported/ }).waitFor();
});
