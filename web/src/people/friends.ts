// People one follows (关注) and friends (好友: both follow), with where each is
// now — offline, online, playing at a table, watching one — in a panel opened
// from the header of every page; and the follow and block buttons of a
// profile. The server's answers are typed by the generated `Following` and
// `RelationView` (docs/protocol.md, `/api/rel/…`). Names are shown as text,
// never as HTML.
import { h, mount } from '../dom';
import { api } from '../net/api';
import { errorOf } from '../errors';
import { session } from '../session';
import { settings } from '../settings';
import { toast } from '../ui';
import { inviteTo } from './invites';
import { challengeDialog } from './challenge';
import { onPresence } from './channel';
import type { FollowedPerson, Following, Presence, RelationView } from '../net/generated/protocol';
import { listenForMessages, messageButton } from './messages';

const W = {
  friends: ['好友', 'Friends'],
  following: ['关注', 'Following'],
  none: ['还没有关注任何人：在对方的资料页点「关注」', 'You follow nobody yet: press Follow on a profile'],
  offline: ['离线', 'offline'],
  online: ['在线', 'online'],
  playing: ['对局中', 'playing'],
  watching: ['观战中', 'watching'],
  follow: ['关注', 'Follow'],
  unfollow: ['取消关注', 'Unfollow'],
  block: ['拉黑', 'Block'],
  unblock: ['取消拉黑', 'Unblock'],
  friend: ['好友', 'friend'],
  followsYou: ['关注了你', 'follows you'],
  blocked: ['已拉黑', 'Blocked'],
  blockedBy: ['对方已将你拉黑', 'This person blocks you'],
  invite: ['邀请入座', 'Invite'],
  challenge: ['挑战', 'Challenge'],
  blockSure: ['拉黑后双方互相取消关注，对方不能再向你挑战。确定吗？', 'Blocking ends both follows and refuses their challenges. Block?'],
} as const;

function w(k: keyof typeof W): string {
  return settings().lang === 'en' ? W[k][1] : W[k][0];
}

/** Where a person is, in words, with a link to the table they play or watch. */
function presenceView(p: Presence): HTMLElement {
  switch (p.state) {
    case 'playing':
    case 'watching':
      return h('a.presence', { href: `#/table/${encodeURIComponent(p.table)}`, 'data-state': p.state }, w(p.state));
    default:
      return h('span.presence', { 'data-state': p.state }, w(p.state));
  }
}

/** The table this page shows, if it is a table's page. */
function tableHere(): string | null {
  const m = /^#\/table\/([^/]+)/.exec(location.hash);
  return m ? decodeURIComponent(m[1]) : null;
}

function personRow(p: FollowedPerson): HTMLElement {
  const table = tableHere();
  return h(
    'div.friend-row',
    { 'data-user': p.username, 'data-state': p.presence.state },
    h('span.presence-dot', { 'data-state': p.presence.state }),
    h('a.friend-name', { href: `#/profile/${encodeURIComponent(p.username)}` }, p.username),
    presenceView(p.presence),
    // A friend is invited to the table this page shows (the server refuses
    // unless one sits there).
    p.friend && table
      ? h(
          'button.btn.btn-small.primary',
          {
            class: 'friend-invite',
            'data-user': p.username,
            onclick: (e: Event) => {
              const b = e.currentTarget as HTMLButtonElement;
              b.disabled = true;
              void inviteTo(p.username, table).then((ok) => (b.disabled = ok));
            },
          },
          w('invite'),
        )
      : null,
    h('button.btn.btn-small', { class: 'friend-challenge', 'data-user': p.username, onclick: () => challengeDialog(p.username) }, w('challenge')),
    messageButton(p.username),
  );
}

/** The panel's body: friends first, then the others one follows. */
function listView(f: Following): HTMLElement {
  const friends = f.following.filter((p) => p.friend);
  const others = f.following.filter((p) => !p.friend);
  if (!f.following.length) return h('div.hint', null, w('none'));
  return h(
    'div',
    null,
    friends.length ? [h('div.friends-title', null, w('friends')), h('div', { id: 'friends-list' }, friends.map(personRow))] : null,
    others.length ? [h('div.friends-title', null, w('following')), h('div', { id: 'following-list' }, others.map(personRow))] : null,
  );
}

/** The presence listener of the header drawn last. */
let offPresence: (() => void) | undefined;

/**
 * The header's friends button and its panel (accounts only): the list is read
 * when the panel opens, and again when it is opened the next time.
 */
export function friendsBox(): HTMLElement | null {
  const s = session();
  if (!s || s.guest) return null;
  // Private messages open their conversation on whichever page is shown.
  listenForMessages();
  const panel = h('div.friends-panel', { id: 'friends-panel', hidden: true });
  const load = async (again = false) => {
    if (!again) mount(panel, h('div.hint', null, '…'));
    try {
      mount(panel, listView(await api<Following>('GET', '/api/rel/following')));
    } catch (e) {
      mount(panel, h('div.hint', null, errorOf(e)));
    }
  };
  // An open panel follows the presence pushed on the page's channel.
  offPresence?.();
  offPresence = onPresence(() => {
    if (!panel.hidden && panel.isConnected) void load(true);
  });
  const button = h(
    'button.btn.btn-small',
    {
      id: 'friends-button',
      onclick: () => {
        panel.hidden = !panel.hidden;
        if (!panel.hidden) void load();
      },
    },
    w('friends'),
  );
  return h('div.friends-box', null, button, panel);
}

/**
 * A profile's follow and block buttons, for a logged-in account looking at
 * another account's profile (`null` otherwise).
 */
export function relationButtons(name: string, guestProfile: boolean): HTMLElement | null {
  const s = session();
  if (!s || s.guest || guestProfile || s.name.toLowerCase() === name.toLowerCase()) return null;
  const box = h('div.relation-buttons', { id: 'relation' });
  const path = (verb: string) => `/api/rel/${verb}/${encodeURIComponent(name)}`;
  const act = async (verb: 'follow' | 'unfollow' | 'block' | 'unblock') => {
    if (verb === 'block' && !confirm(w('blockSure'))) return;
    try {
      draw(await api<RelationView>('POST', path(verb), {}));
    } catch (e) {
      toast(errorOf(e), 'error');
    }
  };
  const draw = (r: RelationView) =>
    mount(
      box,
      r.blocking
        ? null
        : h(
            `button.btn${r.following ? '' : '.primary'}`,
            { id: r.following ? 'unfollow' : 'follow', disabled: r.blocked_by, onclick: () => void act(r.following ? 'unfollow' : 'follow') },
            r.following ? w('unfollow') : w('follow'),
          ),
      h('button.btn', { id: r.blocking ? 'unblock' : 'block', onclick: () => void act(r.blocking ? 'unblock' : 'block') }, r.blocking ? w('unblock') : w('block')),
      r.friend ? h('span.tag', { id: 'relation-friend' }, w('friend')) : r.followed_by ? h('span.hint', null, w('followsYou')) : null,
      r.blocking ? h('span.hint', null, w('blocked')) : r.blocked_by ? h('span.hint', null, w('blockedBy')) : null,
    );
  void api<RelationView>('GET', path('with'))
    .then(draw)
    .catch(() => mount(box));
  return box;
}
