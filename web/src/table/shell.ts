// The table around a game's board (Go's Shudan, Doudizhu's card table): seats
// with clocks, the time settings (proposed by one seat, accepted by the
// others), start, resign, leave, rematch, and the result dialog, written once
// for any game. The game page fills the main area, adds its own panels and
// answers the hooks below; this shell owns the connection (table/connection.ts)
// and hands it every new view. It names no game: what differs comes from the
// hooks or from the game's descriptor (seat names, presets, record format).
import { h, mount } from '../dom';
import { t, reasonText, type Key } from '../i18n';
import { avatar, dialog, formatClock, toast } from '../ui';
import { describeTc, type TimeControl } from '../net/model';
import { gameInfo, presetsOf, recordExtension, sameTc } from '../net/games';
import { replayButton } from '../replay/replay';
import { play as sound } from '../sound';
import { liveTable, takeAutoSit, type LiveTable } from '../go/live';
import type { BoardView, ClockView, JsonValue, Outcome, TableView } from '../net/generated/protocol';
import type { TableEvent } from './connection';
import { tx } from '../go/text';
import { botName, isBot } from '../doudizhu/bots';

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
  /** Called with every new state. */
  render(ctx: ShellContext<V>): void;
  /** The status line while playing. */
  status(ctx: ShellContext<V>): string;
  /** The result dialog's extra body (score details). */
  resultBody?(ctx: ShellContext<V>): HTMLElement | null;
  /** Whether the table offers draws and takebacks (Go; not Doudizhu). */
  offers?: boolean;
  /** Whether the result line shows the record's score (Go's `B+3.5`). */
  showScore?: boolean;
  /** A line describing the game's options in a proposal (board size, komi). */
  optionsText?(options: JsonValue): string | null;
  /** The seat order in the seats panel (the viewer's seat last, nearest the board). */
  seatOrder?(me: number | null): number[];
}

export function tableShell<V extends BoardView>(root: HTMLElement, id: string, hooks: ShellHooks<V>): () => void {
  let state: TableView<V> | null = null;
  let ctx: ShellContext<V> | null = null;
  let resultShownFor = '';
  let proposalDialog: { close: () => void } | null = null;
  let dismissedProposal = -1;
  let firstProposal: number | undefined;
  let autoSit = takeAutoSit(id);
  const banner = h('div.conn-banner', { id: 'conn-banner', style: { display: 'none' } }, t('connecting'));
  const titleEl = h('span', { id: 'table-title' });
  const specEl = h('span.spectators', { id: 'spectators' });
  const tcEl = h('div.hint', { id: 'time-control' });
  const seatsEl = h('div.seats', { id: 'seats' });
  const statusEl = h('div.status-line', { id: 'status' });
  const offersEl = h('div', { id: 'offers' });
  const buttonsEl = h('div.table-buttons', { id: 'table-buttons' });

  mount(
    root,
    h(
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
    ),
  );

  const live = liveTable<V>(id, {
    onState: (s, events) => {
      state = s;
      render(events);
    },
    onStatus: (st) => {
      banner.style.display = st === 'open' ? 'none' : '';
      banner.textContent = st === 'connecting' ? t('connecting') : t('disconnected');
    },
    onError: (msg) => toast(msg, 'error'),
  });

  function me(): number | null {
    return typeof state?.you === 'number' ? state.you : null;
  }

  function render(events: TableEvent[]) {
    const s = state!;
    const mySeat = me();
    const playing = s.status === 'playing';
    ctx = { state: s, events, me: mySeat, live, playing };
    if (firstProposal === undefined) firstProposal = s.proposal?.id ?? -1;
    if (autoSit !== null) {
      const seat = autoSit;
      autoSit = null;
      if (mySeat === null && !s.seats?.[seat]?.user) live.send('sit', { seat });
    }
    titleEl.textContent = `${t(hooks.game as Key)} · ${t('table')} ${id}`;
    specEl.textContent = `${t('spectators')} ${(s.spectators ?? []).length}`;
    const tc = (playing || s.status === 'over' ? s.game?.settings?.time : s.proposal?.settings?.time) as TimeControl | undefined;
    tcEl.textContent = `${t('timePreset')}: ${tcText(tc, hooks.game)}`;
    renderSeats();
    renderButtons();
    renderOffers();
    hooks.render(ctx);
    statusEl.textContent = statusText();
    if (events.some((e) => e.type === 'acted')) sound('move');
    maybeResult();
    maybeProposal();
  }

  function statusText(): string {
    const s = state!;
    const o = s.game?.outcome;
    if (s.status === 'over' && o) return resultLine(o);
    if (s.status === 'playing') return hooks.status(ctx!);
    const mine = me();
    if (s.proposal && mine !== null && s.proposal.by === mine && !allAccepted()) return t('waitingAccept');
    return tx('waiting');
  }

  /** The seats' sides in the game's words (`black`, `white`), if it has sides. */
  const sides = gameInfo(hooks.game)?.seat_names ?? [];

  function resultLine(o: Outcome): string {
    const mine = me();
    const results: string[] = o.results ?? [];
    let who: string;
    if (results.every((r) => r === 'void')) who = reasonText('aborted');
    else if (mine !== null && results[mine] === 'win') who = t('youWin');
    else if (mine !== null && results[mine] === 'loss') who = t('youLose');
    else if (sides.length) {
      // A game whose seats are sides (black and white): which side won.
      const winner = results.indexOf('win');
      who = winner >= 0 && sides[winner] ? t(`${sides[winner]}Wins` as Key) : t('drawResult');
    } else who = '';
    const score = o.score && o.score !== '*' && hooks.showScore ? ` ${o.score}` : '';
    const reason = o.reason === 'hand_emptied' ? tx('r_hand_emptied') : reasonText(o.reason);
    return `${who}（${reason}）${score}`.trim();
  }

  function allAccepted(): boolean {
    const s = state!;
    const p = s.proposal;
    return !!p && s.seats.every((x) => x.accepted === p.id);
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
      avatar(name ?? '?', sides.length ? seat : 0),
      h(
        'div.who',
        null,
        h(
          'div.name',
          null,
          name
            ? isBot(name)
              ? h('span.player-name', null, botName(name))
              : h('a', { href: `#/profile/${encodeURIComponent(name)}`, class: 'player-name' }, name)
            : h('span.hint', null, t('emptySeat')),
          x.ready && !playing ? h('span.ready-tag', null, t('ready')) : null,
        ),
        h('div.sub', null, ctx ? hooks.seatSub(ctx, seat) : '', name && x.connected === false ? ` · ${t('offlineTag')}` : ''),
      ),
      !name && mine === null ? h('button.btn.btn-small.blue', { id: `sit-${seat}`, onclick: () => live.send('sit', { seat }) }, t('sitHere')) : null,
      h('div.clock', { id: `clock-${seat}`, 'data-seat': seat }, '--:--'),
    );
  }

  function renderSeats() {
    const order = hooks.seatOrder?.(me()) ?? [...Array(hooks.seats).keys()];
    mount(seatsEl, order.map(seatCard));
  }

  function btn(name: string, label: string, enabled: boolean, onclick: () => void, cls = '') {
    return h(`button.btn${cls}`, { id: `btn-${name}`, disabled: !enabled, onclick }, label);
  }

  function renderButtons() {
    const s = state!;
    const seat = me();
    const seated = seat !== null;
    const playing = s.status === 'playing';
    const ready = seated && !!s.seats?.[seat!]?.ready;
    mount(
      buttonsEl,
      btn('start', ready && !playing ? t('ready') : t('start'), seated && !playing && !ready, () => live.send('ready', { proposal: s.proposal?.id }), '.primary'),
      btn('time', t('time'), seated && !playing, openTime),
      hooks.offers ? btn('takeback', t('takeback'), seated && playing && (s.game?.moves ?? []).length > 0 && s.game?.takeback_request == null, () => (live.send('takeback.request'), toast(t('offerSent')))) : null,
      hooks.offers ? btn('draw', t('draw'), seated && playing && s.game?.draw_offer == null, () => (live.send('draw.offer'), toast(t('offerSent')))) : null,
      btn('resign', t('resign'), seated && playing, () =>
        dialog(t('resign'), t('confirmResign'), [{ label: t('cancel') }, { label: t('resign'), cls: 'primary', onClick: () => live.send('resign') }], { id: 'resign-dialog' }),
      ),
      btn('save', t('save'), !!s.game, saveRecord),
      seated && !playing ? btn('stand', t('standUp'), true, () => live.send('stand')) : btn('rematch', t('rematch'), seated && s.status === 'over', () => live.send('rematch')),
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
    const bar = (name: string, text: string, yes: string, no: string) =>
      h(
        'div.offer-bar',
        { id: `offer-${name}` },
        h('span.text', null, text),
        h('button.btn.btn-small.primary', { id: `accept-${name}`, onclick: () => live.send(yes) }, t('accept')),
        h('button.btn.btn-small', { id: `decline-${name}`, onclick: () => live.send(no) }, t('decline')),
      );
    if (s.status === 'playing') {
      const g = s.game;
      if (!g) return;
      if (typeof g.draw_offer === 'number' && g.draw_offer !== seat) offersEl.appendChild(bar('draw', t('drawOffered'), 'draw.accept', 'draw.decline'));
      if (typeof g.takeback_request === 'number' && g.takeback_request !== seat) offersEl.appendChild(bar('takeback', t('takebackAsked'), 'takeback.accept', 'takeback.decline'));
      return;
    }
    if (s.status !== 'over') return;
    const asked = s.seats.flatMap((x, i) => (x.rematch && i !== seat ? [i] : []));
    if (asked.length && !s.seats[seat].rematch)
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
    sound('end');
    const extra = hooks.resultBody?.(ctx!) ?? null;
    const gid = gameId();
    const replay = gid && s.game.moves.length ? h('div.result-sub', null, replayButton(gid, 'small')) : null;
    dialog(tx('result'), h('div', null, h('div.result-text', { id: 'result-text' }, resultLine(o)), extra, replay), [
      ...(me() !== null ? [{ label: t('rematch'), cls: 'primary', onClick: () => live.send('rematch') }] : []),
      { label: t('close') },
    ], { id: 'result-dialog' });
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
    if (proposalDialog || dismissedProposal === p.id) return;
    const pid = p.id;
    proposalDialog = dialog(
      t('timeSettings'),
      h('div', null, h('div.hint', null, t('proposedTime')), h('div.result-text', { id: 'proposed-tc' }, tcText(p.settings?.time, hooks.game)), optionsLine(p.settings?.options)),
      [
        { label: t('decline'), onClick: () => void ((proposalDialog = null), (dismissedProposal = pid)) },
        { label: t('accept'), cls: 'primary', onClick: () => ((proposalDialog = null), live.send('accept', { proposal: pid })) },
      ],
      { id: 'time-accept-dialog', dismiss: false },
    );
  }

  function optionsLine(o: JsonValue | undefined) {
    const text = o && hooks.optionsText ? hooks.optionsText(o) : null;
    return text ? h('div.hint', null, text) : null;
  }

  function openTime() {
    const s = state!;
    const cur = s.proposal?.settings ?? {};
    const presets = presetsOf(hooks.game);
    const curKey = presets.find((p) => sameTc(p.time, cur.time))?.key ?? presets[0]?.key;
    const sel = h('select', { name: 'preset', id: 'time-preset' }, presets.map((p) => h('option', { value: p.key, selected: p.key === curKey }, `${presetLabel(p)} · ${tcText(p.time, hooks.game).split(' · ').pop()}`))) as HTMLSelectElement;
    const body = h('div.time-form', null, h('label.setting', null, h('span', null, tx('clock')), sel));
    dialog(t('timeSettings'), body, [
      { label: t('cancel') },
      {
        label: t('propose'),
        cls: 'primary',
        onClick: () => {
          const p = presets.find((x) => x.key === sel.value) ?? presets[0];
          if (!p) return;
          live.send('propose', { settings: { time: p.time, options: cur.options ?? {}, setup: 'standard', rated: !!cur.rated, takebacks: cur.takebacks ?? true } });
        },
      },
    ], { id: 'time-dialog' });
  }

  // Clocks tick on animation frames from the last reading.
  let raf = 0;
  let readAt = performance.now();
  let lastClock: ClockView | null = null;
  function tick() {
    const c: ClockView | null = state?.game?.clock ?? null;
    if (c !== lastClock) {
      lastClock = c;
      readAt = performance.now();
    }
    for (let seat = 0; seat < hooks.seats; seat++) {
      const el = root.querySelector(`#clock-${seat}`) as HTMLElement | null;
      if (!el) continue;
      const sc = c?.seats[seat];
      const kind = c?.control?.kind;
      if (!c || !sc || kind === 'none' || state?.status !== 'playing') {
        // A per-turn clock (Doudizhu) shows its turn time between hands.
        const control = c?.control;
        const perTurn = control?.kind === 'qq' && control.game === 0 ? control.countdown : null;
        const text = kind === 'none' || !c ? '--:--' : formatClock(perTurn ?? sc?.main ?? 0);
        if (el.textContent !== text) el.textContent = text;
        el.className = 'clock';
        continue;
      }
      const running = c.running === seat && !c.paused;
      const elapsed = running ? performance.now() - readAt : 0;
      const main = Math.max(0, (sc.main ?? 0) - (sc.overtime ? 0 : elapsed));
      const left = typeof sc.move_left === 'number' ? Math.max(0, sc.move_left - elapsed) : null;
      let big = main;
      let sub = '';
      if (kind === 'byo_yomi') {
        if (sc.overtime) {
          big = left ?? 0;
          sub = `${t('byoyomi').replace(/\(.*\)/, '')} ×${sc.periods}`;
        } else sub = `${sc.periods}×${formatClock(c.control.period)}`;
      } else if (kind === 'canadian') {
        if (sc.overtime) {
          big = left ?? 0;
          sub = `${sc.moves_left} / ${formatClock(c.control.period)}`;
        }
      } else if (kind === 'qq' && left !== null) {
        if (c.control.game === 0 || sc.overtime) big = left;
        else sub = formatClock(left);
      }
      const low = running && big < 10_000;
      const cls = `clock${running ? ' running' : ''}${low ? ' low' : ''}`;
      if (el.className !== cls) el.className = cls;
      const key = formatClock(big) + '|' + sub;
      if (el.dataset.key !== key) {
        el.dataset.key = key;
        mount(el, formatClock(big), sub ? h('span.clock-sub', null, sub) : null);
      }
    }
    raf = requestAnimationFrame(tick);
  }
  raf = requestAnimationFrame(tick);

  return () => {
    cancelAnimationFrame(raf);
    live.close();
    proposalDialog?.close();
  };
}
