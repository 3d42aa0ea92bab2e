// The page's channel to its person (docs/protocol.md, `notify`): one WebSocket
// for as long as someone is logged in, as Lichess's site socket. What happens to
// them is pushed here the moment it happens — a challenge made, accepted,
// declined or canceled, their tournament round paired, an arbiter's word, a
// mention, an announcement, a mute — and nothing is polled. The chat beyond the
// tables (games' and events' rooms, private messages: rooms.ts, messages.ts)
// speaks over it too. A round paired takes the player to their table, as on
// Lichess (but for the event's own page, which offers the game); so does a
// challenge of theirs that was accepted.
import { Socket } from '../net/socket';
import type { ClientType, DataArg } from '../net/socket';
import type { ChatPlace, Notification, PlaceLine, PresenceMsg } from '../net/generated/protocol';
import { session } from '../session';
import { settings } from '../settings';
import { toast } from '../ui';
import { inviteReasonText } from './invites';

type Listener = (n: Notification) => void;
type PresenceListener = (p: PresenceMsg) => void;

let sock: Socket | null = null;
/** The person the open channel is for. */
let owner: string | null = null;
const listeners = new Set<Listener>();
const presenceListeners = new Set<PresenceListener>();
const lineListeners = new Set<(line: PlaceLine) => void>();
/** The rooms this page is in, by `placeKey`. */
const joined = new Map<string, ChatPlace>();

const W = {
  challenge: ['{from} 向你发起挑战', '{from} challenges you'],
  accepted: ['{to} 接受了你的挑战', '{to} accepted your challenge'],
  declined: ['{to} 拒绝了你的挑战：{reason}', '{to} declined your challenge: {reason}'],
  canceled: ['{from} 撤回了挑战', '{from} withdrew the challenge'],
  round: ['{name} 第{round}轮已配对：前往第{board}台', '{name} round {round} is paired: to board {board}'],
  arbiter: ['裁判 {arbiter}：{reason}', 'Arbiter {arbiter}: {reason}'],
  invitation: ['{from} 邀请你入座', '{from} invites you to a table'],
  invitationAccepted: ['{to} 接受了你的邀请', '{to} accepted your invitation'],
  invitationDeclined: ['{to} 拒绝了你的邀请：{reason}', '{to} declined your invitation: {reason}'],
  mention: ['{by} 提到了你：{text}', '{by} mentioned you: {text}'],
  announcement: ['{name} 公告（{by}）：{text}', '{name} announcement ({by}): {text}'],
  muted: ['你已被禁言 {minutes} 分钟：{reason}', 'You are muted for {minutes} min: {reason}'],
  mutedForever: ['你已被禁言：{reason}', 'You are muted: {reason}'],
} as const;

/** Lichess's decline reasons, in both languages. */
export const REASONS: Record<string, [string, string]> = {
  generic: ['现在不接受挑战', 'not accepting challenges at the moment'],
  later: ['请稍后再试', 'not now, please ask again later'],
  tooFast: ['时限太快', 'this time control is too fast'],
  tooSlow: ['时限太慢', 'this time control is too slow'],
  timeControl: ['不接受这个时限', 'not accepting this time control'],
  rated: ['请发起排位赛', 'please send a rated challenge'],
  casual: ['请发起友谊赛', 'please send a casual challenge'],
  standard: ['不接受变体', 'not accepting variant challenges'],
  variant: ['不接受这个变体', 'not accepting this variant'],
  noBot: ['不接受机器人的挑战', 'not accepting challenges from bots'],
  onlyBot: ['只接受机器人的挑战', 'only accepting challenges from bots'],
};

function say(k: keyof typeof W, vars: Record<string, string | number>): string {
  const text = settings().lang === 'en' ? W[k][1] : W[k][0];
  return text.replace(/\{(\w+)\}/g, (_, v: string) => String(vars[v] ?? ''));
}

/** A decline's reason as the sender reads it. */
export function reasonText(reason: string | undefined): string {
  const r = REASONS[reason ?? 'generic'] ?? REASONS.generic;
  return settings().lang === 'en' ? r[1] : r[0];
}

/** Goes to a table unless this page is there already. */
function goTo(table: string) {
  if (location.hash !== `#/table/${table}`) location.hash = `#/table/${table}`;
}

/** What every page does with a notification, before the listeners. */
function handle(n: Notification) {
  const me = session()?.name;
  switch (n.kind) {
    case 'challenge':
      if (n.to === me) toast(say('challenge', { from: n.from }));
      break;
    case 'challenge_accepted':
      if (n.from === me && n.table) {
        toast(say('accepted', { to: n.to }));
        goTo(n.table);
      }
      break;
    case 'challenge_declined':
      if (n.from === me) toast(say('declined', { to: n.to, reason: reasonText(n.reason) }), 'error');
      break;
    case 'challenge_canceled':
      if (n.to === me) toast(say('canceled', { from: n.from }));
      break;
    case 'round':
      toast(say('round', { name: n.name, round: n.round, board: n.board }));
      // The event's own page offers the game itself (`#my-game`); from
      // anywhere else the player is taken there.
      if (!location.hash.startsWith(`#/event/${n.event}`)) goTo(n.table);
      break;
    case 'arbiter':
      toast(say('arbiter', { arbiter: n.action.arbiter, reason: n.action.reason }), 'error');
      break;
    case 'invitation':
      if (n.to === me) toast(say('invitation', { from: n.from }));
      break;
    case 'invitation_accepted':
      if (n.from === me) toast(say('invitationAccepted', { to: n.to }));
      break;
    case 'invitation_declined':
      if (n.from === me) toast(say('invitationDeclined', { to: n.to, reason: inviteReasonText(n.reason) }), 'error');
      break;
    case 'event_changed':
      break;
    case 'mention':
      toast(say('mention', { by: n.by, text: n.text }));
      break;
    case 'announcement':
      toast(say('announcement', { name: n.name, by: n.by, text: n.text }));
      break;
    case 'muted': {
      const minutes = Math.max(1, Math.ceil((n.until - Date.now()) / 60000));
      // A mute without end (the `muted` role) reads i64::MAX.
      const forever = n.until > Date.now() + 10 * 365 * 24 * 3600 * 1000;
      toast(say(forever ? 'mutedForever' : 'muted', { minutes, reason: n.reason }), 'error');
      break;
    }
  }
  for (const l of listeners) l(n);
}

/**
 * Opens the channel for whoever is logged in now, or closes it when nobody is
 * (called as each page is drawn: the same person keeps the same socket).
 */
export function ensureChannel() {
  const name = session()?.name ?? null;
  if (name === owner && (sock || !name)) return;
  sock?.close();
  sock = null;
  owner = name;
  if (!name) return;
  const s = new Socket('/ws');
  s.onMessage = (m) => {
    if (m.t === 'notify') handle(m.d);
    else if (m.t === 'rel.presence') for (const l of presenceListeners) l(m.d);
    else if (m.t === 'chat.line') for (const l of lineListeners) l(m.d);
  };
  // A socket opened again follows again what the page follows, and is in no
  // room: the rooms this page is in are joined again (their latest lines come
  // again; listeners drop the ones they have by id).
  s.onOpen = () => {
    for (const event of followed) s.sendNow('event.follow', { event });
    for (const place of joined.values()) s.sendNow('chat.join', { place });
  };
  sock = s;
}

/** The events whose pages are open here (told `event_changed`). */
const followed = new Set<string>();

/**
 * Follows event `event` on the page's channel (its page is open): `notify`
 * `event_changed` comes whenever it changes, and once at the start. Works for
 * anyone, logged in or not (a page without a person has a socket for this
 * alone). The unfollow.
 */
export function followEvent(event: string): () => void {
  if (!sock) {
    // Nobody logged in: a socket for the event's page alone.
    sock = new Socket('/ws');
    sock.onMessage = (m) => {
      if (m.t === 'notify') handle(m.d);
    };
    const s = sock;
    s.onOpen = () => {
      for (const e of followed) s.sendNow('event.follow', { event: e });
    };
  }
  followed.add(event);
  sock.sendNow('event.follow', { event });
  return () => {
    followed.delete(event);
    sock?.sendNow('event.unfollow', { event });
  };
}

/** Calls `l` with every presence change of a person followed (`rel.presence`); the unsubscribe. */
export function onPresence(l: PresenceListener): () => void {
  presenceListeners.add(l);
  return () => presenceListeners.delete(l);
}

/** Calls `l` with every chat line this page receives (rooms joined, private messages); the unsubscribe. */
export function onChatLine(l: (line: PlaceLine) => void): () => void {
  lineListeners.add(l);
  return () => lineListeners.delete(l);
}

/** A request on the page's channel (rejected when nobody is logged in). */
export function channelRequest<T extends ClientType>(t: T, ...d: DataArg<T>): Promise<unknown> {
  ensureChannel();
  if (!sock) return Promise.reject(Object.assign(new Error('not logged in'), { code: 'not_logged_in' }));
  return sock.request(t, ...d);
}

/** The same place as a key. */
export function placeKey(p: ChatPlace): string {
  return JSON.stringify(p);
}

/** Joins a game's or an event's room (again after a reconnection) until `leavePlace`. */
export function joinPlace(place: ChatPlace): Promise<unknown> {
  joined.set(placeKey(place), place);
  return channelRequest('chat.join', { place });
}

export function leavePlace(place: ChatPlace) {
  if (!joined.delete(placeKey(place))) return;
  sock?.sendNow('chat.leave', { place });
}

/** Calls `l` with every notification this page receives; the unsubscribe. */
export function onNotify(l: Listener): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}
