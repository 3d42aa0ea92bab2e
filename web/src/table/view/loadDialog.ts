// The 读入 dialog: a position or a whole record pasted in, proposed as the next
// game's start. Such a game is never rated: the dialog says so, and says it
// again once the server took the position.
import { h } from '../../dom';
import { t } from '../../i18n';
import { dialog, toast } from '../../ui';
import type { TableCtrl } from '../ctrl';

export function openLoad<V>(ctrl: TableCtrl<V>) {
  const ta = h('textarea.record-input', { rows: 6, placeholder: t('loadHint'), id: 'load-input' }) as HTMLTextAreaElement;
  // Said before and after: a game from a position read in is never rated.
  dialog(t('loadTitle'), h('div', null, ta, h('div.hint', { id: 'load-casual' }, t('loadCasualHint'))), [
    { label: t('cancel') },
    {
      label: t('ok'),
      cls: 'primary',
      onClick: () => {
        // A position or a whole record, as the server reads them: it refuses
        // what it cannot read (bad_settings).
        const text = ta.value.trim();
        if (!text) {
          toast(t('invalidRecord'), 'error');
          return false;
        }
        void ctrl.propose({ setup: { position: text } }).then(
          () => toast(t('loadedCasual')),
          () => undefined,
        );
      },
    },
  ], { id: 'load-dialog' });
}
