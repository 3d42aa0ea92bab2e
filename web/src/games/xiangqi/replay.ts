// Xiangqi in the replay viewer: the chessgroundx board, Chinese notation, ICCS or WXF.
import { t } from '../../i18n';
import { settings } from '../../settings';
import { squareStage } from '../../replay/squares';
import type { Viewer } from '../../replay/types';
import { xiangqiBoard } from './board';

export const xiangqiViewer: Viewer = {
  flips: true,
  notations: [
    ['display', () => t('chineseNotation')],
    ['action', () => 'ICCS'],
    ['wxf', () => 'WXF'],
  ],
  preferred: () => ({ chinese: 'display', iccs: 'action', wxf: 'wxf' })[settings().xqNotation],
  stage: (data) => squareStage(data, () => xiangqiBoard(),  (v) => (v.turn === 'black' ? 1 : 0)),
  text: (data, i, n) => {
    const p = data.plies[i - 1];
    return n === 'action' ? p.action : n === 'wxf' ? (p.notations?.wxf ?? p.action) : p.display;
  },
};

