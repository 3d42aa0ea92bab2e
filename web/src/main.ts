// Entry point: the app shell (header, navigation) and a hash router.
import 'chessground/assets/chessground.base.css';
import 'chessground/assets/chessground.brown.css';
import 'chessground/assets/chessground.cburnett.css';
import './style.css';
import { h, mount } from './dom';
import { t, languageChanged } from './i18n';
import { settings, onSettings, settingsReady } from './settings';
import { settingsDialog } from './ui';
import { syncMusic } from './sound';
import { session, restoreSession, logout } from './session';
import { allGames, loadGames, gameName } from './net/games';
import { offlinePage } from './pages/offline';
import { analysisPage } from './pages/analysis';
import { loginPage } from './pages/login';
import { landingPage } from './pages/landing';
import { lobbyPage } from './pages/lobby';
import { tableRoute } from './table/route';
import { profilePage } from './pages/profile';
import { replayPage } from './replay/replay';
import { eventsPage, eventPage, eventBanner } from './events/events';
import { newEventPage } from './events/organise';
import { challengeBox } from './pages/challenges';
import { friendsBox } from './people/friends';
import { invitationBox, joinPage } from './people/invites';

let cleanup: (() => void) | void;

/** The first room: the registry's first game's lobby (the landing page before logging in). */
const home = () => (session() ? `#/lobby/${allGames()[0]?.name ?? ''}` : '#/');

function header() {
  const s = session();
  const navLink = (href: string, label: string, id: string) =>
    h('a.nav-link', { href, id, class: location.hash.startsWith(href) ? 'active' : '' }, label);
  return h(
    'header.top',
    null,
    h('a.brand', { href: home() }, h('span.brand-mark', null, '棋'), h('span.brand-name', null, t('appName')), h('span.brand-tag', null, t('tagline'))),
    h(
      'nav.nav',
      null,
      // A room per hosted game, in the registry's order.
      allGames().map((g) => navLink(`#/lobby/${g.name}`, gameName(g.name), `nav-${g.name}`)),
      navLink('#/offline/', t('offline'), 'nav-offline'),
      navLink('#/analysis', t('analysis'), 'nav-analysis'),
      navLink('#/events', settings().lang === 'en' ? 'Events' : '比赛', 'nav-events'),
    ),
    eventBanner(),
    challengeBox(),
    invitationBox(),
    friendsBox(),
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

/** Renders the page of the current address; `keepDialogs`: a language change
 * re-rendering a page that cannot relabel itself keeps the settings dialog open. */
function route(keepDialogs = false) {
  if (cleanup) cleanup();
  cleanup = undefined;
  if (!keepDialogs) document.querySelectorAll('.modal-overlay').forEach((m) => m.remove());
  document.documentElement.lang = settings().lang;
  document.body.dataset.board = settings().boardTheme;
  const app = document.getElementById('app')!;
  const main = h('main.main');
  mount(app, header(), main);
  const parts = location.hash.replace(/^#\/?/, '').split('/').map(decodeURIComponent);
  const [page, arg] = parts;
  // A replay is a shareable link: it opens without logging in.
  if (page === 'replay') {
    cleanup = replayPage(main, arg ?? '');
    return;
  }
  // Before logging in, the hall is open to look at: the landing page, the
  // lobbies and the tables (to watch); a seat, a table of one's own and a
  // profile ask for a session.
  if (page === 'profile' && !session()) {
    loginPage(main, 'login', location.hash);
    return;
  }
  switch (page) {
    case '':
      if (!session()) {
        cleanup = landingPage(main);
        return;
      }
      location.hash = home();
      return;
    case 'login':
    case 'register':
      loginPage(main, page, home());
      return;
    case 'lobby':
      cleanup = lobbyPage(main, arg || allGames()[0]?.name || '');
      return;
    case 'table':
      cleanup = tableRoute(main, arg);
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
    case 'new-event':
      cleanup = newEventPage(main);
      return;
    case 'offline':
      offlinePage(main, arg);
      return;
    case 'analysis':
      cleanup = analysisPage(main, arg || undefined, parts[2]);
      return;
    case 'join':
      cleanup = joinPage(main, arg ?? '');
      return;
    default:
      mount(main, h('div.panel', null, t('notFound')));
  }
}

// The language switch applies at once, everywhere, and reopens nothing: the
// header is drawn again, and the page relabels itself (pages listen with
// `onLanguage`); a page that does not listen is drawn again, keeping dialogs.
let shownLang = settings().lang;
onSettings(() => {
  document.body.dataset.board = settings().boardTheme;
  if (settings().lang === shownLang) return;
  shownLang = settings().lang;
  document.documentElement.lang = shownLang;
  const old = document.querySelector('#app > header.top');
  if (!old) return;
  old.replaceWith(header());
  if (languageChanged() === 0) route(true);
});
// The server's invitation links are paths (`/table/{id}`); the client routes by hash.
{
  const m = /^\/(table|profile|lobby|offline|replay|event)\/([^/.]+)\/?$/.exec(location.pathname);
  if (m && !location.hash) history.replaceState(null, '', `/#/${m[1]}/${m[2]}`);
}
window.addEventListener('hashchange', () => route());
void Promise.all([restoreSession().then(() => settingsReady()), loadGames()]).then(() => {
  shownLang = settings().lang;
  route();
  syncMusic();
});
