// `/table/:id`: the game is known before anything connects. The table's game is
// asked of the server (`GET /api/game/{id}`), then that game's page opens the one
// connection (table/connection.ts). Every page is the one table shell
// (table/shell.ts) with the game's board plugged in: a piece board for the games
// boards/make.ts has one (table/pieces.ts), else the game's own page from this
// list (Go on Shudan, Doudizhu's card table).
import { h, mount } from '../dom';
import { t } from '../i18n';
import { api } from '../net/api';
import { pieceTablePage } from './pieces';
import { hasPieceBoard } from '../boards/make';
import { goTablePage } from '../go/table';
import { doudizhuTablePage } from '../doudizhu/table';
import { chessViewer, xiangqiViewer, goViewer, doudizhuViewer, type Viewer } from '../replay/viewers';

/** A game's table page: mounts into `root`, returns its cleanup. */
export type TablePage = (root: HTMLElement, id: string) => () => void;

const PAGES: Record<string, TablePage> = {
  go: goTablePage,
  doudizhu: doudizhuTablePage,
};

/** A game's part of the replay viewer (replay/viewers.ts), if it has one. Built at
 * the call, not at load: the replay page imports this module and this one its
 * viewers. */
export function replayViewer(game: string): Viewer | undefined {
  const viewers: Record<string, Viewer> = {
    chess: chessViewer,
    xiangqi: xiangqiViewer,
    go: goViewer,
    doudizhu: doudizhuViewer,
  };
  return viewers[game];
}

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
      const page = PAGES[info.game] ?? (hasPieceBoard(info.game) ? pieceTablePage(info.game) : undefined);
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
