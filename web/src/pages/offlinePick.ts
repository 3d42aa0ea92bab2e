// `#/offline/…`: the 单机 hot-seat games (pages/offline.ts) and the page that
// picks one. Moved out of main.ts as it was; it goes with pages/offline.ts when
// the 单机 games become private tables of the server.
import { h, mount } from '../dom';
import { t } from '../i18n';
import { offlinePage } from './offline';

export function offlineRoute(main: HTMLElement, arg: string | undefined): (() => void) | void {
  if (arg === 'chess' || arg === 'xiangqi') return offlinePage(main, arg);
  mount(
    main,
    h(
      'div.offline-pick',
      null,
      h('h2', null, t('offline')),
      h('p.hint', null, t('offlineHint')),
      h('div.game-cards', null,
        h('a.game-card.chess', { href: '#/offline/chess', id: 'offline-chess' }, h('span.game-icon', null, '♞'), t('chess')),
        h('a.game-card.xiangqi', { href: '#/offline/xiangqi', id: 'offline-xiangqi' }, h('span.game-icon.xq', null, '帥'), t('xiangqi')),
      ),
    ),
  );
}
