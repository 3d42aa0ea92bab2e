// Links to the replay viewer (replay.ts), for the result dialog and game lists;
// apart from the viewer so that a table page links to it without loading it.
import { h } from '../dom';
import { t } from '../i18n';

/** The viewer's address for game `id` (a table id for its first game, `{table}-{n}` after). */
export function replayLink(id: string): string {
  return `#/replay/${encodeURIComponent(id)}`;
}

/** A small button opening the replay of game `id` (for the result dialog and game lists). */
export function replayButton(id: string, cls = 'btn.btn-small'): HTMLElement {
  return h(`a${cls ? '.' + cls : ''}.replay-link`, { href: replayLink(id), 'data-game-id': id }, t('replay'));
}
