// The analysis page: the analysis board (analysis/panel.ts) on the game's own
// board, as its plugin (games/) gives it.
import { h, mount } from '../dom';
import { t } from '../i18n';
import { gameInfo, gameName } from '../net/games';
import { plugin } from '../games';
import { mountAnalysis } from '../analysis/panel';

/**
 * The analysis page, `#/analysis/{game}` (a free board) or
 * `#/analysis/{game}/{gameId}` (a stored game, with "analyse this game").
 */
export function analysisPage(root: HTMLElement, game: string, gameId?: string) {
  // The games the server analyses (their descriptors' `analysis`) on a board the client has.
  const board = plugin(game)?.analysis;
  if (!gameInfo(game)?.analysis || !board) {
    mount(root, h('div.panel', null, t('notFound')));
    return () => undefined;
  }
  const wrap = h('div.analysis-page', { id: 'analysis-page' });
  mount(root, h('h2', null, `${t('analysisBoard')} · ${gameName(game)}`), wrap);
  return mountAnalysis(wrap, {
    game,
    board,
    orientation: 0,
    history: [],
    gameId,
  });
}
