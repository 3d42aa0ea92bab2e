// Go in the browser: its table on the Shudan board (captures, pass, marking dead
// stones), its new-table dialog (size, komi, handicap), its replay viewer and
// the stone board of the analysis page.
import type { GamePlugin } from '../plugin';
import { goBoard } from './board';
import { openCreateGo } from './create';
import { goViewer } from './replay';
import { goTablePage } from './table';

export const go: GamePlugin = {
  name: 'go',
  table: goTablePage,
  replay: goViewer,
  createDialog: openCreateGo,
  analysis: { stones: goBoard },
};
