// A Doudizhu table: three seats round a felt table. The viewer's own hand, sorted,
// at the bottom (click cards to pick them, play or pass with the actions the
// server lists as legal); the other two seats show only how many cards they hold
// and their last play; the bottom cards, the bid and the multiplier in the middle;
// the score of each hand and the running totals of the table's hands.
import { h, mount } from '../../dom';
import { api } from '../../net/api';
import { toast } from '../../ui';
import { tableShell, type ShellContext as Shell } from '../../table/shell';
import type { DoudizhuView } from '../../net/generated/protocol';
import { tx } from './text';
import { cardBack, cardEl, playEls, ranksOf, sortHand } from './cards';
import { botControls } from './bots';
import { biddingFlags, doudizhuText } from './notation';
import { computersApart, playerName } from '../../players';
import './ddz.css';

/** This folder's game, as the server's registry names it. */
const GAME = 'doudizhu';

/** A phone's hand holds at most this many cards a row. */
const PHONE_ROW = 10;

/** Whether the screen is a phone's (ddz.css's narrow layout). */
function narrow(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('(max-width: 760px)').matches;
}

type ShellContext = Shell<DoudizhuView>;
/** The hand's view, or nothing of it before a hand has been dealt. */
type B = Partial<DoudizhuView>;

/** What `GET /api/game/{id}` lists of a table's games (docs/protocol.md, GameSummary). */
interface TableGames {
  games: Array<{ status: string; result: { points?: number[] } | null; players: Array<{ seat: number; name: string }> }>;
}

interface Totals {
  hands: number;
  byName: Map<string, number>;
}

export function doudizhuTablePage(root: HTMLElement, id: string): () => void {
  const felt = h('div.ddz-felt', { id: 'ddz-table' });
  const scorePanel = h('div.panel.ddz-scores', { id: 'ddz-scores' });
  const playsPanel = h('div.move-list.ddz-log', { id: 'moves' });
  let ctx: ShellContext | null = null;
  let selected = new Set<string>();
  let hintIndex = -1;
  let handKey = '';
  let totals: Totals = { hands: 0, byName: new Map() };
  let totalsFor = '';

  function board(c: ShellContext): B {
    return c.state.game?.board ?? {};
  }

  /** Seats in screen order: left, right, bottom (the viewer, or seat 0 for a spectator). */
  function positions(c: ShellContext) {
    const me = c.me ?? 0;
    return { bottom: me, right: (me + 1) % 3, left: (me + 2) % 3 };
  }

  /** A seat's player by name; two computer players apart by their seats (电脑（普通）乙). */
  function nameOf(c: ShellContext, seat: number): string {
    const seats = c.state.seats ?? [];
    const user = seats[seat]?.user;
    if (!user) return tx('seatN', { n: seat + 1 });
    return playerName(user, computersApart(seats.map((s) => s.user)) ? seat : undefined);
  }

  /** Whether the computer plays this seat for its player (托管). */
  function trustee(c: ShellContext, seat: number): boolean {
    return c.playing && c.state.seats?.[seat]?.trustee === true;
  }

  function trusteeMark(c: ShellContext, seat: number) {
    return trustee(c, seat) ? h('span.ddz-trustee', { id: `trustee-${seat}`, title: tx('trusteeHint') }, tx('trustee')) : null;
  }

  function roleOf(b: B, seat: number): string {
    if (typeof b.landlord !== 'number') return '';
    return b.landlord === seat ? tx('landlord') : tx('farmer');
  }

  /** What each seat did last: its bid while bidding, its last turn in play. */
  function lastActs(b: B): Map<number, string | null> {
    const out = new Map<number, string | null>();
    if (b.phase === 'bidding' || typeof b.landlord !== 'number') {
      for (const x of b.bids ?? []) out.set(x.seat, x.bid ? `bid:${x.bid}` : 'bid:0');
      return out;
    }
    const plays = b.plays ?? [];
    // The last round: each seat's turn since the seat to act last acted.
    const recent = plays.slice(-2);
    if (b.phase === 'over') recent.splice(0, recent.length, ...plays.slice(-3));
    for (const p of recent) out.set(p.seat, p.cards ?? null);
    return out;
  }

  function actEl(act: string | null | undefined) {
    if (act === undefined) return h('div.ddz-act.empty');
    if (act === null) return h('div.ddz-act.pass', null, tx('passPlay'));
    if (act.startsWith('bid:')) {
      const n = Number(act.slice(4));
      return h('div.ddz-act.bidtag', null, n ? tx('bidN', { n }) : tx('noBid'));
    }
    return h('div.ddz-act.cards', null, playEls(act));
  }

  function opponent(c: ShellContext, seat: number, side: 'left' | 'right') {
    const b = board(c);
    const count = b.counts?.[seat] ?? 0;
    const revealed: string[] | null = Array.isArray(b.hands) ? sortHand(b.hands[seat] ?? []) : null;
    const toAct = c.playing && b.to_act === seat;
    const acts = lastActs(b);
    return h(
      `div.ddz-seat.ddz-${side}${toAct ? '.to-act' : ''}`,
      { id: `ddz-seat-${seat}`, 'data-seat': seat },
      h(
        'div.ddz-who',
        null,
        h(`div.ddz-avatar${b.landlord === seat ? '.landlord' : ''}`, null, b.landlord === seat ? '地' : nameOf(c, seat).slice(0, 1).toUpperCase()),
        h('div.ddz-name', null, nameOf(c, seat)),
        roleOf(b, seat) ? h(`div.ddz-role${b.landlord === seat ? '.landlord' : ''}`, null, roleOf(b, seat)) : null,
        trusteeMark(c, seat),
        h('div.ddz-count', { id: `count-${seat}`, 'data-count': count }, cardBack({ small: true }), h('span', null, String(count))),
      ),
      revealed ? h('div.ddz-reveal', { id: `reveal-${seat}` }, revealed.map((x) => cardEl(x, { small: true }))) : null,
      actEl(acts.get(seat)),
      botControls(c, seat),
    );
  }

  function centre(c: ShellContext) {
    const b = board(c);
    const bottom: string[] | null = Array.isArray(b.bottom) ? sortHand(b.bottom) : null;
    return h(
      'div.ddz-centre',
      null,
      h('div.ddz-bottom', { id: 'ddz-bottom' }, h('div.hint', null, tx('bottom')), h('div.ddz-bottom-cards', null, bottom ? bottom.map((x) => cardEl(x, { small: true })) : [cardBack({ small: true }), cardBack({ small: true }), cardBack({ small: true })])),
      h(
        'div.ddz-stakes',
        { id: 'ddz-stakes' },
        h('span', null, `${tx('base')} `, h('b', { id: 'ddz-bid' }, String(b.bid ?? 0))),
        h('span', null, `${tx('multiplier')} `, h('b', { id: 'ddz-multiplier' }, `×${b.multiplier ?? 1}`)),
        b.bombs ? h('span', null, `${tx('bombs')} ${b.bombs}`) : null,
        b.redeals ? h('span.hint', null, tx('redeal')) : null,
      ),
    );
  }

  function myArea(c: ShellContext) {
    const b = board(c);
    const me = c.me;
    const acts = lastActs(b);
    const hand: string[] = me !== null && Array.isArray(b.hand) ? sortHand(b.hand) : [];
    const key = hand.join(',');
    if (key !== handKey) {
      handKey = key;
      selected = new Set([...selected].filter((x) => hand.includes(x)));
      hintIndex = -1;
    }
    const myTurn = c.playing && me !== null && b.to_act === me;
    const legal: string[] = myTurn ? b.legal ?? [] : [];
    const spectatorSeat = me === null ? positions(c).bottom : null;
    const cardEls = hand.map((x, i) =>
      cardEl(x, {
        index: i,
        selected: selected.has(x),
        onclick: () => {
          if (selected.has(x)) selected.delete(x);
          else selected.add(x);
          render(c);
        },
      }),
    );
    // On a phone the hand is two overlapping rows (the high cards behind), so
    // that each card shows enough of itself to read and to tap.
    const rows = narrow() && hand.length > PHONE_ROW ? [cardEls.slice(0, Math.ceil(hand.length / 2)), cardEls.slice(Math.ceil(hand.length / 2))] : [cardEls];
    const handEl =
      me !== null
        ? h(
            `div.ddz-hand${rows.length > 1 ? '.rows' : ''}`,
            { id: 'ddz-hand' },
            rows.map((row) => {
              const el = h('div.ddz-hand-row', null, row);
              el.style.setProperty('--n', String(Math.max(1, row.length)));
              return el;
            }),
          )
        : spectatorSeat !== null
          ? opponent(c, spectatorSeat, 'left')
          : null;
    const buttons: HTMLElement[] = [];
    if (myTurn && b.phase === 'bidding') {
      buttons.push(h('button.btn', { id: 'bid-pass', onclick: () => c.live.send('move', { action: 'pass' }) }, tx('noBid')));
      for (const n of [1, 2, 3]) {
        const a = `bid ${n}`;
        buttons.push(h(`button.btn${n === 3 ? '.primary' : '.blue'}`, { id: `bid-${n}`, disabled: !legal.includes(a), onclick: () => c.live.send('move', { action: a }) }, tx('bidN', { n })));
      }
    } else if (myTurn && b.phase === 'play') {
      const choice = ranksOf([...selected]);
      const plays = legal.filter((a) => a !== 'pass');
      buttons.push(h('button.btn', { id: 'btn-pass-play', disabled: !legal.includes('pass'), onclick: () => ((selected = new Set()), c.live.send('move', { action: 'pass' })) }, tx('passPlay')));
      buttons.push(
        h('button.btn', {
          id: 'btn-hint',
          disabled: !plays.length,
          onclick: () => {
            hintIndex = (hintIndex + 1) % plays.length;
            selected = pick(hand, plays[hintIndex]);
            render(c);
          },
        }, tx('hint')),
      );
      buttons.push(h('button.btn', { id: 'btn-clear', disabled: !selected.size, onclick: () => ((selected = new Set()), render(c)) }, tx('clear')));
      buttons.push(
        h('button.btn.primary', {
          id: 'btn-play',
          disabled: !selected.size || !plays.includes(choice),
          onclick: () => {
            if (!plays.includes(choice)) return toast(tx('notLegal'), 'error');
            selected = new Set();
            c.live.send('move', { action: choice });
          },
        }, tx('play')),
      );
    }
    // 托管: hand the seat to the computer, or take it back (取消托管); beside
    // the player's name, apart from the turn's buttons.
    const trust =
      c.playing && me !== null
        ? trustee(c, me)
          ? h('button.btn.btn-small.primary.ddz-trust', { id: 'btn-untrust', onclick: () => c.live.send('trusteeship.off', {}) }, tx('untrust'))
          : h('button.btn.btn-small.ddz-trust', { id: 'btn-trust', onclick: () => c.live.send('trusteeship.on', {}) }, tx('trustee'))
        : null;
    return h(
      `div.ddz-me${myTurn ? '.to-act' : ''}`,
      { id: 'ddz-me' },
      me !== null ? h('div.ddz-me-head', null, h('span.ddz-name', null, nameOf(c, me)), roleOf(b, me) ? h(`span.ddz-role${b.landlord === me ? '.landlord' : ''}`, null, roleOf(b, me)) : null, trusteeMark(c, me), trust, actEl(acts.get(me))) : null,
      h('div.ddz-buttons', { id: 'ddz-buttons' }, buttons),
      handEl,
    );
  }

  /** The cards of `hand` that make the play `ranks`. */
  function pick(hand: string[], ranks: string): Set<string> {
    const out = new Set<string>();
    const pool = [...hand].reverse(); // lowest suits of a rank first
    for (const r of ranks) {
      const i = pool.findIndex((x) => x[0] === r && !out.has(x));
      if (i >= 0) out.add(pool[i]);
    }
    return out;
  }

  function renderLog(c: ShellContext) {
    const moves = c.state.game?.moves ?? [];
    if (!moves.length) {
      mount(playsPanel, h('div.moves-empty', null, tx('noPlays')));
      return;
    }
    // Each action as players say it: 叫3分, 不叫, 不出, cards by their names (10, 小王, 大王).
    const bidding = biddingFlags(moves.map((m) => m.action));
    mount(
      playsPanel,
      moves.map((m, i) => {
        const words = doudizhuText(m.action, bidding[i] ? 'bidding' : 'play');
        const cards = m.action !== 'pass' && !/^bid /.test(m.action);
        return h('div.ddz-log-row', { 'data-ply': i + 1 }, h('span.ddz-log-who', null, nameOf(c, m.seat)), cards ? h('span.ddz-log-cards', null, words) : words);
      }),
    );
    playsPanel.scrollTop = playsPanel.scrollHeight;
  }

  async function loadTotals(c: ShellContext) {
    const key = `${c.state.game?.number ?? 0}:${c.state.status}`;
    if (key === totalsFor) return;
    totalsFor = key;
    try {
      const r = await api<TableGames>('GET', `/api/game/${encodeURIComponent(id)}`);
      const games = r.games;
      const byName = new Map<string, number>();
      let hands = 0;
      for (const g of games) {
        const pts = g.result?.points ?? [];
        if (g.status !== 'finished' || !pts.length) continue;
        hands++;
        for (const p of g.players) byName.set(p.name, (byName.get(p.name) ?? 0) + (pts[p.seat] ?? 0));
      }
      totals = { hands, byName };
      if (ctx) renderScores(ctx);
    } catch {
      /* the totals wait for the next state */
    }
  }

  function renderScores(c: ShellContext) {
    const o = c.state.game?.outcome;
    const pts: number[] = o?.points ?? [];
    const rows = [0, 1, 2].map((seat) => {
      const name = nameOf(c, seat);
      const p = pts[seat];
      return h(
        'tr',
        { 'data-seat': seat },
        h('td', null, name),
        h('td', null, roleOf(board(c), seat)),
        h(`td.num${p > 0 ? '.up' : p < 0 ? '.down' : ''}`, { id: `hand-score-${seat}` }, p === undefined ? '—' : `${p > 0 ? '+' : ''}${p}`),
        h('td.num', { id: `total-${seat}` }, String(totals.byName.get(c.state.seats?.[seat]?.user ?? name) ?? 0)),
      );
    });
    mount(
      scorePanel,
      h('div.panel-title', null, tx('match'), h('span.hint', null, `${totals.hands} ${tx('hands')}`)),
      h('table.ddz-score-table', null, h('thead', null, h('tr', null, h('th', null, ''), h('th', null, ''), h('th.num', null, tx('handScore')), h('th.num', null, tx('total')))), h('tbody', null, rows)),
    );
  }

  function render(c: ShellContext) {
    ctx = c;
    const pos = positions(c);
    mount(
      felt,
      h('div.ddz-top', null, opponent(c, pos.left, 'left'), centre(c), opponent(c, pos.right, 'right')),
      myArea(c),
    );
    renderLog(c);
    renderScores(c);
    void loadTotals(c);
  }

  // Relabelled with every render (a language switch redraws the table in place).
  const movesTitle = h('div.panel-title', null, tx('moves'));
  // The hand's rows follow the screen's width (a phone turned, a window resized).
  const screen = typeof window.matchMedia === 'function' ? window.matchMedia('(max-width: 760px)') : null;
  const relayout = () => {
    if (ctx) render(ctx);
  };
  screen?.addEventListener('change', relayout);
  const close = tableShell(root, id, {
    game: GAME,
    seats: 3,
    main: felt,
    panels: [scorePanel, h('div.panel.moves-panel', null, movesTitle, playsPanel)],
    seatSub: (c, seat) => {
      const b = board(c);
      const role = roleOf(b, seat);
      const count = c.state.game ? tx('cardsLeft', { n: b.counts?.[seat] ?? 0 }) : '';
      const auto = trustee(c, seat) ? tx('trustee') : '';
      return [role, count, auto].filter(Boolean).join(' · ') || tx('seatN', { n: seat + 1 });
    },
    render: (c: ShellContext) => {
      movesTitle.textContent = tx('moves');
      render(c);
    },
    status: (c) => {
      const b = board(c);
      const seat = b.to_act;
      if (typeof seat !== 'number') return '';
      const who = seat === c.me ? tx('yourTurn') : nameOf(c, seat);
      return b.phase === 'bidding' ? `${tx('bidding')} · ${who}` : `${who}${seat === c.me ? '' : ' …'}`;
    },
    resultBody: (c) => {
      const o = c.state.game?.outcome;
      const b = board(c);
      const points = o?.points;
      if (!o || !points?.length) return null;
      const landlordWon = typeof b.landlord === 'number' && o.results?.[b.landlord] === 'win';
      return h(
        'div',
        null,
        o.reason === 'hand_emptied' ? h('div.result-sub', null, landlordWon ? tx('landlordWins') : tx('farmersWin')) : null,
        h('div.result-sub', null, `${tx('base')} ${b.bid} · ${tx('multiplier')} ×${b.multiplier}`),
        [0, 1, 2].map((s) => h('div.result-sub', { 'data-seat': s }, `${nameOf(c, s)} ${roleOf(b, s)}: ${points[s] > 0 ? '+' : ''}${points[s]}`)),
      );
    },
  });
  return () => {
    screen?.removeEventListener('change', relayout);
    close();
  };
}
