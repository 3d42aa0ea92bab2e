// The lobby's "new table" dialog for Doudizhu (the clock).
import { t } from '../i18n';
import { h } from '../dom';
import { dialog } from '../ui';
import { presetsOf } from '../net/games';
import { clockSelect, create } from '../go/create';
import { tx } from '../go/text';

/** This folder's game, as the server's registry names it. */
const GAME = 'doudizhu';

export function openCreateDoudizhu() {
  const clock = clockSelect(GAME);
  const body = h('div.go-form', { id: 'new-ddz-form' }, h('span', null, tx('clock')), clock);
  dialog(tx('newDdzTable'), body, [
    { label: t('cancel') },
    {
      label: tx('create'),
      cls: 'primary',
      onClick: () => {
        const p = presetsOf(GAME).find((x) => x.key === clock.value) ?? presetsOf(GAME)[0];
        void create(GAME, { time: p?.time });
      },
    },
  ], { id: 'new-ddz-dialog' });
}

/** The lobby's new-table dialog of this folder's game. */
export const createDialog = { game: GAME, open: openCreateDoudizhu };
