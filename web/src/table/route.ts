// `/table/:id`: the game is known before anything connects. The table's game is
// asked of the server (`GET /api/game/{id}`), then that game's page (its plugin's,
// games/) opens the one connection (table/connection.ts). Every page is the one
// table shell (table/shell.ts) with the game's board plugged in.
import { h, mount } from '../dom';
import { t } from '../i18n';
import { api } from '../net/api';
import { plugin } from '../games';

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
      const page = plugin(info.game)?.table;
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
