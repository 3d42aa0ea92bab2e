// Table chat in a real browser against the real server: two players meet at a
// chess table and a third person watches. The players talk in the players'
// room (one line with `<script>`, shown as those characters); the spectator's
// line reaches the spectators' room only, and a player sees it only after
// turning on "show the spectators' chat"; a quick phrase (快捷语) is sent; a
// player switches the players' chat off (the other's line is refused) and on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, register, stamp, newPage } from './harness.mjs';

const web = useServerAndBrowser();
const names = { A: `ann${stamp}`, B: `ben${stamp}`, C: `cat${stamp}` };

/** The texts of the chat lines a page shows. */
async function lines(page) {
  return page.locator('#chat-lines .chat-line .chat-text').allTextContents();
}

async function say(page, text) {
  await page.fill('#chat-input', text);
  await page.press('#chat-input', 'Enter');
}

test('players and a spectator chat, each in their own room', async () => {
  const A = await newPage(web.browser, 'A', web.base);
  const B = await newPage(web.browser, 'B', web.base);
  const C = await newPage(web.browser, 'C', web.base);
  await register(A, web.base, names.A);
  await register(B, web.base, names.B);
  await register(C, web.base, names.C);

  await A.goto(`${web.base}/#/lobby/chess`);
  await A.locator('#lobby').waitFor();
  await A.click('#new-table');
  await A.waitForURL(/#\/table\//);
  const id = decodeURIComponent(A.url().split('#/table/')[1]);
  await A.locator('#seat-0').waitFor();
  if (await A.locator('#sit-0').count()) await A.click('#sit-0');
  await A.locator('#seat-0 .player-name').waitFor();
  await B.goto(`${web.base}/table/${encodeURIComponent(id)}`);
  await B.locator('#sit-1').click();
  await B.locator('#seat-1 .player-name').waitFor();
  await A.locator('#seat-1 .player-name').waitFor();
  await C.goto(`${web.base}/table/${encodeURIComponent(id)}`);
  await C.locator('#seat-1 .player-name').waitFor();

  // The spectator has no switch for the spectators' room; a player has.
  assert.equal(await C.locator('#chat-toggle').isVisible(), false);
  assert.equal(await A.locator('#chat-toggle').isVisible(), true);

  const script = '<script>window.pwned = 1</script> hi';
  await say(A, script);
  await B.locator('#chat-lines .chat-players .chat-text', { hasText: 'pwned' }).waitFor();
  assert.deepEqual(await lines(B), [script], 'the line is shown as the text it is');
  assert.equal(await B.evaluate(() => window.pwned), undefined, 'nothing in a line runs');
  assert.equal(await B.locator('#chat-lines script').count(), 0);

  await say(C, 'spectator here');
  await C.locator('#chat-lines .chat-text', { hasText: 'spectator here' }).waitFor();
  // B answers; once C's screen has B's line... it must not: C reads only the spectators' room.
  await say(B, 'thanks');
  await A.locator('#chat-lines .chat-text', { hasText: 'thanks' }).waitFor();
  assert.deepEqual(await lines(A), [script, 'thanks'], 'the players do not see the spectators by default');
  await C.waitForTimeout(500);
  assert.deepEqual(await lines(C), ['spectator here'], 'the spectator never reads the players');

  // A turns the spectators' room on: C's line appears, marked as a spectator's.
  await A.locator('#chat-show-spectators').check();
  await A.locator('#chat-lines .chat-spectators .chat-text', { hasText: 'spectator here' }).waitFor();
  assert.deepEqual(await lines(A), [script, 'spectator here', 'thanks']);

  // A quick phrase (快捷语), in the interface's language.
  await B.selectOption('#chat-quick', '2');
  await A.locator('#chat-lines .chat-text', { hasText: /好棋|Nice move/ }).waitFor();
  await C.waitForTimeout(300);
  assert.equal((await lines(C)).length, 1);

  // B switches the players' chat off: both players see who did; A's line is
  // refused and reaches nobody; the spectator's switch is hidden.
  assert.equal(await C.locator('#chat-players-toggle').isVisible(), false);
  await B.locator('#chat-players-off').check();
  await A.locator('#chat-closed', { hasText: names.B }).waitFor();
  await B.locator('#chat-closed', { hasText: names.B }).waitFor();
  const before = (await lines(B)).length;
  await say(A, 'can you hear me');
  await A.locator('.toast', { hasText: /棋手聊天已关闭|players’ chat at this table/ }).waitFor();
  await B.waitForTimeout(500);
  assert.equal((await lines(B)).length, before, 'a line of a closed room is delivered to nobody');
  // B switches it back on: the room opens again.
  await B.locator('#chat-players-off').uncheck();
  await A.locator('#chat-closed').waitFor({ state: 'hidden' });
  await say(A, 'now I can');
  await B.locator('#chat-lines .chat-text', { hasText: 'now I can' }).waitFor();
});
