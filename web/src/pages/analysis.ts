// The analysis page: the analysis board (analysis/panel.ts) on the game's own
// board, as its plugin (games/) gives it, with a switch between the games the
// server analyses. The menu's 研究 leads here.
import { h, mount } from '../dom';
import { t } from '../i18n';
import { allGames, gameInfo, gameName } from '../net/games';
import { plugin } from '../games';
import { mountAnalysis } from '../analysis/panel';
import { analysisLink } from '../analysis/link';

/** The games the server analyses (their descriptors' `analysis`) on a board the client has. */
export function analysableGames(): string[] {
  return allGames()
    .map((g) => g.name)
    .filter((g) => gameInfo(g)?.analysis && plugin(g)?.analysis);
}

/**
 * The analysis page, `#/analysis` (the first game's free board),
 * `#/analysis/{game}` (a free board) or `#/analysis/{game}/{gameId}` (a stored
 * game, opened on its last position, with "review this game").
 */
export function analysisPage(root: HTMLElement, game: string | undefined, gameId?: string) {
  const games = analysableGames();
  const chosen = game || games[0];
  const board = chosen ? plugin(chosen)?.analysis : undefined;
  if (!chosen || !gameInfo(chosen)?.analysis || !board) {
    mount(root, h('div.panel', null, t('notFound')));
    return () => undefined;
  }
  const wrap = h('div.analysis-page', { id: 'analysis-page' });
  const tabs = h(
    'div.analysis-games',
    { id: 'analysis-games' },
    games.map((g) => h(`a.btn.btn-small${g === chosen && !gameId ? '.primary' : ''}`, { href: analysisLink(g), 'data-game': g }, gameName(g))),
  );
  mount(root, h('h2', null, `${t('analysisBoard')} · ${gameName(chosen)}`), tabs, wrap);
  return mountAnalysis(wrap, {
    game: chosen,
    board,
    orientation: 0,
    history: [],
    gameId,
  });
}
