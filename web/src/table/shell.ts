// The table around every game's board (chessground, chessgroundx, Shudan, the
// card table): seats with clocks, the time settings (proposed by one seat,
// accepted by the others), 读入, 交换, start, offers, resign, leave, rematch, and
// the result dialog, written once for every game. The game's page plugs in its
// board through `ShellHooks` (hooks.ts): it fills the main area, adds its own
// panels and answers the hooks. Here the parts are put together: the controller
// (ctrl.ts) owns the table's state and its connection, the views (view/) draw
// from it, and every new view is drawn in one pass. It names no game.
import { onLanguage } from '../i18n';
import { onSettings } from '../settings';
import { TableCtrl } from './ctrl';
import type { TableEvent } from './connection';
import type { ShellHooks } from './hooks';
import { drawButtons } from './view/buttons';
import { clockTicker } from './view/clocks';
import { drawConnection, drawHeader, drawMarks, tableLayout } from './view/layout';
import { drawOffers } from './view/offers';
import { proposalDialog } from './view/proposal';
import { resultDialog } from './view/result';
import { drawSeats } from './view/seats';
import { statusText } from './view/status';

export type { ShellContext, ShellHooks } from './hooks';

/** The open tables' redraws on a change of settings (one listener for all, so a
 * closed table is not kept alive by it). */
const settingsListeners = new Set<() => void>();
let listening = false;
function listenToSettings() {
  if (listening) return;
  listening = true;
  onSettings(() => settingsListeners.forEach((f) => f()));
}

/** Mounts table `id`'s page into `root` with the game's `hooks`; returns its cleanup. */
export function tableShell<V>(root: HTMLElement, id: string, hooks: ShellHooks<V>): () => void {
  listenToSettings();
  const ctrl: TableCtrl<V> = new TableCtrl<V>(id, hooks, {
    all: (events) => render(events),
    seats: () => drawSeatsAndClocks(),
    offers: () => drawOffers(layout.offers, ctrl),
    conn: () => drawConnection(layout, ctrl),
    chat: () => layout.chat.draw(),
  });
  const layout = tableLayout(root, ctrl);
  const clocks = clockTicker(root, ctrl);
  const result = resultDialog(ctrl);
  const proposal = proposalDialog(ctrl);

  function drawSeatsAndClocks() {
    drawSeats(layout.seats, ctrl);
    clocks.draw();
  }

  function render(events: TableEvent[]) {
    const ctx = ctrl.update(events);
    if (!ctx) return;
    drawHeader(layout, ctrl);
    drawSeatsAndClocks();
    drawButtons(layout.buttons, ctrl);
    drawOffers(layout.offers, ctrl);
    hooks.render(ctx);
    layout.chat.draw();
    layout.status.textContent = statusText(ctrl);
    drawMarks(layout, ctrl);
    result.update(events);
    proposal.update();
  }

  /** Renders again in place (the language or a setting changed): nothing reconnects. */
  function rerender() {
    drawConnection(layout, ctrl);
    layout.chat.draw();
    if (ctrl.closed || !ctrl.state) return;
    render([]);
    // Open dialogs are drawn again in the new language.
    result.redraw();
    proposal.redraw();
  }
  const offLanguage = onLanguage(rerender);
  settingsListeners.add(rerender);

  return () => {
    ctrl.close();
    clocks.stop();
    offLanguage();
    settingsListeners.delete(rerender);
    proposal.close();
    result.close();
  };
}
