// The table's chat (docs/protocol.md "Chat"): the lines of the rooms this page
// reads, a line to write, QQ-style quick phrases (快捷语) in the interface's
// language, a player's switch to read the spectators' room too, and a report
// button on each line of someone else's, and a player's switch to close the
// players' room (it stays closed while anyone at the table who asked it does;
// the names are shown). A player writes into the players'
// room, a spectator into the spectators'; the server decides which. Every line
// is drawn as text (text nodes only): `<script>` shows as those characters.
import { h, clear } from '../../dom';
import { texts } from '../../i18n';
import { errorOf } from '../../errors';
import { session } from '../../session';
import { settings } from '../../settings';
import { toast } from '../../ui';
import type { TableCtrl } from '../ctrl';

const tx = texts({
  chat: ['聊天', 'Chat'],
  players: ['棋手', 'Players'],
  spectators: ['观众', 'Spectators'],
  placeholder: ['说点什么…（回车发送）', 'Say something… (Enter to send)'],
  send: ['发送', 'Send'],
  quick: ['快捷语', 'Quick phrases'],
  showSpectators: ['显示观众聊天', 'Show the spectators’ chat'],
  playersOff: ['关闭棋手聊天', 'Switch the players’ chat off'],
  closed: ['棋手聊天已关闭：', 'The players’ chat is off: '],
  report: ['举报', 'Report'],
  reported: ['已举报，管理员会处理', 'Reported: an administrator will look at it'],
  none: ['还没有人说话', 'Nobody has said anything yet'],
});

/** The quick phrases, in both languages (the one shown is the one sent). */
const QUICK: ReadonlyArray<readonly [string, string]> = [
  ['大家好，很高兴见到各位！', 'Hello everyone, nice to meet you!'],
  ['快点吧，我等到花儿都谢了！', 'Hurry up, the flowers are wilting while I wait!'],
  ['好棋！', 'Nice move!'],
  ['不好意思，刚才掉线了。', 'Sorry, I was disconnected.'],
  ['不要走，决战到天亮！', 'Don’t go, let’s play till dawn!'],
  ['再来一局？', 'One more game?'],
  ['谢谢指教！', 'Thanks for the game!'],
  ['再见了，我会想念大家的！', 'Goodbye, I’ll miss you all!'],
];

export interface ChatPanel {
  el: HTMLElement;
  /** Draws the lines again (a line came, the seats or the language changed). */
  draw(): void;
}

/** The chat panel of `ctrl`'s table. */
export function chatPanel<V>(ctrl: TableCtrl<V>): ChatPanel {
  let showSpectators = false;
  const title = h('div.panel-title', { id: 'chat-title' });
  const lines = h('div.chat-lines', { id: 'chat-lines', role: 'log', 'aria-live': 'polite' });
  const input = h('input.chat-input', { id: 'chat-input', type: 'text', maxLength: 200, autocomplete: 'off' }) as HTMLInputElement;
  const sendBtn = h('button.btn.btn-small', { id: 'chat-send', type: 'button', onclick: () => send(input.value) });
  const quick = h('select.chat-quick', { id: 'chat-quick', onchange: () => pickQuick() }) as HTMLSelectElement;
  const toggle = h('input', { id: 'chat-show-spectators', type: 'checkbox', onchange: () => setSpectators(toggle.checked) }) as HTMLInputElement;
  const toggleLabel = h('label.chat-toggle', { id: 'chat-toggle' }, toggle, h('span'));
  const offBox = h('input', { id: 'chat-players-off', type: 'checkbox', onchange: () => setPlayersOff(offBox.checked) }) as HTMLInputElement;
  const offLabel = h('label.chat-toggle', { id: 'chat-players-toggle' }, offBox, h('span'));
  const closedNote = h('div.hint.chat-closed', { id: 'chat-closed' });
  const el = h(
    'div.panel.chat-panel',
    { id: 'chat' },
    title,
    toggleLabel,
    offLabel,
    closedNote,
    lines,
    h('div.chat-write', null, input, sendBtn),
    quick,
  );
  input.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && !e.isComposing) send(input.value);
  });

  function send(text: string) {
    const line = text.trim();
    if (!line) return;
    input.value = '';
    // A refusal (muted, too fast) is told by the table's error toast.
    ctrl.live.say(line).catch(() => undefined);
  }

  function pickQuick() {
    const i = Number(quick.value);
    quick.selectedIndex = 0;
    if (!Number.isInteger(i) || !QUICK[i]) return;
    send(phrase(i));
  }

  /** The quick phrase `i` in the interface's language. */
  function phrase(i: number): string {
    return settings().lang === 'en' ? QUICK[i][1] : QUICK[i][0];
  }

  function setSpectators(on: boolean) {
    showSpectators = on;
    ctrl.live.readSpectators(on).catch((e) => toast(errorOf(e), 'error'));
    draw();
  }

  /** Asks the players' room closed (`off`), or takes the ask back. */
  function setPlayersOff(off: boolean) {
    ctrl.live.switchPlayers(!off).catch((e) => {
      toast(errorOf(e), 'error');
      draw();
    });
  }

  function report(id: number) {
    ctrl.live.report(id).then(
      () => toast(tx('reported')),
      (e) => toast(errorOf(e), 'error'),
    );
  }

  function draw() {
    const me = session()?.name;
    const player = ctrl.me() !== null;
    title.textContent = tx('chat');
    input.placeholder = tx('placeholder');
    sendBtn.textContent = tx('send');
    toggleLabel.style.display = player ? '' : 'none';
    (toggleLabel.lastChild as HTMLElement).textContent = tx('showSpectators');
    offLabel.style.display = player ? '' : 'none';
    (offLabel.lastChild as HTMLElement).textContent = tx('playersOff');
    offBox.checked = !!me && ctrl.chatOff.includes(me);
    closedNote.style.display = ctrl.chatOff.length ? '' : 'none';
    closedNote.textContent = ctrl.chatOff.length ? tx('closed') + ctrl.chatOff.join(', ') : '';
    clear(quick);
    quick.appendChild(h('option', { value: '' }, tx('quick')));
    QUICK.forEach((_, i) => quick.appendChild(h('option', { value: String(i) }, phrase(i))));
    // A player who turned the spectators' room off does not see its lines.
    const shown = ctrl.chat.filter((l) => l.room === 'players' || !player || showSpectators);
    const atBottom = lines.scrollTop + lines.clientHeight >= lines.scrollHeight - 4;
    clear(lines);
    if (!shown.length) lines.appendChild(h('div.hint.chat-none', null, tx('none')));
    for (const l of shown) {
      lines.appendChild(
        h(
          `div.chat-line.chat-${l.room}`,
          { 'data-id': String(l.id), 'data-room': l.room },
          player && l.room === 'spectators' ? h('span.chat-room', null, `[${tx('spectators')}] `) : null,
          h('span.chat-user', null, l.user),
          ': ',
          h('span.chat-text', null, l.text),
          l.user !== me
            ? h('button.chat-report', { type: 'button', title: tx('report'), onclick: () => report(l.id) }, '⚑')
            : null,
        ),
      );
    }
    if (atBottom) lines.scrollTop = lines.scrollHeight;
  }

  draw();
  return { el, draw };
}
