// A game's lobby (游戏室): the live list of tables, new table, quick pairing, and
// who is online. Go and Doudizhu show "coming soon" until the server plays them.
import { h, mount, clear } from '../dom';
import { t, type Key } from '../i18n';
import { avatar, toast } from '../ui';
import { connectLobby, type TableSummary } from '../net/protocol';
import { describeTc } from '../net/model';
import { session } from '../session';
import { openCreateGo, openCreateDoudizhu } from '../go/create';
import { botName, isBot } from '../doudizhu/bots';
import { api } from '../net/api';
import { gameInfo } from '../net/games';
import { computerButton } from './computer';

interface LeaderRow {
  rank: number;
  user: string;
  points: number;
  title: string;
  hands: number;
}

const PLAYABLE = ['chess', 'xiangqi', 'go', 'doudizhu'];

export function lobbyPage(root: HTMLElement, game: string) {
  if (!PLAYABLE.includes(game)) {
    mount(
      root,
      h('div.panel.coming-soon', { id: 'coming-soon' }, h('div.big', null, game === 'go' ? '⚫' : '🃏'), h('div', null, `${t(game as Key)} · ${t('comingSoon')}`)),
    );
    return;
  }
  const grid = h('div.table-grid', { id: 'table-list' });
  const pairBox = h('div.pairing', { id: 'pairing' });
  const onlineEl = h('ul.online-list', { id: 'online-list' });
  const countEl = h('span.hint', { id: 'online-count' });
  let searching = false;
  let alive = true;
  const me = session();
  // The room's leaderboard (积分榜), where the game keeps points for life.
  const boardEl = h('ol.leaderboard', { id: 'leaderboard' });
  const keepsPoints = gameInfo(game)?.points === true;
  if (keepsPoints) {
    void api<{ players: LeaderRow[] }>('GET', `/api/leaderboard/${encodeURIComponent(game)}?limit=10`)
      .then((b) => {
        if (!alive) return;
        mount(
          boardEl,
          b.players.length
            ? b.players.map((r) =>
                h(
                  'li',
                  { 'data-user': r.user },
                  h('span.rank', null, String(r.rank)),
                  h('a.who', { href: `#/profile/${encodeURIComponent(r.user)}` }, r.user),
                  h('span.title', null, r.title),
                  h('span.num', null, String(r.points)),
                ),
              )
            : h('li.hint', null, t('noPoints')),
        );
      })
      .catch((e) => alive && mount(boardEl, h('li.hint', null, t('errorPrefix') + (e as Error).message)));
  }
  const pools = me?.ratings ?? {};
  const rating = pools[game] ?? Object.entries(pools).find(([k]) => k.startsWith(game + ':'))?.[1];

  const lobby = connectLobby(game, {
    onTables: (tables) => renderTables(tables),
    onOnline: (names) => {
      countEl.textContent = `${names.length} ${t('online')}`;
      mount(onlineEl, names.map((n) => h('li', null, h('a', { href: `#/profile/${encodeURIComponent(n)}` }, n))));
    },
    onPaired: (tableId) => {
      searching = false;
      location.hash = `#/table/${tableId}`;
    },
    onError: (m) => toast(m, 'error'),
  });

  function renderPair() {
    mount(
      pairBox,
      searching
        ? [h('span.hint', null, t('searching')), h('button.btn', { id: 'cancel-pair', onclick: () => ((searching = false), lobby.cancelPair(), renderPair()) }, t('cancelPair'))]
        : h('button.btn.primary', { id: 'quick-pair', onclick: () => ((searching = true), lobby.quickPair(), renderPair()) }, t('quickPair')),
    );
  }

  function seatChip(tb: TableSummary, seat: number) {
    const p = tb.seats[seat];
    return h(
      `div.seat-chip${p ? '' : '.empty'}`,
      null,
      avatar(p?.name ?? '+', seat),
      h('span.name', null, p ? (isBot(p.name) ? botName(p.name) : p.name) : t('emptySeat')),
      p?.rating !== undefined ? h('span.hint', null, String(Math.round(p.rating))) : null,
    );
  }

  function renderTables(tables: TableSummary[]) {
    const mine = tables.filter((x) => x.game === game);
    if (!mine.length) {
      mount(grid, h('div.empty-list', null, t('noTables')));
      return;
    }
    clear(grid);
    for (const tb of mine) {
      const open = tb.seats.some((s) => !s);
      grid.appendChild(
        h(
          'div.table-card',
          { 'data-table': tb.id },
          h('div.table-no', null, h('span', null, `${t('table')} ${tb.id}`), h('span', null, tb.status === 'playing' ? t('playing') : tb.status === 'over' ? t('finished') : t('waiting'))),
          h(
            'div.table-visual',
            null,
            seatChip(tb, 0),
            h(`div.table-top${tb.status === 'playing' ? '.playing' : ''}`, null, game === 'chess' ? '♞' : game === 'go' ? '●' : game === 'doudizhu' ? '♠' : '帥'),
            seatChip(tb, 1),
            tb.seats.length > 2 ? seatChip(tb, 2) : null,
          ),
          h('div.hint', null, `${describeTc(tb.timeControl ?? null)} · ${t('spectators')} ${tb.spectators}`),
          h(
            'div.actions',
            null,
            open ? h('a.btn.btn-small.blue', { href: `#/table/${tb.id}`, class: 'join-table' }, t('sitHere')) : null,
            h('a.btn.btn-small', { href: `#/table/${tb.id}`, class: 'watch-table' }, t('watch')),
          ),
        ),
      );
    }
  }

  mount(
    root,
    h(
      'div.lobby',
      { id: 'lobby', 'data-game': game },
      h(
        'div',
        null,
        h(
          'div.lobby-head',
          null,
          h('h2', null, `${t(game as Key)} · ${t('tables')}`),
          pairBox,
          computerButton(game),
          h('button.btn.blue', {
            id: 'new-table',
            onclick: async () => {
              // Go and Doudizhu tables are made with their options (size, komi, clock).
              if (game === 'go') return openCreateGo();
              if (game === 'doudizhu') return openCreateDoudizhu();
              try {
                const id = await lobby.createTable();
                location.hash = `#/table/${id}`;
              } catch (e) {
                toast((e as Error).message, 'error');
              }
            },
          }, t('newTable')),
        ),
        grid,
      ),
      h(
        'div',
        null,
        h(
          'div.panel',
          null,
          h('div.profile-head', null, avatar(me?.name ?? '?', 0), h('div', null, h('div', { style: { fontWeight: '600' } }, me?.name ?? ''), h('div.hint', null, `${t('rating')}: ${me?.guest ? '—' : rating ? Math.round(rating.rating) + (rating.provisional ? '?' : '') : '1500?'}`))),
        ),
        h('div.panel', null, h('div.panel-title', null, t('players'), countEl), onlineEl),
        keepsPoints ? h('div.panel', null, h('div.panel-title', null, t('leaderboard')), boardEl) : null,
        h('div.panel', null, h('a', { href: `#/offline/${game}` }, `${t('offline')} · ${t('hotseat')}`)),
      ),
    ),
  );
  renderPair();
  return () => {
    alive = false;
    lobby.close();
  };
}
