// Saving the game's record (保存): a download of `/game/{id}.{ext}` in the
// game's record format.
import { h } from '../../dom';
import type { TableCtrl } from '../ctrl';

export function saveRecord<V>(ctrl: TableCtrl<V>) {
  const r = ctrl.record();
  if (!r) return;
  const a = h('a', { href: r.href, download: r.file });
  document.body.appendChild(a);
  a.click();
  a.remove();
}
