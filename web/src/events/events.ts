// Swiss events: the list (#/events, #/events/{game}) and an event's page
// (#/event/{id}): information, register/withdraw, the player's current game one
// click away, players, pairings per round with links to the tables, standings,
// crosstable, the arbiters' report, and the arbiter panel for the event's arbiters.
import { h, mount } from '../dom';
import { api, ApiError } from '../net/api';
import { session } from '../session';
import { settings } from '../settings';
import { gameName } from '../net/games';
import { playerName } from '../players';
import { followEvent, onNotify } from '../people/channel';
import './events.css';
import { roomPanel, type RoomPanel } from '../people/rooms';
import { tcText } from '../table/timeText';
import { organiserPanel, type EventConfig } from './organise';

const S = {
  events: ['比赛', 'Events'],
  noEvents: ['暂无比赛', 'No events yet'],
  name: ['名称', 'Name'],
  game: ['棋种', 'Game'],
  status: ['状态', 'Status'],
  rounds: ['轮次', 'Rounds'],
  registering: ['报名中', 'Registration'],
  running: ['进行中', 'Running'],
  finished: ['已结束', 'Finished'],
  register: ['报名', 'Register'],
  withdraw: ['退赛', 'Withdraw'],
  players: ['选手', 'Players'],
  round: ['第{n}轮', 'Round {n}'],
  board: ['台次', 'Board'],
  white: ['先手', 'White'],
  black: ['后手', 'Black'],
  result: ['结果', 'Result'],
  bye: ['轮空', 'Bye'],
  standings: ['排名', 'Standings'],
  place: ['名次', 'Place'],
  player: ['选手', 'Player'],
  score: ['积分', 'Score'],
  crosstable: ['交叉表', 'Crosstable'],
  report: ['裁判记录', "Arbiters' report"],
  arbiter: ['裁判', 'Arbiter'],
  act: ['执行', 'Act'],
  reason: ['理由', 'Reason'],
  yourGame: ['你的对局：第{r}轮 第{b}台 — 进入', 'Your game: round {r}, board {b} — play'],
  watch: ['观看', 'Watch'],
  trf: ['TRF 文件', 'TRF file'],
  withdrawn: ['已退赛', 'withdrawn'],
  disqualified: ['取消资格', 'disqualified'],
  warning: ['警告', 'Warning'],
  foul: ['犯规', 'Foul'],
  violation: ['违例', 'Violation'],
  adjudicate: ['判定结果', 'Adjudicate'],
  forfeit: ['判负（弃权）', 'Forfeit'],
  disqualify: ['取消比赛资格', 'Disqualify'],
  clock: ['用时', 'Clock'],
  startsAt: ['开始时间', 'Starts'],
  schedule: ['赛程', 'Schedule'],
  afterPrevious: ['每轮在上一轮全部结束 {p} 后开始', 'Each round starts {p} after the previous one has ended'],
  atOnce: ['每轮在上一轮全部结束后立即开始', 'Each round starts as soon as the previous one has ended'],
  fixedTimes: ['各轮开始时间（且不早于上一轮结束）：{t}', 'Rounds start at (never before the previous one ends): {t}'],
  forfeitRule: ['迟到 {p} 未到场判负', 'A player not at the table {p} after the round starts loses by forfeit'],
  ratedYes: ['计等级分', 'Rated'],
  ratedNo: ['不计等级分', 'Not rated'],
  lateEntry: ['可报名至第{n}轮', 'Late entry until round {n}'],
  secs: ['{n}秒', '{n} s'],
  mins: ['{n}分钟', '{n} min'],
  hours: ['{n}小时', '{n} h'],
  paused: ['赛程暂停中', 'schedule paused'],
  ended: ['结束原因：{r}', 'Ended: {r}'],
  end_rounds_played: ['所有轮次已下完', 'all rounds were played'],
  end_no_pairing: ['无法再编排合法的一轮', 'no legal pairing remains'],
  end_no_players: ['没有可编排的棋手', 'nobody is left to pair'],
  end_organiser: ['组织者结束了比赛', 'the organiser ended the event'],
  tbLegend: ['破同分规则', 'Tiebreaks'],
  tb_BH: ['布赫霍尔茨分（Buchholz）：所有对手积分之和', 'Buchholz: the sum of the opponents’ scores'],
  'tb_BH-C1': ['去掉最低一个对手分的布赫霍尔茨分', 'Buchholz cut 1: the opponents’ scores without the lowest'],
  'tb_BH-M1': ['去掉最高和最低对手分的布赫霍尔茨分', 'Median Buchholz: without the highest and the lowest'],
  tb_SB: ['索伦森-伯格分：所胜对手积分加所和对手积分的一半', 'Sonneborn-Berger: the scores of the opponents beaten plus half of those drawn'],
  tb_PS: ['累进分：每轮之后积分的累加', 'Progressive score: the sum of the scores after each round'],
  tb_DE: ['直接对局：同分者之间的对局结果', 'Direct encounter: the results between the tied players'],
  tb_WIN: ['胜局数（含判胜）', 'Wins, forfeits included'],
  tb_WON: ['实际对弈的胜局数', 'Wins over the board'],
  ctLegend: ['交叉表代码：“2w0” 指对第2号选手、执先手（w 先手，b 后手）、结果 0', 'Crosstable codes: “2w0” is against start rank 2, with White (w White, b Black), result 0'],
  r_1: ['胜', 'won'],
  r_0: ['负', 'lost'],
  'r_=': ['和', 'drawn'],
  'r_+': ['对方弃权，判胜', 'won by forfeit'],
  'r_-': ['弃权判负', 'lost by forfeit'],
  r_H: ['请求轮空，得半分', 'half-point bye (requested)'],
  r_F: ['轮空，得一分', 'full-point bye'],
  r_U: ['编排轮空，得一分', 'pairing bye (one point)'],
  r_Z: ['请求轮空，得零分', 'zero-point bye (requested)'],
  r_W: ['胜（不计等级分）', 'won (unrated)'],
  r_D: ['和（不计等级分）', 'drawn (unrated)'],
  r_L: ['负（不计等级分）', 'lost (unrated)'],
  vsRank: ['对第{n}号', 'against no. {n}'],
  asWhite: ['执先手', 'with White'],
  asBlack: ['执后手', 'with Black'],
  newEvent: ['新建比赛', 'New event'],
  restore: ['恢复局面（保留前 N 步）', 'Restore the position (keep N moves)'],
  clockAdjust: ['调整时钟（秒，负数为扣时）', 'Adjust the clock (seconds, negative removes)'],
  pause: ['暂停计时', 'Pause the clocks'],
  resume: ['恢复计时', 'Resume the clocks'],
  refer: ['提交裁判长', 'Refer to the chief arbiter'],
  handVoid: ['-- 本局作废（各0分）', '-- void the hand (0 each)'],
  handArbiter: ['三人桌：针对该选手本轮正在进行的一局（已结束的局不能改判）', "Tables of three: the player's hand being played this round (a finished hand's score stands)"],
  arbNumber: ['步数或秒数', 'Moves or seconds'],
  table: ['第{n}桌', 'Table {n}'],
  hand: ['第{n}局', 'Hand {n}'],
  roundTotal: ['本轮', 'Round'],
  playing: ['进行中', 'playing'],
  handDone: ['已完成', 'finished'],
  chips: ['积分', 'Chips'],
  hands: ['局数', 'Hands'],
  out: ['已出局', 'out'],
  matchpoints: ['比赛分', 'Matchpoints'],
  percent: ['得分率', 'Percent'],
  points: ['原始分', 'Points'],
  boardsPlayed: ['已赛副数', 'Boards'],
  kindPoints: ['积分赛', 'Points event'],
  kindDuplicate: ['复式赛', 'Duplicate event'],
  exportJson: ['比较（JSON）', 'Comparison (JSON)'],
  exportCsv: ['成绩表（CSV）', 'Results (CSV)'],
  comparison: ['逐副比较', 'Board by board'],
  redealt: ['（全不叫重发，第{n}次）', ' (all passed: redeal {n})'],
  boardN: ['第{n}副', 'Board {n}'],
  sealed: ['尚有牌桌未打完，暂不公开', 'Not published until every table has played it'],
  seat: ['座位', 'Seat'],
  bid: ['叫分', 'Bid'],
  bidN: ['叫{n}分', 'Bid {n}'],
  boardsN: ['牌副数 {n}', '{n} boards'],
  landlordMark: ['地主', 'landlord'],
  noBid: ['不叫', 'no bid'],
  cardsHeld: ['手牌', 'Cards'],
  mpSum: ['每个座位的比赛分之和为 n(n−1)（n 为桌数），每人最高 2(n−1)。', 'For each seat the matchpoints sum to n(n−1) (n tables), the top being 2(n−1).'],
  referrals: ['待裁决的申报', 'Open referrals'],
  decision: ['裁决', 'Decision'],
  decide: ['裁决', 'Decide'],
  noAct: ['不处罚', 'No act'],
  by: ['提交人', 'by'],
} as const;

type Key = keyof typeof S;

function t(k: Key, vars: Record<string, string | number> = {}): string {
  let s: string = settings().lang === 'en' ? S[k][1] : S[k][0];
  for (const [name, v] of Object.entries(vars)) s = s.replace(`{${name}}`, String(v));
  return s;
}

interface EventSummary {
  id: string;
  name: string;
  game: string;
  status: string;
  rounds: number;
  starts_at: number;
}

interface Game {
  board: number;
  white: string;
  black: string | null;
  table: string | null;
  white_result: string | null;
  black_result: string | null;
}

/** A table of three in a round (docs/card-events.md, "Standings"). */
interface CardTable {
  board: number;
  players: string[];
  round_scores: number[];
  hands: { hand: number; seats?: string[]; table?: string | null; link?: string; scores?: number[] | null; finished?: boolean }[];
}

interface Referral {
  id: number;
  player: string;
  by: string;
  text: string;
  round: number | null;
  board: number | null;
  at: number;
  open: boolean;
}

interface Round {
  round: number;
  games: Game[];
  tables?: CardTable[];
  byes: { user: string; kind: string }[];
  finished_at: number | null;
}

/** A standing: Swiss (score, tiebreaks), points (chips) or duplicate (matchpoints). */
interface Standing {
  place: number;
  user: string;
  score?: number;
  tiebreaks?: { code: string; value: number }[];
  chips?: number;
  hands?: number;
  out?: boolean;
  matchpoints?: number;
  top?: number;
  percent?: number;
  points?: number;
  boards?: number;
}

interface EventView {
  id: string;
  status: string;
  organiser: string | null;
  arbiters: string[];
  config: EventConfig;
  end: { reason: string; rounds: number; detail: string } | null;
  current_round: number | null;
  players: { user: string; start_rank: number; rating: number | null; withdrawn: boolean; disqualified: boolean }[];
  rounds: Round[];
  standings: Standing[];
  referrals?: Referral[];
  chief?: string | null;
  crosstable: { start_rank: number; user: string; score: number; rounds: string[] }[];
  actions: { id: number; kind: string; player: string; arbiter: string | null; reason: string; round: number | null; board: number | null; at: number }[];
}

/** A length of time in words (`90` → `1分钟30秒` / `1 min 30 s`). */
export function duration(secs: number): string {
  const parts: string[] = [];
  let rest = Math.round(secs);
  const hrs = Math.floor(rest / 3600);
  rest -= hrs * 3600;
  const min = Math.floor(rest / 60);
  rest -= min * 60;
  if (hrs) parts.push(t('hours', { n: hrs }));
  if (min) parts.push(t('mins', { n: min }));
  if (rest || !parts.length) parts.push(t('secs', { n: rest }));
  return parts.join(settings().lang === 'en' ? ' ' : '');
}

const when = (ms: number) => new Date(ms).toLocaleString(settings().lang === 'en' ? 'en-GB' : 'zh-CN', { dateStyle: 'medium', timeStyle: 'short' });

/** The schedule in words. */
function scheduleText(c: EventConfig): string {
  const s = c.schedule ?? { kind: 'after_previous', pause_secs: 60 };
  if (s.kind === 'fixed') return t('fixedTimes', { t: s.times.map(when).join('、') });
  return s.pause_secs > 0 ? t('afterPrevious', { p: duration(s.pause_secs) }) : t('atOnce');
}

/** A tiebreak code (`BH`, `PS`, …) in words. */
export function tiebreakText(code: string): string {
  const k = `tb_${code}`;
  return k in S ? t(k as Key) : code;
}

/** A crosstable cell (`2w0`, `+`, `H`) in words. */
export function crossText(cell: string): string {
  const m = /^(\d*)([wb]?)(.)$/.exec(cell.trim());
  if (!m) return cell;
  const [, opp, colour, result] = m;
  const parts: string[] = [];
  if (opp) parts.push(t('vsRank', { n: opp }));
  if (colour) parts.push(t(colour === 'w' ? 'asWhite' : 'asBlack'));
  const rk = `r_${result}`;
  parts.push(rk in S ? t(rk as Key) : result);
  return parts.join(settings().lang === 'en' ? ', ' : '，');
}

const statusText = (s: string) => (s === 'registering' || s === 'running' || s === 'finished' ? t(s) : s);

/** `#/events` or `#/events/{game}`: the events, newest first. */
export function eventsPage(main: HTMLElement, game?: string): () => void {
  const list = h('div.events-list', { id: 'events-list' });
  const tools = h('span.event-tools');
  mount(main, h('div.panel.events', { id: 'events-page' }, h('h2', null, t('events'), ' ', tools), list));
  if (session() && !session()?.guest)
    void api<{ organiser: boolean }>('GET', '/api/events/me')
      .then((r) => {
        if (r.organiser) mount(tools, h('a.btn.primary', { id: 'new-event', href: '#/new-event' }, t('newEvent')));
      })
      .catch(() => undefined);
  const q = game ? `?game=${encodeURIComponent(game)}` : '';
  void api<EventSummary[]>('GET', `/api/events${q}`).then((events) => {
    if (!events.length) return mount(list, h('p.hint', null, t('noEvents')));
    mount(
      list,
      h(
        'table.event-table',
        null,
        h('tr', null, h('th', null, t('name')), h('th', null, t('game')), h('th', null, t('status')), h('th', null, t('rounds'))),
        events.map((e) =>
          h(
            'tr.event-row',
            { 'data-event': e.id },
            h('td', null, h('a.event-link', { href: `#/event/${e.id}` }, e.name)),
            h('td', null, gameName(e.game)),
            h('td', null, statusText(e.status)),
            h('td', null, String(e.rounds)),
          ),
        ),
      ),
    );
  });
  return () => {};
}

const shown = (g: Game, side: 'white' | 'black') => {
  const r = side === 'white' ? g.white_result : g.black_result;
  return r === null ? '' : r === '=' ? '½' : r;
};

function roundTable(r: Round) {
  return h(
    'div.event-round',
    { id: `round-${r.round}` },
    h('h4', null, t('round', { n: r.round })),
    h(
      'table.event-table',
      null,
      h('tr', null, h('th', null, t('board')), h('th', null, t('white')), h('th', null, t('result')), h('th', null, t('black')), h('th', null, '')),
      r.games.map((g) =>
        h(
          'tr.ev-pairing',
          { 'data-board': g.board },
          h('td', null, String(g.board)),
          h('td', null, g.white),
          h('td.ev-result', null, g.black === null ? t('bye') : `${shown(g, 'white')} – ${shown(g, 'black')}`),
          h('td', null, g.black ?? ''),
          h('td', null, g.table ? h('a.table-link', { href: `#/table/${g.table}` }, t('watch')) : ''),
        ),
      ),
      r.byes.map((b) => h('tr.ev-bye', null, h('td', null, ''), h('td', null, b.user), h('td', null, b.kind === 'H' ? '½' : '0'), h('td', null, t('bye')), h('td', null, ''))),
    ),
  );
}

const signed = (n: number) => (n > 0 ? `+${n}` : String(n));

/** A round at tables of three: each table's players, their round's scores and each hand's. */
function cardRoundTable(r: Round) {
  return h(
    'div.event-round',
    { id: `round-${r.round}` },
    h('h4', null, t('round', { n: r.round })),
    (r.tables ?? []).map((tb) =>
      h(
        'table.event-table.ev-card-table',
        { 'data-table': tb.board },
        h('caption', null, t('table', { n: tb.board })),
        h('tr', null, h('th', null, ''), tb.players.map((p) => h('th', null, playerName(p))), h('th', null, '')),
        tb.hands.map((hd) => {
          // A hand lists its scores by seat; its seats turn by one each hand,
          // so the columns (the table's players) read them by name.
          const byPlayer = tb.players.map((p) => {
            const i = hd.seats?.indexOf(p) ?? -1;
            return i >= 0 && hd.scores ? signed(hd.scores[i]) : '';
          });
          const done = hd.scores ? null : hd.finished ? t('handDone') : hd.finished === false || hd.seats || hd.table ? t('playing') : '';
          return h(
            'tr.ev-hand',
            { 'data-hand': hd.hand },
            h('td', null, t('hand', { n: hd.hand })),
            byPlayer.map((x) => h('td.ev-hand-score', null, x)),
            h('td', null, done ?? '', hd.table ? [' ', h('a.table-link', { href: `#/table/${hd.table}` }, t('watch'))] : ''),
          );
        }),
        h('tr.ev-round-total', null, h('th', null, t('roundTotal')), tb.round_scores.map((x) => h('td', null, signed(x))), h('td', null, '')),
      ),
    ),
  );
}

interface Comparison {
  boards: { board: number; published: boolean; tables?: { table: number; deal?: number; game: string | null; seats: { seat: number; user: string; points: number; matchpoints: number; top: number }[]; record: DdzRecord | null }[] }[];
}

interface DdzRecord {
  deal?: { hands?: unknown[] };
  bids?: { seat: number; bid: number }[];
  landlord?: number | null;
}

const SUITS: Record<string, string> = { s: '♠', h: '♥', c: '♣', d: '♦' };

/**
 * Cards of a hand as the record stores them (`3h4sTd…BR`: rank and suit, the
 * jokers alone) in words: 10 for T, 小王/大王 (Little/Big Joker) for B/R.
 */
export function cardsText(hand: unknown, en = settings().lang === 'en'): string {
  const raw = (Array.isArray(hand) ? hand.join('') : typeof hand === 'string' ? hand : '').replace(/\s+/g, '');
  const out: string[] = [];
  for (const m of raw.matchAll(/([3-9TJQKA2])([shcd]?)|([BR])/g)) {
    if (m[3]) out.push(m[3] === 'B' ? (en ? 'Little Joker' : '小王') : en ? 'Big Joker' : '大王');
    else out.push(`${m[1] === 'T' ? '10' : m[1]}${SUITS[m[2]] ?? ''}`);
  }
  return out.join(' ');
}

/** A finished duplicate event's boards: each table's seats, cards, bids, points and matchpoints. */
function comparisonView(cmp: Comparison) {
  return h(
    'div.panel',
    { id: 'event-comparison' },
    h('h3', null, t('comparison')),
    h('p.hint', null, t('mpSum')),
    cmp.boards.map((b) =>
      h(
        'div.ev-board',
        { 'data-board': b.board, 'data-published': String(b.published) },
        h('h4', null, t('boardN', { n: b.board })),
        !b.published
          ? h('p.hint', null, t('sealed'))
          : h(
              'table.event-table',
              null,
              h('tr', null, h('th', null, t('seat')), (b.tables ?? []).map((tb) => h('th', { colspan: 5, 'data-deal': tb.deal ?? 0 }, t('table', { n: tb.table }) + (tb.deal ? t('redealt', { n: tb.deal }) : '')))),
              h('tr', null, h('th', null, ''), (b.tables ?? []).map(() => [h('th', null, t('player')), h('th', null, t('cardsHeld')), h('th', null, t('bid')), h('th', null, t('points')), h('th', null, t('matchpoints'))])),
              [0, 1, 2].map((seat) =>
                h(
                  'tr.ev-board-seat',
                  { 'data-seat': seat },
                  h('td', null, String(seat)),
                  (b.tables ?? []).map((tb) => {
                    const s = tb.seats.find((x) => x.seat === seat);
                    const bids = (tb.record?.bids ?? []).filter((x) => x.seat === seat).map((x) => (x.bid ? t('bidN', { n: x.bid }) : t('noBid')));
                    const lord = tb.record?.landlord === seat ? ` (${t('landlordMark')})` : '';
                    return [
                      h('td', null, s ? playerName(s.user) : ''),
                      h('td.ev-cards', null, cardsText(tb.record?.deal?.hands?.[seat])),
                      h('td', null, bids.join(' / ') + lord),
                      h('td.ev-points', null, s ? signed(s.points) : ''),
                      h('td.ev-mp', { 'data-table': tb.table }, s ? `${s.matchpoints}/${s.top}` : ''),
                    ];
                  }),
                ),
              ),
            ),
      ),
    ),
  );
}

function arbiterPanel(ev: EventView, after: () => void) {
  // A table arbiter's acts, then the chief's (the server refuses those to a
  // table arbiter once a chief is named: chief_only).
  const kinds = ['warning', 'foul', 'violation', 'restore', 'clock', 'pause', 'resume', 'refer', 'adjudicate', 'forfeit', 'disqualify'] as const;
  const kind = h('select', { id: 'arbiter-kind' }, kinds.map((k) => h('option', { value: k }, t(k === 'clock' ? 'clockAdjust' : k))));
  const amount = h('input', { id: 'arbiter-amount', type: 'number', placeholder: t('arbNumber') }) as HTMLInputElement;
  const player = h('select', { id: 'arbiter-player' }) as HTMLSelectElement;
  const reason = h('input', { id: 'arbiter-reason', placeholder: t('reason') }) as HTMLInputElement;
  // The round (default the latest): a finished round's result is corrected.
  const round = h('select', { id: 'arbiter-round' }) as HTMLSelectElement;
  // Refilled at each read of the event (a late entry, a new round), keeping
  // what is chosen.
  // The chief's open referrals, each with a decision and a decide button.
  const referrals = h('div.ev-referrals', { id: 'arbiter-referrals' });
  const me = session()?.name;
  const drawReferrals = (ev: EventView) => {
    const chief = ev.chief === undefined || ev.chief === null ? ev.arbiters.includes(me ?? '') : ev.chief === me;
    const open = chief ? (ev.referrals ?? []).filter((r) => r.open) : [];
    // Keep what the chief is typing in a referral still open.
    const typed = new Map<number, string>();
    for (const el of referrals.querySelectorAll<HTMLInputElement>('input[data-referral]')) typed.set(Number(el.dataset.referral), el.value);
    mount(
      referrals,
      open.length ? h('h4', null, t('referrals')) : null,
      open.map((r) => {
        const text = h('input', { 'data-referral': r.id, placeholder: t('decision'), value: typed.get(r.id) ?? '' }) as HTMLInputElement;
        const acts = ['', 'warning', 'foul', 'violation', 'adjudicate', 'forfeit', 'disqualify'] as const;
        const what = h('select', null, acts.map((k) => h('option', { value: k }, k ? t(k) : t('noAct')))) as HTMLSelectElement;
        const st = h('span.hint');
        return h(
          'div.ev-referral',
          { 'data-referral': r.id },
          `${r.round ? t('round', { n: r.round }) : ''} ${r.player} — ${r.text} (${t('by')} ${r.by}) `,
          text,
          what,
          h(
            'button.btn.small',
            {
              type: 'button',
              class: 'btn small ev-decide',
              onclick: async () => {
                try {
                  const body: Record<string, unknown> = { kind: 'decide', referral: r.id, player: r.player, reason: text.value };
                  if (what.value) body.action = what.value;
                  if (what.value === 'adjudicate') body.result = (result as HTMLSelectElement).value;
                  await api('POST', `/api/event/${ev.id}/action`, body);
                  after();
                } catch (e) {
                  st.textContent = e instanceof ApiError ? e.message : String(e);
                }
              },
            },
            t('decide'),
          ),
          st,
        );
      }),
    );
  };
  const update = (ev: EventView) => {
    drawReferrals(ev);
    const [p, r] = [player.value, round.value];
    mount(player, ev.players.map((x) => h('option', { value: x.user, selected: x.user === p }, x.user)));
    mount(round, [...ev.rounds].reverse().map((x) => h('option', { value: String(x.round), selected: String(x.round) === r }, t('round', { n: x.round }))));
  };
  update(ev);
  // At tables of three a hand being played is voided (`--`) or forfeited by
  // a seat (forfeit): the server takes no other result there.
  const three = (ev.config.kind ?? 'swiss') !== 'swiss';
  const results = three ? [['--', t('handVoid')]] : ['1-0', '0-1', '1/2-1/2', '+-', '-+', '--'].map((r) => [r, r]);
  const result: HTMLElement = h('select', { id: 'arbiter-result' }, results.map(([r, label]) => h('option', { value: r }, label)));
  const status = h('span.hint', { id: 'arbiter-status' });
  const submit = h(
    'button.btn.primary',
    {
      id: 'arbiter-submit',
      onclick: async () => {
        try {
          const body: Record<string, unknown> = { kind: (kind as HTMLSelectElement).value, player: (player as HTMLSelectElement).value, reason: reason.value };
          if (body.kind === 'adjudicate') body.result = (result as HTMLSelectElement).value;
          if (round.value) body.round = Number(round.value);
          if (body.kind === 'restore') body.ply = Number(amount.value);
          if (body.kind === 'clock') body.seconds = Number(amount.value);
          await api('POST', `/api/event/${ev.id}/action`, body);
          status.textContent = '✓';
          reason.value = '';
          after();
        } catch (e) {
          status.textContent = e instanceof ApiError ? e.message : String(e);
        }
      },
    },
    t('act'),
  );
  const note = three ? h('p.hint', { id: 'arbiter-hand-note' }, t('handArbiter')) : null;
  return { el: h('div.panel.arbiter-panel', { id: 'arbiter-panel' }, h('h3', null, t('arbiter')), note, kind, player, round, result, amount, reason, submit, status, referrals), update };
}

/** `#/event/{id}`: the event, refreshed every two seconds. */
export function eventPage(main: HTMLElement, id: string): () => void {
  let stopped = false;
  const root = h('div.events', { id: 'event-page' });
  mount(main, root);
  const me = session()?.name;
  // Made once, so that a refresh keeps what the arbiter is typing.
  let panel: ReturnType<typeof arbiterPanel> | null = null;
  let organiser: ReturnType<typeof organiserPanel> | null = null;
  // The event's room, made once the event is read (its arbiters and
  // organiser post announcements there).
  let room: RoomPanel | null = null;
  // A finished duplicate event's comparison, read once.
  let comparison: HTMLElement | null = null;
  let comparing = false;
  const render = (ev: EventView) => {
    const kind = ev.config.kind ?? 'swiss';
    const cards = kind !== 'swiss';
    if (kind === 'duplicate' && ev.status === 'finished' && !comparison && !comparing) {
      comparing = true;
      void api<Comparison>('GET', `/event/${encodeURIComponent(ev.id)}.json`)
        .then((cmp) => {
          comparison = comparisonView(cmp);
          if (!stopped) render(ev);
        })
        .catch(() => (comparing = false));
    }
    if (me && ev.arbiters.includes(me)) {
      if (panel) panel.update(ev);
      else panel = arbiterPanel(ev, load);
    }
    if (me && ev.organiser === me) {
      if (organiser) organiser.update(ev);
      else organiser = organiserPanel(ev, load);
    }
    room ??= roomPanel({ kind: 'event', event: ev.id }, !!me && (ev.arbiters.includes(me) || ev.organiser === me), !!me && ev.arbiters.includes(me));
    const mine = ev.players.find((p) => p.user === me);
    const canRegister = !mine && ev.status !== 'finished';
    const current = ev.rounds.find((r) => r.round === ev.current_round);
    const myGame = current?.games.find((g) => (g.white === me || g.black === me) && g.black !== null && g.table && g.white_result === null);
    const tb = cards ? [] : (ev.standings[0]?.tiebreaks?.map((x) => x.code) ?? []);
    const standingHead =
      kind === 'duplicate'
        ? [t('matchpoints'), t('percent'), t('points'), t('boardsPlayed')]
        : kind === 'points'
          ? [t('chips'), t('hands')]
          : [t('score'), ...tb];
    const standingCells = (s: Standing) =>
      kind === 'duplicate'
        ? [h('td.ev-score', null, `${s.matchpoints ?? 0}/${s.top ?? 0}`), h('td.ev-percent', null, `${s.percent ?? 0}%`), h('td', null, signed(s.points ?? 0)), h('td', null, String(s.boards ?? 0))]
        : kind === 'points'
          ? [h('td.ev-score', null, String(s.chips ?? 0), s.out ? ` (${t('out')})` : ''), h('td', null, String(s.hands ?? 0))]
          : [h('td.ev-score', null, String(s.score)), (s.tiebreaks ?? []).map((x) => h('td', null, String(x.value)))];
    mount(
      root,
      myGame ? h('a.event-banner', { id: 'my-game', href: `#/table/${myGame.table}` }, t('yourGame', { r: current!.round, b: myGame.board })) : null,
      h(
        'div.panel',
        null,
        h('h2', { id: 'event-name' }, ev.config.name),
        h(
          'p.event-info',
          null,
          h('span', { id: 'event-game' }, gameName(ev.config.game)),
          cards ? h('span', { id: 'event-kind' }, ' · ', kind === 'duplicate' ? t('kindDuplicate') : t('kindPoints')) : null,
          kind === 'duplicate' ? ` · ${t('boardsN', { n: ev.config.cards?.hands_per_round ?? '' })} · ` : ` · ${t('rounds')} ${ev.config.rounds} · `,
          h('span', { id: 'event-status' }, statusText(ev.status), ev.config.paused && ev.status !== 'finished' ? ` (${t('paused')})` : ''),
          ' · ',
          kind === 'duplicate'
            ? [h('a', { href: `/event/${ev.id}.json`, id: 'event-json' }, t('exportJson')), ' · ', h('a', { href: `/event/${ev.id}.csv`, id: 'event-csv' }, t('exportCsv'))]
            : cards
              ? null
              : h('a', { href: `/event/${ev.id}.trf`, id: 'event-trf' }, t('trf')),
        ),
        h(
          'dl.event-facts',
          { id: 'event-facts' },
          h('dt', null, t('startsAt')),
          h('dd', { id: 'event-starts' }, when(ev.config.starts_at)),
          h('dt', null, t('clock')),
          h('dd', { id: 'event-clock' }, tcText(ev.config.time, ev.config.game), ' · ', ev.config.rated ? t('ratedYes') : t('ratedNo')),
          h('dt', null, t('schedule')),
          h('dd', { id: 'event-schedule' }, scheduleText(ev.config), cards ? '' : [(settings().lang === 'en' ? '. ' : '。'), t('forfeitRule', { p: duration(ev.config.forfeit_secs ?? 900) })], ev.config.late_entry_until_round ? ` · ${t('lateEntry', { n: ev.config.late_entry_until_round })}` : ''),
        ),
        ev.end ? h('p.event-end', { id: 'event-end' }, t('ended', { r: `end_${ev.end.reason}` in S ? t(`end_${ev.end.reason}` as Key) : ev.end.reason })) : null,
        canRegister ? h('button.btn.primary', { id: 'event-register', onclick: () => act('register') }, t('register')) : null,
        mine && !mine.withdrawn && ev.status !== 'finished' ? h('button.btn', { id: 'event-withdraw', onclick: () => act('withdraw') }, t('withdraw')) : null,
        h('span.hint', { id: 'event-error' }),
      ),
      organiser?.el ?? null,
      h(
        'div.panel',
        null,
        h('h3', null, t('standings')),
        h(
          'table.event-table',
          { id: 'event-standings' },
          h('tr', null, h('th', null, t('place')), h('th', null, t('player')), standingHead.map((c, i) => h('th', cards || i === 0 ? null : { title: tiebreakText(c) }, c))),
          ev.standings.map((s) => h('tr.ev-standing', { 'data-user': s.user }, h('td', null, String(s.place)), h('td', null, s.user), standingCells(s))),
        ),
        tb.length ? h('dl.event-legend', { id: 'tiebreak-legend' }, h('dt', null, t('tbLegend')), tb.map((c) => h('dd', { 'data-code': c }, h('b', null, c), ' — ', tiebreakText(c)))) : null,
      ),
      comparison,
      h('div.panel', { id: 'event-rounds' }, [...ev.rounds].reverse().map(cards ? cardRoundTable : roundTable)),
      h(
        'div.panel',
        null,
        h('h3', null, t('players')),
        h(
          'table.event-table',
          { id: 'event-players' },
          ev.players.map((p) =>
            h('tr', null, h('td', null, String(p.start_rank)), h('td', null, p.user), h('td', null, String(p.rating ?? '')), h('td', null, p.disqualified ? t('disqualified') : p.withdrawn ? t('withdrawn') : '')),
          ),
        ),
      ),
      cards
        ? null
        : h(
        'div.panel',
        null,
        h('h3', null, t('crosstable')),
        h(
          'table.event-table',
          { id: 'event-crosstable' },
          ev.crosstable.map((c) => h('tr', null, h('td', null, String(c.start_rank)), h('td', null, c.user), c.rounds.map((r) => h('td.ev-cross', { title: crossText(r) }, r)), h('td', null, String(c.score)))),
        ),
        h('p.hint', { id: 'crosstable-legend' }, t('ctLegend'), (settings().lang === 'en' ? '. ' : '。'), ['1', '=', '0', '+', '-', 'H', 'F', 'U', 'Z'].map((r) => `${r} ${t(`r_${r}` as Key)}`).join(' · ')),
      ),
      panel?.el ?? null,
      room.el,
      ev.actions.length
        ? h(
            'div.panel',
            { id: 'event-report' },
            h('h3', null, t('report')),
            h('ul', null, ev.actions.map((a) => h('li', null, `${new Date(a.at).toLocaleTimeString()} ${a.round ? t('round', { n: a.round }) : ''} ${a.player}: ${t((a.kind in S ? a.kind : 'warning') as Key)} — ${a.reason}`))),
          )
        : null,
    );
  };
  const act = async (what: 'register' | 'withdraw') => {
    try {
      await api('POST', `/api/event/${id}/${what}`, {});
      load();
    } catch (e) {
      const el = document.getElementById('event-error');
      if (el) el.textContent = e instanceof ApiError ? e.message : String(e);
    }
  };
  function load() {
    void api<EventView>('GET', `/api/event/${encodeURIComponent(id)}`)
      .then((ev) => {
        if (!stopped) render(ev);
      })
      .catch((e) => {
        if (!stopped) mount(root, h('div.panel', null, e instanceof ApiError ? e.message : String(e)));
      });
  }
  load();
  // Read again whenever the server says the event changed (a round paired, a
  // result, a registration): pushed on the page's channel, never polled.
  const unfollow = followEvent(id);
  const unlisten = onNotify((n) => {
    if (n.kind === 'event_changed' && n.event === id) load();
  });
  return () => {
    stopped = true;
    unlisten();
    unfollow();
    room?.close();
  };
}

/**
 * A banner for the header of every page: the signed-in player's game being
 * played in an event, one click away (empty otherwise).
 */
export function eventBanner(): HTMLElement {
  const el = h('span.event-banner-slot', { id: 'event-banner-slot' });
  if (!session() || session()?.guest) return el;
  void api<{ event: string; name: string; round: number; board: number; table: string } | null>('GET', '/api/events/my-game')
    .then((g) => {
      if (g && !location.hash.startsWith(`#/table/${g.table}`))
        mount(el, h('a.event-banner.small', { id: 'event-game-banner', href: `#/table/${g.table}` }, `${g.name} · ${t('yourGame', { r: g.round, b: g.board })}`));
    })
    .catch(() => undefined);
  return el;
}
