// Log in, register, or enter as a guest.
import { h, mount } from '../dom';
import { t } from '../i18n';
import { login, register, guest } from '../session';
import { errorOf } from '../errors';
import { settingsReady } from '../settings';

export function loginPage(root: HTMLElement, mode: 'login' | 'register', next: string) {
  const user = h('input', { name: 'username', id: 'username', autocomplete: 'username', placeholder: t('username'), required: true });
  const pass = h('input', { name: 'password', id: 'password', type: 'password', autocomplete: mode === 'login' ? 'current-password' : 'new-password', placeholder: t('password'), required: true });
  const err = h('div.form-error', { id: 'form-error' });
  const go = async () => {
    // An account's own settings (its language) first, so the next page opens in them.
    await settingsReady();
    const target = next && !/^#\/(login|register)/.test(next) ? next : '#/lobby/chess';
    if (location.hash === target) window.dispatchEvent(new HashChangeEvent('hashchange'));
    else location.hash = target;
  };
  const submit = async (e: Event) => {
    e.preventDefault();
    err.textContent = '';
    try {
      if (mode === 'login') await login(user.value.trim(), pass.value);
      else await register(user.value.trim(), pass.value);
      await go();
    } catch (x) {
      err.textContent = t('errorPrefix') + errorOf(x);
    }
  };
  mount(
    root,
    h(
      'div.login-page',
      null,
      h(
        'div.login-hero',
        null,
        h('div.hero-pieces', null, h('span.hero-xq', null, '帥'), h('span.hero-chess', null, '♛'), h('span.hero-go', null, '●'), h('span.hero-card', null, '🂡')),
        h('h1', null, t('appName')),
        h('p', null, t('tagline')),
      ),
      h(
        'form.login-card',
        { onsubmit: submit, id: mode === 'login' ? 'login-form' : 'register-form' },
        h('h2', null, mode === 'login' ? t('login') : t('register')),
        user,
        pass,
        err,
        h('button.btn.primary.wide', { type: 'submit', id: 'submit' }, mode === 'login' ? t('login') : t('register')),
        h(
          'div.login-alt',
          null,
          mode === 'login'
            ? [t('noAccount'), ' ', h('a', { href: '#/register', id: 'to-register' }, t('register'))]
            : [t('haveAccount'), ' ', h('a', { href: '#/login', id: 'to-login' }, t('login'))],
        ),
        h('button.btn.wide', {
          type: 'button',
          id: 'guest',
          onclick: async () => {
            try {
              await guest();
              await go();
            } catch (x) {
              err.textContent = t('errorPrefix') + errorOf(x);
            }
          },
        }, t('guest')),
        h('a.offline-link', { href: '#/offline/' }, `${t('offline')} · ${t('hotseat')}`),
      ),
    ),
  );
}
