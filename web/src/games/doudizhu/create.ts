// Doudizhu's new-table dialog (the clock).
import { t } from '../../i18n';
import { h } from '../../dom';
import { dialog } from '../../ui';
import { presetsOf } from '../../net/games';
import { clockSelect, createTable, ratedSelect } from '../../table/create';
import { tx } from './text';

/** This folder's game, as the server's registry names it. */
const GAME = 'doudizhu';

export function openCreateDoudizhu(ratedDefault = false) {
  const clock = clockSelect(GAME);
  const rated = ratedSelect(ratedDefault);
  rated.id = 'new-rated';
  const body = h('div.go-form', { id: 'new-ddz-form' }, h('span', null, t('clock')), clock, h('span', null, t('ratedOrCasual')), rated);
  dialog(tx('newDdzTable'), body, [
    { label: t('cancel') },
    {
      label: t('create'),
      cls: 'primary',
      onClick: () => {
        const p = presetsOf(GAME).find((x) => x.key === clock.value) ?? presetsOf(GAME)[0];
        void createTable(GAME, { time: p?.time, rated: rated.value === 'rated' });
      },
    },
  ], { id: 'new-ddz-dialog' });
}

