// A game's lobby (游戏室): the live list of tables, new table, quick pairing, and
// who is online. 坐下 on a table card takes its first empty seat before the table
// opens; tables without anyone seated, or whose game is over, leave the list; the
// online count counts the viewer; the sidebar's rating is asked of the server
// whenever the lobby opens (so it shows the last game's change).
import { h, mount, clear } from '../dom';
import { t, onLanguage } from '../i18n';
import { avatar, toast } from '../ui';
import { connectLobby, type TableSummary } from '../net/protocol';
import { describeTc } from '../net/model';
import { session } from '../session';
import { createTable, ratedSelect } from '../table/create';
import { plugin } from '../games';
import { api } from '../net/api';
import { Socket } from '../net/socket';
import { errorOf } from '../errors';
import { playerName, playerLink } from '../players';
import { gameInfo, gameName, gameIcon } from '../net/games';
import { computerButton } from './computer';
import { mainPool, poolOfGame, poolShortName } from '../net/pools';
import { roomPanel } from '../people/rooms';

interface LeaderRow {
  rank: number;
  user: string;
  points: number;
  title: string;
  hands: number;
}

export function lobbyPage(root: HTMLElement, game: string) {
  // A room for every game the server hosts (its descriptors, `GET /api/games`).
  if (!gameInfo(game)) {
    mount(
      root,
      h('div.panel.coming-soon', { id: 'coming-soon' }, h('div.big', null, '🃏'), h('div', null, `${gameName(game)} · ${t('comingSoon')}`)),
    );
    return;
  }
  const grid = h('div.table-grid', { id: 'table-list' });
  // The game's room (大厅聊天), made once: a relabelled layout keeps its lines.
  const room = roomPanel({ kind: 'lobby', game });
  const pairBox = h('div.pairing', { id: 'pairing' });
  const onlineEl = h('ul.online-list', { id: 'online-list' });
  const countEl = h('span.hint', { id: 'online-count' });
  let searching = false;
  let alive = true;
  const me = session();
  // Rated (计积分) or casual (友谊赛), for a new table and for quick pairing;
  // guests play casual games only.
  const ratedChoice = ratedSelect(!me?.guest);
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
      .catch((e) => alive && mount(boardEl, h('li.hint', null, t('errorPrefix') + errorOf(e))));
  }
  // The sidebar's rating: the game's pool (or, for a game rated by speed, its
  // pool with the most games), asked of the server each time the lobby opens.
  const ratingEl = h('div.hint', { id: 'my-rating' });
  let online: string[] = [];
  let lastRatings: Array<{ pool: string; rating: number; provisional?: boolean; games?: number }> = [];
  // Each rating with its pool's name: the pool of quick pairing first (1500? when
  // there is none yet), then the player's other pools of this game, most played first.
  function showRating(list: typeof lastRatings) {
    lastRatings = list;
    const main = mainPool(game);
    const others = list.filter((r) => poolOfGame(r.pool, game) && r.pool !== main).sort((a, b) => (b.games ?? 0) - (a.games ?? 0));
    const first = list.find((r) => r.pool === main) ?? { pool: main, rating: 1500, provisional: true };
    const text = (r: { pool: string; rating: number; provisional?: boolean }) =>
      `${poolShortName(r.pool)} ${me?.guest ? '—' : Math.round(r.rating) + (r.provisional ? '?' : '')}`;
    ratingEl.textContent = `${t('rating')}: ${[first, ...(me?.guest ? [] : others)].map(text).join(' · ')}`;
    ratingEl.dataset.rating = list.some((r) => r.pool === main) ? String(Math.round(first.rating)) : '';
    ratingEl.dataset.pool = main;
  }
  showRating(Object.entries(me?.ratings ?? {}).map(([pool, r]) => ({ pool, ...r })));
  if (me && !me.guest)
    void api<{ ratings: Array<{ pool: string; rating: number; provisional?: boolean; games?: number }> }>('GET', '/api/account/me')
      .then((p) => alive && showRating(p.ratings))
      .catch(() => undefined);

  function showOnline() {
    // The viewer is in the room too.
    const names = [...new Set([...(me ? [me.name] : []), ...online])];
    countEl.textContent = `${names.length} ${t('online')}`;
    mount(onlineEl, names.map((n) => h('li', null, playerLink(n))));
  }

  const lobby = connectLobby(game, {
    onTables: (tables) => renderTables(tables),
    onOnline: (names) => {
      online = names;
      showOnline();
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
        : h('button.btn.primary', { id: 'quick-pair', onclick: () => ((searching = true), lobby.quickPair(ratedChoice.value === 'rated'), renderPair()) }, t('quickPair')),
    );
  }

  function seatChip(tb: TableSummary, seat: number) {
    const p = tb.seats[seat];
    return h(
      `div.seat-chip${p ? '' : '.empty'}`,
      null,
      avatar(p?.name ?? '+', seat),
      h('span.name', null, p ? playerName(p.name) : t('emptySeat')),
      p?.rating !== undefined ? h('span.hint', null, String(Math.round(p.rating))) : null,
    );
  }

  /** 坐下: takes the first empty seat of a table, then opens it. */
  async function sitAt(tb: TableSummary) {
    const seat = tb.seats.findIndex((x) => !x);
    if (seat < 0) return;
    // Looking round before logging in: a seat asks for a session first.
    if (!me) {
      location.hash = '#/login';
      return;
    }
    const sock = new Socket('/ws');
    try {
      sock.send('watch', { table: tb.id });
      await sock.request('sit', { table: tb.id, seat });
      location.hash = `#/table/${tb.id}`;
      // The table page opens its own socket; this one stays until then, so the
      // seat is never left without one.
      setTimeout(() => sock.close(), 5000);
    } catch (e) {
      sock.close();
      toast(errorOf(e), 'error');
    }
  }

  let lastTables: TableSummary[] = [];
  function renderTables(tables: TableSummary[]) {
    lastTables = tables;
    // A table nobody sits at has nothing to join or watch; one whose game is over
    // stays while a player sits there, waiting for the next game.
    const mine = tables.filter((x) => x.game === game && x.seats.some(Boolean));
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
          h('div.table-no', null, h('span', null, `${t('table')} ${tb.id}`), h('span', null, tb.status === 'playing' ? t('playing') : tb.status === 'over' && !open ? t('finished') : t('waiting'))),
          h(
            'div.table-visual',
            null,
            seatChip(tb, 0),
            h(`div.table-top${tb.status === 'playing' ? '.playing' : ''}`, null, gameIcon(game)),
            seatChip(tb, 1),
            tb.seats.length > 2 ? seatChip(tb, 2) : null,
          ),
          h('div.hint', null, `${describeTc(tb.timeControl ?? null)} · ${t('spectators')} ${tb.spectators}`),
          h(
            'div.actions',
            null,
            open ? h('button.btn.btn-small.blue', { class: 'join-table', onclick: () => void sitAt(tb) }, t('sitHere')) : null,
            h('a.btn.btn-small', { href: `#/table/${tb.id}`, class: 'watch-table' }, t('watch')),
          ),
        ),
      );
    }
  }

  // The room's chrome; drawn again in place when the language changes (the
  // socket, the list and the pairing stay).
  function layout() {
    ratedChoice.options[0].text = t('rated');
    ratedChoice.options[1].text = t('casual');
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
            h('h2', null, `${gameName(game)} · ${t('tables')}`),
            me ? [ratedChoice, pairBox] : null,
            computerButton(game),
            // Before logging in: the room is open to watch; playing starts with a login.
            me ? null : h('a.btn.primary', { href: '#/login', id: 'lobby-login' }, t('login')),
            me ? null : h('a.btn', { href: '#/register', id: 'lobby-register' }, t('register')),
            me ? h('button.btn.blue', {
              id: 'new-table',
              onclick: async () => {
                // Some games' tables are made with their options (Go's size and komi, a clock);
                // those dialogs ask rated or casual themselves (casual by default, as before).
                const own = plugin(game)?.createDialog;
                if (own) return own();
                const rated = ratedChoice.value === 'rated';
                try {
                  const id = await lobby.createTable(rated);
                  location.hash = `#/table/${id}`;
                } catch (e) {
                  toast(errorOf(e), 'error');
                }
              },
            }, t('newTable')) : null,
            // A table for the invited alone: listed nowhere; friends are
            // invited from the table, or anyone by its link.
            me && !me.guest
              ? h(
                  'button.btn',
                  {
                    id: 'new-private-table',
                    title: t('inviteOnlyHint'),
                    onclick: () => void createTable(game, { invite_only: true, rated: ratedChoice.value === 'rated' }),
                  },
                  t('inviteOnlyTable'),
                )
              : null,
          ),
          grid,
        ),
        h(
          'div',
          null,
          me
            ? h(
                'div.panel',
                null,
                h('div.profile-head', null, avatar(me.name, 0), h('div', null, h('div', { style: { fontWeight: '600' } }, me.name), ratingEl)),
              )
            : null,
          h('div.panel', null, h('div.panel-title', null, t('players'), countEl), onlineEl),
          room.el,
          keepsPoints ? h('div.panel', null, h('div.panel-title', null, t('leaderboard')), boardEl) : null,
          h('div.panel', null, h('a', { href: `#/offline/${game}` }, `${t('offline')} · ${t('hotseat')}`)),
        ),
      ),
    );
  }
  layout();
  showOnline();
  renderPair();
  const offLanguage = onLanguage(() => {
    layout();
    renderPair();
    renderTables(lastTables);
    showOnline();
    showRating(lastRatings);
  });
  return () => {
    alive = false;
    offLanguage();
    lobby.close();
    room.close();
  };
}
