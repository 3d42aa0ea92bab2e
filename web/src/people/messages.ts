// Private messages (私信, docs/protocol.md "Chat"): a conversation with one
// person in a small box at the page's corner, opened from a profile or the
// friends panel, and opened by itself when a message comes. Messages travel
// over the page's channel (`chat.post` / `chat.line` with a `private` place)
// and reach every page either person has open; a block refuses them both
// ways. Each line has a report button but one's own; the profile's report
// button reports the person (`POST /api/report/{name}`). Lines are drawn as
// text only.
import { h, clear } from '../dom';
import { texts, onLanguage } from '../i18n';
import { api } from '../net/api';
import { errorOf } from '../errors';
import { session } from '../session';
import { toast } from '../ui';
import type { PlaceLine } from '../net/generated/protocol';
import { channelRequest, ensureChannel, onChatLine } from './channel';
import { lineView } from './rooms';
import './chat.css';

const tx = texts({
  title: ['与 {name} 私信', 'Messages with {name}'],
  placeholder: ['写私信…（回车发送）', 'Write a message… (Enter to send)'],
  send: ['发送', 'Send'],
  close: ['关闭', 'Close'],
  message: ['私信', 'Message'],
  none: ['还没有私信', 'No messages yet'],
  reportPerson: ['举报', 'Report'],
  reportWhy: ['举报理由（可不填）：', 'Why do you report this person? (optional)'],
  reported: ['已举报，管理员会处理', 'Reported: an administrator will look at it'],
});

/** The open conversation: whom with, its lines, its box. */
let open: { name: string; lines: PlaceLine[]; box: HTMLElement; draw: () => void } | null = null;
let listening = false;

/** Opens the conversation with `name` (closing another), its latest lines read. */
export function openConversation(name: string) {
  listen();
  if (open?.name === name) return;
  open?.box.remove();
  const lines: PlaceLine[] = [];
  const title = h('span.panel-title');
  const list = h('div.chat-lines', { id: 'pm-lines', role: 'log', 'aria-live': 'polite' });
  const input = h('input.chat-input', { id: 'pm-input', type: 'text', maxLength: 200, autocomplete: 'off' }) as HTMLInputElement;
  const sendBtn = h('button.btn.btn-small', { id: 'pm-send', type: 'button', onclick: () => send() });
  const closeBtn = h('button.pm-close', { id: 'pm-close', type: 'button', onclick: () => close() }, '×');
  const box = h('div.pm-box', { id: 'pm-box', 'data-with': name }, h('div.pm-head', null, title, closeBtn), list, h('div.chat-write', null, input, sendBtn));
  input.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && !e.isComposing) send();
  });
  function send() {
    const text = input.value.trim();
    if (!text) return;
    input.value = '';
    channelRequest('chat.post', { place: { kind: 'private', with: name }, text }).catch((e) => toast(errorOf(e), 'error'));
  }
  function draw() {
    title.textContent = tx('title', { name });
    input.placeholder = tx('placeholder');
    sendBtn.textContent = tx('send');
    closeBtn.title = tx('close');
    clear(list);
    if (!lines.length) list.appendChild(h('div.hint.chat-none', null, tx('none')));
    for (const l of lines) list.appendChild(lineView(l));
    list.scrollTop = list.scrollHeight;
  }
  const stopLanguage = onLanguage(draw);
  function close() {
    stopLanguage();
    box.remove();
    if (open?.box === box) open = null;
  }
  open = { name, lines, box, draw };
  document.body.appendChild(box);
  draw();
  channelRequest('chat.join', { place: { kind: 'private', with: name } }).catch((e) => toast(errorOf(e), 'error'));
  input.focus();
}

/** Hears private messages: into the open conversation, or opening one. */
function listen() {
  if (listening) return;
  listening = true;
  ensureChannel();
  onChatLine((l) => {
    if (l.place.kind !== 'private') return;
    const other = l.place.with;
    if (open?.name !== other) {
      // A message from someone else opens their conversation (its history
      // brings this line); one's own from another page does not.
      if (l.user !== session()?.name) openConversation(other);
      return;
    }
    if (open.lines.some((x) => x.id === l.id)) return;
    open.lines.push(l);
    open.lines.sort((a, b) => a.id - b.id);
    open.draw();
  });
}

/** Starts hearing private messages on this page (called once at start). */
export function listenForMessages() {
  if (session() && !session()?.guest) listen();
}

/** The profile's message and report buttons for another person's profile. */
export function profileButtons(name: string, guestProfile: boolean): HTMLElement | null {
  const s = session();
  if (!s || s.name.toLowerCase() === name.toLowerCase()) return null;
  const report = h('button.btn', {
    id: 'report-person',
    type: 'button',
    onclick: () => {
      const reason = prompt(tx('reportWhy'));
      if (reason === null) return;
      api('POST', `/api/report/${encodeURIComponent(name)}`, { reason }).then(
        () => toast(tx('reported')),
        (e) => toast(errorOf(e), 'error'),
      );
    },
  });
  const message = s.guest || guestProfile ? null : h('button.btn', { id: 'message-person', type: 'button', onclick: () => openConversation(name) });
  const draw = () => {
    report.textContent = tx('reportPerson');
    if (message) message.textContent = tx('message');
  };
  draw();
  return h('div.relation-buttons', { id: 'profile-chat' }, message, report);
}

/** A friend's row's message button. */
export function messageButton(name: string): HTMLElement {
  return h('button.btn.btn-small.friend-message', { type: 'button', title: tx('message'), 'data-user': name, onclick: () => openConversation(name) }, '✉');
}
