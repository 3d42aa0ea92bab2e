import { h, mount } from '../dom';
export function lobbyPage(root: HTMLElement, game: string) {
  mount(root, h('div.panel', null, game));
}
