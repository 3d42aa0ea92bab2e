// The replay viewer (复盘): any finished game of any game, from a shareable link
// (`/replay/{id}`, `#/replay/{id}`), the profile's game list and the result dialog.
// The server replays the stored log with the game's rules (`GET
// /api/game/{id}/replay`, docs/protocol.md) and sends every position as the
// game's own view; this page only draws them: no rules in the browser.
import { h, mount } from '../dom';
import { t, paren, reasonText, onLanguage } from '../i18n';
import { api } from '../net/api';
import { gameName } from '../net/games';
import { errorOf } from '../errors';
import { playerLink, playerName } from '../players';
import type { Side } from '../boards/types';
import { plugin } from '../games';
import { analysisButton } from '../analysis/link';
import type { ReplayData, Stage, Viewer } from './types';

function gameLabel(game: string): string {
  // The descriptor's name (the name itself for a game the server does not describe).
  return gameName(game);
}

function resultText(data: ReplayData): string {
  const o = data.outcome;
  if (!o) return t('notFinished');
  const winners = o.results.map((r, s) => (r === 'win' ? playerName(data.players[s]) : null)).filter(Boolean);
  const who = winners.length ? `${t('winner')}: ${winners.join(', ')}` : t('drawResult');
  return `${o.score} · ${who}${paren(reasonText(o.reason))}`;
}

export function replayPage(root: HTMLElement, id: string): () => void {
  let alive = true;
  let data: ReplayData | null = null;
  let viewer: Viewer | null = null;
  let stage: Stage | null = null;
  let ply = 0;
  let orientation: Side = 0;
  let notation = '';
  mount(root, h('div.panel', { id: 'replay-loading' }, t('connecting')));

  const last = () => data?.plies.length ?? 0;
  function go(to: number) {
    if (!data) return;
    ply = Math.max(0, Math.min(last(), to));
    paint();
  }

  const onKey = (e: KeyboardEvent) => {
    const tag = (e.target as HTMLElement | null)?.tagName;
    if (tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA' || e.altKey || e.ctrlKey || e.metaKey) return;
    const to = { ArrowLeft: ply - 1, ArrowRight: ply + 1, Home: 0, End: last() }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    go(to);
  };
  document.addEventListener('keydown', onKey);

  function movesList(): HTMLElement {
    const d = data!;
    const v = viewer!;
    const list = h('div.replay-moves.moves', { id: 'replay-moves' });
    const pairs = d.players.length === 2;
    const entry = (i: number) =>
      h(`span.move${i === ply ? '.active' : ''}`, { 'data-ply': i, onclick: () => go(i) }, v.text(d, i, notation));
    if (!d.plies.length) list.appendChild(h('div.moves-empty', null, t('noMoves')));
    if (pairs) {
      for (let i = 1; i <= d.plies.length; i += 2)
        list.appendChild(h('div.move-row', null, h('span.move-no', null, `${(i + 1) / 2}.`), entry(i), i + 1 <= d.plies.length ? entry(i + 1) : null));
    } else {
      d.plies.forEach((p, k) => list.appendChild(h('div.move-row', null, h('span.move-no', null, `${k + 1}.`), h('span.move-who', null, playerName(d.players[p.seat])), entry(k + 1))));
    }
    return list;
  }

  function paint() {
    if (!data || !viewer || !stage) return;
    stage.show(ply, orientation);
    const counter = document.getElementById('replay-ply');
    if (counter) counter.textContent = ply === 0 ? `${t('startPosition')} · 0 / ${last()}` : `${ply} / ${last()}`;
    const old = document.getElementById('replay-moves');
    if (old) {
      const fresh = movesList();
      old.replaceWith(fresh);
      fresh.querySelector('.move.active')?.scrollIntoView({ block: 'nearest' });
    }
    for (const [sel, off] of [['#replay-first', ply === 0], ['#replay-prev', ply === 0], ['#replay-next', ply === last()], ['#replay-last', ply === last()]] as const) {
      const b = root.querySelector<HTMLButtonElement>(sel);
      if (b) b.disabled = off;
    }
  }

  function render() {
    if (!alive || !data) return;
    const d = data;
    const v = plugin(d.game)?.replay;
    if (!v) {
      mount(root, h('div.panel', null, t('notFound')));
      return;
    }
    viewer = v;
    if (!notation) notation = (v.preferred?.() && v.notations.some(([n]) => n === v.preferred!()) ? v.preferred() : v.notations[0][0]) ?? '';
    stage?.destroy();
    const boardCol = h('div.replay-board-col');
    stage = v.stage(d, boardCol);
    boardCol.appendChild(stage.el);
    const button = (id: string, label: string, symbol: string, to: () => number) =>
      h('button.btn.btn-small', { id, title: label, 'aria-label': label, onclick: () => go(to()) }, symbol);
    const select = h(
      'select',
      { id: 'replay-notation', onchange: () => ((notation = select.value), paint()) },
      v.notations.map(([n, label]) => h('option', { value: n, selected: n === notation }, label())),
    );
    mount(
      root,
      h(
        'div.replay-page',
        { id: 'replay', 'data-game': d.game, 'data-id': d.id },
        h(
          'div.replay-head.panel',
          null,
          h('h2', null, `${t('replayOf')} · ${gameLabel(d.game)}`),
          h(
            'div.replay-players',
            { id: 'replay-players' },
            d.players.map((p, s) => [s ? h('span.hint', null, ` ${t('vs')} `) : null, playerLink(p)]),
          ),
          h('div.replay-result', { id: 'replay-result' }, resultText(d)),
        ),
        h(
          'div.replay-body',
          null,
          boardCol,
          h(
            'div.replay-side.panel',
            null,
            h(
              'div.replay-controls',
              null,
              button('replay-first', t('firstPly'), '|◀', () => 0),
              button('replay-prev', t('prevPly'), '◀', () => ply - 1),
              h('span.replay-ply', { id: 'replay-ply' }),
              button('replay-next', t('nextPly'), '▶', () => ply + 1),
              button('replay-last', t('lastPly'), '▶|', () => last()),
            ),
            h(
              'div.replay-tools',
              null,
              v.flips ? h('button.btn.btn-small', { id: 'replay-flip', onclick: () => ((orientation = orientation === 0 ? 1 : 0), paint()) }, t('flip')) : null,
              h('label.replay-notation', null, h('span.hint', null, t('notation')), select),
              h('a.btn.btn-small', { id: 'replay-download', href: d.record, download: '' }, t('download')),
              d.finished ? analysisButton(d.game, d.id) : null,
            ),
            movesList(),
          ),
        ),
      ),
    );
    paint();
    requestAnimationFrame(() => stage?.redraw?.());
  }

  const offLanguage = onLanguage(render);
  void api<ReplayData>('GET', `/api/game/${encodeURIComponent(id)}/replay`)
    .then((d) => {
      if (!alive) return;
      data = d;
      ply = d.plies.length;
      render();
    })
    .catch((e) => alive && mount(root, h('div.panel', { id: 'replay-error' }, t('errorPrefix') + errorOf(e))));

  return () => {
    alive = false;
    offLanguage();
    document.removeEventListener('keydown', onKey);
    stage?.destroy();
  };
}
