// Doudizhu in the browser: its card table (bidding, plays, computer players, the
// table's running score), its new-table dialog and its replay viewer.
import type { GamePlugin } from '../plugin';
import { openCreateDoudizhu } from './create';
import { doudizhuViewer } from './replay';
import { doudizhuTablePage } from './table';

export const doudizhu: GamePlugin = {
  name: 'doudizhu',
  table: doudizhuTablePage,
  replay: doudizhuViewer,
  createDialog: openCreateDoudizhu,
};
