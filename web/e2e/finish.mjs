// Finished games for the browser tests, made through the real server from inside
// a logged-in page: its own WebSocket (the session cookie rides along) plays
// against the computer (`play_computer`), makes a few moves, and resigns.

/** Applies an event's patch to the view a client holds (docs/protocol.md,
 * "Patches"); handed to the pages below as source, since a page runs only what
 * it is given. */
function applyPatch(view, ops) {
  for (const op of ops) {
    if (op.path.length === 0 && op.op === 'set') { view = op.value; continue; }
    let at = view;
    for (const k of op.path.slice(0, -1)) at = at[k];
    const last = op.path[op.path.length - 1];
    if (op.op === 'set') at[last] = op.value;
    else if (op.op === 'push') at[last].push(...op.values);
    else if (op.op === 'trunc') at[last].length = op.len;
    else if (op.op === 'del') delete at[last];
  }
  return view;
}
/** Gives `page` the patch applier as `window.__applyPatch`. */
async function installPatch(page) {
  await page.evaluate(`window.__applyPatch = ${applyPatch.toString()}`);
}

/**
 * Plays a game of `game` against computer players at `level` from seat 0 and
 * resigns after `turns` of our own actions; returns the table id (the game's id).
 * `strategy`: `moves` plays the given moves in order (a legal one instead of one
 * that the computer's answer made illegal); `doudizhu` bids 3 when
 * asked (so we lead as landlord) and then plays the legal play of the most
 * cards. A game still going after `turns` of ours (or `deadlineMs`) is resigned.
 */
export async function finishedGame(page, { game, level, moves = [], turns = moves.length, strategy = 'moves', options, deadlineMs = 25000 }) {
  await installPatch(page);
  return page.evaluate(
    async ({ game, level, moves, turns, strategy, options, deadlineMs }) => {
      const ws = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`);
      const inbox = [];
      let state = null;
      // The view as a client keeps it: a sync's state, then each event's patch.
      const patch = window.__applyPatch;
      ws.onmessage = (e) => {
        const m = JSON.parse(e.data);
        if (m.t === 'sync' && m.d.state) state = m.d.state;
        if (m.t === 'event' && Array.isArray(m.d.patch)) state = patch(state, m.d.patch);
        inbox.push(m);
      };
      await new Promise((r, f) => ((ws.onopen = r), (ws.onerror = f)));
      const next = (pred, ms = 20000) =>
        new Promise((res, rej) => {
          const t0 = Date.now();
          const look = () => {
            const i = inbox.findIndex(pred);
            if (i >= 0) res(inbox.splice(i, 1)[0]);
            else if (Date.now() - t0 > ms) rej(new Error(`timed out; last: ${JSON.stringify(inbox.slice(-2)).slice(0, 400)}`));
            else setTimeout(look, 30);
          };
          look();
        });
      let n = 1;
      const req = async (t, d) => {
        const id = n++;
        ws.send(JSON.stringify({ t, d, id }));
        const m = await next((x) => x.id === id && (x.t === 'ack' || x.t === 'error'));
        if (m.t === 'error') throw new Error(`${t}: ${JSON.stringify(m.d)}`);
        return m.d;
      };
      const { table } = await req('play_computer', { game, level, colour: 0, ...(options ? { options } : {}) });
      const board = () => state?.game?.board ?? {};
      const ourTurn = () => {
        const b = board();
        if (state?.status !== 'playing') return false;
        if (typeof b.to_act === 'number') return b.to_act === 0;
        const turn = state?.game?.turn;
        return turn && typeof turn === 'object' && 'seat' in turn ? turn.seat === 0 : false;
      };
      const deadline = Date.now() + deadlineMs;
      let done = 0;
      while (done < turns && Date.now() < deadline && state?.status !== 'over') {
        if (!ourTurn()) {
          await new Promise((r) => setTimeout(r, 60));
          continue;
        }
        let action;
        if (strategy === 'moves') {
          // A planned move the computer's answer made illegal (a check, a block)
          // gives way to a legal one.
          action = moves[done];
          const legal = board().legal_moves;
          if (Array.isArray(legal) && legal.length && !legal.includes(action)) action = legal[0];
        }
        else {
          // Doudizhu: bid 3 when asked (the landlord leads), then the play of the most cards.
          const legal = board().legal ?? [];
          const plays = legal.filter((a) => a !== 'pass' && !a.startsWith('bid'));
          action = legal.includes('bid 3') ? 'bid 3' : plays.length ? plays.reduce((x, y) => (y.length > x.length ? y : x)) : legal[0];
        }
        const before = state.version;
        await req('move', { table, action });
        done++;
        // Wait for the computer to answer (or the game to end).
        const t0 = Date.now();
        while (Date.now() - t0 < 15000 && state?.status === 'playing' && !(ourTurn() && state.version > before)) {
          await new Promise((r) => setTimeout(r, 60));
        }
      }
      if (state?.status === 'playing') await req('resign', { table });
      ws.close();
      return table;
    },
    { game, level, moves, turns, strategy, options, deadlineMs },
  );
}

/**
 * Opens a WebSocket of the page's session and keeps it on `window.__q`, with
 * `req(t, d)` (resolves with the `ack`'s data, rejects on `error`) and
 * `state(table)`, the last view of that table.
 */
export async function installSocket(page) {
  await installPatch(page);
  await page.evaluate(async () => {
    const patch = window.__applyPatch;
    const ws = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`);
    const pending = new Map();
    const states = new Map();
    let n = 1;
    ws.onmessage = (e) => {
      const m = JSON.parse(e.data);
      if (m.t === 'sync' && m.d.state) states.set(m.d.table, m.d.state);
      if (m.t === 'event' && Array.isArray(m.d.patch)) states.set(m.d.table, patch(states.get(m.d.table), m.d.patch));
      const p = pending.get(m.id);
      if (p && (m.t === 'ack' || m.t === 'error')) {
        pending.delete(m.id);
        if (m.t === 'error') p.fail(new Error(JSON.stringify(m.d)));
        else p.ok(m.d);
      }
    };
    await new Promise((r, f) => ((ws.onopen = r), (ws.onerror = f)));
    window.__q = {
      req: (t, d) =>
        new Promise((ok, fail) => {
          const id = n++;
          pending.set(id, { ok, fail });
          ws.send(JSON.stringify({ t, d, id }));
        }),
      send: (t, d) => ws.send(JSON.stringify({ t, d })),
      state: (table) => states.get(table) ?? null,
      close: () => ws.close(),
    };
  });
}

/** `window.__q.req` of `page`. */
export function req(page, t, d) {
  return page.evaluate(([t, d]) => window.__q.req(t, d), [t, d]);
}

/** `window.__q.send` of `page` (no reply awaited: `watch` answers with a `sync`). */
export function send(page, t, d) {
  return page.evaluate(([t, d]) => window.__q.send(t, d), [t, d]);
}
