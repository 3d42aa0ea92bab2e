// Personal API tokens on the profile page against the real server: a player
// makes a token with scopes, sees it once, uses it as a Lichess client would
// (Authorization: Bearer on /api/account), and revokes it from the page, after
// which the server no longer takes it. And one hall: a person challenges a bot
// account from its profile page, the bot (this test, speaking the Bot API as
// lichess-bot would) accepts from its event stream and answers a move, and the
// person plays at an ordinary table.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, register, stamp, newPage, shotPath, clickMove, waitForMoveCount, moveTexts } from './harness.mjs';

const web = useServerAndBrowser();

test('a token is made on the profile page, works as a bearer token, and is revoked there', async () => {
  const name = `tok${stamp}`;
  const A = await newPage(web.browser, 'A', web.base);
  await register(A, web.base, name);
  await A.goto(`${web.base}/#/profile/${encodeURIComponent(name)}`);
  await A.locator('#tokens').waitFor();
  await A.fill('#token-description', 'my board');
  await A.click('#token-create');
  const value = (await A.locator('#token-value').textContent()).trim();
  assert.match(value, /^lip_[0-9a-f]{64}$/);
  const row = A.locator('#token-list .token');
  await row.first().waitFor();
  assert.equal(await row.count(), 1);
  assert.match(await row.first().textContent(), /my board · board:play,challenge:read,challenge:write,preference:read/);
  await A.screenshot({ path: shotPath('api-tokens.png') });

  const account = await fetch(`${web.base}/api/account`, { headers: { Authorization: `Bearer ${value}` } });
  assert.equal(account.status, 200);
  assert.equal((await account.json()).username, name);

  await row.first().locator('button').click();
  await A.locator('#token-list .hint').waitFor();
  assert.equal(await A.locator('#token-list .token').count(), 0);
  const after = await fetch(`${web.base}/api/account`, { headers: { Authorization: `Bearer ${value}` } });
  assert.equal(after.status, 401);
  assert.deepEqual(await after.json(), { error: 'No such token' });

  // Another player's profile has no tokens panel.
  await A.goto(`${web.base}/#/profile/nobody${stamp}`);
  await A.waitForTimeout(300);
  assert.equal(await A.locator('#tokens').count(), 0);
});

/** A Lichess-style NDJSON stream read line by line (keep-alives skipped). */
async function* ndjson(res) {
  const reader = res.body.getReader();
  const dec = new TextDecoder();
  let buf = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buf += dec.decode(value, { stream: true });
    let i;
    while ((i = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      if (line) yield JSON.parse(line);
    }
  }
}

async function next(stream, pick) {
  for (;;) {
    const { value, done } = await stream.next();
    assert.ok(!done, 'the stream ended early');
    if (pick(value)) return value;
  }
}

test('a person challenges a bot account from its profile and plays it at a table', async () => {
  const botName = `robo${stamp}`;
  const reg = await fetch(`${web.base}/api/account/register`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ username: botName, password: 'secret-pw-bot' }) });
  assert.equal(reg.status, 201);
  const session = (await reg.json()).token;
  const made = await fetch(`${web.base}/api/token`, { method: 'POST', headers: { Authorization: `Bearer ${session}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ description: 'bot', scopes: 'bot:play,challenge:read,challenge:write' }) });
  const token = (await made.json()).access_token;
  const auth = { Authorization: `Bearer ${token}` };
  const up = await fetch(`${web.base}/api/bot/account/upgrade`, { method: 'POST', headers: auth });
  assert.equal(up.status, 200);
  const events = ndjson(await fetch(`${web.base}/api/stream/event`, { headers: auth }));

  const name = `human${stamp}`;
  const P = await newPage(web.browser, 'P', web.base);
  await register(P, web.base, name);
  await P.goto(`${web.base}/#/profile/${encodeURIComponent(botName)}`);
  await P.locator('#challenge-bot').waitFor();
  assert.equal(await P.locator('#tokens').count(), 0, 'no tokens panel on another profile');
  await P.click('#challenge-send');

  const challenge = await next(events, (e) => e.type === 'challenge');
  assert.equal(challenge.challenge.challenger.name, name);
  assert.equal(challenge.challenge.rated, false);
  const ok = await fetch(`${web.base}/api/challenge/${challenge.challenge.id}/accept`, { method: 'POST', headers: auth });
  assert.equal(ok.status, 200);
  const start = await next(events, (e) => e.type === 'gameStart');
  const id = start.game.gameId;
  assert.equal(start.game.color, 'black');
  const game = ndjson(await fetch(`${web.base}/api/bot/game/stream/${id}`, { headers: auth }));
  const full = await next(game, (e) => e.type === 'gameFull');
  assert.equal(full.white.name, name);
  assert.equal(full.black.title, 'BOT');

  // The person lands at the game's table and plays there.
  await P.waitForURL(new RegExp(`#/table/${id}`));
  await P.locator('#table-page cg-board').waitFor();
  await clickMove(P, 'e2e4', 'chess');
  await next(game, (e) => e.type === 'gameState' && e.moves === 'e2e4');
  const mv = await fetch(`${web.base}/api/bot/game/${id}/move/e7e5`, { method: 'POST', headers: auth });
  assert.equal(mv.status, 200);
  await waitForMoveCount(P, 2);
  assert.deepEqual(await moveTexts(P), ['e4', 'e5']);
  await P.screenshot({ path: shotPath('api-bot-table.png') });
  await events.return();
  await game.return();
});

test('a bot account challenges a person, who accepts in the page header and plays at the table', async () => {
  const botName = `chal${stamp}`;
  const reg = await fetch(`${web.base}/api/account/register`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ username: botName, password: 'secret-pw-bot' }) });
  assert.equal(reg.status, 201);
  const session = (await reg.json()).token;
  const made = await fetch(`${web.base}/api/token`, { method: 'POST', headers: { Authorization: `Bearer ${session}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ description: 'bot', scopes: 'bot:play,challenge:read,challenge:write' }) });
  const auth = { Authorization: `Bearer ${(await made.json()).access_token}` };
  assert.equal((await fetch(`${web.base}/api/bot/account/upgrade`, { method: 'POST', headers: auth })).status, 200);
  const events = ndjson(await fetch(`${web.base}/api/stream/event`, { headers: auth }));

  const name = `target${stamp}`;
  const P = await newPage(web.browser, 'T', web.base);
  await register(P, web.base, name);
  const sent = await fetch(`${web.base}/api/challenge/${name}`, {
    method: 'POST',
    headers: { ...auth, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: 'rated=false&clock.limit=300&clock.increment=3&color=black',
  });
  assert.equal(sent.status, 200, await sent.clone().text());
  const id = (await sent.json()).id;

  // The challenge shows in the page's header, in the interface language.
  const accept = P.locator(`#challenge-accept-${id}`);
  await accept.waitFor({ timeout: 10_000 });
  assert.match(await P.locator(`#challenge-${id}`).textContent(), new RegExp(`BOT ${botName}`));
  await P.screenshot({ path: shotPath('api-challenge-in.png') });
  await accept.click();
  await P.waitForURL(/#\/table\//);
  const table = decodeURIComponent(P.url().split('#/table/')[1]);
  await P.locator('#table-page cg-board').waitFor();
  const start = await next(events, (e) => e.type === 'gameStart');
  assert.equal(start.game.gameId, table);
  assert.equal(start.game.color, 'black');
  // The person plays white at the ordinary table; the bot answers by the API.
  await clickMove(P, 'e2e4', 'chess');
  const game = ndjson(await fetch(`${web.base}/api/bot/game/stream/${table}`, { headers: auth }));
  await next(game, (e) => (e.type === 'gameFull' ? e.state.moves : e.moves) === 'e2e4');
  assert.equal((await fetch(`${web.base}/api/bot/game/${table}/move/c7c5`, { method: 'POST', headers: auth })).status, 200);
  await waitForMoveCount(P, 2);
  assert.deepEqual(await moveTexts(P), ['e4', 'c5']);
  // Answered: the header shows it no more.
  await P.waitForFunction((sel) => !document.querySelector(sel), `#challenge-${id}`, { timeout: 10_000 });
  await events.return();
  await game.return();
});
