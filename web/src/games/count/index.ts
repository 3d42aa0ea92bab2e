// The toy counting game (`crates/count`) in the browser: players in turn add 1, 2
// or 3 until the target. It shows that a game takes its folder and one line in
// the registry (games/index.ts); the server hosts it in examples/toy_hall.rs.
import type { GamePlugin } from '../plugin';
import { countViewer } from './replay';
import { countTablePage } from './table';
import './count.css';

export const count: GamePlugin = {
  name: 'count',
  table: countTablePage,
  replay: countViewer,
};
