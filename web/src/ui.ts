// Shared pieces of UI: dialogs, toasts, the move list, the settings dialog.
import { h, mount } from './dom';
import { t, onLanguage, type Key } from './i18n';
import { settings, update, type Settings } from './settings';
import { syncMusic } from './sound';

export interface DialogButton {
  label: string;
  cls?: string;
  onClick?: () => void | boolean; // return false to keep the dialog open
}

export function dialog(title: string, body: Node | string, buttons: DialogButton[], opts: { id?: string; dismiss?: boolean } = {}) {
  const close = () => overlay.remove();
  const overlay = h(
    'div.modal-overlay',
    { id: opts.id, onclick: (e: Event) => e.target === overlay && opts.dismiss !== false && close() },
    h(
      'div.modal',
      { role: 'dialog' },
      h('div.modal-title', null, title),
      h('div.modal-body', null, body),
      h(
        'div.modal-buttons',
        null,
        buttons.map((b) =>
          h(`button.btn${b.cls ? '.' + b.cls : ''}`, {
            onclick: () => {
              if (b.onClick?.() !== false) close();
            },
          }, b.label),
        ),
      ),
    ),
  );
  document.body.appendChild(overlay);
  return { close, el: overlay };
}

export function toast(text: string, kind: 'info' | 'error' = 'info') {
  let box = document.getElementById('toasts');
  if (!box) {
    box = h('div', { id: 'toasts' });
    document.body.appendChild(box);
  }
  const el = h(`div.toast.toast-${kind}`, null, text);
  box.appendChild(el);
  setTimeout(() => el.remove(), 3500);
}

/** The move list: numbered pairs, the last move highlighted; click to view a ply. */
export function renderMoves(el: HTMLElement, displays: string[], startPly = 0, active?: number, onClick?: (ply: number) => void) {
  if (!displays.length) {
    mount(el, h('div.moves-empty', null, t('noMoves')));
    return;
  }
  const rows: HTMLElement[] = [];
  const offset = startPly % 2;
  let row: HTMLElement | null = null;
  displays.forEach((d, i) => {
    const ply = i + offset;
    if (ply % 2 === 0 || row === null) {
      row = h('div.move-row', null, h('span.move-no', null, `${Math.floor((startPly + i) / 2) + 1}.`));
      if (ply % 2 === 1) row.appendChild(h('span.move.move-empty', null, '…'));
      rows.push(row);
    }
    const cur = active === undefined ? i === displays.length - 1 : i === active;
    row.appendChild(h(`span.move${cur ? '.active' : ''}`, { 'data-ply': i + 1, onclick: () => onClick?.(i + 1) }, d));
  });
  mount(el, ...rows);
  el.scrollTop = el.scrollHeight;
}

function toggle(label: Key, k: keyof Settings) {
  const input = h('input', { type: 'checkbox', checked: !!settings()[k], name: k, onchange: () => update({ [k]: input.checked } as Partial<Settings>) });
  return h('label.setting', null, h('span', null, t(label)), input);
}

function choice<K extends keyof Settings>(label: Key, k: K, options: Array<[Settings[K], string]>) {
  const sel = h(
    'select',
    { name: k, onchange: () => update({ [k]: sel.value } as Partial<Settings>) },
    options.map(([v, text]) => h('option', { value: String(v), selected: settings()[k] === v }, text)),
  );
  return h('label.setting', null, h('span', null, t(label)), sel);
}

/** The settings that a page shows only when drawn again (boards read them when set). */
const REDRAWN: Array<keyof Settings> = ['animation', 'flash', 'premove', 'pieceTheme', 'xqNotation'];

/**
 * The settings dialog. Each change applies at once: the language relabels the
 * dialog and every page in place (see main.ts), music starts or stops with its
 * toggle (a click, so the browser lets it play). `onChange` runs on closing only
 * if a setting the boards read when drawn changed.
 */
export function settingsDialog(onChange: () => void) {
  const before = { ...settings() };
  const form = () =>
    h(
      'div.settings-form',
      null,
      toggle('animation', 'animation'),
      toggle('sound', 'sound'),
      toggle('music', 'music'),
      toggle('flash', 'flash'),
      toggle('premove', 'premove'),
      toggle('goConfirm', 'goConfirm'),
      choice('boardTheme', 'boardTheme', [
        ['wood', t('themeWood')],
        ['green', t('themeGreen')],
        ['blue', t('themeBlue')],
      ]),
      choice('pieceTheme', 'pieceTheme', [
        ['traditional', t('piecesTraditional')],
        ['modern', t('piecesModern')],
      ]),
      choice('notation', 'xqNotation', [
        ['chinese', t('chineseNotation')],
        ['wxf', 'WXF'],
        ['iccs', 'ICCS'],
      ]),
      choice('language', 'lang', [
        ['zh-CN', '简体中文'],
        ['en', 'English'],
      ]),
    );
  const body = h('div.settings-body', null, form());
  body.addEventListener('change', () => syncMusic());
  let off: () => void = () => undefined;
  const d = dialog(
    t('settings'),
    body,
    [
      {
        label: t('close'),
        cls: 'primary',
        onClick: () => {
          off();
          if (REDRAWN.some((k) => settings()[k] !== before[k])) onChange();
        },
      },
    ],
    { id: 'settings-dialog' },
  );
  off = onLanguage(() => {
    if (!document.body.contains(d.el)) return off();
    mount(body, form());
    const title = d.el.querySelector('.modal-title');
    if (title) title.textContent = t('settings');
    const close = d.el.querySelector('.modal-buttons .btn');
    if (close) close.textContent = t('close');
  });
}

export function download(name: string, text: string, type = 'application/x-chess-pgn') {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = h('a', { href: url, download: name });
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function formatClock(ms: number): string {
  const neg = ms < 0;
  ms = Math.max(0, ms);
  const total = Math.floor(ms / 1000);
  const hh = Math.floor(total / 3600);
  const mm = Math.floor((total % 3600) / 60);
  const ss = total % 60;
  const pad = (n: number) => String(n).padStart(2, '0');
  let s = hh ? `${hh}:${pad(mm)}:${pad(ss)}` : `${pad(mm)}:${pad(ss)}`;
  if (ms < 10_000 && !hh && !mm) s += `.${Math.floor((ms % 1000) / 100)}`;
  return neg ? '0:00' : s;
}

export function avatar(name: string, seat: number) {
  const ch = (name || '?').slice(0, 1).toUpperCase();
  return h(`div.avatar.avatar-${seat}`, null, ch);
}
