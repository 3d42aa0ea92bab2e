// The replay viewer (#14 point 4): a finished game of each of the four games opens
// from its shareable link in a fresh browser context (nobody logged in), and from
// the profile's game list; keys and buttons step through it, the board flips, the
// move list shows each notation the game has, the record downloads; Doudizhu shows
// every hand with 10 / 小王 / 大王 and 不叫 vs 不出; computer players are named
// 电脑（…） and never by their `bot:` ids. Also: board coordinates are readable in
// every board theme, and a 9×9 Go board shows five star points.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, newPage, register, consoleErrors, shotPath, stamp } from './harness.mjs';
import { finishedGame, installSocket, req } from './finish.mjs';

const env = useServerAndBrowser();

const plyText = (page) => page.locator('#replay-ply').textContent();
const activePly = (page) => page.locator('#replay-moves .move.active').getAttribute('data-ply');

/** Relative luminance contrast of two CSS colours (WCAG). */
function contrast(a, b) {
  const lum = (c) => {
    const [r, g, bl] = c.match(/\d+(\.\d+)?/g).slice(0, 3).map(Number).map((v) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
}

test('a finished game of each game replays from a link, the profile, keys and buttons', { timeout: 150_000 }, async () => {
  const { base, browser } = env;
  const owner = await newPage(browser, 'owner', base);
  const name = `rp${stamp}`;
  await register(owner, base, name);

  const chess = await finishedGame(owner, { game: 'chess', level: '1', moves: ['e2e4', 'g1f3', 'f1c4'] });
  const xiangqi = await finishedGame(owner, { game: 'xiangqi', level: '1', moves: ['h2e2', 'b0c2'] });
  const go = await finishedGame(owner, { game: 'go', level: '1', moves: ['C3', 'G7'], options: { size: 9 } });
  const ddz = await finishedGame(owner, { game: 'doudizhu', level: 'basic', turns: 4, strategy: 'doudizhu' });

  // A fresh context, logged in as nobody, opens the shareable path of the chess game.
  const guest = await newPage(browser, 'stranger', base);
  await guest.goto(`${base}/replay/${chess}`);
  await guest.locator('#replay[data-game="chess"]').waitFor();
  const plies = await guest.locator('#replay-moves .move').count();
  assert.ok(plies >= 5, `three moves each and the computer's answers: ${plies}`);
  assert.equal((await plyText(guest)).trim(), `${plies} / ${plies}`, 'it opens at the end');
  const san = await guest.locator('#replay-moves .move').allTextContents();
  assert.equal(san[0], 'e4');
  assert.equal(san[2], 'Nf3');
  // Keys: Home, →, ←, End.
  await guest.keyboard.press('Home');
  assert.match(await plyText(guest), / 0 \/ /);
  assert.equal(await guest.locator('#replay-moves .move.active').count(), 0);
  await guest.keyboard.press('ArrowRight');
  assert.equal(await activePly(guest), '1');
  await guest.keyboard.press('ArrowRight');
  await guest.keyboard.press('ArrowLeft');
  assert.equal(await activePly(guest), '1');
  // The board shows the position after 1. e4: a white pawn on e4, none on e2.
  const pieces = await guest.locator('cg-board piece.white.pawn').count();
  assert.equal(pieces, 8);
  await guest.keyboard.press('End');
  assert.equal(await activePly(guest), String(plies));
  // Buttons.
  await guest.click('#replay-first');
  assert.match(await plyText(guest), / 0 \/ /);
  assert.ok(await guest.locator('#replay-prev').isDisabled());
  await guest.click('#replay-next');
  await guest.click('#replay-next');
  assert.equal(await activePly(guest), '2');
  await guest.click('#replay-last');
  assert.equal(await activePly(guest), String(plies));
  assert.ok(await guest.locator('#replay-next').isDisabled());
  // Clicking a move shows it.
  await guest.locator('#replay-moves .move[data-ply="3"]').click();
  assert.equal(await activePly(guest), '3');
  // Flip.
  assert.equal(await guest.locator('.cg-wrap.orientation-white').count(), 1);
  await guest.click('#replay-flip');
  assert.equal(await guest.locator('.cg-wrap.orientation-black').count(), 1);
  // Notations: UCI.
  await guest.selectOption('#replay-notation', 'action');
  const uci = await guest.locator('#replay-moves .move').allTextContents();
  assert.equal(uci[0], 'e2e4');
  assert.equal(uci[2], 'g1f3');
  // Players: the computer is 电脑（…）, never its id, and not a profile link.
  const players = await guest.locator('#replay-players').textContent();
  assert.match(players, new RegExp(`${name}.*电脑（1级）`));
  assert.ok(!players.includes('bot:'), players);
  assert.equal(await guest.locator('#replay-players a[href*="bot:"]').count(), 0);
  assert.match(await guest.locator('#replay-result').textContent(), /认输/);
  // The record downloads.
  const href = await guest.locator('#replay-download').getAttribute('href');
  assert.equal(href, `/game/${chess}.pgn`);
  const pgn = await (await fetch(`${base}${href}`)).text();
  assert.match(pgn, /1\. e4/);
  await guest.screenshot({ path: shotPath('replay-chess.png') });

  // Board coordinates are readable in every theme, in both orientations: each
  // label against the square under it (found by where it is drawn).
  const coordPairs = () =>
    guest.evaluate(() => {
      const css = getComputedStyle(document.body);
      const probe = (v) => {
        const d = document.createElement('div');
        d.style.color = css.getPropertyValue(v);
        document.body.appendChild(d);
        const c = getComputedStyle(d).color;
        d.remove();
        return c;
      };
      const light = probe('--light-sq');
      const dark = probe('--dark-sq');
      const b = document.querySelector('cg-board').getBoundingClientRect();
      const sq = b.width / 8;
      return [...document.querySelectorAll('.cg-wrap coords.ranks coord, .cg-wrap coords.files coord')].map((c) => {
        const r = c.getBoundingClientRect();
        const col = Math.min(7, Math.max(0, Math.floor((r.left + r.width / 2 - b.left) / sq)));
        const row = Math.min(7, Math.max(0, Math.floor((r.top + r.height / 2 - b.top) / sq)));
        // The top-left square is light in both orientations (a8, or h1).
        const style = getComputedStyle(c);
        const halo = /rgba?\([^)]*\)/.exec(style.textShadow)?.[0] ?? null;
        return { text: c.textContent, color: style.color, halo, on: (col + row) % 2 === 0 ? light : dark };
      });
    });
  for (const flipped of [true, false]) {
    if (!flipped) await guest.click('#replay-flip');
    for (const theme of ['wood', 'green', 'blue']) {
      await guest.evaluate((t) => (document.body.dataset.board = t), theme);
      const pairs = await coordPairs();
      assert.equal(pairs.length, 16, 'eight ranks and eight files');
      // Readable: the label stands out from its square, or is outlined by a halo
      // that stands out from the label (white text ringed in black).
      for (const p of pairs) {
        const plain = contrast(p.color, p.on);
        const ringed = p.halo && !/rgba\([^)]*,\s*0\)/.test(p.halo) ? contrast(p.color, p.halo) : 0;
        assert.ok(plain >= 3 || (plain >= 2 && ringed >= 7), `${theme}${flipped ? ' flipped' : ''}: ${p.text} ${p.color} on ${p.on}: ${plain.toFixed(2)}, halo ${p.halo}`);
      }
      await guest.screenshot({ path: shotPath(`replay-coords-${theme}${flipped ? '-flipped' : ''}.png`) });
    }
  }

  // Xiangqi: Chinese, ICCS and WXF.
  await guest.goto(`${base}/#/replay/${xiangqi}`);
  await guest.locator('#replay[data-game="xiangqi"]').waitFor();
  assert.equal((await guest.locator('#replay-moves .move').allTextContents())[0], '炮二平五');
  await guest.selectOption('#replay-notation', 'action');
  assert.equal((await guest.locator('#replay-moves .move').allTextContents())[0], 'h2e2');
  await guest.selectOption('#replay-notation', 'wxf');
  assert.equal((await guest.locator('#replay-moves .move').allTextContents())[0], 'C2=5');
  assert.equal(await guest.locator('#replay-download').getAttribute('href'), `/game/${xiangqi}.pgn`);
  await guest.screenshot({ path: shotPath('replay-xiangqi.png') });

  // Go: coordinates, the stones on the board.
  await guest.goto(`${base}/#/replay/${go}`);
  await guest.locator('#replay[data-game="go"]').waitFor();
  assert.equal((await guest.locator('#replay-moves .move').allTextContents())[0], 'C3');
  // A 9×9 board has five star points: the 3-3 points and the centre.
  const stars = await guest.locator('.shudan-hoshi').evaluateAll((cs) => cs.filter((c) => getComputedStyle(c).display !== 'none').length);
  assert.equal(stars, 5);
  await guest.keyboard.press('Home');
  await guest.keyboard.press('ArrowRight');
  await guest.locator('.shudan-vertex.shudan-sign_1').first().waitFor();
  assert.equal(await guest.locator('.shudan-vertex.shudan-sign_1').count(), 1);
  assert.equal(await guest.locator('#replay-download').getAttribute('href'), `/game/${go}.sgf`);
  await guest.screenshot({ path: shotPath('replay-go.png') });

  // Doudizhu: every hand, the cards' faces, the words of bidding and play.
  await guest.goto(`${base}/#/replay/${ddz}`);
  await guest.locator('#replay[data-game="doudizhu"]').waitFor();
  const data = await (await fetch(`${base}/api/game/${ddz}/replay`)).json();
  await guest.keyboard.press('Home');
  const start = data.positions[0];
  for (let s = 0; s < 3; s++) {
    const cards = await guest.locator(`.replay-seat[data-seat="${s}"] .replay-hand .card`).count();
    assert.equal(cards, start[s].hand.length, `seat ${s} shows its whole hand`);
  }
  const hands = start.flatMap((v) => v.hand);
  const shownTens = await guest.locator('.replay-hand .card[data-rank="T"] .rank').allTextContents();
  assert.equal(shownTens.length, hands.filter((c) => c[0] === 'T').length);
  for (const x of shownTens) assert.equal(x, '10');
  for (const [rank, word] of [['B', '小王'], ['R', '大王']]) {
    const n = hands.filter((c) => c === rank).length;
    const shown = await guest.locator(`.replay-hand .card[data-rank="${rank}"] .joker-word`).allTextContents();
    assert.deepEqual(shown, Array(n).fill(word));
  }
  const texts = await guest.locator('#replay-moves .move').allTextContents();
  assert.equal(texts.length, data.plies.length);
  data.plies.forEach((p, i) => {
    const phase = data.positions[i][0].phase;
    if (p.action === 'pass') assert.equal(texts[i], phase === 'bidding' ? '不叫' : '不出', `ply ${i + 1}`);
    if (p.action.startsWith('bid')) assert.equal(texts[i], `叫${p.action.slice(4)}分`);
  });
  assert.ok(texts.some((x) => x === '不叫' || x === '不出' || /^叫\d分$/.test(x)), `bidding or passing shown: ${texts.join(' | ')}`);
  assert.ok(!(await guest.locator('#replay').textContent()).includes('bot:'));
  await guest.keyboard.press('End');
  await guest.screenshot({ path: shotPath('replay-doudizhu.png'), fullPage: true });

  // The profile lists the four games, each with its replay; one opens.
  await owner.goto(`${base}/#/profile/${name}`);
  await owner.locator('#history').waitFor();
  assert.equal(await owner.locator('#history .replay-link').count(), 4);
  const historyText = await owner.locator('#history').textContent();
  assert.ok(!historyText.includes('bot:'), historyText);
  assert.match(historyText, /电脑（普通）/);
  assert.equal(await owner.locator('#history a[href*="bot%3A"], #history a[href*="bot:"]').count(), 0, 'no profile links for computers');
  await owner.locator(`#history tr[data-game="${go}"] .replay-link`).click();
  await owner.locator('#replay[data-game="go"]').waitFor();
  await owner.screenshot({ path: shotPath('replay-from-profile.png') });

  // A hand still being played is not shown (its hands are hidden): the refusal in words.
  await installSocket(owner);
  const { table: live } = await req(owner, 'play_computer', { game: 'doudizhu', level: 'basic', colour: 0 });
  // (the hand starts a moment after the answer, once the computers are ready)
  for (let i = 0; i < 100 && (await fetch(`${base}/api/game/${live}/replay`)).status !== 403; i++) await new Promise((r) => setTimeout(r, 50));
  const peek = await newPage(browser, 'peek', base);
  await peek.goto(`${base}/#/replay/${live}`);
  await peek.locator('#replay-error', { hasText: '对局结束后才能查看' }).waitFor();
  assert.equal(await peek.locator('.replay-hand .card').count(), 0);
  const refused = consoleErrors.filter((e) => e.startsWith('[peek]'));
  assert.ok(refused.length >= 1 && refused.every((e) => /403/.test(e)), refused.join('\n'));
  for (const e of refused) consoleErrors.splice(consoleErrors.indexOf(e), 1);

  assert.deepEqual(consoleErrors, []);
});
