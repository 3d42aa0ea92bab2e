// A whole Swiss event as a club runs it, in a real browser against the real
// server: the organiser (granted the role with `qiyuan admin grant`) creates the
// event on the organiser's page (a wrong field is explained in words first),
// adds a round, edits it, opens registration, names two arbiters (a chief and a table
// arbiter), sees who is here, pauses and resumes the schedule and starts the
// event; eight players register (four on the event page, four over the API),
// one of them never comes (lost by forfeit), a latecomer enters during round 1;
// the games are finished at the tables (resignations and an agreed draw after a
// move each); the chief arbiter corrects a round-1 result from the arbiter's
// panel and the standings follow; the organiser ends the event during round 2
// and the event page shows its end, the game's name, the clock, the schedule
// and the codes in words.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { useServerAndBrowser, findBinary, apiCall, sessionOf, register, stamp, newPage, clickMove, waitForMoveCount, consoleErrors, shotPath, PASSWORD } from './harness.mjs';

// Ten browser pages on one address (a club's room behind one router): more
// connections than the default cap of 50 an address.
process.env.QIYUAN_MAX_SOCKETS_PER_ADDRESS ??= '200';
const env = useServerAndBrowser();
const bin = findBinary();

/** A `datetime-local` value for ms since the epoch (this machine's time zone, as the browser's). */
function local(ms) {
  const d = new Date(ms - new Date(ms).getTimezoneOffset() * 60_000);
  return d.toISOString().slice(0, 16);
}

async function account(name) {
  const r = await fetch(`${env.base}/api/account/register`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ username: name, password: PASSWORD }) });
  assert.equal(r.status, 201);
  return (await r.json()).token;
}

function grant(name, role) {
  const r = spawnSync(bin, ['admin', 'grant', name, role, '--data', env.data], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
}

test('a club runs a whole event from the organiser page', { timeout: 180_000 }, async () => {
  const { base, browser } = env;
  const started = Date.now();
  const org = `org${stamp}`;
  const [arbA, arbB] = [`chief${stamp}`, `table${stamp}`];
  const players = Array.from({ length: 7 }, (_, i) => `p${i + 1}${stamp}`);
  const absent = `p8${stamp}`;
  const late = `late${stamp}`;

  // The arbiters and the absent player exist over the API; the others register in pages.
  await account(arbA);
  await account(arbB);
  const absentToken = await account(absent);
  grant(arbA, 'arbiter');
  grant(arbB, 'arbiter');
  const pages = {};
  const names = [org, arbA, ...players, late];
  // Three at a time: a loaded machine hashes passwords slowly.
  const batches = [names.slice(0, 3), names.slice(3, 6), names.slice(6)];
  for (const batch of batches)
  await Promise.all(
    batch.map(async (name) => {
      const page = await newPage(browser, name, base);
      if (name === arbA) {
        await page.goto(`${base}/#/login`);
        await page.fill('#username', name);
        await page.fill('#password', PASSWORD);
        await page.click('#submit');
        await page.locator('#lobby').waitFor();
      } else await register(page, base, name);
      pages[name] = page;
    }),
  );
  grant(org, 'organiser');
  const O = pages[org];
  O.on('dialog', (d) => void d.accept());

  // The organiser's page: a new event; wrong fields are explained in words.
  await O.goto(`${base}/#/events`);
  await O.locator('#new-event').click();
  await O.locator('#event-form').waitFor();
  await O.fill('#ev-name', '');
  await O.fill('#ev-rounds', '60');
  await O.fill('#ev-tiebreaks', 'bh, xyz');
  await O.click('#ev-submit');
  assert.match(await O.locator('#err-name').textContent(), /名称须为 1 到 100 个字/);
  assert.match(await O.locator('#err-rounds').textContent(), /轮数为 1 到 50/);
  assert.match(await O.locator('#err-tiebreaks').textContent(), /未知的破同分规则：xyz/);
  const name = `俱乐部周赛 ${stamp}`;
  await O.fill('#ev-name', name);
  await O.selectOption('#ev-game', 'chess');
  await O.selectOption('#ev-clock-kind', 'fischer');
  await O.fill('#ev-clock-base', '5');
  await O.fill('#ev-clock-increment', '3');
  await O.fill('#ev-rounds', '2');
  await O.fill('#ev-starts-at', local(Date.now() + 86_400_000));
  await O.selectOption('#ev-schedule-kind', 'after_previous');
  await O.fill('#ev-pause-secs', '0');
  // Registration opens tomorrow: the organiser opens it by hand.
  await O.fill('#ev-reg-opens', local(Date.now() + 3_600_000));
  await O.fill('#ev-late-entry', '2');
  await O.fill('#ev-forfeit-secs', '20');
  await O.fill('#ev-tiebreaks', 'bh, prog, de, win');
  await O.click('#ev-submit');
  await O.locator('#organiser-panel').waitFor().catch(async () => {
    throw new Error(`no event made: ${await O.locator('#ev-form-status').textContent()} ${await O.locator('.field-error').allTextContents()}`);
  });
  const id = O.url().split('/').pop();
  const orgToken = await sessionOf(base, org);
  const read = async () => (await apiCall(base, orgToken, 'GET', `/api/event/${id}`)).body;
  assert.equal((await read()).config.time.base, 300_000);

  // The event page in words.
  await O.locator('#organiser-panel').waitFor();
  assert.equal((await O.locator('#event-game').textContent()).trim(), '国际象棋');
  assert.match(await O.locator('#event-clock').textContent(), /5.*3.*不计等级分/);
  assert.match(await O.locator('#event-schedule').textContent(), /每轮在上一轮全部结束后立即开始.*迟到 20秒 未到场判负.*可报名至第2轮/);
  // A round more than the form said (three), registration opened now.
  await O.locator('.event-info', { hasText: '轮次 2' }).waitFor();
  await O.click('#org-add-round');
  await O.locator('.event-info', { hasText: '轮次 3' }).waitFor();
  const closed = await apiCall(base, absentToken, 'POST', `/api/event/${id}/register`, {});
  assert.equal(closed.body.error.code, 'registration_closed');
  await O.click('#org-open');
  await O.locator('#org-status', { hasText: '已完成' }).waitFor();

  // Two arbiters, each with a role.
  for (const [who, role] of [[arbA, 'chief'], [arbB, 'table']]) {
    await O.fill('#org-arbiter-user', who);
    await O.selectOption('#org-arbiter-role', role);
    await O.click('#org-arbiter-add');
    await O.locator('#org-arbiters', { hasText: who }).waitFor().catch(async () => {
      throw new Error(`${who} not named: ${await O.locator('#org-status').textContent()} / ${await O.locator('#org-arbiters').textContent()}`);
    });
  }

  // The organiser edits the settings: a new name.
  await O.click('#org-edit');
  await O.fill('#org-edit-slot #ev-name', `${name} 秋季`);
  await O.click('#org-edit-slot #ev-submit');
  await O.locator('#event-name', { hasText: '秋季' }).waitFor();
  assert.equal(await O.locator('#org-edit-slot #event-form').count(), 0, 'the form closes once saved');
  assert.equal((await read()).config.late_entry_until_round, 2, 'the other settings kept');

  // Four players register on the event page, three over the API, and the
  // one who will not come.
  await Promise.all(
    players.map(async (p, i) => {
      const page = pages[p];
      await page.goto(`${base}/#/event/${id}`);
      if (i < 4) {
        await page.locator('#event-register').click();
        await page.locator('#event-withdraw').waitFor();
      } else {
        const r = await apiCall(base, await sessionOf(base, p), 'POST', `/api/event/${id}/register`, {});
        assert.equal(r.status, 200, JSON.stringify(r.body));
      }
    }),
  );
  assert.equal((await apiCall(base, absentToken, 'POST', `/api/event/${id}/register`, {})).status, 200);
  await pages[arbA].goto(`${base}/#/event/${id}`);
  await pages[arbA].locator('#arbiter-panel').waitFor();

  // Who is here before round 1: the seven with a page open, not the eighth.
  await O.locator(`#org-presence li[data-user="${absent}"]`).waitFor();
  await O.click('#org-presence-refresh');
  await O.locator(`#org-presence li[data-user="${players[0]}"][data-online="true"]`).waitFor();
  assert.equal(await O.locator(`#org-presence li[data-user="${absent}"]`).getAttribute('data-online'), 'false');
  assert.match(await O.locator(`#org-presence li[data-user="${absent}"]`).textContent(), /不在/);
  await O.screenshot({ path: shotPath('event-club-organiser.png'), fullPage: true });

  // Paused, the start waits; started, the pause ends.
  await O.click('#org-pause');
  await O.locator('#org-paused').waitFor();
  await O.click('#org-resume');
  await O.locator('#org-pause').waitFor();
  await O.click('#org-start');

  /** Plays the round's boards through the pages: each side a move, then by
   * board: Black resigns, a draw agreed, White resigns; the absent player's
   * board is left to the forfeit. Returns the round as the server has it. */
  const waitRound = async (n) => {
    let round;
    for (let i = 0; i < 150; i++) {
      round = (await read()).rounds[n - 1];
      if (round && round.games.every((g) => g.black === null || g.table)) break;
      round = undefined;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.ok(round, `round ${n} paired`);
    return round;
  };
  const playRound = async (round) => {
    const boards = round.games.filter((g) => g.black !== null && g.white !== absent && g.black !== absent);
    // The absent player's opponent comes to the table and waits there.
    const waiting = round.games.find((g) => g.white === absent || g.black === absent);
    if (waiting) {
      const p = pages[waiting.white === absent ? waiting.black : waiting.white];
      await p.goto(`${base}/#/event/${id}`);
      await p.locator('#my-game').click();
      await p.locator('#table-page cg-board').waitFor();
    }
    await Promise.all(
      boards.map(async (g, i) => {
        const [W, B] = [pages[g.white], pages[g.black]];
        for (const p of [W, B]) {
          await p.goto(`${base}/#/event/${id}`);
          await p.locator('#my-game').click();
          await p.locator('#table-page cg-board').waitFor();
        }
        await clickMove(W, 'e2e4', 'chess');
        await waitForMoveCount(B, 1);
        await clickMove(B, 'e7e5', 'chess');
        await waitForMoveCount(W, 2);
        const how = i % 3;
        if (how === 1) {
          // Offered right after one's own move (Black's), as the seed has it.
          await B.locator('#btn-draw:not([disabled])').click();
          await W.locator('#accept-draw').click();
        } else {
          const loser = how === 0 ? B : W;
          await loser.locator('#btn-resign:not([disabled])').click();
          await loser.locator('#resign-dialog .btn.primary').click();
        }
        await W.locator('#result-dialog').waitFor();
      }),
    );
  };

  // Round 1. The latecomer enters while it is played (for round 2), and the
  // absent player's withdrawal comes in (he still loses round 1 by forfeit).
  const round1 = await waitRound(1);
  const L = pages[late];
  await L.goto(`${base}/#/event/${id}`);
  await L.locator('#event-register').click();
  await L.locator('#event-withdraw').waitFor();
  assert.equal(round1.games.find((g) => g.white === late || g.black === late), undefined, 'the latecomer is not in round 1');
  assert.equal((await apiCall(base, absentToken, 'POST', `/api/event/${id}/withdraw`, {})).status, 200);
  await playRound(round1);
  // The absent player loses by forfeit at the forfeit time: round 1 ends.
  const absentBoard = round1.games.find((g) => g.white === absent || g.black === absent);
  for (let i = 0; i < 200; i++) {
    const g = (await read()).rounds[0].games.find((x) => x.board === absentBoard.board);
    if (g.white_result !== null) {
      assert.deepEqual([g.white_result, g.black_result], g.white === absent ? ['-', '+'] : ['+', '-']);
      break;
    }
    assert.ok(i < 199, 'the absent player was forfeited');
    await new Promise((r) => setTimeout(r, 100));
  }

  // The chief arbiter corrects board 1 of round 1 (Black resigned: 1-0) to 0-1,
  // from the arbiter's panel; the standings follow.
  const corrected = round1.games.filter((g) => g.black !== null && g.white !== absent && g.black !== absent)[0];
  const A = pages[arbA];
  await A.goto(`${base}/#/event/${id}`);
  await A.locator(`.ev-standing[data-user="${corrected.white}"] .ev-score`, { hasText: /^1$/ }).waitFor();
  await A.selectOption('#arbiter-kind', 'adjudicate');
  await A.selectOption('#arbiter-player', corrected.white);
  await A.selectOption('#arbiter-round', '1');
  await A.selectOption('#arbiter-result', '0-1');
  await A.fill('#arbiter-reason', '记录员登记有误，黑方获胜');
  await A.click('#arbiter-submit');
  await A.locator('#arbiter-status', { hasText: '✓' }).waitFor();
  await O.locator(`.ev-standing[data-user="${corrected.white}"] .ev-score`, { hasText: /^0$/ }).waitFor();
  await O.locator(`.ev-standing[data-user="${corrected.black}"] .ev-score`, { hasText: /^1$/ }).waitFor();
  assert.match(await O.locator('#event-report').textContent(), /记录员登记有误/);

  // Round 2 with the latecomer; the organiser ends the event during it: no round 3.
  const r2 = await waitRound(2);
  assert.ok(r2.games.some((g) => g.white === late || g.black === late), 'the latecomer plays round 2');
  await O.click('#org-end');
  await O.locator('#org-status', { hasText: '已完成' }).waitFor();
  await playRound(r2);
  await O.locator('#event-status', { hasText: '已结束' }).waitFor({ timeout: 30_000 });
  assert.match(await O.locator('#event-end').textContent(), /所有轮次已下完/);
  const ev = await read();
  assert.equal(ev.rounds.length, 2);
  assert.equal(ev.config.rounds, 2);

  // The codes in words: each tiebreak, and the crosstable's cells.
  assert.match(await O.locator('#tiebreak-legend dd[data-code="BH"]').textContent(), /布赫霍尔茨分/);
  assert.match(await O.locator('#tiebreak-legend dd[data-code="PS"]').textContent(), /累进分/);
  assert.match(await O.locator('#event-standings th[title]').first().getAttribute('title'), /布赫霍尔茨/);
  assert.match(await O.locator('#crosstable-legend').textContent(), /“2w0” 指对第2号选手/);
  const titles = await O.locator('#event-crosstable .ev-cross').evaluateAll((els) => els.map((e) => e.title));
  assert.ok(titles.some((x) => /^对第\d+号，执(先|后)手，(胜|负|和)$/.test(x)), titles.join(' | '));
  assert.ok(titles.some((x) => /弃权/.test(x)), titles.join(' | '));
  await O.screenshot({ path: shotPath('event-club-finished.png'), fullPage: true });
  // The same page in English, for a visitor whose browser asks for it.
  const en = await (await browser.newContext({ locale: 'en-US' })).newPage();
  await en.goto(`${base}/#/event/${id}`);
  await en.locator('#tiebreak-legend dd[data-code="BH"]', { hasText: 'Buchholz: the sum of the opponents’ scores' }).waitFor();
  assert.match(await en.locator('#event-game').textContent(), /^Chess$/);
  assert.match(await en.locator('#event-schedule').textContent(), /Each round starts as soon as the previous one has ended.*20 s after the round starts loses by forfeit/);
  assert.match(await en.locator('#crosstable-legend').textContent(), /“2w0” is against start rank 2, with White/);
  assert.match(await en.locator('#event-end').textContent(), /all rounds were played/);
  const enTitles = await en.locator('#event-crosstable .ev-cross').evaluateAll((els) => els.map((e) => e.title));
  assert.ok(enTitles.some((x) => /^against no\. \d+, with (White|Black), (won|lost|drawn)$/.test(x)), enTitles.join(' | '));
  console.log(`the whole event took ${((Date.now() - started) / 1000).toFixed(1)} s`);
  assert.deepEqual(consoleErrors, []);
});
