// A player's profile: ratings per game and the game history.
import { h, mount } from '../dom';
import { t, reasonText, paren, type Key } from '../i18n';
import { api } from '../net/api';
import { recordExtension } from '../net/games';
import { avatar } from '../ui';
import { tokensPanel } from './tokens';

interface GameSummary {
  id: string | number;
  game?: string;
  kind?: string;
  white?: string | null;
  black?: string | null;
  players?: unknown[];
  result?: unknown;
  score?: string;
  reason?: string;
  ended_at?: number | string | null;
  started_at?: number | string | null;
  created_at?: number | string | null;
  status?: string;
  [k: string]: unknown;
}

interface Profile {
  user: { username: string; guest?: boolean };
  /** Lichess's `title`: `BOT` for a bot account (docs/api.md). */
  title?: string;
  created_at?: number;
  ratings: Array<{ pool: string; rating: number; provisional?: boolean; games?: number }>;
  games: GameSummary[];
  /** `<game>_points`: points (积分) for life in each game that keeps them. */
  [key: `${string}_points`]: PointsBlock | undefined;
}

interface PointsBlock {
  points: number;
  title: string;
  hands: number;
}

/** The profile's points blocks, one per game that keeps points. */
function pointsOf(p: Profile): Array<[string, PointsBlock]> {
  return Object.entries(p)
    .filter(([k, v]) => k.endsWith('_points') && v && typeof v === 'object' && typeof (v as PointsBlock).points === 'number')
    .map(([k, v]) => [k.slice(0, -'_points'.length), v as PointsBlock]);
}

function when(v: unknown): string {
  if (v === null || v === undefined) return '';
  const n = typeof v === 'number' ? (v < 1e12 ? v * 1000 : v) : Date.parse(String(v));
  const d = new Date(n);
  return isNaN(d.getTime()) ? String(v) : d.toLocaleString();
}

/** A rating pool's name: `chess:blitz` is chess at blitz speed. */
function poolName(pool: string): string {
  const [game, speed] = pool.split(':');
  const g = ['chess', 'xiangqi', 'go', 'doudizhu'].includes(game) ? t(game as Key) : game;
  const sp = speed ? `speed_${speed}` : '';
  return speed ? `${g} · ${sp in SPEEDS ? t(sp as Key) : speed}` : g;
}
const SPEEDS = { speed_bullet: 1, speed_blitz: 1, speed_rapid: 1, speed_classical: 1, speed_correspondence: 1 };

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
                ? p.ratings.map((r) => h('div.rating-box', { 'data-pool': r.pool }, h('div.hint', null, poolName(r.pool)), h('div.num', null, `${r.rating}${r.provisional ? '?' : ''}`), h('div.hint', null, `${r.games ?? 0} ${t('games')}`)))
                : h('div.hint', null, `${t('rating')}: 1500?`),
              pointsOf(p).map(([game, b]) =>
                h(
                  'div.rating-box.points-box',
                  { 'data-points': game },
                  h('div.hint', null, `${poolName(game)} · ${t('points')}`),
                  h('div.num', null, String(b.points)),
                  h('div.title', null, b.title),
                  h('div.hint', null, `${b.hands} ${t('hands')}`),
                ),
              ),
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
                  h('thead', null, h('tr', null, h('th', null, t('date')), h('th', null, t('gameKind')), h('th', null, t('players')), h('th', null, t('result')), h('th', null, ''))),
                  h(
                    'tbody',
                    null,
                    p.games.map((g) => {
                      const raw = (g.players ?? [g.white ?? null, g.black ?? null]) as unknown[];
                      const players = raw.map((x) => (x && typeof x === 'object' ? String((x as { name?: unknown }).name ?? '?') : x === null || x === undefined ? '?' : String(x)));
                      const mine = raw[players.indexOf(uname)] as { rating_diff?: number | null } | undefined;
                      const kind = String(g.game ?? g.kind ?? '');
                      const result = (g.result && typeof g.result === 'object' ? g.result : null) as { results?: string[]; reason?: string; score?: string } | null;
                      const res = String(result?.score ?? g.score ?? (typeof g.result === 'string' ? g.result : '') ?? '');
                      const reason = result?.reason ?? g.reason;
                      const myIndex = players.indexOf(uname);
                      const mineRes = result?.results?.[myIndex];
                      const won = mineRes === 'win' || (res === '1-0' && myIndex === 0) || (res === '0-1' && myIndex === 1);
                      const lost = mineRes === 'loss' || (res === '1-0' && myIndex === 1) || (res === '0-1' && myIndex === 0);
                      const diff = mine && typeof mine.rating_diff === 'number' ? ` ${mine.rating_diff > 0 ? '+' : ''}${mine.rating_diff}` : '';
                      return h(
                        'tr',
                        { 'data-game': g.id },
                        h('td', null, when(g.ended_at ?? g.started_at ?? g.created_at)),
                        h('td', null, kind ? t(kind as Key) : ''),
                        h('td', null, players.join(` ${t('vs')} `)),
                        h(`td${won ? '.res-win' : lost ? '.res-loss' : ''}`, null, res || t('playing'), reason ? paren(reasonText(String(reason))) : '', diff),
                        h('td', null, g.status === 'finished' || result ? h('a', { href: `/game/${g.id}.${recordExtension(kind)}`, download: `qiyuan-${g.id}` }, t('save')) : ''),
                      );
                    }),
                  ),
                )
              : h('div.hint', null, t('noGames')),
          ),
          tokensPanel(uname, p),
        ),
      );
    })
    .catch((e) => alive && mount(root, h('div.panel', null, t('errorPrefix') + (e as Error).message)));
  return () => {
    alive = false;
  };
}
