// Who is logged in. The server keeps the session in a cookie; we only cache the
// user's name and ratings for the header.
import { api } from './net/api';
import { setOwner, flushSettings } from './settings';
import type { UserInfo } from './net/generated/protocol';

export interface Me {
  name: string;
  guest: boolean;
  ratings?: Record<string, { rating: number; provisional?: boolean }>;
}

let me: Me | null = null;

export function session(): Me | null {
  return me;
}

/**
 * What the account routes answer (docs/protocol.md "Authentication"): `{"user":
 * UserInfo, …}`, with the profile's `ratings` from `GET /api/account/me`.
 */
interface AccountAnswer {
  user?: Partial<UserInfo>;
  ratings?: Array<{ pool?: unknown; rating?: unknown; provisional?: unknown }>;
}

function adopt(raw: unknown): Me | null {
  if (!raw || typeof raw !== 'object') return null;
  const r = raw as AccountAnswer;
  const name = r.user?.username;
  if (typeof name !== 'string' || !name) return null;
  const ratings: NonNullable<Me['ratings']> = {};
  for (const x of Array.isArray(r.ratings) ? r.ratings : []) if (typeof x.pool === 'string') ratings[x.pool] = { rating: Number(x.rating), provisional: !!x.provisional };
  me = { name, guest: r.user?.guest === true, ratings };
  setOwner(me.guest ? 'guest' : me.name);
  localStorage.setItem(FLAG, '1');
  return me;
}

// The session cookie is HttpOnly, so a flag remembers whether asking is worth it
// (an unauthenticated /me would log a 401 in the console on every first visit).
const FLAG = 'qiyuan.session';

export async function restoreSession(): Promise<Me | null> {
  if (!localStorage.getItem(FLAG)) return null;
  try {
    return adopt(await api('GET', '/api/account/me'));
  } catch {
    localStorage.removeItem(FLAG);
    me = null;
    return null;
  }
}

export async function login(username: string, password: string) {
  adopt(await api('POST', '/api/account/login', { username, password }));
  return restoreSession();
}

export async function register(username: string, password: string) {
  adopt(await api('POST', '/api/account/register', { username, password }));
  return restoreSession();
}

export async function guest() {
  adopt(await api('POST', '/api/account/guest', {}));
  return restoreSession();
}

export async function logout(everywhere = false) {
  // A change still to be written goes to the account before the session ends.
  await flushSettings();
  try {
    // Everywhere: every session of the account ends and its sockets close, on
    // every device.
    await api('POST', everywhere ? '/api/account/logout-everywhere' : '/api/account/logout', {});
  } finally {
    localStorage.removeItem(FLAG);
    me = null;
    setOwner(null);
  }
}
