// A player's profile: ratings per game and the game history.
import { h, mount } from '../dom';
import { t, reasonText, paren } from '../i18n';
import { poolName } from '../net/pools';
import { api } from '../net/api';
import { recordExtension, gameInfo } from '../net/games';
import { avatar } from '../ui';
import { errorOf } from '../errors';
import { playerLink, playerName, isComputer } from '../players';
import { replayButton } from '../replay/link';
import { analysisButton } from '../analysis/link';
import { tokensPanel } from './tokens';
import { relationButtons } from '../people/friends';
import { challengeButton } from '../people/challenge';
import { profileButtons } from '../people/messages';

/** A stored game as the server lists it (docs/protocol.md `GameSummary`). */
interface GameSummary {
  id: string;
  table: string;
  game: string;
  status: 'live' | 'finished';
  rated: boolean;
  started_at: number;
  ended_at: number | null;
  players: Array<{ seat: number; user_id: number | null; name: string; rating: number | null; rating_diff: number | null }>;
  result: { results: string[]; reason: string; score: string; points?: number[] } | null;
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

export function profilePage(root: HTMLElement, name: string) {
  mount(root, h('div.panel', null, t('connecting')));
  let alive = true;
  void api<Profile>('GET', `/api/user/${encodeURIComponent(name)}`)
    .then((p) => {
      if (!alive) return;
      const uname = p.user.username;
      const shown = isComputer(uname) ? playerName(uname) : uname;
      mount(
        root,
        h(
          'div',
          { id: 'profile' },
          h(
            'div.panel',
            null,
            h('div.profile-head', null, avatar(shown, 0), h('div', null, h('h2', null, shown), p.created_at ? h('div.hint', null, when(p.created_at)) : null), isComputer(uname) ? null : relationButtons(uname, p.user.guest === true), isComputer(uname) ? null : profileButtons(uname, p.user.guest === true), isComputer(uname) || p.user.guest ? null : challengeButton(uname)),
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
                      const seated = [...g.players].sort((a, b) => a.seat - b.seat);
                      const mine = seated.find((x) => x.name === uname);
                      const mineRes = mine ? g.result?.results?.[mine.seat] : undefined;
                      const won = mineRes === 'win';
                      const lost = mineRes === 'loss';
                      const diff = mine && typeof mine.rating_diff === 'number' ? ` ${mine.rating_diff > 0 ? '+' : ''}${mine.rating_diff}` : '';
                      const finished = g.status === 'finished' && g.result !== null;
                      return h(
                        'tr',
                        { 'data-game': g.id },
                        h('td', null, when(g.ended_at ?? g.started_at)),
                        h('td', null, poolName(g.game)),
                        h(
                          'td.players',
                          null,
                          seated.map((x, i) => [i ? ` ${t('vs')} ` : '', playerLink(x.name)]),
                        ),
                        h(`td${won ? '.res-win' : lost ? '.res-loss' : ''}`, null, g.result?.score || t('playing'), g.result?.reason ? paren(reasonText(g.result.reason)) : '', diff),
                        h(
                          'td.history-links',
                          null,
                          finished ? replayButton(g.id, '') : null,
                          finished ? ' ' : null,
                          finished ? h('a.record-link', { href: `/game/${g.id}.${recordExtension(g.game)}`, download: '' }, t('save')) : null,
                          finished && gameInfo(g.game)?.analysis ? ' ' : null,
                          finished ? analysisButton(g.game, g.id, '') : null,
                        ),
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
    .catch((e) => alive && mount(root, h('div.panel', null, t('errorPrefix') + errorOf(e))));
  return () => {
    alive = false;
  };
}
