// The table around every game's board (chessground, chessgroundx, Shudan, the
// card table): seats with clocks, the time settings (proposed by one seat,
// accepted by the others), 读入, 交换, start, offers, resign, leave, rematch, and
// the result dialog, written once for every game. The game's page plugs in its
// board through `ShellHooks`: it fills the main area, adds its own panels and
// answers the hooks below; this shell owns the connection (table/connection.ts)
// and hands it every new view. It names no game: what differs comes from the
// hooks or from the game's descriptor (seat names, presets, record format).
// Clocks are drawn by table/clocks.ts.
import { h, mount } from '../dom';
import { t, onLanguage, type Key } from '../i18n';
import { avatar, dialog, toast } from '../ui';
import { describeTc } from '../net/model';
import { gameInfo, presetsOf, recordExtension, sameTc } from '../net/games';
import { replayButton } from '../replay/replay';
import { play as sound } from '../sound';
import { onSettings } from '../settings';
import { liveTable, takeAutoSit, type LiveTable } from '../go/live';
import type { Batch, BoardView, ClockView, JsonValue, Outcome, RatingChange, TableView, TimeControl } from '../net/generated/protocol';
import type { TableEvent } from './connection';
import { tx } from '../go/text';
import { playerLink, playerName } from '../players';
import { clockFace, renderClock } from './clocks';
import { forgetRatings, ratingOf, type Rating } from './ratings';
import { endReasonText } from './reasons';
import { settings as userSettings } from '../settings';

const SEC = 1000;

export function presetLabel(p: { zh: string; en: string }) {
  return document.documentElement.lang === 'en' ? p.en : p.zh;
}

export function tcText(tc: TimeControl | null | undefined, game: string): string {
  if (!tc) return '—';
  const p = presetsOf(game).find((x) => sameTc(x.time, tc));
  const d = tc.kind === 'qq' && tc.game === 0 && tc.per_move === 0 ? `${tc.countdown / SEC}″ / ${tx('perTurn')}` : describeTc(tc);
  return p ? `${presetLabel(p)} · ${d}` : d;
}

/** The open tables' redraws on a change of settings (one listener for all, so a
 * closed table is not kept alive by it). */
const settingsListeners = new Set<() => void>();
let listening = false;
function listenToSettings() {
  if (listening) return;
  listening = true;
  onSettings(() => settingsListeners.forEach((f) => f()));
}

export interface ShellContext<V extends BoardView = BoardView> {
  state: TableView<V>;
  events: TableEvent[];
  /** The viewer's seat, or null for a spectator. */
  me: number | null;
  live: LiveTable;
  playing: boolean;
}

export interface ShellHooks<V extends BoardView> {
  /** The game's name, as the server's registry has it. */
  game: string;
  seats: number;
  /** The main area (board or card table). */
  main: HTMLElement;
  /** Extra panels under the seats, in order. */
  panels: HTMLElement[];
  /** Under each seat's name: black / white, landlord / farmer. */
  seatSub(ctx: ShellContext<V>, seat: number): string;
  /** Called with every new state (and again when the language or the settings change). */
  render(ctx: ShellContext<V>): void;
  /** The status line while playing. */
  status(ctx: ShellContext<V>): string;
  /** The result dialog's extra body (score details). */
  resultBody?(ctx: ShellContext<V>): HTMLElement | null;
  /** Whether the table offers draws and takebacks (Go; not Doudizhu). */
  offers?: boolean;
  /** Whether seats may swap (交换) between games. */
  swap?: boolean;
  /** Whether a position or record can be read in (读入) for the next game. */
  load?: boolean;
  /** Whether the time dialog offers a clock of one's own besides the presets. */
  customTime?: boolean;
  /** Whether each seat shows its player's rating. */
  ratings?: boolean;
  /** Buttons of the game's own, after the shell's (研究). */
  buttons?(ctx: ShellContext<V>): HTMLElement[];
  /** Whether the result line shows the record's score (Go's `B+3.5`, chess's `0-1`). */
  showScore?: boolean;
  /** A line describing the game's options in a proposal (board size, komi). */
  optionsText?(options: JsonValue): string | null;
  /** The seat order in the seats panel (the viewer's seat last, nearest the board). */
  seatOrder?(me: number | null): number[];
}

export function tableShell<V extends BoardView>(root: HTMLElement, id: string, hooks: ShellHooks<V>): () => void {
  listenToSettings();
  let state: TableView<V> | null = null;
  let ctx: ShellContext<V> | null = null;
  let closed = false;
  // The clocks' animation frame, and whether the viewer's low-time warning sounded.
  let raf = 0;
  let lowWarned = false;
  let resultShownFor = '';
  let resultDialog: { close: () => void } | null = null;
  let proposalDialog: { close: () => void; pid: number } | null = null;
  let dismissedProposal = -1;
  let firstProposal: number | undefined;
  /** The last proposal of the viewer's that another seat declined. */
  let declined = -1;
  let autoSit = takeAutoSit(id);
  /** The rating changes of the batch that ended the last game. */
  let ratingChanges: RatingChange[] | null = null;
  const ratings = new Map<string, Rating | null>();
  /** Each seat's measured lag (ms), for the connection indicator. */
  let lagMs: Array<number | null> = [];
  const banner = h('div.conn-banner', { id: 'conn-banner', style: { display: 'none' } }, t('connecting'));
  const titleEl = h('span', { id: 'table-title' });
  const specEl = h('span.spectators', { id: 'spectators' });
  const tcEl = h('div.hint', { id: 'time-control' });
  const seatsEl = h('div.seats', { id: 'seats' });
  const statusEl = h('div.status-line', { id: 'status' });
  const offersEl = h('div', { id: 'offers' });
  const buttonsEl = h('div.table-buttons', { id: 'table-buttons' });

  const pageEl = h(
    `div.table-page.${hooks.game}-page`,
    { id: 'table-page', 'data-game': hooks.game },
    h('div.board-col', null, banner, hooks.main),
    h(
      'div.side-col',
      null,
      h('div.panel', null, h('div.panel-title', null, titleEl, specEl), tcEl, seatsEl, statusEl, offersEl),
      h('div.panel', null, buttonsEl),
      ...hooks.panels,
    ),
  );
  mount(root, pageEl);

  const live = liveTable<V>(id, {
    onState: (s, events, batch) => {
      state = s;
      lagMs = s.seats.map((x) => x.lag_ms);
      noteRatings(events, batch);
      render(events);
    },
    onStatus: (st) => {
      // The socket's state, for a script (or a test) to read.
      pageEl.dataset.conn = st;
      drawBanner();
    },
    onLag: (seats) => {
      // Live only: the next view carries the same in `seats[i].lag_ms`.
      lagMs = seats;
      if (state) renderSeats();
    },
    onError: (msg) => {
      toast(msg, 'error');
      // Put a refused move back.
      if (state) render([]);
    },
  });

  /** The connection's state, shown over the board while it is not open. */
  function drawBanner() {
    const st = pageEl.dataset.conn ?? 'open';
    banner.style.display = st === 'open' ? 'none' : '';
    banner.textContent = t(st === 'connecting' ? 'connecting' : st === 'reconnecting' ? 'reconnecting' : 'disconnected');
  }

  function noteRatings(events: TableEvent[], batch: Batch | null) {
    if (events.some((e) => e.type === 'started')) ratingChanges = null;
    if (!batch?.ratings?.length) return;
    ratingChanges = batch.ratings;
    // A finished rated game changes ratings: ask again.
    for (const r of batch.ratings) {
      forgetRatings(r.user);
      ratings.delete(r.user);
    }
  }

  function me(): number | null {
    return typeof state?.you === 'number' ? state.you : null;
  }

  function render(events: TableEvent[]) {
    if (closed || !state) return;
    const s = state;
    const mySeat = me();
    const playing = s.status === 'playing';
    ctx = { state: s, events, me: mySeat, live, playing };
    // The table's status as the page last drew it: a script (or a test) knows
    // from it when the board takes a move.
    pageEl.dataset.status = s.status;
    if (firstProposal === undefined) firstProposal = s.proposal?.id ?? -1;
    if (autoSit !== null) {
      const seat = autoSit;
      autoSit = null;
      if (mySeat === null && !s.seats?.[seat]?.user) live.send('sit', { seat });
    }
    titleEl.textContent = `${t(hooks.game as Key)} · ${t('table')} ${id}`;
    specEl.textContent = `${t('spectators')} ${(s.spectators ?? []).length}`;
    const settings = playing || s.status === 'over' ? s.game?.settings : s.proposal?.settings;
    const rated = settings?.rated ? t('rated') : t('casual');
    tcEl.textContent = `${t('timePreset')}: ${tcText(settings?.time, hooks.game)} · ${rated}`;
    renderSeats();
    renderButtons();
    renderOffers();
    hooks.render(ctx);
    for (const e of events) {
      if (e.type === 'declined' && e.seat !== mySeat && s.proposal.id === e.proposal && s.proposal.by === mySeat) {
        declined = e.proposal;
        toast(t('proposalDeclined'), 'error');
      }
    }
    statusEl.textContent = statusText();
    const acted = events.filter((e) => e.type === 'acted').pop();
    if (acted?.type === 'acted') sound(acted.check ? 'check' : acted.capture ? 'capture' : 'move');
    maybeResult();
    // The opponent left after the game: the result dialog offers no rematch any more.
    if (resultDialog && events.some((e) => e.type === 'stood')) showResult(false);
    maybeProposal();
  }

  /** Whether a rematch can be asked for: the game is over and nobody left. */
  function canRematch(): boolean {
    const s = state!;
    return me() !== null && s.status === 'over' && s.seats.every((x) => !!x.user);
  }

  /** Renders again in place (the language or a setting changed): nothing reconnects. */
  function rerender() {
    drawBanner();
    if (closed || !state) return;
    render([]);
    // Open dialogs are drawn again in the new language.
    if (resultDialog) {
      resultDialog.close();
      resultDialog = null;
      showResult(false);
    }
    if (proposalDialog) {
      proposalDialog.close();
      proposalDialog = null;
      maybeProposal();
    }
  }
  const offLanguage = onLanguage(rerender);
  settingsListeners.add(rerender);

  function statusText(): string {
    const s = state!;
    const o = s.game?.outcome;
    if (s.status === 'over' && o) return resultLine(o);
    if (s.status === 'playing') return hooks.status(ctx!);
    const mine = me();
    if (s.proposal && mine !== null && s.proposal.by === mine && !allAccepted()) return declined === s.proposal.id ? t('proposalDeclined') : t('waitingAccept');
    return tx('waiting');
  }

  /** The seats' sides in the game's words (`black`, `white`), if it has sides. */
  const sides = gameInfo(hooks.game)?.seat_names ?? [];

  function resultLine(o: Outcome): string {
    const mine = me();
    const results: string[] = o.results ?? [];
    let who: string;
    const lang = userSettings().lang === 'en' ? 'en' : 'zh';
    // A game that did not count: why, alone (只有一方走了棋，不计分).
    if (results.every((r) => r === 'void')) return endReasonText(o, state?.game?.end_detail, lang);
    if (mine !== null && results[mine] === 'win') who = t('youWin');
    else if (mine !== null && results[mine] === 'loss') who = t('youLose');
    else if (sides.length) {
      // A game whose seats are sides (black and white): which side won.
      const winner = results.indexOf('win');
      who = winner >= 0 && sides[winner] ? t(`${sides[winner]}Wins` as Key) : t('drawResult');
    } else who = '';
    const score = o.score && o.score !== '*' && hooks.showScore ? ` ${o.score}` : '';
    const reason = endReasonText(o, state?.game?.end_detail, lang);
    const open = document.documentElement.lang === 'en' ? ' (' : '（';
    const close = document.documentElement.lang === 'en' ? ')' : '）';
    return `${who}${open}${reason}${close}${score}`.trim();
  }

  /** Whether every other seat agreed to the proposal (the proposer's own agreement is its proposing, or its 开始). */
  function allAccepted(): boolean {
    const s = state!;
    const p = s.proposal;
    const mine = me();
    return !!p && s.seats.every((x, i) => i === mine || x.accepted === p.id);
  }

  /** A seat's rating, asked of its player's profile once. */
  function ratingText(name: string | null): string {
    if (!hooks.ratings || !name) return '';
    if (!ratings.has(name)) {
      ratings.set(name, null);
      void ratingOf(name, hooks.game).then((r) => {
        ratings.set(name, r);
        if (r && !closed && state) renderSeats();
      });
    }
    const r = ratings.get(name);
    return r ? ` · ${Math.round(r.rating)}${r.provisional ? '?' : ''}` : '';
  }

  function seatCard(seat: number) {
    const s = state!;
    const x = s.seats[seat];
    const name: string | null = x.user ?? null;
    const playing = s.status === 'playing';
    const turn = s.game?.turn;
    const toMove = playing && typeof turn === 'object' && ('seat' in turn ? turn.seat === seat : turn.all.includes(seat));
    const mine = me();
    return h(
      `div.seat-card${toMove ? '.to-move' : ''}${mine === seat ? '.mine' : ''}`,
      { id: `seat-${seat}`, 'data-seat': seat },
      avatar(name ? playerName(name) : '?', sides.length ? seat : 0),
      h(
        'div.who',
        null,
        h(
          'div.name',
          null,
          // A computer player by its name in words, never a profile link.
          name ? playerLink(name, 'player-name') : h('span.hint', null, t('emptySeat')),
          x.ready && !playing ? h('span.ready-tag', null, t('ready')) : null,
          name ? lagIndicator(seat) : null,
        ),
        h('div.sub', null, ctx ? hooks.seatSub(ctx, seat) : '', ratingText(name), name && x.connected === false ? ` · ${t('offlineTag')}` : ''),
      ),
      !name && mine === null ? h('button.btn.btn-small.blue', { id: `sit-${seat}`, onclick: () => live.send('sit', { seat }) }, t('sitHere')) : null,
      h('div.clock', { id: `clock-${seat}`, 'data-seat': seat }, '--:--'),
    );
  }

  /** The connection indicator of a seat: bars by the player's measured lag, shown to everyone. */
  function lagIndicator(seat: number) {
    const ms = lagMs[seat] ?? null;
    if (ms === null) return h('span.lag-ind.lag-none', { id: `lag-${seat}`, 'data-ms': '', title: t('lagUnknown') });
    const level = ms < 150 ? 3 : ms < 400 ? 2 : 1;
    return h(
      `span.lag-ind.lag-${level}`,
      { id: `lag-${seat}`, 'data-ms': String(Math.round(ms)), title: `${t('lag')} ${Math.round(ms)} ms` },
      [1, 2, 3].map((i) => h(`i${i <= level ? '.on' : ''}`)),
    );
  }

  function renderSeats() {
    const order = hooks.seatOrder?.(me()) ?? [...Array(hooks.seats).keys()];
    // Two sides face each other across the board: the top seat and the viewer's, at the bottom.
    if (order.length === 2) mount(seatsEl, h('div.seat-slot', { id: 'seat-top' }, seatCard(order[0])), h('div.seat-slot', { id: 'seat-bottom' }, seatCard(order[1])));
    else mount(seatsEl, order.map(seatCard));
    drawClocks();
  }

  function btn(name: string, label: string, enabled: boolean, onclick: () => void, cls = '') {
    return h(`button.btn${cls}`, { id: `btn-${name}`, disabled: !enabled, onclick }, label);
  }

  /** The seat a two-seat table swaps with. */
  function other(): number {
    return me() === 0 ? 1 : 0;
  }

  function renderButtons() {
    const s = state!;
    const seat = me();
    const seated = seat !== null;
    const playing = s.status === 'playing';
    const ready = seated && !!s.seats?.[seat!]?.ready;
    const full = s.seats.every((x) => x.user);
    mount(
      buttonsEl,
      btn('start', ready && !playing ? t('ready') : t('start'), seated && !playing && !ready, () => live.send('ready', { proposal: s.proposal?.id }), '.primary'),
      hooks.swap ? btn('swap', t('swap'), seated && !playing && full, () => (live.send('swap', { with: other() }), toast(t('offerSent')))) : null,
      hooks.offers ? btn('draw', t('draw'), seated && playing && s.game?.draw_offer == null, () => (live.send('draw.offer'), toast(t('offerSent')))) : null,
      hooks.load ? btn('load', t('load'), seated && !playing, openLoad) : null,
      btn('time', t('time'), seated && !playing, openTime),
      hooks.offers ? btn('takeback', t('takeback'), seated && playing && (s.game?.moves ?? []).length > 0 && s.game?.takeback_request == null, () => (live.send('takeback.request'), toast(t('offerSent')))) : null,
      btn('resign', t('resign'), seated && playing, () =>
        dialog(t('resign'), t('confirmResign'), [{ label: t('cancel') }, { label: t('resign'), cls: 'primary', onClick: () => live.send('resign') }], { id: 'resign-dialog' }),
      ),
      btn('save', t('save'), !!s.game, saveRecord),
      ...(hooks.buttons?.(ctx!) ?? []),
      seated && !playing ? btn('stand', t('standUp'), true, () => live.send('stand')) : btn('rematch', t('rematch'), seated && canRematch(), () => live.send('rematch')),
      btn('leave', t('leave'), true, () => {
        const go = () => {
          live.sendNow('leave');
          location.hash = `#/lobby/${hooks.game}`;
        };
        if (playing && seated) dialog(t('leave'), t('confirmLeave'), [{ label: t('cancel') }, { label: t('leave'), cls: 'primary', onClick: go }]);
        else go();
      }),
    );
  }

  function renderOffers() {
    const s = state!;
    const seat = me();
    offersEl.replaceChildren();
    if (seat === null) return;
    const bar = (name: string, text: string, yes: () => void, no: () => void) =>
      h(
        'div.offer-bar',
        { id: `offer-${name}` },
        h('span.text', null, text),
        h('button.btn.btn-small.primary', { id: `accept-${name}`, onclick: yes }, t('accept')),
        h('button.btn.btn-small', { id: `decline-${name}`, onclick: no }, t('decline')),
      );
    const send = (cmd: string) => () => live.send(cmd);
    if (s.status === 'playing') {
      const g = s.game;
      if (!g) return;
      if (typeof g.draw_offer === 'number' && g.draw_offer !== seat) offersEl.appendChild(bar('draw', t('drawOffered'), send('draw.accept'), send('draw.decline')));
      if (typeof g.takeback_request === 'number' && g.takeback_request !== seat) offersEl.appendChild(bar('takeback', t('takebackAsked'), send('takeback.accept'), send('takeback.decline')));
      return;
    }
    if (hooks.swap) {
      const asker = s.seats.findIndex((x, i) => i !== seat && x.swap_with === seat);
      if (asker >= 0) offersEl.appendChild(bar('swap', t('swapAsked'), () => live.send('swap', { with: asker }), () => offersEl.querySelector('#offer-swap')?.remove()));
    }
    // The settings another seat proposed, until this seat agrees or declines:
    // shown as soon as the viewer sits down at a table whose settings are set.
    const p = s.proposal;
    if (p.by !== seat && s.seats[p.by]?.user && s.seats[seat]?.accepted !== p.id && dismissedProposal !== p.id && s.status === 'waiting')
      offersEl.appendChild(
        h(
          'div.offer-bar',
          { id: 'offer-proposal', 'data-proposal': p.id },
          h('span.text', { id: 'offer-proposal-tc' }, `${t('proposalPending')}: ${tcText(p.settings.time, hooks.game)} · ${p.settings.rated ? t('rated') : t('casual')}`),
          h('button.btn.btn-small.primary', { id: 'accept-proposal', onclick: () => live.send('accept', { proposal: p.id }) }, t('accept')),
          h('button.btn.btn-small', { id: 'decline-proposal', onclick: () => declineProposal(p.id) }, t('decline')),
        ),
      );
    if (s.status !== 'over') return;
    const asked = s.seats.flatMap((x, i) => (x.rematch && i !== seat ? [i] : []));
    if (asked.length && !s.seats[seat].rematch && canRematch())
      offersEl.appendChild(
        h('div.offer-bar', { id: 'offer-rematch' }, h('span.text', null, t('rematchAsked')), h('button.btn.btn-small.primary', { id: 'accept-rematch', onclick: () => live.send('rematch') }, t('accept'))),
      );
  }

  function gameId(): string | null {
    const n = state?.game?.number;
    if (typeof n !== 'number') return null;
    return n <= 1 ? id : `${id}-${n}`;
  }

  function saveRecord() {
    const gid = gameId();
    if (!gid) return;
    const ext = recordExtension(hooks.game);
    const a = h('a', { href: `/game/${encodeURIComponent(gid)}.${ext}`, download: `qiyuan-${gid}.${ext}` });
    document.body.appendChild(a);
    a.click();
    a.remove();
  }

  function maybeResult() {
    const s = state!;
    const o = s.game?.outcome;
    if (s.status !== 'over' || !o || !s.game) return;
    const key = `${s.game.number}:${o.reason}:${o.score}`;
    if (resultShownFor === key) return;
    const first = resultShownFor === '';
    resultShownFor = key;
    // A page opened on a finished game shows the result line only.
    if (first && !ctx!.events.some((e) => e.type === 'ended')) return;
    showResult(true);
  }

  function showResult(withSound: boolean) {
    const s = state!;
    const o = s.game?.outcome;
    if (!o || !s.game) return;
    if (withSound) sound('end');
    const extra = hooks.resultBody?.(ctx!) ?? null;
    const gid = gameId();
    const hasMoves = s.game.moves.length > 0;
    const rows = (ratingChanges ?? []).map((r) => {
      const cls = r.diff > 0 ? '.up' : r.diff < 0 ? '.down' : '';
      return h('div.result-sub', null, `${playerName(r.user)}: `, h(`span.rating-delta${cls}`, { 'data-seat': r.seat }, `${r.diff > 0 ? '+' : ''}${Math.round(r.diff)}`), ` → ${Math.round(r.after)}`);
    });
    const body = h(
      'div',
      null,
      h('div.result-text', { id: 'result-text' }, resultLine(o)),
      extra,
      rows.length ? h('div.result-sub', null, t('ratingChange')) : null,
      rows,
      // A game without moves has no record worth saving or replaying.
      gid && hasMoves ? h('div.result-sub', null, t('saveRecord')) : null,
      gid && hasMoves ? h('div.result-sub', null, replayButton(gid, 'small')) : null,
      me() !== null && !canRematch() ? h('div.result-sub', { id: 'opponent-left' }, t('opponentLeft')) : null,
    );
    resultDialog?.close();
    const d = dialog(tx('result'), body, [
      ...(gid && hasMoves ? [{ label: t('save'), onClick: () => (saveRecord(), false) }] : []),
      ...(canRematch() ? [{ label: t('rematch'), cls: 'primary', onClick: () => void ((resultDialog = null), live.send('rematch')) }] : []),
      { label: t('close'), onClick: () => void (resultDialog = null) },
    ], { id: 'result-dialog' });
    resultDialog = d;
  }

  function maybeProposal() {
    const s = state!;
    const p = s.proposal;
    const mine = me();
    const pending =
      !!p && mine !== null && p.by !== mine && s.seats?.[mine]?.accepted !== p.id && s.status !== 'playing' && p.id !== firstProposal;
    if (!pending) {
      proposalDialog?.close();
      proposalDialog = null;
      return;
    }
    if (proposalDialog?.pid === p.id || dismissedProposal === p.id) return;
    proposalDialog?.close();
    const pid = p.id;
    const setup = p.settings.setup;
    const d = dialog(
      t('timeSettings'),
      h(
        'div',
        null,
        h('div.hint', null, t('proposedTime')),
        h('div.result-text', { id: 'proposed-tc' }, tcText(p.settings?.time, hooks.game)),
        optionsLine(p.settings?.options),
        typeof setup === 'object' && 'position' in setup ? h('div.hint', { id: 'proposed-setup' }, `${t('load')}: ${setup.position.split('\n')[0].slice(0, 80)}`) : null,
      ),
      [
        { label: t('decline'), onClick: () => void ((proposalDialog = null), declineProposal(pid)) },
        { label: t('accept'), cls: 'primary', onClick: () => ((proposalDialog = null), live.send('accept', { proposal: pid })) },
      ],
      { id: 'time-accept-dialog', dismiss: false },
    );
    proposalDialog = { close: d.close, pid };
  }

  /** 不同意: the proposer is told; the dialog and the bar go. */
  function declineProposal(pid: number) {
    dismissedProposal = pid;
    live.send('decline', { proposal: pid });
    if (state) renderOffers();
  }

  function optionsLine(o: JsonValue | undefined) {
    const text = o && hooks.optionsText ? hooks.optionsText(o) : null;
    return text ? h('div.hint', null, text) : null;
  }

  /** Proposes the next game's settings, keeping what the proposal does not change. */
  function propose(change: { time?: TimeControl; setup?: { position: string } }) {
    const cur = state!.proposal.settings;
    const setup = change.setup ?? 'standard';
    live.send('propose', {
      settings: {
        time: change.time ?? cur.time,
        options: cur.options ?? {},
        setup,
        // A game from a position read in is never rated.
        rated: change.setup ? false : !!cur.rated,
        takebacks: cur.takebacks ?? true,
      },
    });
  }

  function openTime() {
    const s = state!;
    const cur = s.proposal?.settings;
    const presets = presetsOf(hooks.game);
    let chosen = presets.find((p) => sameTc(p.time, cur?.time))?.key ?? (hooks.customTime && cur ? 'custom' : presets[0]?.key ?? 'custom');
    const radio = (key: string, label: string, hint: string) =>
      h('label', null, h('input', { type: 'radio', name: 'preset', value: key, checked: key === chosen, onchange: () => (chosen = key) }), h('div', null, label), h('div.hint', null, hint));
    const custom = hooks.customTime ? customClock(cur?.time, () => {
      chosen = 'custom';
      const r = body.querySelector<HTMLInputElement>('input[value=custom]');
      if (r) r.checked = true;
    }) : null;
    const body = h(
      'div.time-form',
      null,
      h('div.time-presets', null, presets.map((p) => radio(p.key, presetLabel(p), tcText(p.time, hooks.game).split(' · ').pop() ?? '')), custom ? radio('custom', t('custom'), '…') : null),
      custom?.el ?? null,
    );
    dialog(t('timeSettings'), body, [
      { label: t('cancel') },
      {
        label: t('propose'),
        cls: 'primary',
        onClick: () => {
          const time = chosen === 'custom' && custom ? custom.value() : presets.find((x) => x.key === chosen)?.time;
          if (time) propose({ time });
        },
      },
    ], { id: 'time-dialog' });
  }

  /** A clock of one's own: QQ (局时 / 步时 / 读秒) or Fischer. */
  function customClock(tc: TimeControl | undefined, onInput: () => void): { el: HTMLElement; value: () => TimeControl } {
    const q = tc?.kind === 'qq' ? tc : (presetsOf(hooks.game).map((p) => p.time).find((x) => x.kind === 'qq') ?? { kind: 'qq', game: 0, per_move: 0, countdown: 0 });
    const qq = q.kind === 'qq' ? q : { game: 0, per_move: 0, countdown: 0 };
    const num = (name: string, v: number) => h('input', { type: 'number', name, min: 0, value: String(v) }) as HTMLInputElement;
    const kindSel = h('select', { name: 'kind' }, h('option', { value: 'qq' }, 'QQ'), h('option', { value: 'fischer', selected: tc?.kind === 'fischer' }, 'Fischer')) as HTMLSelectElement;
    const base = num('base', tc?.kind === 'fischer' ? tc.base / 60000 : qq.game / 60000);
    const mt = num('moveTime', qq.per_move / 1000);
    const cd = num('countdown', qq.countdown / 1000);
    const inc = num('increment', tc?.kind === 'fischer' ? tc.increment / 1000 : 0);
    const row = (label: string, input: HTMLElement, kinds: string) => {
      input.dataset.kinds = kinds;
      return [h('span', { 'data-kinds': kinds }, label), input];
    };
    const el = h(
      'div.time-custom',
      { oninput: onInput },
      h('span', null, t('clockKind')),
      kindSel,
      row(t('gameTime'), base, 'qq fischer'),
      row(t('moveTime'), mt, 'qq'),
      row(t('byoyomi'), cd, 'qq'),
      row(t('increment'), inc, 'fischer'),
    );
    // Only the fields of the chosen kind of clock.
    const showKind = () => el.querySelectorAll<HTMLElement>('[data-kinds]').forEach((x) => (x.style.display = (x.dataset.kinds ?? '').split(' ').includes(kindSel.value) ? '' : 'none'));
    kindSel.addEventListener('change', showKind);
    showKind();
    const n = (x: HTMLInputElement) => Math.max(0, Number(x.value) || 0);
    return {
      el,
      value: () =>
        kindSel.value === 'fischer'
          ? { kind: 'fischer', base: n(base) * 60000, increment: n(inc) * 1000 }
          : { kind: 'qq', game: n(base) * 60000, per_move: n(mt) * 1000, countdown: n(cd) * 1000 },
    };
  }

  function openLoad() {
    const ta = h('textarea.record-input', { rows: 6, placeholder: t('loadHint'), id: 'load-input' }) as HTMLTextAreaElement;
    dialog(t('loadTitle'), ta, [
      { label: t('cancel') },
      {
        label: t('ok'),
        cls: 'primary',
        onClick: () => {
          // A position or a whole record, as the server reads them: it refuses
          // what it cannot read (bad_settings).
          const text = ta.value.trim();
          if (!text) {
            toast(t('invalidRecord'), 'error');
            return false;
          }
          propose({ setup: { position: text } });
        },
      },
    ], { id: 'load-dialog' });
  }

  // Clocks are drawn on animation frames from the last reading and the server's time
  // (table/clocks.ts), and at once whenever the seats are drawn again (which makes
  // new, empty clock elements).
  function drawClocks() {
    const c: ClockView | null = state?.game?.clock ?? null;
    // The server's time as this browser estimates it (net/lag.ts), so that every
    // browser shows the same time.
    const serverNow = live.serverNow();
    const playing = state?.status === 'playing';
    for (let seat = 0; seat < hooks.seats; seat++) {
      const el = root.querySelector<HTMLElement>(`#clock-${seat}`);
      if (!el) continue;
      const face = clockFace(c, seat, serverNow, playing);
      renderClock(el, face, userSettings().lang === 'en' ? 'en' : 'zh');
      if (seat === me()) {
        if (face.low && !lowWarned) sound('lowtime');
        lowWarned = face.low;
      }
    }
  }
  function tick() {
    drawClocks();
    raf = requestAnimationFrame(tick);
  }
  raf = requestAnimationFrame(tick);

  return () => {
    closed = true;
    cancelAnimationFrame(raf);
    offLanguage();
    settingsListeners.delete(rerender);
    live.close();
    proposalDialog?.close();
    resultDialog?.close();
  };
}
