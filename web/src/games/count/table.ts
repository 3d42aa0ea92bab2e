// The count game's table: the running total against the target, and for the
// seat to move the buttons adding 1, 2 or 3 (the server's legal actions); the
// moves as the server wrote them (`+3 = 10`).
import { h, mount } from '../../dom';
import { renderMoves } from '../../ui';
import { tableShell, type ShellContext } from '../../table/shell';
import { tx } from './text';
import { STEPS, type CountView } from './view';

/** This folder's game, as the server's registry names it. */
const GAME = 'count';

type Ctx = ShellContext<CountView>;

export function countTablePage(root: HTMLElement, id: string): () => void {
  const totalEl = h('div.count-total', { id: 'count-total' });
  const targetEl = h('div.hint', { id: 'count-target' });
  const actionsEl = h('div.count-actions', { id: 'count-actions' });
  const movesEl = h('div.move-list', { id: 'moves' });
  const movesTitle = h('div.panel-title', null, tx('moves'));
  const main = h('div.panel.count-board', { id: 'count-board' }, h('div.hint', null, tx('total')), totalEl, targetEl, actionsEl);

  /** The seat to move in play, or null. */
  const toMove = (c: Ctx): number | null => (c.playing ? (c.state.game?.board?.to_move ?? null) : null);

  function render(c: Ctx) {
    const b = c.state.game?.board;
    const target = b?.target ?? 21;
    totalEl.textContent = String(b?.total ?? 0);
    main.dataset.total = String(b?.total ?? 0);
    targetEl.textContent = tx('target', { n: target });
    const myTurn = c.me !== null && toMove(c) === c.me;
    const left = target - (b?.total ?? 0);
    mount(
      actionsEl,
      c.me !== null && c.playing
        ? STEPS.map((n) => h('button.btn.primary', { id: `count-add-${n}`, disabled: !myTurn || n > left, onclick: () => c.live.send('move', { action: String(n) }) }, tx('add', { n })))
        : null,
    );
    movesTitle.textContent = tx('moves');
    renderMoves(movesEl, (c.state.game?.moves ?? []).map((m) => m.display || m.action));
  }

  return tableShell<CountView>(root, id, {
    game: GAME,
    seats: 2,
    main,
    panels: [h('div.panel.moves-panel', null, movesTitle, movesEl)],
    showScore: true,
    seatSub: (_c, seat) => (seat === 0 ? tx('first') : tx('second')),
    render,
    status: (c) => {
      const seat = toMove(c);
      if (seat === null) return '';
      return seat === c.me ? tx('yourTurn') : tx('seatToMove', { n: seat + 1 });
    },
  });
}
