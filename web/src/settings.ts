// Per-user settings, kept in localStorage under the user's name (and a guest slot).
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
  };
}

let owner = 'guest';
let current: Settings = load(owner);
const listeners: Array<(s: Settings) => void> = [];

function key(user: string) {
  return `qiyuan.settings.${user}`;
}

function load(user: string): Settings {
  try {
    const raw = localStorage.getItem(key(user)) ?? localStorage.getItem(key('guest'));
    if (raw) return { ...defaults(), ...(JSON.parse(raw) as Partial<Settings>) };
  } catch {
    /* a broken entry falls back to defaults */
  }
  return defaults();
}

export function settings(): Settings {
  return current;
}

export function setOwner(user: string | null): void {
  owner = user ?? 'guest';
  current = load(owner);
  listeners.forEach((l) => l(current));
}

export function update(patch: Partial<Settings>): void {
  current = { ...current, ...patch };
  localStorage.setItem(key(owner), JSON.stringify(current));
  listeners.forEach((l) => l(current));
}

export function onSettings(l: (s: Settings) => void): void {
  listeners.push(l);
}
