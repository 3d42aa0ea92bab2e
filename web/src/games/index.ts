// The client's one list of games: a plugin per game folder. Adding a game to the
// browser is its folder and one line here.
import { chess } from './chess';
import { count } from './count';
import { doudizhu } from './doudizhu';
import { go } from './go';
import { xiangqi } from './xiangqi';
import type { GamePlugin } from './plugin';

export type { GamePlugin, TablePage } from './plugin';

const PLUGINS: readonly GamePlugin[] = [chess, xiangqi, go, doudizhu, count];

/** The plugin of game `name`, if the client has one. */
export function plugin(name: string): GamePlugin | undefined {
  return PLUGINS.find((p) => p.name === name);
}
