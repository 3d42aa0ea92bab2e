// The chat beyond the tables (docs/protocol.md "Chat"): a game's room (大厅) on
// its lobby page and an event's room on its page, spoken over the page's
// channel (channel.ts: `chat.join`, `chat.post`, `chat.line`). An event's
// arbiters and organiser may post announcements, marked in the room and told
// to every player. Every line has a report button (举报) but one's own; `@name`
// tells that person. Lines are drawn as text (text nodes only): `<script>`
// shows as those characters.
import { h, clear } from '../dom';
import { texts, onLanguage } from '../i18n';
import { errorOf } from '../errors';
import { api } from '../net/api';
import { session } from '../session';
import { toast } from '../ui';
import type { ChatPlace, PlaceLine } from '../net/generated/protocol';
import { channelRequest, joinPlace, leavePlace, onChatLine, placeKey } from './channel';
import './chat.css';

const tx = texts({
  lobby: ['大厅聊天', 'Room chat'],
  event: ['赛事聊天', 'Event chat'],
  placeholder: ['说点什么…（回车发送，@用户名 可提醒对方）', 'Say something… (Enter to send; @name tells them)'],
  send: ['发送', 'Send'],
  announce: ['作为公告发布', 'Post as an announcement'],
  announcement: ['公告', 'Announcement'],
  report: ['举报', 'Report'],
  reported: ['已举报，管理员会处理', 'Reported: an administrator will look at it'],
  none: ['还没有人说话', 'Nobody has said anything yet'],
  login: ['登录或以游客进入后即可聊天', 'Log in or enter as a guest to chat'],
  mute: ['禁言 10 分钟', 'Mute for 10 minutes'],
  muteSure: ['将 {user} 禁言 10 分钟（所有聊天）？', 'Mute {user} for 10 minutes (every chat)?'],
  mutedDone: ['{user} 已被禁言', '{user} is muted'],
});

/** Reports a chat line of any place into the admins' queue. */
export function reportLine(id: number) {
  channelRequest('chat.report', { line: id }).then(
    () => toast(tx('reported')),
    (e) => toast(errorOf(e), 'error'),
  );
}

/** One line as the rooms and conversations draw it; `mute`: the arbiter's
 * button that mutes its writer. */
export function lineView(l: PlaceLine, mute?: (user: string) => void): HTMLElement {
  const mine = l.user === session()?.name;
  return h(
    `div.chat-line${l.announcement ? '.chat-announcement' : ''}`,
    { 'data-id': String(l.id) },
    l.announcement ? h('span.chat-tag', null, `[${tx('announcement')}] `) : null,
    h('span.chat-user', null, l.user),
    ': ',
    h('span.chat-text', null, l.text),
    mine ? null : h('button.chat-report', { type: 'button', title: tx('report'), onclick: () => reportLine(l.id) }, '⚑'),
    mine || !mute ? null : h('button.chat-report.chat-mute', { type: 'button', title: tx('mute'), onclick: () => mute(l.user) }, '🔇'),
  );
}

export interface RoomPanel {
  el: HTMLElement;
  /** Leaves the room (the page is left). */
  close(): void;
}

/**
 * The chat panel of a game's or an event's room. `announcer`: the person may
 * post announcements there (an event's arbiter or organiser); `arbiter`: they
 * may mute the event's players (a player's line has the button; the server
 * refuses anyone else, `not_in_event`).
 */
export function roomPanel(place: ChatPlace, announcer = false, arbiter = false): RoomPanel {
  const key = placeKey(place);
  const kind = place.kind === 'event' ? 'event' : 'lobby';
  const lines: PlaceLine[] = [];
  const title = h('div.panel-title');
  const list = h('div.chat-lines', { id: `room-lines`, role: 'log', 'aria-live': 'polite' });
  const input = h('input.chat-input', { id: 'room-input', type: 'text', maxLength: 200, autocomplete: 'off' }) as HTMLInputElement;
  const sendBtn = h('button.btn.btn-small', { id: 'room-send', type: 'button', onclick: () => send() });
  const announce = h('input', { id: 'room-announce', type: 'checkbox' }) as HTMLInputElement;
  const announceLabel = h('label.chat-toggle', null, announce, h('span'));
  const el = h('div.panel.chat-panel.room-chat', { id: `room-chat`, 'data-place': kind }, title, list, h('div.chat-write', null, input, sendBtn), announcer ? announceLabel : null);
  input.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && !e.isComposing) send();
  });

  function send() {
    const text = input.value.trim();
    if (!text) return;
    input.value = '';
    channelRequest('chat.post', { place, text, announce: announcer && announce.checked }).catch((e) => toast(errorOf(e), 'error'));
  }

  const mute =
    arbiter && place.kind === 'event'
      ? (user: string) => {
          if (!confirm(tx('muteSure', { user }))) return;
          api('POST', `/api/event/${encodeURIComponent(place.event)}/mute`, { user, seconds: 600, reason: 'chat' }).then(
            () => toast(tx('mutedDone', { user })),
            (e) => toast(errorOf(e), 'error'),
          );
        }
      : undefined;

  function draw() {
    title.textContent = tx(kind);
    input.placeholder = tx('placeholder');
    sendBtn.textContent = tx('send');
    (announceLabel.lastChild as HTMLElement).textContent = tx('announce');
    const atBottom = list.scrollTop + list.clientHeight >= list.scrollHeight - 4;
    clear(list);
    if (!lines.length) list.appendChild(h('div.hint.chat-none', null, tx('none')));
    for (const l of lines) list.appendChild(lineView(l, mute));
    if (atBottom) list.scrollTop = list.scrollHeight;
  }

  const stopLines = onChatLine((l) => {
    if (placeKey(l.place) !== key || lines.some((x) => x.id === l.id)) return;
    lines.push(l);
    lines.sort((a, b) => a.id - b.id);
    if (lines.length > 200) lines.splice(0, lines.length - 200);
    draw();
  });
  const stopLanguage = onLanguage(draw);
  draw();
  if (session()) {
    joinPlace(place).catch((e) => toast(errorOf(e), 'error'));
  } else {
    input.disabled = true;
    input.placeholder = tx('login');
  }
  return {
    el,
    close() {
      stopLines();
      stopLanguage();
      leavePlace(place);
    },
  };
}
