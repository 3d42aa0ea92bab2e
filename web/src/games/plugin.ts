// What a game gives the browser client: one plugin object per game folder
// (games/<game>/index.ts), listed once in the registry (games/index.ts). The
// generic pages (the table route, the lobby, the replay viewer, the analysis
// page) reach a game only through it. What the server knows of a game (seats,
// presets, record format, bots) comes from its descriptor (net/games.ts), not
// from here; each game's strings are in its folder.
import type { AnalysisBoard } from '../boards/types';
import type { Viewer } from '../replay/types';

/** A game's table page: mounts table `id` into `root`, returns its cleanup. */
export type TablePage = (root: HTMLElement, id: string) => () => void;

export interface GamePlugin {
  /** The game's name, as the server's registry has it. */
  name: string;
  /** Its table page: the table shell (table/shell.ts) with its board plugged in. */
  table: TablePage;
  /** Its part of the replay viewer: the board it draws a position with, its notations. */
  replay: Viewer;
  /** Its new-table dialog, for a game whose tables are made with options of their
   * own (Go's size and komi, a clock); without one the lobby makes a plain table. */
  createDialog?: (ratedDefault?: boolean) => void;
  /** The board the analysis page shows its positions on, for a game the server analyses. */
  analysis?: AnalysisBoard;
}
