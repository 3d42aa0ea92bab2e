// The count game in the replay viewer: the running total at each ply.
import { h, mount } from '../../dom';
import { view, type Viewer } from '../../replay/types';
import { tx } from './text';

export const countViewer: Viewer = {
  flips: false,
  notations: [['display', () => tx('notationSums')]],
  stage: (data) => {
    const el = h('div.panel.count-board', { id: 'replay-count' });
    return {
      el,
      show(i) {
        const v = view(data, i);
        mount(el, h('div.hint', null, tx('total')), h('div.count-total', null, String(v.total ?? 0)), h('div.hint', null, tx('target', { n: String(v.target ?? '') })));
      },
      destroy: () => undefined,
    };
  },
  text: (data, i) => data.plies[i - 1].display || data.plies[i - 1].action,
};
