// Doudizhu points (积分) for life in the browser against the real server: a
// registered player fills a table from the Doudizhu room with two computer
// players, plays a whole hand, and then finds that hand's score as their points,
// with the title it holds and one hand counted, on their profile page and on the
// room's leaderboard (积分榜). The computers keep no points and are not on it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, register, stamp, newPage, consoleErrors, shotPath } from './harness.mjs';

const web = useServerAndBrowser();

/** Plays the page's turns (the highest bid, else the hint or a pass) until the hand ends. */
async function playHand(p) {
  let turns = 0;
  for (;;) {
    if (await p.locator('#result-dialog').count()) return turns;
    const buttons = p.locator('#ddz-buttons button');
    if (!(await buttons.count())) {
      await p.waitForTimeout(50);
      continue;
    }
    const logRows = await p.locator('#moves .ddz-log-row').count();
    if (await p.locator('#bid-1').count()) {
      const bids = p.locator('#ddz-buttons button[id^="bid-"]:not([id="bid-pass"]):not([disabled])');
      if (await bids.count()) await bids.last().click();
      else await p.click('#bid-pass');
    } else if (!(await p.locator('#btn-hint').isEnabled())) {
      await p.click('#btn-pass-play');
    } else {
      await p.click('#btn-hint');
      await p.locator('#ddz-hand .card.selected').first().waitFor();
      await p.click('#btn-play');
    }
    turns++;
    await p
      .waitForFunction((n) => document.querySelectorAll('#moves .ddz-log-row').length > n || document.querySelector('#result-dialog'), logRows, { timeout: 10_000 })
      .catch(() => {});
    assert.ok(turns < 200, 'the hand ends');
  }
}

test('a hand with two computers counts as points and a title on the profile and the leaderboard', async () => {
  const name = `jifen${stamp}`;
  const A = await newPage(web.browser, 'A', web.base);
  await register(A, web.base, name);

  // Before any hand: the profile shows no points yet, the lowest title.
  await A.goto(`${web.base}/#/profile/${encodeURIComponent(name)}`);
  const box = A.locator('.points-box[data-points="doudizhu"]');
  await box.waitFor();
  assert.equal((await box.locator('.num').textContent()).trim(), '0');
  const lowest = (await box.locator('.title').textContent()).trim();
  assert.equal(lowest, '包身工');

  await A.goto(`${web.base}/#/lobby/doudizhu`);
  await A.locator('#leaderboard').waitFor();
  await A.click('#new-table');
  await A.locator('#new-ddz-dialog').waitFor();
  await A.locator('#new-clock').selectOption('match');
  await A.locator('#new-ddz-dialog .btn.primary').click();
  await A.waitForURL(/#\/table\//);
  await A.locator('#seat-0 .player-name').waitFor();
  await A.click('#addbot-1-strong');
  await A.locator('#removebot-1').waitFor();
  await A.click('#addbot-2-basic');
  await A.locator('#removebot-2').waitFor();
  await A.click('#btn-start');
  await A.locator('#ddz-hand .card').nth(16).waitFor();
  const turns = await playHand(A);
  assert.ok(turns > 0, 'the player acted');
  await A.locator('#result-dialog').waitFor();
  const seat = Number(await A.locator('.seat-card.mine').getAttribute('data-seat'));
  const score = Number((await A.locator(`#hand-score-${seat}`).textContent()).trim());
  assert.ok(Number.isInteger(score) && score !== 0, `a scored hand: ${score}`);
  await A.screenshot({ path: shotPath('doudizhu-points-result.png') });

  // The profile: the hand's score is the player's points, one hand, and its title.
  const api = await (await fetch(`${web.base}/api/user/${encodeURIComponent(name)}`)).json();
  assert.deepEqual(
    { points: api.doudizhu_points.points, hands: api.doudizhu_points.hands },
    { points: score, hands: 1 },
  );
  const title = api.doudizhu_points.title;
  // Every total under 10000 points holds the lowest title (see doudizhu/src/titles.rs).
  assert.equal(title, lowest);
  await A.goto(`${web.base}/#/profile/${encodeURIComponent(name)}`);
  await box.waitFor();
  await A.waitForFunction((s) => document.querySelector('.points-box[data-points="doudizhu"] .num')?.textContent.trim() === s, String(score));
  assert.equal((await box.locator('.title').textContent()).trim(), title);
  assert.match(await box.textContent(), /1\s*(局|hands)/);
  await A.screenshot({ path: shotPath('doudizhu-points-profile.png') });

  // The room's leaderboard: the player alone (the computers keep no points).
  await A.goto(`${web.base}/#/lobby/doudizhu`);
  const row = A.locator(`#leaderboard li[data-user="${name}"]`);
  await row.waitFor();
  assert.equal((await row.locator('.num').textContent()).trim(), String(score));
  assert.equal((await row.locator('.title').textContent()).trim(), title);
  assert.equal((await row.locator('.rank').textContent()).trim(), '1');
  assert.equal(await A.locator('#leaderboard li[data-user]').count(), 1, 'computers are not on the leaderboard');
  await A.locator('#leaderboard').screenshot({ path: shotPath('doudizhu-points-leaderboard.png') });

  // A room whose game keeps no points shows no leaderboard.
  await A.goto(`${web.base}/#/lobby/chess`);
  await A.locator('#lobby[data-game="chess"]').waitFor();
  assert.equal(await A.locator('#leaderboard').count(), 0);
  assert.deepEqual(consoleErrors, []);
});
