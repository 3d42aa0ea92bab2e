// 单机: every game against the computer at any level, or hot-seat (two or three
// people on one screen), on private tables of the local server — no account (a
// guest session is made by itself), no rating, listed nowhere. The browser has no
// rules of its own: the table page shows the server's table, and at a hot-seat
// table the user acts for whichever seat is to move.
import { h, mount } from '../dom';
import { t } from '../i18n';
import { gameInfo, allGames, gameName, gameIcon } from '../net/games';
import { openPlayComputer, startHotseat, optionSelect, tr } from './computer';

export function offlinePage(root: HTMLElement, game?: string) {
  if (!game || !gameInfo(game)) {
    mount(
      root,
      h(
        'div.offline-pick',
        null,
        h('h2', null, t('offline')),
        h('p.hint', null, t('offlineHint')),
        h(
          'div.game-cards',
          null,
          allGames().map((g) =>
            h(`a.game-card.${g.name}`, { href: `#/offline/${g.name}`, id: `offline-${g.name}` }, h('span.game-icon', null, gameIcon(g.name)), gameName(g.name)),
          ),
        ),
      ),
    );
    return;
  }
  const info = gameInfo(game)!;
  // The game's table options to choose among (Go's board sizes), if any.
  const size = optionSelect(game, 'hotseat-size');
  mount(
    root,
    h(
      'div.offline-pick',
      { id: 'offline', 'data-game': game },
      h('h2', null, `${t('offline')} · ${gameName(game)}`),
      h('p.hint', null, tr('单机：只用本机服务器，不计等级分，不列入大厅和战绩', 'Offline: only the local server, no rating, listed nowhere')),
      h(
        'div.panel',
        null,
        info.bot_levels.length
          ? h('button.btn.primary', { id: 'offline-computer', onclick: () => openPlayComputer(game, { private: true }) }, tr('人机对弈', 'Play the computer'))
          : null,
        ' ',
        size?.el ?? null,
        ' ',
        h('button.btn', { id: 'offline-hotseat', onclick: () => startHotseat(game, size?.chosen() ?? null) }, `${t('hotseat')}`),
      ),
    ),
  );
}
