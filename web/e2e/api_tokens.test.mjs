// Personal API tokens on the profile page against the real server: a player
// makes a token with scopes, sees it once, uses it as a Lichess client would
// (Authorization: Bearer on /api/account), and revokes it from the page, after
// which the server no longer takes it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, register, stamp, newPage, shotPath } from './harness.mjs';

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
