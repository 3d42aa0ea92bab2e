// Log in, register, or enter as a guest.
import { h, mount } from '../dom';
import { t } from '../i18n';
import { login, register, guest } from '../session';
import { errorOf } from '../errors';
import { settingsReady, settings } from '../settings';
import { nameFault, passwordFault, RULE_TEXT } from './names';

/** A rule or fault of ./names in the page's language. */
const rule = (k: keyof typeof RULE_TEXT) => RULE_TEXT[k][settings().lang === 'en' ? 1 : 0];

export function loginPage(root: HTMLElement, mode: 'login' | 'register', next: string) {
  const user = h('input', { name: 'username', id: 'username', autocomplete: 'username', placeholder: t('username'), required: true });
  const pass = h('input', { name: 'password', id: 'password', type: 'password', autocomplete: mode === 'login' ? 'current-password' : 'new-password', placeholder: t('password'), required: true });
  const err = h('div.form-error', { id: 'form-error' });
  const registering = mode === 'register';
  // Registering: a second password field, and the rules in view before anything is typed.
  const pass2 = h('input', { name: 'password2', id: 'password2', type: 'password', autocomplete: 'new-password', placeholder: rule('passwordAgain'), required: true });
  const nameRule = h('div.form-rule', { id: 'name-rule' }, rule('nameRule'));
  const passRule = h('div.form-rule', { id: 'password-rule' }, rule('passwordRule'));
  if (registering) {
    user.setAttribute('aria-describedby', 'name-rule');
    pass.setAttribute('aria-describedby', 'password-rule');
    pass.setAttribute('minlength', '8');
  }
  /** The page's own verdict on what is typed: the first fault, in words, or ''. */
  const fault = (): string => {
    const n = nameFault(user.value);
    if (n) return rule(n);
    const p = passwordFault(pass.value, pass2.value);
    return p ? rule(p) : '';
  };
  // A fault is shown once the field is left, and cleared as soon as it is mended.
  const recheck = () => {
    if (err.dataset.local) {
      err.textContent = fault();
      if (!err.textContent) delete err.dataset.local;
    }
  };
  if (registering)
    for (const input of [user, pass, pass2]) {
      input.addEventListener('input', recheck);
      input.addEventListener('blur', () => {
        if (!input.value) return;
        // Only what this field and those above it decide.
        const k = input === user ? nameFault(user.value) : passwordFault(pass.value, input === pass2 ? pass2.value : null);
        const f = k ? rule(k) : '';
        if (f) {
          err.textContent = f;
          err.dataset.local = '1';
        }
      });
    }
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
    delete err.dataset.local;
    if (registering) {
      const f = fault();
      if (f) {
        err.textContent = f;
        err.dataset.local = '1';
        return;
      }
    }
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
        registering ? nameRule : null,
        pass,
        registering ? [pass2, passRule] : null,
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
