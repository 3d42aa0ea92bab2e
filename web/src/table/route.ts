// `/table/:id`: the game is known before anything connects. The table's game is
// asked of the server (`GET /api/game/{id}`), then that game's page opens the one
// connection (table/connection.ts). This list is the client's registry of table
// pages by game: chess and xiangqi on a piece board (pages/table.ts, with the
// board from boards/make.ts), Go on Shudan and Doudizhu's card table, both in the
// shared shell (table/shell.ts).
import { h, mount } from '../dom';
import { t } from '../i18n';
import { api } from '../net/api';
import { tablePage } from '../pages/table';
import { goTablePage } from '../go/table';
import { doudizhuTablePage } from '../doudizhu/table';

/** A game's table page: mounts into `root`, returns its cleanup. */
export type TablePage = (root: HTMLElement, id: string) => () => void;

const PAGES: Record<string, TablePage> = {
  chess: tablePage,
  xiangqi: tablePage,
  go: goTablePage,
  doudizhu: doudizhuTablePage,
};

/** What `GET /api/game/{id}` says of a table (docs/protocol.md). */
interface TableInfo {
  game: string;
}

/** Opens table `id` with its game's page; returns the cleanup. */
export function tableRoute(root: HTMLElement, id: string): () => void {
  let closed = false;
  let cleanup: (() => void) | null = null;
  mount(root, h('div.panel.hint', { id: 'table-loading' }, t('connecting')));
  void api<TableInfo>('GET', `/api/game/${encodeURIComponent(id)}`)
    .then((info) => {
      if (closed) return;
      const page = PAGES[info.game];
      if (!page) throw new Error(`no page for ${info.game}`);
      cleanup = page(root, id);
    })
    .catch(() => {
      if (!closed) mount(root, h('div.panel', { id: 'table-missing' }, t('notFound')));
    });
  return () => {
    closed = true;
    cleanup?.();
  };
}
