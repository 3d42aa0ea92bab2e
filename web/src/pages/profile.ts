import { h, mount } from '../dom';
export function profilePage(root: HTMLElement, name: string) {
  mount(root, h('div.panel', null, name));
}
