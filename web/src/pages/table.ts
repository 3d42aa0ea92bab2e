// The table (游戏桌) of a game on a piece board: board, seats, clocks, the 联众
// buttons (开始 交换 和棋 读入 时间 悔棋 认输 保存 研究), move list, spectators, and
// the end-of-game dialog. Everything it shows comes from the server's view: the
// position, the legal moves, each move as written (SAN, Chinese, WXF); it has
// no rules of its own.
import { h, mount, clear } from '../dom';
import { t, reasonText, paren } from '../i18n';
import { settings, onSettings } from '../settings';
import { makeBoard } from '../boards/make';
import type { BoardWidget, Side } from '../boards/types';
import { play as sound } from '../sound';
import { avatar, dialog, formatClock, renderMoves, toast } from '../ui';
import { preset, recordExtension } from '../net/games';
import { describeTc, initialMs, presetOf, type TableActions, type TableModel, type TimeControl } from '../net/model';
import { connectTable } from '../net/protocol';
import { session } from '../session';
import { analysisBoard } from './analysis';
import { gameInfo } from '../net/games';
import type { TableEvent } from '../table/connection';
import type { Key } from '../i18n';
import { playerLink, playerName } from '../players';
import { replayButton } from '../replay/replay';

export function tablePage(root: HTMLElement, id: string) {
  let model: TableModel | null = null;
  let board: BoardWidget | null = null;
  let boardKind: string | null = null;
  let lastActed: TableEvent | null = null;
  let actions: TableActions | null = null;
  let shownResultFor: string | null = null;
  let lastPly = -1;
  let lowTimeWarned = false;
  let closeAnalysis: (() => void) | null = null;
  let dialogs: Record<string, { close: () => void } | null> = {};
  let dismissedProposal: number | null = null;
  let initialProposal: number | null | undefined;

  const banner = h('div.conn-banner', { id: 'conn-banner', style: { display: 'none' } }, t('connecting'));
  const boardCol = h('div.board-col');
  const seatTop = h('div.seat-slot', { id: 'seat-top' });
  const seatBottom = h('div.seat-slot', { id: 'seat-bottom' });
  const statusEl = h('div.status-line', { id: 'status' });
  const offersEl = h('div', { id: 'offers' });
  const buttonsEl = h('div.table-buttons', { id: 'table-buttons' });
  const movesEl = h('div.move-list', { id: 'moves' });
  const notationEl = h('span.notation-switch', { id: 'notation-switch' });
  const specEl = h('span.spectators', { id: 'spectators' });
  const titleEl = h('span', { id: 'table-title' });
  const tcEl = h('span.hint', { id: 'time-control' });
  const analysisEl = h('div.analysis-wrap', { id: 'analysis' });

  mount(
    root,
    h(
      'div.table-page',
      { id: 'table-page' },
      h('div', null, banner, boardCol, analysisEl),
      h(
        'div.side-col',
        null,
        h('div.panel', null, h('div.panel-title', null, titleEl, specEl), tcEl, seatTop, seatBottom, statusEl, offersEl),
        h('div.panel', null, buttonsEl),
        h('div.panel.moves-panel', null, h('div.panel-title', null, t('moves'), notationEl), movesEl),
      ),
    ),
  );

  const conn = connectTable(id, {
    onModel: (m) => {
      model = m;
      render();
    },
    onEvents: (events) => {
      lastActed = events.filter((e) => e.type === 'acted').pop() ?? lastActed;
    },
    onStatus: (state) => {
      banner.style.display = state === 'open' ? 'none' : '';
      banner.textContent = state === 'connecting' ? t('connecting') : t('disconnected');
    },
    onError: (msg) => {
      toast(msg, 'error');
      render(); // put a refused move back
    },
  });
  actions = conn;

  function me(): number | null {
    return model?.mySeat ?? null;
  }

  function ensureBoard(kind: string) {
    if (board && boardKind === kind) return board;
    board?.destroy();
    board = makeBoard(kind);
    boardKind = kind;
    board.onMove((uci) => {
      if (!model) return;
      if (model.turn !== me()) return; // premoves are replayed by chessground itself
      actions?.move(uci);
    });
    mount(boardCol, board.el);
    // `chess-page`, `xiangqi-page`: the page's layout follows its board.
    root.querySelector('#table-page')?.classList.add(`${kind}-page`);
    return board;
  }

  /** The side at `seat` in the game's own words (白 / 红 / 黑). */
  function sideName(kind: string, seat: number) {
    const name = gameInfo(kind)?.seat_names[seat];
    return name ? t(name as Key) : '';
  }

  function clockEl(seat: number) {
    return h('div.clock', { id: `clock-${seat}`, 'data-seat': seat }, '--:--');
  }

  function seatCard(seat: number) {
    const m = model!;
    const s = m.seats[seat];
    const p = s?.player;
    const toMove = m.status === 'playing' && m.turn === seat;
    const card = h(
      `div.seat-card${toMove ? '.to-move' : ''}`,
      { id: `seat-${seat}`, 'data-seat': seat },
      avatar(p ? playerName(p.name) : '?', seat),
      h(
        'div.who',
        null,
        h(
          'div.name',
          null,
          // A computer player by its name in words, never a profile link.
          p ? playerLink(p.name, 'player-name') : h('span.hint', null, t('emptySeat')),
          s?.ready && m.status !== 'playing' ? h('span.ready-tag', null, t('ready')) : null,
        ),
        h(
          'div.sub',
          null,
          sideName(m.game, seat),
          p?.rating !== undefined ? ` · ${Math.round(p.rating)}${p.provisional ? '?' : ''}` : '',
          p && !s.connected ? ` · ${t('offlineTag')}` : '',
        ),
      ),
      !p && m.mySeat === null ? h('button.btn.btn-small.blue', { id: `sit-${seat}`, onclick: () => actions?.sit(seat) }, t('sitHere')) : null,
      clockEl(seat),
    );
    return card;
  }

  function render() {
    const m = model;
    if (!m) return;
    if (initialProposal === undefined) initialProposal = m.timeProposal?.id ?? null;
    const kind = m.game;
    titleEl.textContent = `${t(kind as Key)} · ${t('table')} ${m.id}`;
    specEl.textContent = `${t('spectators')} ${m.spectators}`;
    tcEl.textContent = `${t('timePreset')}: ${describeTc(m.timeControl)} · ${m.rated ? t('rated') : t('casual')}`;
    const bottom = m.mySeat === 1 ? 1 : 0;
    mount(seatTop, seatCard(bottom === 0 ? 1 : 0));
    mount(seatBottom, seatCard(bottom));
    renderBoard(bottom as Side);
    renderMoveList();
    renderButtons();
    renderOffers();
    renderStatus();
    tickClocks();
    maybeShowResult();
    maybeShowTimeProposal();
  }

  function renderBoard(orientation: Side) {
    const m = model!;
    const b = ensureBoard(m.game);
    const fen = m.fen ?? m.startFen ?? b.start;
    const turn: Side = m.turn === 1 || (m.turn === null && fen.split(' ')[1] === 'b') ? 1 : 0;
    // Legal destinations by origin square, as the server lists the legal moves.
    const dests = new Map<string, string[]>();
    for (const u of m.legal ?? []) {
      const o = u.slice(0, 2);
      const list = dests.get(o) ?? [];
      if (!list.includes(u.slice(2, 4))) list.push(u.slice(2, 4));
      dests.set(o, list);
    }
    const myTurn = m.status === 'playing' && me() !== null && m.turn === me();
    const last = m.lastMove ?? m.moves[m.moves.length - 1]?.uci;
    b.set({
      fen,
      orientation,
      turn,
      movable: m.status === 'playing' && me() !== null ? (me() as Side) : null,
      dests: myTurn ? dests : new Map(),
      lastMove: last ? [last.slice(0, 2), last.slice(2, 4)] : undefined,
      check: m.check,
      premove: b.premoves && m.status === 'playing' && !myTurn,
    });
    if (m.moves.length !== lastPly) {
      if (lastPly >= 0 && m.moves.length > lastPly && lastActed?.type === 'acted') {
        sound(lastActed.check ? 'check' : lastActed.capture ? 'capture' : 'move');
      }
      lastPly = m.moves.length;
      if (myTurn) setTimeout(() => board?.playPremove(), 30);
    }
  }

  function renderMoveList() {
    const m = model!;
    // Each move as the server wrote it (SAN, Chinese); xiangqi's WXF from the
    // board's list, ICCS from the move itself.
    const want = settings().xqNotation;
    const wxf = m.wxf;
    const displays = m.moves.map((x, i) => {
      if (wxf && want === 'wxf') return wxf[i] ?? x.display;
      if (wxf && want === 'iccs') return `${x.uci.slice(0, 2)}-${x.uci.slice(2, 4)}`.toUpperCase();
      return x.display || x.uci;
    });
    const black = (m.startFen ?? '').split(' ')[1] === 'b';
    renderMoves(movesEl, displays, black ? 1 : 0);
    if (wxf) {
      mount(
        notationEl,
        (['chinese', 'wxf', 'iccs'] as const).map((n) =>
          h(`button${settings().xqNotation === n ? '.on' : ''}`, { 'data-notation': n, onclick: () => (settingsUpdate(n), render()) }, n === 'chinese' ? t('chineseNotation') : n.toUpperCase()),
        ),
      );
    } else clear(notationEl);
  }

  function settingsUpdate(n: 'chinese' | 'wxf' | 'iccs') {
    void import('../settings').then((s) => s.update({ xqNotation: n }));
  }

  function btn(idName: string, label: string, enabled: boolean, onclick: () => void, cls = '') {
    return h(`button.btn${cls}`, { id: `btn-${idName}`, disabled: !enabled, onclick }, label);
  }

  function renderButtons() {
    const m = model!;
    const seat = me();
    const seated = seat !== null;
    const playing = m.status === 'playing';
    const full = m.seats.every((s) => s.player);
    mount(
      buttonsEl,
      btn('start', m.seats[seat ?? 0]?.ready && seated && !playing ? t('ready') : t('start'), seated && !playing && !(m.seats[seat!]?.ready), () => actions?.ready(), '.primary'),
      btn('swap', t('swap'), seated && !playing && full, () => (actions?.swap(), toast(t('offerSent')))),
      btn('draw', t('draw'), seated && playing && m.offers.draw === undefined, () => (actions?.offerDraw(), toast(t('offerSent')))),
      btn('load', t('load'), seated && !playing, openLoad),
      btn('time', t('time'), seated && !playing, openTime),
      btn('takeback', t('takeback'), seated && playing && m.moves.length > 0 && m.offers.takeback === undefined, () => (actions?.takeback(), toast(t('offerSent')))),
      btn('resign', t('resign'), seated && playing, () =>
        dialog(t('resign'), t('confirmResign'), [{ label: t('cancel') }, { label: t('resign'), cls: 'primary', onClick: () => actions?.resign() }], { id: 'resign-dialog' }),
      ),
      btn('save', t('save'), !!m.gameId, saveRecord),
      btn('analysis', t('analysis'), true, openAnalysis),
      seated && !playing ? btn('stand', t('standUp'), true, () => actions?.stand()) : null,
      btn('leave', t('leave'), true, () => {
        const go = () => {
          actions?.leave();
          location.hash = `#/lobby/${m.game}`;
        };
        if (playing && seated) dialog(t('leave'), t('confirmLeave'), [{ label: t('cancel') }, { label: t('leave'), cls: 'primary', onClick: go }]);
        else go();
      }),
    );
  }

  function renderOffers() {
    const m = model!;
    const seat = me();
    clear(offersEl);
    if (seat === null) return;
    const other = seat === 0 ? 1 : 0;
    const bar = (idName: string, text: string, yes: () => void, no: () => void) =>
      h(
        'div.offer-bar',
        { id: `offer-${idName}` },
        h('span.text', null, text),
        h('button.btn.btn-small.primary', { id: `accept-${idName}`, onclick: yes }, t('accept')),
        h('button.btn.btn-small', { id: `decline-${idName}`, onclick: no }, t('decline')),
      );
    if (m.offers.draw === other) offersEl.appendChild(bar('draw', t('drawOffered'), () => actions?.answerDraw(true), () => actions?.answerDraw(false)));
    if (m.offers.takeback === other) offersEl.appendChild(bar('takeback', t('takebackAsked'), () => actions?.answerTakeback(true), () => actions?.answerTakeback(false)));
    if (m.offers.rematch === other && m.status === 'over') offersEl.appendChild(bar('rematch', t('rematchAsked'), () => actions?.rematch(), () => clear(offersEl)));
    if (m.offers.swap === other) offersEl.appendChild(bar('swap', t('swapAsked'), () => actions?.answerSwap(true), () => actions?.answerSwap(false)));
  }

  function renderStatus() {
    const m = model!;
    if (m.status === 'over' && m.result) {
      statusEl.textContent = resultText(m);
    } else if (m.status === 'playing') {
      const mine = m.turn === me();
      statusEl.textContent = mine ? t('yourTurn') : `${sideName(m.game, m.turn ?? 0)}${t('toMove')}`;
      if (m.check) statusEl.textContent += ' · ' + t('check');
    } else if (m.timeProposal && m.mySeat !== null && m.timeProposal.by === m.mySeat) statusEl.textContent = t('waitingAccept');
    else statusEl.textContent = t('waiting');
  }

  function resultText(m: TableModel): string {
    const r = m.result!;
    const winner = r.results.indexOf('win');
    let who: string;
    if (r.results.every((x) => x === 'void')) who = reasonText('aborted');
    else if (winner < 0) who = t('drawResult');
    else if (me() !== null) who = winner === me() ? t('youWin') : t('youLose');
    else who = t(`${gameInfo(m.game)?.seat_names[winner] ?? ''}Wins` as Key);
    return `${who}${paren(reasonText(r.reason))}${r.score && r.score !== '*' ? ' ' + r.score : ''}`;
  }

  function maybeShowResult() {
    const m = model!;
    if (m.status !== 'over' || !m.result) return;
    const key = `${m.gameId ?? ''}:${m.moves.length}:${m.result.reason}`;
    if (shownResultFor === key) return;
    shownResultFor = key;
    sound('end');
    const deltas = m.result.ratingDelta;
    const rows = m.seats.map((s, i) => {
      const d = deltas[i];
      if (!s.player || d === null || d === undefined) return null;
      const cls = d > 0 ? '.up' : d < 0 ? '.down' : '';
      return h('div.result-sub', null, `${playerName(s.player.name)}: `, h(`span.rating-delta${cls}`, { 'data-seat': i }, `${d > 0 ? '+' : ''}${Math.round(d)}`), m.result!.ratingAfter[i] ? ` → ${Math.round(m.result!.ratingAfter[i]!)}` : '');
    });
    const body = h(
      'div',
      null,
      h('div.result-text', { id: 'result-text' }, resultText(m)),
      rows.some(Boolean) ? h('div.result-sub', null, t('ratingChange')) : null,
      rows,
      // A game without moves has no record worth saving or replaying.
      m.gameId && m.moves.length ? h('div.result-sub', null, t('saveRecord')) : null,
      m.gameId && m.moves.length ? h('div.result-sub', null, replayButton(m.gameId, 'small')) : null,
    );
    dialogs.result?.close();
    dialogs.result = dialog(t('result'), body, [
      ...(m.gameId && m.moves.length ? [{ label: t('save'), onClick: () => (saveRecord(), false) }] : []),
      ...(me() !== null ? [{ label: t('rematch'), cls: 'primary', onClick: () => actions?.rematch() }] : []),
      { label: t('close') },
    ], { id: 'result-dialog' });
  }

  function saveRecord() {
    const m = model;
    if (!m?.gameId) return;
    const ext = recordExtension(m.game);
    const a = h('a', { href: `/game/${encodeURIComponent(m.gameId)}.${ext}`, download: `qiyuan-${m.gameId}.${ext}` });
    document.body.appendChild(a);
    a.click();
    a.remove();
  }

  function maybeShowTimeProposal() {
    const m = model!;
    const p = m.timeProposal;
    const mine = me();
    const pending = !!p && mine !== null && p.by !== mine && !p.accepted.includes(mine) && m.status !== 'playing' && m.seats.every((x) => x.player) && p.id !== initialProposal;
    if (!pending) {
      dialogs.time?.close();
      dialogs.time = null;
      return;
    }
    if (dialogs.time || dismissedProposal === p!.id) return;
    const id = p!.id;
    dialogs.time = dialog(
      t('timeSettings'),
      h('div', null, h('div.hint', null, t('proposedTime')), h('div.result-text', { id: 'proposed-tc' }, `${t(presetOf(p!.tc, m.game))} · ${describeTc(p!.tc)}`)),
      [
        { label: t('decline'), onClick: () => void ((dialogs.time = null), (dismissedProposal = id)) },
        { label: t('accept'), cls: 'primary', onClick: () => ((dialogs.time = null), actions?.acceptTime()) },
      ],
      { id: 'time-accept-dialog', dismiss: false },
    );
  }

  function openTime() {
    const m = model!;
    let chosen: 'quick' | 'match' | 'custom' = presetOf(m.timeControl, m.game);
    const presetTc = (k: 'quick' | 'match'): TimeControl => preset(m.game, k)?.time ?? { kind: 'none' };
    const quickQq = presetTc('quick');
    const cur = (m.timeControl && m.timeControl.kind === 'qq' ? m.timeControl : quickQq.kind === 'qq' ? quickQq : { kind: 'qq', game: 0, per_move: 0, countdown: 0 }) as Extract<TimeControl, { kind: 'qq' }>;
    const num = (name: string, v: number) => h('input', { type: 'number', name, min: 0, value: String(v) }) as HTMLInputElement;
    const kindSel = h('select', { name: 'kind' }, h('option', { value: 'qq' }, 'QQ'), h('option', { value: 'fischer' }, 'Fischer')) as HTMLSelectElement;
    const base = num('base', cur.game / 60000);
    const mt = num('moveTime', cur.per_move / 1000);
    const cd = num('countdown', cur.countdown / 1000);
    const inc = num('increment', 0);
    const radio = (v: 'quick' | 'match' | 'custom') =>
      h('label', null, h('input', { type: 'radio', name: 'preset', value: v, checked: v === chosen, onchange: () => (chosen = v) }), h('div', null, t(v)), h('div.hint', null, v === 'custom' ? '…' : describeTc(presetTc(v))));
    const row = (label: string, input: HTMLElement, kinds: string) => {
      input.dataset.kinds = kinds;
      return [h('span', { 'data-kinds': kinds }, label), input];
    };
    const body = h(
      'div.time-form',
      null,
      h('div.time-presets', null, radio('quick'), radio('match'), radio('custom')),
      h(
        'div.time-custom',
        { oninput: () => ((chosen = 'custom'), ((body.querySelector('input[value=custom]') as HTMLInputElement).checked = true)) },
        h('span', null, t('clockKind')), kindSel,
        row(t('gameTime'), base, 'qq fischer'),
        row(t('moveTime'), mt, 'qq'),
        row(t('byoyomi'), cd, 'qq'),
        row(t('increment'), inc, 'fischer'),
      ),
    );
    // Show only the fields of the chosen kind of clock.
    const showKind = () =>
      body.querySelectorAll<HTMLElement>('[data-kinds]').forEach((el) => (el.style.display = el.dataset.kinds!.split(' ').includes(kindSel.value) ? '' : 'none'));
    kindSel.addEventListener('change', showKind);
    showKind();
    dialog(t('timeSettings'), body, [
      { label: t('cancel') },
      {
        label: t('propose'),
        cls: 'primary',
        onClick: () => {
          let tc: TimeControl;
          if (chosen !== 'custom') tc = presetTc(chosen);
          else if (kindSel.value === 'fischer') tc = { kind: 'fischer', base: Math.max(0, Number(base.value)) * 60000, increment: Math.max(0, Number(inc.value)) * 1000 };
          else tc = { kind: 'qq', game: Math.max(0, Number(base.value)) * 60000, per_move: Math.max(0, Number(mt.value)) * 1000, countdown: Math.max(0, Number(cd.value)) * 1000 };
          actions?.proposeTime(tc);
        },
      },
    ], { id: 'time-dialog' });
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
          actions?.load(text);
        },
      },
    ], { id: 'load-dialog' });
  }

  function openAnalysis() {
    const m = model!;
    if (closeAnalysis) {
      closeAnalysis();
      return;
    }
    // The analysis board starts from the game's start with its moves, so that one
    // can step back through them and branch off anywhere.
    const start = m.startFen ?? board?.start ?? m.fen ?? '';
    closeAnalysis = analysisBoard(analysisEl, m.game as Parameters<typeof analysisBoard>[1], start, me() === 1 ? 1 : 0, () => {
      closeAnalysis = null;
    }, m.moves.map((x) => x.uci));
  }

  // Clocks tick on animation frames from the last authoritative reading.
  let raf = 0;
  function tickClocks() {
    const m = model;
    if (m) {
      const c = m.clock;
      for (let seat = 0; seat < 2; seat++) {
        const el = root.querySelector(`#clock-${seat}`) as HTMLElement | null;
        if (!el) continue;
        let main: number;
        let sub: number | null = null;
        let overtime = false;
        const running = !!c && m.status === 'playing' && c.running === seat;
        if (!c) {
          const init = initialMs(m.timeControl);
          main = init ?? 0;
          if (init === null) {
            if (el.textContent !== '--:--') el.textContent = '--:--';
            el.className = 'clock';
            continue;
          }
        } else {
          const elapsed = running ? performance.now() - c.receivedAt : 0;
          overtime = c.overtime[seat] ?? false;
          main = overtime ? c.ms[seat] ?? 0 : Math.max(0, (c.ms[seat] ?? 0) - elapsed);
          const s0 = c.sub[seat];
          sub = s0 === null || s0 === undefined ? null : Math.max(0, s0 - elapsed);
        }
        const shown = overtime && sub !== null ? sub : main;
        const limit = sub !== null ? Math.min(sub, overtime ? sub : Math.max(main, sub)) : main;
        const low = running && limit < 10_000;
        const cls = `clock${running ? ' running' : ''}${low ? ' low' : ''}`;
        if (el.className !== cls) el.className = cls;
        const subText = sub !== null && !overtime ? `${t('moveTime').replace(/\(.*\)/, '')} ${formatClock(sub)}` : overtime ? t('byoyomi').replace(/\(.*\)/, '') : '';
        const text = formatClock(shown);
        const key = text + '|' + subText;
        if (el.dataset.key !== key) {
          el.dataset.key = key;
          mount(el, text, subText ? h('span.clock-sub', null, subText) : null);
        }
        if (low && seat === me() && !lowTimeWarned) {
          lowTimeWarned = true;
          sound('lowtime');
        }
        if (!low && seat === me()) lowTimeWarned = false;
      }
    }
    cancelAnimationFrame(raf);
    raf = requestAnimationFrame(tickClocks);
  }

  onSettings(() => model && render());
  void session;
  dialogs = { result: null, time: null };

  return () => {
    cancelAnimationFrame(raf);
    conn.close();
    board?.destroy();
    closeAnalysis?.();
    Object.values(dialogs).forEach((d) => d?.close());
  };
}
