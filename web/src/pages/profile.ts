// A player's profile: ratings per game and the game history.
import { h, mount } from '../dom';
import { t, reasonText, type Key } from '../i18n';
import { api } from '../net/api';
import { avatar } from '../ui';

interface GameSummary {
  id: string | number;
  game?: string;
  kind?: string;
  white?: string | null;
  black?: string | null;
  players?: Array<string | null>;
  result?: string;
  score?: string;
  reason?: string;
  ended_at?: number | string | null;
  started_at?: number | string | null;
  created_at?: number | string | null;
  [k: string]: unknown;
}

interface Profile {
  user: { username: string; guest?: boolean };
  created_at?: number;
  ratings: Array<{ pool: string; rating: number; provisional?: boolean; games?: number }>;
  games: GameSummary[];
}

function when(v: unknown): string {
  if (v === null || v === undefined) return '';
  const n = typeof v === 'number' ? (v < 1e12 ? v * 1000 : v) : Date.parse(String(v));
  const d = new Date(n);
  return isNaN(d.getTime()) ? String(v) : d.toLocaleString();
}

export function profilePage(root: HTMLElement, name: string) {
  mount(root, h('div.panel', null, t('connecting')));
  let alive = true;
  void api<Profile>('GET', `/api/user/${encodeURIComponent(name)}`)
    .then((p) => {
      if (!alive) return;
      const uname = p.user.username;
      mount(
        root,
        h(
          'div',
          { id: 'profile' },
          h(
            'div.panel',
            null,
            h('div.profile-head', null, avatar(uname, 0), h('div', null, h('h2', null, uname), p.created_at ? h('div.hint', null, when(p.created_at)) : null)),
            h(
              'div.ratings',
              null,
              p.ratings.length
                ? p.ratings.map((r) => h('div.rating-box', null, h('div.hint', null, t((r.pool in { chess: 1, xiangqi: 1, go: 1, doudizhu: 1 } ? r.pool : 'rating') as Key)), h('div.num', null, `${r.rating}${r.provisional ? '?' : ''}`), h('div.hint', null, `${r.games ?? 0} ${t('games')}`)))
                : h('div.hint', null, `${t('rating')}: 1500?`),
            ),
          ),
          h(
            'div.panel',
            null,
            h('div.panel-title', null, t('history')),
            p.games.length
              ? h(
                  'table.history',
                  { id: 'history' },
                  h('thead', null, h('tr', null, h('th', null, t('date')), h('th', null, t('games')), h('th', null, t('players')), h('th', null, t('result')), h('th', null, ''))),
                  h(
                    'tbody',
                    null,
                    p.games.map((g) => {
                      const players = g.players ?? [g.white ?? '?', g.black ?? '?'];
                      const kind = String(g.game ?? g.kind ?? '');
                      const res = String(g.score ?? g.result ?? '');
                      const myIndex = players.indexOf(uname);
                      const won = (res === '1-0' && myIndex === 0) || (res === '0-1' && myIndex === 1);
                      const lost = (res === '1-0' && myIndex === 1) || (res === '0-1' && myIndex === 0);
                      return h(
                        'tr',
                        null,
                        h('td', null, when(g.ended_at ?? g.started_at ?? g.created_at)),
                        h('td', null, kind ? t(kind as Key) : ''),
                        h('td', null, players.map((x) => x ?? '?').join(` ${t('vs')} `)),
                        h(`td${won ? '.res-win' : lost ? '.res-loss' : ''}`, null, res, g.reason ? ` (${reasonText(String(g.reason))})` : ''),
                        h('td', null, h('a', { href: `/game/${g.id}.pgn`, download: `qiyuan-${g.id}.pgn` }, 'PGN')),
                      );
                    }),
                  ),
                )
              : h('div.hint', null, t('noGames')),
          ),
        ),
      );
    })
    .catch((e) => alive && mount(root, h('div.panel', null, t('errorPrefix') + (e as Error).message)));
  return () => {
    alive = false;
  };
}
