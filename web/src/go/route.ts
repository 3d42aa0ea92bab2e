// Where the shared table page hands over to the Go and Doudizhu pages: the page
// learns a table's game from its first state, and these two games have pages of
// their own.
import { goTablePage } from './table';
import { doudizhuTablePage } from '../doudizhu/table';

/** The page for a table of `game`, if it is one of ours; `null` for chess and xiangqi. */
export function otherTable(game: string, root: HTMLElement, id: string): (() => void) | null {
  if (game === 'go') return goTablePage(root, id);
  if (game === 'doudizhu') return doudizhuTablePage(root, id);
  return null;
}
