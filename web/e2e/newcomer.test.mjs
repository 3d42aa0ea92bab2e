// What a newcomer meets first (issue 46): the hall before logging in (games being
// played, watchable; events; the leaderboard; the settings), registration with a
// two-character Chinese name under rules shown before typing and checked the
// same in the page and the server, and pages without raw codes in either
// language: lobby, table, result, profile, events, a hot-seat game's second seat.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, newPage, register, consoleErrors, shotPath, stamp, PASSWORD, clickMove, waitForMoveCount } from './harness.mjs';
import { installSocket, req, send } from './finish.mjs';

const env = useServerAndBrowser();

/** Codes the server sends that a person must never read: end reasons, game and preset keys, seat ids. */
const RAW_ZH = /\b(hand_emptied|checkmate|resignation|timeout|aborted|agreement|stalemate|chess|xiangqi|doudizhu|quick|match|bullet|blitz|rapid|classical|correspondence|byo_yomi\w*|casual|rated)\b|hotseat:|bot:|speed_|r_[a-z]/;
/** In English some of those are words; codes with underscores or colons never are. */
const RAW_EN = /\b[a-z]+_[a-z_]+\b|hotseat:|bot:|\b(xiangqi|doudizhu)\b/;

/** Switches the language in the settings dialog (opened over any dialog the page shows). */
async function setLanguage(page, lang) {
  await page.evaluate(() => document.getElementById('open-settings').click());
  await page.selectOption('#settings-dialog select[name="lang"]', lang);
  await page.evaluate(() => document.querySelector('#settings-dialog .modal-buttons .btn').click());
}

/** The visible text of the page (main and header), dialogs included; but the API
 * tokens' panel, which names Lichess's OAuth scopes (`board:play`) for developers
 * as their tools spell them. */
const pageText = (page) =>
  page.evaluate(() => {
    const copy = document.body.cloneNode(true);
    copy.querySelector('#tokens')?.remove();
    const box = document.createElement('div');
    box.style.cssText = 'position:absolute;left:-99999px;top:0';
    box.append(...copy.childNodes);
    document.body.append(box);
    const text = box.innerText;
    box.remove();
    return text;
  });

async function noRawCodes(page, where) {
  const zh = await pageText(page);
  assert.doesNotMatch(zh, RAW_ZH, `${where} (中文): ${zh.match(RAW_ZH)?.[0]} in ${zh.slice(0, 600)}`);
  await setLanguage(page, 'en');
  await page.waitForTimeout(200);
  const en = await pageText(page);
  assert.doesNotMatch(en, RAW_EN, `${where} (English): ${en.match(RAW_EN)?.[0]} in ${en.slice(0, 600)}`);
  await setLanguage(page, 'zh-CN');
}

test('before logging in, the landing page shows the hall: games being played to watch, events, the leaderboard, the settings', { timeout: 90_000 }, async () => {
  const { base, browser } = env;
  // Two people are playing xiangqi.
  const player = await newPage(browser, 'player', base);
  await register(player, base, `lp${stamp}`);
  await installSocket(player);
  const other = await newPage(browser, 'other', base);
  await register(other, base, `lq${stamp}`);
  await installSocket(other);
  const { table } = await req(player, 'create', { game: 'xiangqi', seat: 0 });
  await send(other, 'watch', { table });
  await req(other, 'sit', { table, seat: 1 });
  await req(player, 'ready', { table });
  await req(other, 'ready', { table });
  await req(player, 'move', { table, action: 'h2e2' });

  const p = await newPage(browser, 'visitor', base);
  await p.goto(`${base}/`);
  await p.locator('#landing').waitFor();
  const row = p.locator(`#landing-live li[data-table="${table}"]`);
  await row.waitFor({ timeout: 15_000 });
  assert.match(await row.textContent(), /中国象棋/);
  assert.match(await row.textContent(), new RegExp(`lp${stamp}`));
  await p.locator('#landing-events').waitFor();
  await p.locator('#landing-leaderboards .landing-board[data-game="doudizhu"]').waitFor();
  assert.match(await p.locator('#landing-leaderboards').textContent(), /斗地主 · 积分榜/);
  await p.screenshot({ path: shotPath('landing.png') });
  await noRawCodes(p, 'landing');

  // The settings open before logging in.
  await p.click('#open-settings');
  await p.locator('#settings-dialog').waitFor();
  await p.click('#settings-dialog .modal-buttons .btn');

  // The game is watchable without an account: its board and moves.
  await row.locator('.watch-table').click();
  await p.locator('#table-page .board-col cg-board').waitFor();
  await p.locator('#table-page[data-status="playing"]').waitFor();
  await p.locator('#moves .move').first().waitFor();
  // The lobby too, with a way in instead of the playing buttons.
  await p.goto(`${base}/#/lobby/chess`);
  await p.locator('#lobby').waitFor();
  await p.locator('#lobby-login').waitFor();
  assert.equal(await p.locator('#new-table').count(), 0);
  await req(player, 'resign', { table });
  assert.deepEqual(consoleErrors, []);
});

test('registering 小王: the rules are in view before typing, the page and the server judge names and passwords alike', { timeout: 90_000 }, async () => {
  const { base, browser } = env;
  const p = await newPage(browser, 'register', base);
  await p.goto(`${base}/#/register`);
  await p.locator('#register-form').waitFor();
  // Before anything is typed.
  assert.match(await p.locator('#name-rule').textContent(), /3–20 个字宽（汉字算 2/);
  assert.match(await p.locator('#password-rule').textContent(), /至少 8 个字符/);
  await p.locator('#password2').waitFor();

  // The page's verdict on a name (its own message, nothing sent) against the server's.
  const pageRefuses = async (name) => {
    await p.fill('#username', name);
    await p.fill('#password', PASSWORD);
    await p.fill('#password2', PASSWORD);
    await p.evaluate(() => document.querySelector('#form-error').replaceChildren());
    await p.locator('#username').focus();
    await p.locator('#username').blur();
    return (await p.locator('#form-error').textContent()) !== '';
  };
  const serverRefuses = async (name) => {
    const r = await fetch(`${base}/api/account/register`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ username: name, password: PASSWORD }) });
    if (r.status === 201) return false;
    const body = await r.json();
    assert.equal(body.error.code, 'bad_username', `${name}: ${JSON.stringify(body)}`);
    return true;
  };
  const s = stamp.replace(/\d/g, '');
  for (const name of ['王', 'ab', `王${s.slice(0, 1) || 'a'}`, `ゆき${s}`, `李${s}娜`, '王王王王王王王王王王王', `${'w'.repeat(20)}`, `${'w'.repeat(21)}`, `1ab${s}`, `a b${s}`, `guest${s}`, `名字${s}_-`]) {
    assert.equal(await pageRefuses(name), await serverRefuses(name), `page and server agree on ${JSON.stringify(name)}`);
  }
  // A password of 7 characters: the page says so and sends nothing; the server refuses it too.
  await p.fill('#username', `pw${stamp}`);
  await p.fill('#password', '1234567');
  await p.fill('#password2', '1234567');
  await p.click('#submit');
  assert.match(await p.locator('#form-error').textContent(), /密码至少 8 个字符/);
  const seven = await fetch(`${base}/api/account/register`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ username: `pw${stamp}`, password: '1234567' }) });
  assert.equal(seven.status, 400);
  assert.equal((await seven.json()).error.code, 'bad_password');
  // The confirmation must match.
  await p.fill('#password', PASSWORD);
  await p.fill('#password2', `${PASSWORD}x`);
  await p.click('#submit');
  assert.match(await p.locator('#form-error').textContent(), /两次输入的密码不一致/);
  assert.equal(await p.locator('#me').count(), 0);

  // 小王: two Chinese characters, the commonest shape of a Chinese name.
  await p.fill('#username', '小王');
  await p.fill('#password', PASSWORD);
  await p.fill('#password2', PASSWORD);
  await p.click('#submit');
  await p.locator('#lobby').waitFor();
  assert.equal((await p.locator('#me').textContent()).trim(), '小王');
  await p.screenshot({ path: shotPath('registered-xiaowang.png') });
  assert.deepEqual(consoleErrors, []);
});

test('no raw codes on the walkthrough pages: lobby, table, result, profile, events, a hot-seat game', { timeout: 120_000 }, async () => {
  const { base, browser } = env;
  const p = await newPage(browser, 'words', base);
  const name = `wd${stamp}`;
  await register(p, base, name);
  await p.goto(`${base}/#/lobby/chess`);
  await p.locator('#my-rating').waitFor();
  // The rating with its pool's name: chess's quick pairing plays 快棋 (rapid).
  assert.match(await p.locator('#my-rating').textContent(), /快棋 1500\?/);
  await noRawCodes(p, 'lobby');

  // A rated game against the computer, resigned: the table and its result.
  await installSocket(p);
  const { table } = await req(p, 'play_computer', { game: 'chess', level: '1', colour: 0 });
  await p.goto(`${base}/#/table/${table}`);
  await p.locator('#table-page[data-status="playing"]').waitFor();
  // The seat's rating is the one of the table's pool, named: 快棋 for the 快棋 clock.
  await p.waitForFunction(() => /快棋 1500\?/.test(document.querySelector('#seat-0 .sub')?.textContent ?? ''), null, { timeout: 10_000 });
  await req(p, 'resign', { table });
  await p.locator('#result-dialog').waitFor();
  await noRawCodes(p, 'table and result');
  // The PGN's time control in the standard's form, QQ's settings in their own tag.
  const pgn = await (await fetch(`${base}/game/${table}.pgn`)).text();
  assert.match(pgn, /\[TimeControl "\?"\]/);
  assert.match(pgn, /\[TimeControlQQ "600\/60\/30"\]/);

  await p.goto(`${base}/#/profile/${name}`);
  await p.locator('#history').waitFor();
  await noRawCodes(p, 'profile');
  await p.goto(`${base}/#/events`);
  await p.locator('#events-list').waitFor();
  await noRawCodes(p, 'events');

  // Hot-seat chess: the second seat is a player, not `hotseat:2:…`, and links nowhere.
  await p.goto(`${base}/#/offline/chess`);
  await p.click('#offline-hotseat');
  await p.waitForURL(/#\/table\//);
  await p.locator('#table-page .board-col cg-board').waitFor();
  for (const [i, m] of ['f2f3', 'e7e5', 'g2g4', 'd8h4'].entries()) {
    await clickMove(p, m, 'chess');
    await waitForMoveCount(p, i + 1);
  }
  await p.locator('#result-dialog').waitFor();
  const seats = await p.locator('#seats').textContent();
  assert.match(seats, /2号玩家/);
  assert.equal(await p.locator('#seats a[href*="hotseat"]').count(), 0);
  assert.equal(await p.locator('#seats a.player-name').count(), 1, 'only the owner links to a profile');
  await noRawCodes(p, 'hot-seat table');
  await p.screenshot({ path: shotPath('hotseat-names.png') });
  assert.deepEqual(consoleErrors, []);
});
