// Entry point: the app shell (header, navigation) and a hash router.
import 'chessground/assets/chessground.base.css';
import 'chessground/assets/chessground.brown.css';
import 'chessground/assets/chessground.cburnett.css';
import './style.css';
import { h, mount } from './dom';
import { t } from './i18n';
import { settings, onSettings } from './settings';
import { settingsDialog } from './ui';
import { syncMusic } from './sound';
import { session, restoreSession, logout } from './session';
import { loadGames } from './net/games';
import { offlinePage } from './pages/offline';
import { loginPage } from './pages/login';
import { lobbyPage } from './pages/lobby';
import { tablePage } from './pages/table';
import { profilePage } from './pages/profile';
import { eventsPage, eventPage, eventBanner } from './events/events';

let cleanup: (() => void) | void;

function header() {
  const s = session();
  const navLink = (href: string, label: string, id: string) =>
    h('a.nav-link', { href, id, class: location.hash.startsWith(href) ? 'active' : '' }, label);
  return h(
    'header.top',
    null,
    h('a.brand', { href: '#/lobby/chess' }, h('span.brand-mark', null, '棋'), h('span.brand-name', null, t('appName')), h('span.brand-tag', null, t('tagline'))),
    h(
      'nav.nav',
      null,
      navLink('#/lobby/chess', t('chess'), 'nav-chess'),
      navLink('#/lobby/xiangqi', t('xiangqi'), 'nav-xiangqi'),
      navLink('#/lobby/go', t('go'), 'nav-go'),
      navLink('#/lobby/doudizhu', t('doudizhu'), 'nav-doudizhu'),
      navLink('#/offline/', t('offline'), 'nav-offline'),
      navLink('#/events', settings().lang === 'en' ? 'Events' : '比赛', 'nav-events'),
    ),
    eventBanner(),
    h(
      'div.user-box',
      null,
      s
        ? [
            h('a.user-name', { href: `#/profile/${encodeURIComponent(s.name)}`, id: 'me' }, s.name),
            h('button.btn.btn-small', { id: 'logout', onclick: () => void logout().then(() => (location.hash = '#/login')) }, t('logout')),
            s.guest
              ? null
              : h(
                  'button.btn.btn-small',
                  {
                    id: 'logout-everywhere',
                    title: t('logoutEverywhereHint'),
                    onclick: () => {
                      if (confirm(t('logoutEverywhereHint'))) void logout(true).then(() => (location.hash = '#/login'));
                    },
                  },
                  t('logoutEverywhere'),
                ),
          ]
        : h('a.btn.btn-small', { href: '#/login' }, t('login')),
      h('button.icon-btn', { id: 'open-settings', title: t('settings'), onclick: () => settingsDialog(() => route()) }, '⚙'),
    ),
  );
}

function route() {
  if (cleanup) cleanup();
  cleanup = undefined;
  document.querySelectorAll('.modal-overlay').forEach((m) => m.remove());
  document.documentElement.lang = settings().lang;
  document.body.dataset.board = settings().boardTheme;
  const app = document.getElementById('app')!;
  const main = h('main.main');
  mount(app, header(), main);
  const parts = location.hash.replace(/^#\/?/, '').split('/').map(decodeURIComponent);
  const [page, arg] = parts;
  const needLogin = page === 'lobby' || page === 'table' || page === '' || page === 'profile';
  if (needLogin && !session()) {
    loginPage(main, 'login', location.hash);
    return;
  }
  switch (page) {
    case '':
      location.hash = '#/lobby/chess';
      return;
    case 'login':
    case 'register':
      loginPage(main, page, '#/lobby/chess');
      return;
    case 'lobby':
      cleanup = lobbyPage(main, arg || 'chess');
      return;
    case 'table':
      cleanup = tablePage(main, arg);
      return;
    case 'profile':
      cleanup = profilePage(main, arg);
      return;
    case 'events':
      cleanup = eventsPage(main, arg);
      return;
    case 'event':
      cleanup = eventPage(main, arg);
      return;
    case 'offline':
      if (arg === 'chess' || arg === 'xiangqi') cleanup = offlinePage(main, arg);
      else
        mount(
          main,
          h(
            'div.offline-pick',
            null,
            h('h2', null, t('offline')),
            h('p.hint', null, t('offlineHint')),
            h('div.game-cards', null,
              h('a.game-card.chess', { href: '#/offline/chess', id: 'offline-chess' }, h('span.game-icon', null, '♞'), t('chess')),
              h('a.game-card.xiangqi', { href: '#/offline/xiangqi', id: 'offline-xiangqi' }, h('span.game-icon.xq', null, '帥'), t('xiangqi')),
            ),
          ),
        );
      return;
    default:
      mount(main, h('div.panel', null, t('notFound')));
  }
}

onSettings(() => {
  document.body.dataset.board = settings().boardTheme;
});
// The server's invitation links are paths (`/table/{id}`); the client routes by hash.
{
  const m = /^\/(table|profile|lobby|offline|event)\/([^/.]+)\/?$/.exec(location.pathname);
  if (m && !location.hash) history.replaceState(null, '', `/#/${m[1]}/${m[2]}`);
}
window.addEventListener('hashchange', route);
void Promise.all([restoreSession(), loadGames()]).then(() => {
  route();
  syncMusic();
});
