// People in the hall, in a real browser against the real server: two people
// befriend each other from their profiles; one opens a table and invites the
// other from the friends panel; the invitation reaches the other's page at
// once (no poll), who accepts it and is seated; they chat at the table (a line
// written with `<script>` is shown as those characters) while a third person
// spectates, is named in the table's list of spectators, and chats in the
// spectators' room, which the players read only once they choose to (markup in
// a line stays text). Last, an invite link to the table, now full, says its
// seat is taken. A second test makes an invite-only table: listed nowhere, its
// link seats the first to open it and then says who did; and a challenge sent
// from a profile is declined with a reason the challenger is shown.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, register, stamp, newPage, consoleErrors, shotPath } from './harness.mjs';

const web = useServerAndBrowser();
const names = { A: `fa${stamp}`, B: `fb${stamp}`, C: `fc${stamp}` };

async function lines(page) {
  return page.locator('#chat-lines .chat-line .chat-text').allTextContents();
}

async function say(page, text) {
  await page.fill('#chat-input', text);
  await page.press('#chat-input', 'Enter');
}

/** `page` follows `name` from their profile. */
async function follow(page, name) {
  await page.goto(`${web.base}/#/profile/${encodeURIComponent(name)}`);
  await page.locator('#follow').click();
  await page.locator('#unfollow').waitFor();
}

test('two friends meet at a table through an invitation, and a spectator chats apart', { timeout: 90_000 }, async () => {
  const A = await newPage(web.browser, 'A', web.base);
  const B = await newPage(web.browser, 'B', web.base);
  const C = await newPage(web.browser, 'C', web.base);
  await register(A, web.base, names.A);
  await register(B, web.base, names.B);
  await register(C, web.base, names.C);

  // Friends: each follows the other.
  await follow(A, names.B);
  await follow(B, names.A);
  await B.locator('#relation-friend').waitFor();

  // A opens a table and sits; B waits on the lobby page.
  await B.goto(`${web.base}/#/lobby/chess`);
  await B.locator('#lobby').waitFor();
  await A.goto(`${web.base}/#/lobby/chess`);
  await A.locator('#lobby').waitFor();
  await A.click('#new-table');
  await A.waitForURL(/#\/table\//);
  const id = decodeURIComponent(A.url().split('#/table/')[1]);
  await A.locator('#seat-0').waitFor();
  if (await A.locator('#sit-0').count()) await A.click('#sit-0');
  await A.locator('#seat-0 .player-name').waitFor();

  // From the friends panel, A invites B to this table.
  await A.click('#friends-button');
  const invite = A.locator(`#friends-panel .friend-invite[data-user="${names.B}"]`);
  await invite.waitFor();
  await invite.click();
  // B's page is told at once, and accepts: B is seated at A's table.
  const offer = B.locator(`#invite-slot .invite-in[data-from="${names.A}"]`);
  await offer.waitFor({ timeout: 2_000 });
  await B.screenshot({ path: shotPath('friends-invitation.png') });
  await offer.locator('button.primary').click();
  await B.waitForFunction((t) => location.hash === `#/table/${encodeURIComponent(t)}`, id);
  await B.locator('#seat-1 .player-name', { hasText: names.B }).waitFor();
  await A.locator('#seat-1 .player-name', { hasText: names.B }).waitFor();

  // The players talk; a line written with <script> is shown as text.
  const script = '<script>window.pwned = 1</script> 你好';
  await say(A, script);
  await B.locator('#chat-lines .chat-text', { hasText: 'pwned' }).waitFor();
  assert.deepEqual(await lines(B), [script]);
  assert.equal(await B.evaluate(() => window.pwned), undefined, 'nothing in a line runs');
  assert.equal(await B.locator('#chat-lines script').count(), 0);
  await say(B, 'good luck');
  await A.locator('#chat-lines .chat-text', { hasText: 'good luck' }).waitFor();

  // C spectates: the table names C among its spectators.
  await C.goto(`${web.base}/#/table/${encodeURIComponent(id)}`);
  await C.locator('#seat-1 .player-name').waitFor();
  await A.locator(`#spectator-list .spectator[data-user="${names.C}"]`).waitFor();
  assert.equal(await A.locator('#spectator-list').getAttribute('data-count'), '1');
  // C talks in the spectators' room: the players do not read it unless they choose.
  await say(C, 'nice opening <b>bold</b>');
  await C.locator('#chat-lines .chat-text', { hasText: 'nice opening' }).waitFor();
  await A.waitForTimeout(500);
  assert.deepEqual(await lines(A), [script, 'good luck'], 'the players do not see the spectators by default');
  assert.deepEqual(await lines(C), ['nice opening <b>bold</b>'], 'the spectator never reads the players');
  await B.locator('#chat-show-spectators').check();
  await B.locator('#chat-lines .chat-spectators .chat-text', { hasText: 'nice opening' }).waitFor();
  assert.equal(await B.locator('#chat-lines b').count(), 0, 'markup in a line is text');
  await A.screenshot({ path: shotPath('friends-table.png'), fullPage: true });

  // The table is full: C, opening A's invite link, is told the seat is taken.
  const link = await A.evaluate(async (t) => {
    const r = await fetch(`/api/table/${encodeURIComponent(t)}/invite-link`, { method: 'POST' });
    return r.json();
  }, id);
  assert.ok(link.url.startsWith('/#/join/'), JSON.stringify(link));
  await C.goto(`${web.base}${link.url}`);
  await C.locator('#join-page #join-error').waitFor();
  assert.equal(await C.locator('#seat-1').count(), 0);
  // (The refusal of the full table's seat is the one error expected: HTTP 409.)
  const unexpected = consoleErrors.filter((e) => !e.startsWith('[C]') || !(e.includes('/api/invite/link/') || e.includes('status of 409')));
  assert.deepEqual(unexpected, []);
});

test('an invite-only table: listed nowhere, closed to others, and its link seats whoever opens it', { timeout: 60_000 }, async () => {
  const D = await newPage(web.browser, 'D', web.base);
  const E = await newPage(web.browser, 'E', web.base);
  const F = await newPage(web.browser, 'F', web.base);
  const [d, e, f] = [`fd${stamp}`, `fe${stamp}`, `ff${stamp}`];
  await register(D, web.base, d);
  await register(E, web.base, e);
  await register(F, web.base, f);
  await D.goto(`${web.base}/#/lobby/chess`);
  await D.click('#new-private-table');
  await D.waitForURL(/#\/table\//);
  const id = decodeURIComponent(D.url().split('#/table/')[1]);
  await D.locator('#seat-0 .player-name', { hasText: d }).waitFor();
  // Not in the lobby others see; a stranger who has its address is refused.
  await F.goto(`${web.base}/#/lobby/chess`);
  await F.locator('#lobby').waitFor();
  await F.waitForTimeout(300);
  assert.equal(await F.locator(`#lobby [data-table="${id}"]`).count(), 0);
  assert.equal((await F.locator('#lobby').textContent()).includes(id), false);

  // D makes the link; E opens it and is seated.
  await D.click('#invite-link');
  const url = await D.locator('#invite-url').inputValue();
  assert.match(url, /\/#\/join\/[A-Za-z0-9]{24}$/);
  await D.locator('#invite-link-dialog .modal-buttons .btn').last().click();
  await E.goto(url);
  await E.waitForFunction((t) => location.hash === `#/table/${encodeURIComponent(t)}`, id);
  await E.locator('#seat-1 .player-name', { hasText: e }).waitFor();
  await D.locator('#seat-1 .player-name', { hasText: e }).waitFor();
  // F opens the same link: it says who took the seat.
  await F.goto(url);
  await F.locator('#join-taken', { hasText: e }).waitFor();
  await F.screenshot({ path: shotPath('friends-link-taken.png') });

  // F challenges D from D's profile (game, clock, colour, rated or casual);
  // D, at the table, declines with a reason, which F's page shows.
  await F.goto(`${web.base}/#/profile/${encodeURIComponent(d)}`);
  await F.click('#challenge-button');
  await F.selectOption('#challenge-clock', '1');
  await F.selectOption('#challenge-colour', 'black');
  await F.click('#challenge-dialog .modal-buttons .btn.primary');
  const incoming = D.locator('#challenge-slot .challenge-in', { hasText: f });
  await incoming.waitFor({ timeout: 2_000 });
  await incoming.locator('select').selectOption('tooFast');
  await incoming.locator('button', { hasText: '拒绝' }).click();
  await F.locator('.toast', { hasText: '时限太快' }).waitFor({ timeout: 2_000 });
});
