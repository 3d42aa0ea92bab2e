// Links to the analysis board (pages/analysis.ts) for the result dialog, the
// replay viewer and game lists; apart from the page so that a table page links
// to it without loading it (as replay/link.ts).
import { h } from '../dom';
import { t } from '../i18n';
import { gameInfo } from '../net/games';

/** The analysis board's address: a free board, or a stored game to open on. */
export function analysisLink(game: string, gameId?: string): string {
  return gameId ? `#/analysis/${encodeURIComponent(game)}/${encodeURIComponent(gameId)}` : `#/analysis/${encodeURIComponent(game)}`;
}

/** A small link opening stored game `gameId` on the analysis board; none for a
 * game the server does not analyse (its descriptor's `analysis`). */
export function analysisButton(game: string, gameId: string, cls = 'btn.btn-small'): HTMLElement | null {
  if (!gameInfo(game)?.analysis) return null;
  return h(`a${cls ? '.' + cls : ''}.analysis-link`, { href: analysisLink(game, gameId), 'data-game-id': gameId }, t('analyseGame'));
}
