// A Go table: the Shudan board, captures, pass, the move list, and after two
// passes the dead-stone phase — click groups to toggle them dead, accept or
// resume, see whether the opponent accepted, and the count (`B+3.5`).
import { h, mount } from '../../dom';
import { t } from '../../i18n';
import { goBoard } from './board';
import { tableShell, type ShellContext as Shell } from '../../table/shell';
import type { GoView, JsonValue, MarkingView } from '../../net/generated/protocol';
import { tx } from './text';
import './go.css';

/** This folder's game, as the server's registry names it. */
const GAME = 'go';

type ShellContext = Shell<GoView>;
/** The Go view, or nothing of it before a game has started. */
type B = Partial<GoView>;

/** Go's options as the server takes them (docs/protocol.md: size, komi, handicap). */
function goOptions(o: JsonValue | undefined): { size?: number; komi?: number; handicap?: number } {
  if (!o || typeof o !== 'object' || Array.isArray(o)) return {};
  const num = (x: JsonValue | undefined) => (typeof x === 'number' ? x : undefined);
  return { size: num(o.size), komi: num(o.komi), handicap: num(o.handicap) };
}

export function goTablePage(root: HTMLElement, id: string): () => void {
  const board = goBoard();
  const capEl = h('div.go-captures', { id: 'go-captures' });
  const actionsEl = h('div.go-actions', { id: 'go-actions' });
  const markingEl = h('div.panel.go-marking', { id: 'go-marking', style: { display: 'none' } });
  const movesEl = h('div.move-list.go-moves', { id: 'moves' });
  const infoEl = h('div.hint', { id: 'go-info' });
  const main = h('div.go-main', null, board.el, h('div.go-bar', null, capEl, actionsEl));
  let ctx: ShellContext | null = null;

  board.onVertex((v) => {
    const c = ctx;
    if (!c || c.me === null || !c.playing) return;
    const b = view(c);
    if (b.phase === 'marking') {
      const stone = b.board?.[rowOf(b, v)]?.[colOf(v)];
      if (!stone || stone === '.') return;
      c.live.send('move', { action: `toggle ${v}` });
    } else if (b.phase === 'play' && myColor(c) === b.to_move) c.live.send('move', { action: v });
  });

  const LETTERS = 'ABCDEFGHJKLMNOPQRSTUVWXYZ';
  const colOf = (v: string) => LETTERS.indexOf(v[0]);
  const rowOf = (b: B, v: string) => (b.size ?? 19) - Number(v.slice(1));

  function view(c: ShellContext): B {
    return c.state.game?.board ?? {};
  }

  function myColor(c: ShellContext): 'black' | 'white' | null {
    return c.me === 0 ? 'black' : c.me === 1 ? 'white' : null;
  }

  // Redrawn with every render, so a language switch relabels it in place.
  const movesTitle = h('div.panel-title', null, tx('moves'));

  function render(c: ShellContext) {
    ctx = c;
    movesTitle.textContent = tx('moves');
    const g = c.state.game;
    const b = view(c);
    const settingsOpts = goOptions(c.state.status === 'waiting' ? c.state.proposal.settings.options : g?.settings.options);
    const size: number = b.size ?? settingsOpts.size ?? 19;
    const rows: string[] = b.board ?? Array.from({ length: size }, () => '.'.repeat(size));
    const marking = b.marking;
    const mine = myColor(c);
    const phase: string = c.playing ? b.phase ?? 'play' : 'over';
    board.set({
      size,
      rows,
      lastMove: b.last_move && b.last_move !== 'pass' ? b.last_move : null,
      ko: b.ko ?? null,
      dead: marking ? marking.dead : undefined,
      blackArea: marking?.black_area,
      whiteArea: marking?.white_area,
      ghost: c.playing && phase === 'play' && mine && b.to_move === mine ? (mine === 'black' ? 1 : -1) : 0,
      clickable: c.playing && c.me !== null && (phase === 'marking' || (phase === 'play' && b.to_move === mine)),
    });
    const caps = b.captures ?? { black: 0, white: 0 };
    mount(
      capEl,
      h('span.cap', { id: 'captures-black' }, h('span.stone.black'), `${tx('captures')} ${caps.black ?? 0}`),
      h('span.cap', { id: 'captures-white' }, h('span.stone.white'), `${tx('captures')} ${caps.white ?? 0}`),
    );
    const myTurn = c.playing && phase === 'play' && mine !== null && b.to_move === mine;
    mount(actionsEl, c.me !== null && c.playing && phase === 'play' ? h('button.btn', { id: 'btn-pass', disabled: !myTurn, onclick: () => c.live.send('move', { action: 'pass' }) }, tx('pass')) : null);
    infoEl.textContent = `${size}×${size} · ${tx('komi')} ${b.komi ?? settingsOpts.komi ?? 7.5}${(b.handicap ?? settingsOpts.handicap) ? ` · ${tx('handicap')} ${b.handicap ?? settingsOpts.handicap}` : ''} · ${tx('chineseRules')}`;
    renderMarking(c, b, marking);
    renderMoves(b);
  }

  function renderMarking(c: ShellContext, b: B, marking: MarkingView | null | undefined) {
    if (!marking) {
      markingEl.style.display = 'none';
      return;
    }
    markingEl.style.display = '';
    const acc: boolean[] = marking.accepted ?? [false, false];
    const inMarking = c.playing && b.phase === 'marking';
    const mine = c.me;
    const other = mine === 0 ? 1 : 0;
    const who = (seat: number) =>
      h(
        `div.go-accept${acc[seat] ? '.yes' : ''}`,
        { id: `accepted-${seat}`, 'data-accepted': String(!!acc[seat]) },
        h(`span.stone.${seat === 0 ? 'black' : 'white'}`),
        `${seat === 0 ? tx('black') : tx('white')}: ${acc[seat] ? tx('accepted') : tx('notAccepted')}`,
      );
    const blackArea = (marking.black_area ?? []).length;
    const whiteArea = (marking.white_area ?? []).length;
    const komi = Number(b.komi ?? 7.5);
    mount(
      markingEl,
      h('div.panel-title', null, inMarking ? tx('marking') : t('resultTitle')),
      h('div.go-score', { id: 'go-score' }, b.result ?? marking.score),
      h('div.hint', null, `${tx('black')} ${blackArea} · ${tx('white')} ${whiteArea} + ${komi} · ${tx('deadStones')} ${(marking.dead ?? []).length}`),
      inMarking ? h('div.go-accepts', null, who(0), who(1)) : null,
      inMarking && mine !== null && acc[other] && !acc[mine] ? h('div.offer-bar', { id: 'opponent-accepted' }, h('span.text', null, tx('opponentAccepted'))) : null,
      inMarking && mine !== null
        ? h(
            'div.go-mark-buttons',
            null,
            h('button.btn.primary', { id: 'btn-accept-marking', disabled: !!acc[mine], onclick: () => c.live.send('move', { action: 'accept' }) }, tx('acceptMarking')),
            h('button.btn', { id: 'btn-resume', onclick: () => c.live.send('move', { action: 'resume' }) }, tx('resumePlay')),
          )
        : null,
    );
  }

  function renderMoves(b: B) {
    const moves: string[] = b.moves ?? [];
    if (!moves.length) {
      mount(movesEl, h('div.moves-empty', null, tx('noMoves')));
      return;
    }
    const whiteFirst = (b.handicap ?? 0) >= 2;
    mount(
      movesEl,
      h(
        'div.go-move-grid',
        null,
        moves.map((m, i) => {
          const black = (i % 2 === 0) !== whiteFirst;
          return h(
            `span.move.go-move${i === moves.length - 1 ? '.active' : ''}`,
            { 'data-ply': i + 1 },
            h('span.move-no', null, `${i + 1}`),
            h(`span.stone.${black ? 'black' : 'white'}`),
            m === 'pass' ? tx('passed') : m,
          );
        }),
      ),
    );
    movesEl.scrollTop = movesEl.scrollHeight;
  }

  const cleanup = tableShell(root, id, {
    game: GAME,
    showScore: true,
    optionsText: (options) => {
      const o = goOptions(options);
      return `${o.size ?? 19}×${o.size ?? 19} · ${tx('komi')} ${o.komi ?? 7.5}${o.handicap ? ` · ${tx('handicap')} ${o.handicap}` : ''}`;
    },
    seats: 2,
    offers: true,
    main,
    panels: [markingEl, h('div.panel.moves-panel', null, movesTitle, infoEl, movesEl)],
    seatSub: (c, seat) => {
      const b = view(c);
      const color = seat === 0 ? tx('black') : tx('white');
      const caps = b.captures ? ` · ${tx('captures')} ${seat === 0 ? b.captures.black : b.captures.white}` : '';
      return color + caps;
    },
    seatOrder: (me) => (me === 0 ? [1, 0] : [0, 1]),
    render,
    status: (c) => {
      const b = view(c);
      if (b.phase === 'marking') return tx('marking');
      const mine = myColor(c);
      if (mine && b.to_move === mine) return tx('yourTurn');
      return `${b.to_move === 'white' ? tx('white') : tx('black')} ${tx('toMove')}`;
    },
    resultBody: (c) => {
      const b = view(c);
      const m = b.marking;
      if (!m) return null;
      return h('div.result-sub', { id: 'result-score' }, `${b.result ?? m.score} · ${tx('black')} ${(m.black_area ?? []).length} · ${tx('white')} ${(m.white_area ?? []).length} + ${b.komi}`);
    },
  });
  return () => {
    cleanup();
    board.destroy();
  };
}
