// The e2e harness: starts the built `qiyuan serve` on a free port with a temporary
// data folder, drives Debian's chromium with playwright-core, and collects every
// console error so that a test can fail on it.
import { before, after } from 'node:test';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const root = path.resolve(here, '..', '..');
export const artifacts = path.join(root, 'test-artifacts');

export function findBinary() {
  const candidates = [process.env.QIYUAN_BIN, path.join(root, 'target/release/qiyuan'), path.join(root, 'target/debug/qiyuan')].filter(Boolean);
  const found = candidates.find((p) => existsSync(p));
  if (!found) throw new Error(`no qiyuan binary: build it (cargo build --release) or set QIYUAN_BIN; looked at ${candidates.join(', ')}`);
  return found;
}

/**
 * The toy hall (crates/server/examples/toy_hall.rs: the built-in games and the
 * count game), from QIYUAN_TOY_BIN or where `cargo build -p qiyuan-server
 * --example toy_hall` puts it.
 */
export function findToyBinary() {
  const bin = process.env.QIYUAN_TOY_BIN || path.join(root, 'target/debug/examples/toy_hall');
  if (!existsSync(bin)) throw new Error(`no toy_hall binary at ${bin}: build it (cargo build -p qiyuan-server --example toy_hall) or set QIYUAN_TOY_BIN`);
  return bin;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

/** Starts a server binary (`qiyuan` unless `bin` names another taking the same flags). */
export async function startServer(bin = findBinary()) {
  const port = await freePort();
  const data = mkdtempSync(path.join(tmpdir(), 'qiyuan-e2e-'));
  const listen = `127.0.0.1:${port}`;
  const proc = spawn(bin, ['serve', '--listen', listen, '--data', data], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, RUST_LOG: process.env.RUST_LOG ?? 'warn' },
  });
  let log = '';
  proc.stdout.on('data', (d) => (log += d));
  proc.stderr.on('data', (d) => (log += d));
  const base = `http://${listen}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`qiyuan serve exited with ${proc.exitCode}:\n${log}`);
    try {
      const r = await fetch(`${base}/api/health`);
      if (r.ok) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) throw new Error(`qiyuan serve did not answer on ${base}:\n${log}`);
    await new Promise((r) => setTimeout(r, 150));
  }
  return {
    base,
    /** The server's data folder (for the command line: `qiyuan admin … --data`). */
    data,
    log: () => log,
    async stop() {
      proc.kill('SIGTERM');
      await new Promise((r) => {
        const t = setTimeout(() => (proc.kill('SIGKILL'), r()), 5000);
        proc.on('exit', () => (clearTimeout(t), r()));
      });
      rmSync(data, { recursive: true, force: true });
    },
  };
}

export async function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-quic', '--no-first-run', '--disable-component-update', '--disable-sync', '--autoplay-policy=no-user-gesture-required'],
  });
}

/**
 * Registers the file's `before`/`after` hooks: a fresh `qiyuan serve` (or the
 * server binary `bin()` names; or, with `{ external: true }`, the server named
 * by QIYUAN_WEB_BASE if set) and one chromium. The returned accessors are only
 * meaningful inside tests, after `before` has run. Set E2E_SERVER_LOG to print the server's log at the end.
 */
export function useServerAndBrowser({ external = false, bin = findBinary } = {}) {
  let server;
  let browser;
  let base;
  before(async () => {
    if (external && process.env.QIYUAN_WEB_BASE) base = process.env.QIYUAN_WEB_BASE;
    else {
      server = await startServer(bin());
      base = server.base;
    }
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
    if (server) {
      await server.stop();
      if (process.env.E2E_SERVER_LOG) console.log(server.log());
    }
  });
  return {
    get base() {
      return base;
    },
    get browser() {
      return browser;
    },
    /** The server's data folder (not with an external server). */
    get data() {
      return server?.data;
    },
  };
}

/** A call of the JSON API with a bearer `token`: its status and parsed body. */
export async function apiCall(base, token, method, p, body) {
  const r = await fetch(`${base}${p}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await r.text();
  return { status: r.status, body: text ? JSON.parse(text) : null };
}

/** A session token of account `username` (registered with {@link PASSWORD}). */
export async function sessionOf(base, username) {
  const r = await fetch(`${base}/api/account/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username, password: PASSWORD }),
  });
  if (r.status !== 200) throw new Error(`cannot log ${username} in: ${r.status}`);
  return (await r.json()).token;
}

/** The password every test account gets. */
export const PASSWORD = 'secret-e2e-1';

/**
 * A short suffix that keeps user names apart between runs against the same server
 * (QIYUAN_WEB_BASE); each test file runs in a process of its own, so gets its own.
 */
export const stamp = Date.now().toString(36).slice(-4);

/** Registers `name` through the register page and waits for the lobby, signed in as `name`. */
export async function register(page, base, name) {
  await page.goto(`${base}/#/register`);
  await page.fill('#username', name);
  await page.fill('#password', PASSWORD);
  await page.fill('#password2', PASSWORD);
  await page.click('#submit');
  await page.locator('#lobby').waitFor();
  assert.equal((await page.locator('#me').textContent()).trim(), name);
}

/** Enters as a guest from the login page and waits for the lobby. */
export async function enterAsGuest(page, base) {
  await page.goto(`${base}/#/login`);
  await page.click('#guest');
  await page.locator('#lobby').waitFor();
}

/** Every console error and page error, per page, with the page's label. */
export const consoleErrors = [];

export async function newPage(browser, label, base, viewport = { width: 1280, height: 800 }) {
  const context = await browser.newContext({ viewport, locale: 'zh-CN' });
  const page = await context.newPage();
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(`[${label}] ${m.text()}`);
  });
  page.on('pageerror', (e) => consoleErrors.push(`[${label}] page error: ${e.message}`));
  // Name the failing URL, which chromium's console message leaves out.
  page.on('response', (r) => {
    if (r.status() >= 400) consoleErrors.push(`[${label}] HTTP ${r.status()} ${r.url()}`);
  });
  page.label = label;
  page.base = base;
  return page;
}

export function shotPath(name) {
  mkdirSync(artifacts, { recursive: true });
  return path.join(artifacts, name);
}

/** The square's centre in page coordinates. `kind`: chess (8x8) or xiangqi (9x10, ICCS squares). */
export async function squareCenter(page, key, kind, scope = '#table-page .board-col') {
  const box = await page.locator(`${scope} cg-board`).first().boundingBox();
  if (!box) throw new Error(`[${page.label}] no board`);
  const orientation = await page.locator(`${scope} .cg-wrap`).first().evaluate((el) => (el.classList.contains('orientation-black') ? 'black' : 'white'));
  const files = kind === 'chess' ? 8 : 9;
  const ranks = kind === 'chess' ? 8 : 10;
  const file = key.charCodeAt(0) - 97;
  const rank = kind === 'chess' ? Number(key[1]) - 1 : Number(key[1]);
  const col = orientation === 'white' ? file : files - 1 - file;
  const row = orientation === 'white' ? ranks - 1 - rank : rank;
  return { x: box.x + ((col + 0.5) * box.width) / files, y: box.y + ((row + 0.5) * box.height) / ranks };
}

/**
 * Waits until the table page has drawn a game in play: the page shows its board
 * before the table's first view arrives, and a click before then is lost.
 */
export async function waitForPlaying(page, timeout = 10_000) {
  await page.locator('#table-page[data-status="playing"]').waitFor({ timeout }).catch(async () => {
    const status = await page.locator('#table-page').getAttribute('data-status').catch(() => null);
    throw new Error(`[${page.label}] the table is not playing (status ${JSON.stringify(status)})`);
  });
}

/** Plays a move by clicking its two squares (at a table, once its game is in play). */
export async function clickMove(page, uci, kind, scope = '#table-page .board-col') {
  if (scope.startsWith('#table-page')) await waitForPlaying(page);
  await page.locator(`${scope} cg-board`).first().scrollIntoViewIfNeeded();
  const a = await squareCenter(page, uci.slice(0, 2), kind, scope);
  await page.mouse.click(a.x, a.y);
  await page.waitForTimeout(60);
  const b = await squareCenter(page, uci.slice(2, 4), kind, scope);
  await page.mouse.click(b.x, b.y);
  if (uci.length === 5) {
    const choice = page.locator(`.promotion .promo-${uci[4]}`);
    await choice.click();
  }
}

/** The move list's texts, in order. */
export async function moveTexts(page, sel = '#moves') {
  return page.locator(`${sel} .move:not(.move-empty)`).allTextContents();
}

export async function waitForMoveCount(page, n, sel = '#moves', timeout = 10_000) {
  await page.waitForFunction(
    ([s, count]) => document.querySelectorAll(`${s} .move:not(.move-empty)`).length === count,
    [sel, n],
    { timeout },
  ).catch(async () => {
    throw new Error(`[${page.label}] expected ${n} moves, have ${JSON.stringify(await moveTexts(page, sel))}`);
  });
}
