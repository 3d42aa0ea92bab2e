// What a username and a password must be, checked in the page before the
// server is asked, with the same figures as the server
// (crates/server/src/auth/usernames.rs `USERNAME_WIDTH`, `display_width`;
// auth/passwords.rs `PASSWORD_MIN`): a name is 3 to 20 columns wide, a Chinese,
// Japanese or Korean character taking two (so 小王 is fine, 王 is not), of
// letters in any one script, digits, `_` and `-`, starting with a letter, and not
// `guest…`. The server alone judges look-alikes and mixed scripts (Unicode
// TS #39), and its answer is shown when it refuses.

export const NAME_WIDTH = { min: 3, max: 20 } as const;
export const PASSWORD_MIN = 8;

/** A character of a CJK script (Han, Bopomofo, kana, Hangul): two columns. */
const CJK = /[\p{scx=Han}\p{scx=Bopomofo}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}]/u;
/** Characters every script shares (digits, `_`, `-`) are one column even when
 * their script extensions name Han. */
const COMMON = /[\p{Nd}_-]/u;

/** How many columns `name` takes: 2 for each CJK character, 1 for any other. */
export function displayWidth(name: string): number {
  let w = 0;
  for (const c of name) w += CJK.test(c) && !COMMON.test(c) ? 2 : 1;
  return w;
}

/** Why a name cannot be registered, as a key of RULE_TEXT; null when the page sees no fault. */
export type NameFault = 'width' | 'start' | 'chars' | 'guest';

/** The name as the server keeps it: trimmed, NFKC (fullwidth ａ is a). */
export function normalName(raw: string): string {
  return raw.trim().normalize('NFKC');
}

export function nameFault(raw: string): NameFault | null {
  const name = normalName(raw);
  const width = displayWidth(name);
  if (width < NAME_WIDTH.min || width > NAME_WIDTH.max) return 'width';
  if (![...name].every((c) => /[\p{L}\p{N}_-]/u.test(c))) return 'chars';
  if (!/^\p{L}/u.test(name)) return 'start';
  if (name.toLowerCase().startsWith('guest')) return 'guest';
  return null;
}

export type PasswordFault = 'short' | 'long' | 'mismatch';

export function passwordFault(password: string, again: string | null): PasswordFault | null {
  const n = [...password].length;
  if (n < PASSWORD_MIN) return 'short';
  if (n > 200) return 'long';
  if (again !== null && again !== password) return 'mismatch';
  return null;
}

/** The rules and each fault in words, Chinese and English. */
export const RULE_TEXT = {
  nameRule: [
    `用户名：${NAME_WIDTH.min}–${NAME_WIDTH.max} 个字宽（汉字算 2，字母、数字算 1，如“小王”“棋手小王”“wang_2”），以字母或汉字开头，可用汉字、字母、数字、_ 和 -`,
    `Username: ${NAME_WIDTH.min}–${NAME_WIDTH.max} columns wide (a Chinese character counts 2, a letter or digit 1: 小王, 棋手小王, wang_2), starting with a letter; letters of any one script, digits, _ and -`,
  ],
  passwordRule: [`密码：至少 ${PASSWORD_MIN} 个字符`, `Password: at least ${PASSWORD_MIN} characters`],
  width: [
    `用户名太短或太长：需 ${NAME_WIDTH.min}–${NAME_WIDTH.max} 个字宽（汉字算 2，如“小王”为 4）`,
    `The username must be ${NAME_WIDTH.min}–${NAME_WIDTH.max} columns wide (a Chinese character counts 2: 小王 is 4)`,
  ],
  start: ['用户名要以字母或汉字开头', 'The username must start with a letter'],
  chars: ['用户名只能有汉字、字母、数字、_ 和 -（不能有空格或符号）', 'The username may hold letters, digits, _ and - only (no spaces or symbols)'],
  guest: ['以 guest 开头的名字留给游客', 'Names beginning with "guest" are kept for guests'],
  short: [`密码至少 ${PASSWORD_MIN} 个字符`, `The password needs at least ${PASSWORD_MIN} characters`],
  long: ['密码最多 200 个字符', 'The password has at most 200 characters'],
  mismatch: ['两次输入的密码不一致', 'The two passwords differ'],
  passwordAgain: ['再次输入密码', 'Password again'],
} as const;
