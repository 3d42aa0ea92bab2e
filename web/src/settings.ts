// Per-user settings. A logged-in account's follow it: they are kept by the server
// (`GET`/`PUT /api/account/settings`, docs/protocol.md) and cached in
// localStorage under the user's name; a guest's stay in this browser only
// (localStorage, the guest slot).
import { api } from './net/api';

export type Lang = 'zh-CN' | 'en';
export interface Settings {
  animation: boolean;
  sound: boolean;
  music: boolean;
  flash: boolean;
  premove: boolean;
  boardTheme: 'wood' | 'green' | 'blue';
  pieceTheme: 'traditional' | 'modern';
  xqNotation: 'chinese' | 'wxf' | 'iccs';
  lang: Lang;
  /** Go: a tap shows the stone, a second tap on the point plays it (19×19 points are small on a phone). */
  goConfirm: boolean;
}

/** A touch screen (a phone, a tablet): its points are small under a finger. */
function coarsePointer(): boolean {
  return typeof matchMedia === 'function' && matchMedia('(pointer: coarse)').matches;
}

function browserLang(): Lang {
  if (typeof navigator === 'undefined') return 'zh-CN';
  const l = (navigator.languages?.[0] ?? navigator.language ?? 'zh-CN').toLowerCase();
  return l.startsWith('zh') ? 'zh-CN' : 'en';
}

export function defaults(): Settings {
  return {
    animation: true,
    sound: true,
    music: false,
    flash: true,
    premove: false,
    boardTheme: 'wood',
    pieceTheme: 'traditional',
    xqNotation: 'chinese',
    lang: browserLang(),
    goConfirm: coarsePointer(),
  };
}

const GUEST = 'guest';
let owner = GUEST;
let current: Settings = load(owner);
let pending: Promise<void> = Promise.resolve();
let saveTimer: ReturnType<typeof setTimeout> | null = null;
const listeners: Array<(s: Settings) => void> = [];

function key(user: string) {
  return `qiyuan.settings.${user}`;
}

function storage(): Storage | null {
  return typeof localStorage === 'undefined' ? null : localStorage;
}

/** Only the known keys, each of its own type: what the server or storage held may be older or foreign. */
export function sanitize(raw: unknown): Partial<Settings> {
  if (!raw || typeof raw !== 'object') return {};
  const d = defaults();
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(raw as Record<string, unknown>)) {
    if (!(k in d)) continue;
    const def = d[k as keyof Settings];
    if (typeof v !== typeof def) continue;
    out[k] = v;
  }
  return out as Partial<Settings>;
}

function load(user: string): Settings {
  try {
    const raw = storage()?.getItem(key(user)) ?? storage()?.getItem(key(GUEST));
    if (raw) return { ...defaults(), ...sanitize(JSON.parse(raw)) };
  } catch {
    /* a broken entry falls back to defaults */
  }
  return defaults();
}

function notify() {
  listeners.forEach((l) => l(current));
}

export function settings(): Settings {
  return current;
}

/** The user whose settings these are: an account's name, or null / `guest` for a guest. */
export function setOwner(user: string | null): void {
  if ((user ?? GUEST) === owner) return;
  if (saveTimer !== null) void flush();
  owner = user ?? GUEST;
  current = load(owner);
  notify();
  pending = owner === GUEST ? Promise.resolve() : fetchFromServer(owner);
}

/** Resolves once the account's settings came from the server (or failed to). */
export function settingsReady(): Promise<void> {
  return pending;
}

async function fetchFromServer(user: string): Promise<void> {
  try {
    const r = await api<{ settings: unknown }>('GET', '/api/account/settings');
    if (owner !== user) return;
    if (r.settings && typeof r.settings === 'object') {
      current = { ...defaults(), ...sanitize(r.settings) };
      storage()?.setItem(key(user), JSON.stringify(current));
      notify();
    } else {
      // Never saved on the server: this browser's become the account's.
      await save(current);
    }
  } catch {
    /* offline or logged out meanwhile: the local copy stands */
  }
}

async function save(s: Settings): Promise<void> {
  await api('PUT', '/api/account/settings', s);
}

function flush(): Promise<void> {
  if (saveTimer !== null) clearTimeout(saveTimer);
  saveTimer = null;
  if (owner === GUEST) return Promise.resolve();
  return save(current).catch(() => undefined);
}

export function update(patch: Partial<Settings>): void {
  current = { ...current, ...patch };
  storage()?.setItem(key(owner), JSON.stringify(current));
  if (owner !== GUEST) {
    // A burst of changes (a dialog's toggles) is one write.
    if (saveTimer !== null) clearTimeout(saveTimer);
    saveTimer = setTimeout(() => void flush(), 250);
  }
  notify();
}

/** Writes a pending change to the server now (before logging out, say). */
export function flushSettings(): Promise<void> {
  return saveTimer === null ? Promise.resolve() : flush();
}

export function onSettings(l: (s: Settings) => void): void {
  listeners.push(l);
}
