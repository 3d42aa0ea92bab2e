// The table page's frame: the board column (the connection banner over the
// game's main area) and the side column (title, spectators, time control, seats,
// status line and offers; the buttons; the game's own panels; the chat). The other views
// draw into the elements it makes.
import { h, mount } from '../../dom';
import { t, texts, type Key } from '../../i18n';
import type { TableCtrl } from '../ctrl';
import { tcText } from '../timeText';
import { chatPanel, type ChatPanel } from './chat';
import { inviteButtons } from '../../people/invites';
import { isGuestName } from '../../players';

const tx = texts({
  watching: ['观战：', 'Watching: '],
  guests: ['{n} 位游客', '{n} guest(s)'],
});

/** Who watches: the accounts by name (as text), the guests counted. */
function drawSpectators(el: HTMLElement, names: string[]) {
  const people = names.filter((n) => !isGuestName(n));
  const guests = names.length - people.length;
  el.dataset.count = String(names.length);
  mount(
    el,
    names.length ? tx('watching') : null,
    people.map((n, i) => [i ? '、' : null, h('a.spectator', { href: `#/profile/${encodeURIComponent(n)}`, 'data-user': n }, n)]),
    guests ? h('span.spectator-guests', { 'data-guests': String(guests) }, `${people.length ? ' + ' : ''}${tx('guests', { n: guests })}`) : null,
  );
}

export interface TableLayout {
  page: HTMLElement;
  banner: HTMLElement;
  title: HTMLElement;
  spectators: HTMLElement;
  spectatorList: HTMLElement;
  invite: HTMLElement;
  timeControl: HTMLElement;
  seats: HTMLElement;
  status: HTMLElement;
  /** The arbiter's warnings, fouls and violations in the game, per player. */
  marks: HTMLElement;
  offers: HTMLElement;
  buttons: HTMLElement;
  chat: ChatPanel;
}

/** Mounts the frame of `ctrl`'s table into `root`. */
export function tableLayout<V>(root: HTMLElement, ctrl: TableCtrl<V>): TableLayout {
  const { game, main, panels } = ctrl.hooks;
  const chat = chatPanel(ctrl);
  const l: Omit<TableLayout, 'page' | 'chat'> = {
    banner: h('div.conn-banner', { id: 'conn-banner', style: { display: 'none' } }, t('connecting')),
    title: h('span', { id: 'table-title' }),
    spectators: h('span.spectators', { id: 'spectators' }),
    spectatorList: h('div.spectator-list.hint', { id: 'spectator-list' }),
    invite: h('div', { id: 'table-invite' }),
    timeControl: h('div.hint', { id: 'time-control' }),
    seats: h('div.seats', { id: 'seats' }),
    status: h('div.status-line', { id: 'status' }),
    marks: h('div.hint.arbiter-marks', { id: 'arbiter-marks' }),
    offers: h('div', { id: 'offers' }),
    buttons: h('div.table-buttons', { id: 'table-buttons' }),
  };
  const page = h(
    `div.table-page.${game}-page`,
    { id: 'table-page', 'data-game': game },
    h('div.board-col', null, l.banner, main),
    h(
      'div.side-col',
      null,
      h('div.panel.seats-panel', null, h('div.panel-title', null, l.title, l.spectators), l.spectatorList, l.timeControl, l.seats, l.status, l.marks, l.offers),
      h('div.panel.buttons-panel', null, l.buttons, l.invite),
      ...panels,
      chat.el,
    ),
  );
  mount(root, page);
  return { page, chat, ...l };
}

/** The connection's state, shown over the board while it is not open; kept on
 * the page (`data-conn`) for a script (or a test) to read. */
export function drawConnection<V>(l: TableLayout, ctrl: TableCtrl<V>) {
  if (ctrl.conn) l.page.dataset.conn = ctrl.conn;
  const st = ctrl.conn ?? 'open';
  l.banner.style.display = st === 'open' ? 'none' : '';
  l.banner.textContent = t(st === 'connecting' ? 'connecting' : st === 'reconnecting' ? 'reconnecting' : 'disconnected');
}

/** The table's title, its spectators and the time control of its game (or of the proposal). */
export function drawHeader<V>(l: TableLayout, ctrl: TableCtrl<V>) {
  const s = ctrl.state!;
  const { game } = ctrl.hooks;
  // The table's status as the page last drew it: a script (or a test) knows
  // from it when the board takes a move.
  l.page.dataset.status = s.status;
  l.title.textContent = `${t(game as Key)} · ${t('table')} ${ctrl.id}`;
  const watching = s.spectators ?? [];
  l.spectators.textContent = `${t('spectators')} ${watching.length}`;
  drawSpectators(l.spectatorList, watching);
  // A seated account invites a friend, or anyone by link, while a seat is free.
  const free = s.seats.some((seat) => !seat.user);
  mount(l.invite, free ? inviteButtons(ctrl.id, s.you !== null && s.you !== undefined) : null);
  const settings = s.status === 'playing' || s.status === 'over' ? s.game?.settings : s.proposal?.settings;
  const rated = settings?.rated ? t('rated') : t('casual');
  l.timeControl.textContent = `${t('timePreset')}: ${tcText(settings?.time, game)} · ${rated}`;
}

/** The arbiter's record of the game at the table: each player's warnings,
 * fouls and violations (`裁判记录 · alice: 警告 1 · 犯规 2/3`), and nothing when
 * there are none. */
export function drawMarks<V>(l: TableLayout, ctrl: TableCtrl<V>) {
  const s = ctrl.state!;
  const g = s.status === 'playing' || s.status === 'over' ? s.game : null;
  const parts: string[] = [];
  s.seats.forEach((seat, i) => {
    const w = g?.warnings?.[i] ?? 0;
    const f = g?.fouls?.[i] ?? 0;
    const v = g?.violations?.[i] ?? 0;
    if (!w && !f && !v) return;
    const items = [
      w ? `${t('arbWarnings')} ${w}` : '',
      f ? `${t('arbFouls')} ${f}/3` : '',
      v ? `${t('arbViolations')} ${v}/3` : '',
    ].filter(Boolean);
    parts.push(`${seat.user ?? ''}: ${items.join(' · ')}`);
  });
  l.marks.textContent = parts.length ? `${t('arbMarks')} · ${parts.join('；')}` : '';
  l.marks.style.display = parts.length ? '' : 'none';
}
