// The landing page before logging in (#/): the hall as it is — the games being
// played (each watchable without an account), the events, the leaderboards —
// beside the ways in (log in, register, play as a guest, play offline). Lichess
// shows its lobby and games in progress the same way; nothing here needs a session.
import { h, mount } from '../dom';
import { t, texts, onLanguage } from '../i18n';
import { api } from '../net/api';
import { allGames, gameName, gameIcon } from '../net/games';
import { describeTc } from '../net/model';
import { playerName } from '../players';
import { guest } from '../session';
import { settingsReady } from '../settings';
import { errorOf } from '../errors';
import type { TableSummary } from '../net/generated/protocol';

const tx = texts({
  liveGames: ['正在进行的对局', 'Games being played'],
  noLiveGames: ['现在没有进行中的对局', 'No game is being played right now'],
  events: ['比赛', 'Events'],
  noEvents: ['暂无比赛', 'No events yet'],
  allEvents: ['全部比赛', 'All events'],
  registering: ['报名中', 'Registration open'],
  running: ['进行中', 'Running'],
  finished: ['已结束', 'Finished'],
  rounds: ['{n} 轮', '{n} rounds'],
  enterLobby: ['进入大厅看看', 'Look around the hall'],
  welcome: ['登录后即可入座对弈；不登录也能观战、看比赛和排行榜。', 'Log in to take a seat; watching, events and leaderboards need no account.'],
});

interface EventRow {
  id: string;
  name: string;
  game: string;
  status: string;
  rounds: number;
}

interface LeaderRow {
  rank: number;
  user: string;
  points: number;
  title: string;
}

/** How often the hall is asked again while the page is open. */
const REFRESH_MS = 10_000;

export function landingPage(root: HTMLElement): () => void {
  let alive = true;
  const live = h('div.landing-live', { id: 'landing-live' }, h('div.hint', null, t('connecting')));
  const events = h('div.landing-events', { id: 'landing-events' });
  const boards = h('div.landing-boards', { id: 'landing-leaderboards' });
  const err = h('div.form-error', { id: 'form-error' });
  let lastTables: TableSummary[] = [];
  let lastEvents: EventRow[] = [];
  const lastBoards = new Map<string, LeaderRow[]>();

  function drawTables() {
    const playing = lastTables.filter((x) => x.status === 'playing');
    if (!playing.length) return mount(live, h('div.hint', null, tx('noLiveGames')));
    mount(
      live,
      h(
        'ul.landing-list',
        null,
        playing.map((tb) =>
          h(
            'li.landing-game',
            { 'data-table': tb.id, 'data-game': tb.game },
            h('span.game-icon', null, gameIcon(tb.game)),
            h('span.landing-what', null, gameName(tb.game)),
            h('span.landing-who', null, tb.seats.map((s) => playerName(s.user)).join(` ${t('vs')} `)),
            h('span.hint', null, `${describeTc(tb.time)} · ${t('spectators')} ${tb.spectators}`),
            h('a.btn.btn-small.watch-table', { href: `#/table/${tb.id}` }, t('watch')),
          ),
        ),
      ),
    );
  }

  function drawEvents() {
    if (!lastEvents.length) return mount(events, h('div.hint', null, tx('noEvents')));
    const status = (s: string) => (s === 'registering' || s === 'running' || s === 'finished' ? tx(s) : '');
    mount(
      events,
      h(
        'ul.landing-list',
        null,
        lastEvents.slice(0, 6).map((e) =>
          h(
            'li',
            { 'data-event': e.id },
            h('a.event-link', { href: `#/event/${e.id}` }, e.name),
            h('span.hint', null, `${gameName(e.game)} · ${tx('rounds', { n: e.rounds })} · ${status(e.status)}`),
          ),
        ),
      ),
      h('a.hint', { href: '#/events' }, tx('allEvents')),
    );
  }

  function drawBoards() {
    mount(
      boards,
      [...lastBoards].map(([game, rows]) =>
        h(
          'div.landing-board',
          { 'data-game': game },
          h('div.panel-subtitle', null, `${gameName(game)} · ${t('leaderboard')}`),
          rows.length
            ? h(
                'ol.leaderboard',
                null,
                rows.map((r) => h('li', { 'data-user': r.user }, h('span.rank', null, String(r.rank)), h('span.who', null, r.user), h('span.title', null, r.title), h('span.num', null, String(r.points)))),
              )
            : h('div.hint', null, t('noPoints')),
        ),
      ),
    );
  }

  async function load() {
    const games = allGames();
    const tables = await Promise.all(games.map((g) => api<TableSummary[]>('GET', `/api/lobby/${encodeURIComponent(g.name)}`).catch(() => [] as TableSummary[])));
    if (!alive) return;
    lastTables = tables.flat();
    drawTables();
    lastEvents = await api<EventRow[]>('GET', '/api/events').catch(() => []);
    if (!alive) return;
    drawEvents();
    for (const g of games.filter((x) => x.points)) {
      const b = await api<{ players: LeaderRow[] }>('GET', `/api/leaderboard/${encodeURIComponent(g.name)}?limit=10`).catch(() => null);
      if (b) lastBoards.set(g.name, b.players);
    }
    if (alive) drawBoards();
  }

  function layout() {
    const first = allGames()[0]?.name ?? '';
    mount(
      root,
      h(
        'div.landing',
        { id: 'landing' },
        h(
          'div.landing-hero',
          null,
          h('div.hero-pieces', null, h('span.hero-xq', null, '帥'), h('span.hero-chess', null, '♛'), h('span.hero-go', null, '●'), h('span.hero-card', null, '🂡')),
          h('h1', null, t('appName')),
          h('p', null, tx('welcome')),
          h(
            'div.landing-ways',
            null,
            h('a.btn.primary', { href: '#/login', id: 'landing-login' }, t('login')),
            h('a.btn.blue', { href: '#/register', id: 'landing-register' }, t('register')),
            h('button.btn', {
              id: 'guest',
              onclick: async () => {
                try {
                  await guest();
                  await settingsReady();
                  location.hash = `#/lobby/${first}`;
                } catch (x) {
                  err.textContent = t('errorPrefix') + errorOf(x);
                }
              },
            }, t('guest')),
            h('a.btn', { href: `#/lobby/${first}`, id: 'landing-lobby' }, tx('enterLobby')),
            h('a.btn', { href: '#/offline/' }, `${t('offline')} · ${t('hotseat')}`),
          ),
          err,
        ),
        h(
          'div.landing-hall',
          null,
          h('div.panel', null, h('div.panel-title', null, tx('liveGames')), live),
          h('div.panel', null, h('div.panel-title', null, tx('events')), events),
          h('div.panel', null, boards),
        ),
      ),
    );
  }

  layout();
  void load();
  const timer = setInterval(() => void load(), REFRESH_MS);
  const off = onLanguage(() => {
    layout();
    drawTables();
    drawEvents();
    drawBoards();
  });
  return () => {
    alive = false;
    clearInterval(timer);
    off();
  };
}
