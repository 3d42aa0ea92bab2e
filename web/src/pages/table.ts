import { h, mount } from '../dom';
export function tablePage(root: HTMLElement, id: string) {
  mount(root, h('div.panel', null, id));
}
