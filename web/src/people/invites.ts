// Invitations to a table (docs/protocol.md, `/api/invite/…`): the header's
// slot listing the invitations waiting for this person, each with accept (the
// server seats them; the page goes to the table) and decline with a reason the
// inviter is shown; the table's "invite a friend" and "invite link" buttons;
// and the page an invite link opens (`#/join/{token}`), which seats whoever
// opens it first. The slot reads the open invitations once as a page opens,
// then again only when the page's channel is told of one — it never polls.
// Names are shown as text, never as HTML.
import { h, mount } from '../dom';
import { api } from '../net/api';
import { errorOf } from '../errors';
import { gameName } from '../net/games';
import { t } from '../i18n';
import { session } from '../session';
import { settings } from '../settings';
import { dialog, toast } from '../ui';
import { ensureChannel, onNotify } from './channel';
import type { Following, InvitationNote, InviteLink, LinkView, SeatedAt } from '../net/generated/protocol';

const W = {
  invites: ['邀请你入座', 'invites you to a table'],
  accept: ['接受', 'Accept'],
  decline: ['拒绝', 'Decline'],
  inviteFriend: ['邀请好友', 'Invite a friend'],
  inviteLink: ['邀请链接', 'Invite link'],
  invite: ['邀请', 'Invite'],
  invited: ['已邀请 {name}', '{name} is invited'],
  noFriends: ['还没有好友：互相关注即成为好友', 'No friends yet: two who follow each other are friends'],
  linkTitle: ['邀请链接（第一个打开的人入座）', 'Invite link (seats whoever opens it first)'],
  copy: ['复制', 'Copy'],
  copied: ['已复制', 'Copied'],
  close: ['关闭', 'Close'],
  joinTitle: ['{from} 邀请你来下{game}', '{from} invites you to play {game}'],
  joining: ['正在入座…', 'Taking the seat…'],
  taken: ['这个链接的座位已经有人了（{name}）', 'This link’s seat is taken ({name})'],
  takenByYou: ['你已经用这个链接入座了', 'You took this link’s seat already'],
  toTable: ['前往这张桌子', 'Go to the table'],
  loginFirst: ['请先登录或注册账号，再打开这个链接入座', 'Log in or register, then open this link again to take the seat'],
  reason: ['理由', 'Reason'],
} as const;

/** The reasons a decline may give, in both languages (the server's keys). */
export const INVITE_REASONS: Record<string, [string, string]> = {
  generic: ['现在不方便', 'not now'],
  later: ['请稍后再邀请我', 'please ask again later'],
  busy: ['正在忙', 'busy'],
  tooFast: ['时限太快', 'this time control is too fast'],
  tooSlow: ['时限太慢', 'this time control is too slow'],
  rated: ['想下排位赛', 'rather a rated game'],
  casual: ['想下友谊赛', 'rather a casual game'],
};

function w(k: keyof typeof W, vars: Record<string, string> = {}): string {
  const text = settings().lang === 'en' ? W[k][1] : W[k][0];
  return text.replace(/\{(\w+)\}/g, (_, v: string) => vars[v] ?? '');
}

/** An invitation's decline reason as the inviter reads it. */
export function inviteReasonText(reason: string | undefined): string {
  const r = INVITE_REASONS[reason ?? 'generic'] ?? INVITE_REASONS.generic;
  return settings().lang === 'en' ? r[1] : r[0];
}

function row(n: InvitationNote, refresh: () => void): HTMLElement {
  const reason = h(
    'select.invite-reason',
    { id: `invite-reason-${n.id}`, title: w('reason') },
    Object.keys(INVITE_REASONS).map((k) => h('option', { value: k }, inviteReasonText(k))),
  ) as HTMLSelectElement;
  const accept = async () => {
    try {
      const at = await api<SeatedAt>('POST', `/api/invite/${encodeURIComponent(n.id)}/accept`, {});
      location.hash = `#/table/${encodeURIComponent(at.table)}`;
    } catch (e) {
      toast(errorOf(e), 'error');
    }
    refresh();
  };
  const decline = async () => {
    try {
      await api('POST', `/api/invite/${encodeURIComponent(n.id)}/decline`, { reason: reason.value });
    } catch (e) {
      toast(errorOf(e), 'error');
    }
    refresh();
  };
  return h(
    'div.invite-in',
    { id: `invite-${n.id}`, 'data-from': n.from },
    h('span', null, `${n.from} ${w('invites')}（${gameName(n.game)}）`),
    h('button.btn.small.primary', { id: `invite-accept-${n.id}`, onclick: () => void accept() }, w('accept')),
    reason,
    h('button.btn.small', { id: `invite-decline-${n.id}`, onclick: () => void decline() }, w('decline')),
  );
}

let unsubscribe: (() => void) | undefined;

/** The header's slot for the invitations waiting for this person. */
export function invitationBox(): HTMLElement {
  const el = h('span.invite-slot', { id: 'invite-slot' });
  ensureChannel();
  unsubscribe?.();
  unsubscribe = undefined;
  const user = session();
  if (!user || user.guest) return el;
  const refresh = () => {
    const slot = document.getElementById('invite-slot');
    if (!slot) return;
    void api<InvitationNote[]>('GET', '/api/invite')
      .then((list) => mount(slot, list.map((n) => row(n, refresh))))
      .catch(() => undefined);
  };
  unsubscribe = onNotify((n) => {
    if (n.kind.startsWith('invitation')) refresh();
  });
  queueMicrotask(refresh);
  return el;
}

/** Invites `name` to table `table`; true once the server took it. */
export async function inviteTo(name: string, table: string): Promise<boolean> {
  try {
    await api<InvitationNote>('POST', `/api/invite/to/${encodeURIComponent(name)}`, { table });
    toast(w('invited', { name }));
    return true;
  } catch (e) {
    toast(errorOf(e), 'error');
    return false;
  }
}

/** The table's "invite a friend" dialog: the friends, each with an invite button. */
async function friendsDialog(table: string) {
  let list: Following;
  try {
    list = await api<Following>('GET', '/api/rel/following');
  } catch (e) {
    toast(errorOf(e), 'error');
    return;
  }
  const friends = list.following.filter((p) => p.friend);
  const body = friends.length
    ? h(
        'div',
        { id: 'invite-friends' },
        friends.map((p) =>
          h(
            'div.friend-row',
            { 'data-user': p.username },
            h('span.friend-name', null, p.username),
            h(
              'button.btn.btn-small.primary',
              {
                id: `invite-friend-${p.username}`,
                onclick: (e: Event) => {
                  const b = e.currentTarget as HTMLButtonElement;
                  b.disabled = true;
                  void inviteTo(p.username, table).then((ok) => (b.disabled = ok));
                },
              },
              w('invite'),
            ),
          ),
        ),
      )
    : h('div.hint', null, w('noFriends'));
  dialog(w('inviteFriend'), body, [{ label: w('close') }], { id: 'invite-dialog' });
}

/** The table's invite link dialog: a new link, to copy and send. */
async function linkDialog(table: string) {
  let link: InviteLink;
  try {
    link = await api<InviteLink>('POST', `/api/table/${encodeURIComponent(table)}/invite-link`, {});
  } catch (e) {
    toast(errorOf(e), 'error');
    return;
  }
  const url = `${location.origin}${link.url}`;
  const field = h('input.invite-url', { id: 'invite-url', type: 'text', readOnly: true, value: url }) as HTMLInputElement;
  dialog(w('linkTitle'), field, [
    {
      label: w('copy'),
      onClick: () => {
        field.select();
        void navigator.clipboard?.writeText(url).then(
          () => toast(w('copied')),
          () => undefined,
        );
        return false;
      },
    },
    { label: w('close') },
  ], { id: 'invite-link-dialog' });
  field.select();
}

/** The table's invite buttons (for an account seated there), or `null`. */
export function inviteButtons(table: string, seated: boolean): HTMLElement | null {
  const s = session();
  if (!s || s.guest || !seated) return null;
  return h(
    'div.invite-buttons',
    { id: 'invite-buttons' },
    h('button.btn.btn-small', { id: 'invite-friend', onclick: () => void friendsDialog(table) }, w('inviteFriend')),
    h('button.btn.btn-small', { id: 'invite-link', onclick: () => void linkDialog(table) }, w('inviteLink')),
  );
}

/** `#/join/{token}`: an invite link opened — its seat is taken at once by a
 * logged-in account, and the page goes to the table; once taken it says by whom. */
export function joinPage(root: HTMLElement, token: string): () => void {
  let stopped = false;
  const box = h('div.panel.join-page', { id: 'join-page' }, h('div.hint', null, '…'));
  mount(root, box);
  const path = `/api/invite/link/${encodeURIComponent(token)}`;
  const show = (...children: (Node | string | null)[]) => {
    if (!stopped) mount(box, ...children);
  };
  const toTable = (table: string) => h('a.btn', { id: 'join-table', href: `#/table/${encodeURIComponent(table)}` }, w('toTable'));
  void (async () => {
    let view: LinkView;
    try {
      view = await api<LinkView>('GET', path);
    } catch (e) {
      show(h('div', { id: 'join-error' }, errorOf(e)));
      return;
    }
    const title = h('h3', null, w('joinTitle', { from: view.from, game: view.game ? gameName(view.game) : '' }));
    const me = session();
    if (!view.open) {
      const mine = view.taken_by && me && view.taken_by === me.name;
      show(title, h('div', { id: 'join-taken' }, mine ? w('takenByYou') : w('taken', { name: view.taken_by ?? '?' })), mine ? toTable(view.table) : null);
      return;
    }
    if (!me || me.guest) {
      show(title, h('div', { id: 'join-login' }, w('loginFirst')), h('a.btn.primary', { href: '#/login' }, t('login')));
      return;
    }
    show(title, h('div.hint', null, w('joining')));
    try {
      const at = await api<SeatedAt>('POST', path, {});
      if (!stopped) location.hash = `#/table/${encodeURIComponent(at.table)}`;
    } catch (e) {
      show(title, h('div', { id: 'join-error' }, errorOf(e)));
    }
  })();
  return () => {
    stopped = true;
  };
}
