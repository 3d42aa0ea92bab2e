// The organiser's pages: the event form (#/new-event, and "edit" on an event's
// page) with every field of the server's EventConfig, checked here field by
// field with the reasons in words; and the organiser's panel on an event's
// page: open registration, start, pause/resume the schedule, add a round, end,
// name arbiters (table arbiter 监局裁判 or chief arbiter 裁判长), and the
// players' presence before a round.
import { h, mount } from '../dom';
import { api } from '../net/api';
import { errorOf } from '../errors';
import { texts } from '../i18n';
import { allGames, gameName, presetsOf } from '../net/games';
import { presetLabel, tcText } from '../table/timeText';
import type { TimeControl } from '../net/generated/protocol';

export const O = texts({
  newEvent: ['新建比赛', 'New event'],
  editEvent: ['修改比赛设置', 'Edit the event'],
  organiser: ['组织者', 'Organiser'],
  name: ['名称', 'Name'],
  game: ['棋种', 'Game'],
  clock: ['用时', 'Clock'],
  preset: ['预设', 'Preset'],
  custom: ['自定义', 'Custom'],
  clockKind: ['计时方式', 'Clock kind'],
  kind_none: ['不计时', 'No clock'],
  kind_qq: ['局时/步时/读秒', 'Game / per move / countdown'],
  kind_fischer: ['基本时间+加秒', 'Base + increment'],
  kind_byo_yomi: ['读秒（日式）', 'Byo-yomi'],
  kind_canadian: ['加拿大读秒', 'Canadian overtime'],
  kind_correspondence: ['通讯赛', 'Correspondence'],
  f_base: ['基本时间（分）', 'Base (minutes)'],
  f_increment: ['每步加秒', 'Increment (seconds)'],
  f_game: ['局时（分）', 'Game time (minutes)'],
  f_per_move: ['步时（秒）', 'Per move (seconds)'],
  f_countdown: ['读秒（秒）', 'Countdown (seconds)'],
  f_main: ['基本时间（分）', 'Main time (minutes)'],
  f_periods: ['读秒次数', 'Periods'],
  f_period: ['每次读秒（秒）', 'Period (seconds)'],
  f_moves: ['每段步数', 'Moves per period'],
  f_cperiod: ['每段时间（分）', 'Period (minutes)'],
  f_days: ['每步天数', 'Days per move'],
  options: ['规则选项（JSON，留空为默认）', 'Rule options (JSON, empty for the defaults)'],
  rounds: ['轮数', 'Rounds'],
  startsAt: ['开始时间', 'Starts at'],
  schedule: ['赛程', 'Schedule'],
  afterPrevious: ['上一轮结束后休息再开始', 'After the previous round, with a pause'],
  fixed: ['每轮定时', 'Each round at a set time'],
  pauseSecs: ['轮间休息（秒）', 'Pause between rounds (seconds)'],
  times: ['各轮开始时间（每行一个，如 2026-12-06T19:30）', 'Round times (one a line, e.g. 2026-12-06T19:30)'],
  regOpens: ['报名开始（留空：立即）', 'Registration opens (empty: now)'],
  regCloses: ['报名截止（留空：开赛时）', 'Registration closes (empty: at the start)'],
  lateEntry: ['可迟到报名至第几轮（留空：不可）', 'Late entry until round (empty: none)'],
  rated: ['计等级分', 'Rated'],
  entry: ['参赛资格', 'Who may enter'],
  entryOpen: ['所有账号', 'Any account'],
  entryRating: ['等级分范围', 'A rating range'],
  entryInvitation: ['仅限受邀', 'By invitation'],
  minRating: ['最低等级分', 'Lowest rating'],
  maxRating: ['最高等级分', 'Highest rating'],
  invited: ['受邀账号（逗号分隔）', 'Invited accounts (comma-separated)'],
  forfeit: ['迟到判负时间（秒）', 'Forfeit time for lateness (seconds)'],
  tiebreaks: ['对手分等破同分规则（按顺序，逗号分隔）', 'Tiebreaks in order (comma-separated)'],
  playersChat: ['允许棋手聊天', 'Players may chat'],
  create: ['创建', 'Create'],
  save: ['保存', 'Save'],
  cancel: ['取消', 'Cancel'],
  fixErrors: ['请先改正标红的项', 'Correct the fields marked first'],
  e_name: ['名称须为 1 到 100 个字', 'The name has 1 to 100 characters'],
  e_game: ['请选择一种双人棋', 'Choose a two-player game'],
  e_number: ['请填写一个不小于 0 的数', 'Give a number, 0 or more'],
  e_positive: ['请填写一个大于 0 的整数', 'Give a whole number above 0'],
  e_json: ['不是有效的 JSON', 'This is not valid JSON'],
  e_rounds: ['轮数为 1 到 50', '1 to 50 rounds'],
  e_date: ['请填写日期和时间', 'Give a date and time'],
  e_pause: ['轮间休息为 0 到 7 天', 'The pause is 0 to 7 days'],
  e_times: ['每行一个日期时间，不多于轮数', 'One date and time a line, no more than the rounds'],
  e_order: ['报名截止须晚于报名开始', 'Registration closes after it opens'],
  e_late: ['须为 1 到轮数之间的轮次', 'A round from 1 to the number of rounds'],
  e_range: ['最低等级分不能高于最高等级分', 'The lowest rating cannot be above the highest'],
  e_invited: ['请至少写一个账号', 'Name at least one account'],
  e_forfeit: ['迟到判负时间须大于 0、不超过一天', 'The forfeit time is above 0 and at most a day'],
  e_tiebreaks: ['未知的破同分规则：{x}', 'Unknown tiebreak: {x}'],
  run: ['赛事管理', 'Run the event'],
  open: ['开放报名', 'Open registration'],
  start: ['立即开赛', 'Start now'],
  pause: ['暂停赛程', 'Pause the schedule'],
  resume: ['恢复赛程', 'Resume the schedule'],
  addRound: ['增加一轮', 'Add a round'],
  end: ['结束比赛', 'End the event'],
  endConfirm: ['确定结束比赛？正在进行的一轮下完后不再编排新轮次。', 'End the event? No round follows the one being played.'],
  paused: ['赛程已暂停', 'The schedule is paused'],
  arbiters: ['裁判', 'Arbiters'],
  nameArbiter: ['委任裁判', 'Name an arbiter'],
  account: ['账号', 'Account'],
  roleTable: ['监局裁判', 'Table arbiter'],
  roleChief: ['裁判长', 'Chief arbiter'],
  presence: ['棋手在线情况', 'Players’ presence'],
  refresh: ['刷新', 'Refresh'],
  online: ['在线', 'online'],
  away: ['不在', 'away'],
  playing: ['对局中', 'playing'],
  watching: ['观战中', 'watching'],
  done: ['已完成', 'Done'],
  eventKind: ['赛制', 'Format'],
  kind_swiss: ['瑞士制', 'Swiss'],
  kind_points: ['积分赛（打立出局、定局积分）', 'Points event (elimination, final)'],
  kind_duplicate: ['复式赛（各桌同牌比较）', 'Duplicate (every table plays the same deals)'],
  cards: ['牌局设置', 'Card settings'],
  handsPerRound: ['每轮局数', 'Hands per round'],
  boards: ['牌副数（每桌打同样的牌）', 'Boards (the same deals at every table)'],
  startingChips: ['初始积分', 'Starting chips'],
  elimThreshold: ['打立出局线（留空：不淘汰）', 'Elimination threshold (empty: none)'],
  elimRise: ['每轮出局线提高', 'Threshold rise per round'],
  finalPlayers: ['决赛人数（3的倍数，留空：无决赛）', 'Finalists (a multiple of 3; empty: no final)'],
  finalHands: ['决赛局数', 'Hands in the final'],
  dupNote: ['复式赛只有一轮：每桌三人整场不变，按牌副轮换座位；成绩与持同一手牌的人比较（比赛分）。人数不是3的倍数时，空位由电脑补齐（参与比较，不排名次）。', 'A duplicate event is one round: each table keeps its three players, who move seat from board to board; a result counts against everyone who held the same cards (matchpoints). A field that is not a multiple of 3 gets computer players in the empty places (compared, not ranked).'],
  e_game3: ['请选择一种三人游戏', 'Choose a three-player game'],
  e_hands: ['每轮局数为 1 到 50', '1 to 50 hands per round'],
  e_boards: ['牌副数为 1 到 50', '1 to 50 boards'],
  e_chips: ['初始积分为 0 到 1000000000 的整数', 'The starting chips are a whole number from 0 to 1000000000'],
  e_threshold: ['出局线为整数，绝对值不超过 1000000000', 'The threshold is a whole number, at most 1000000000 either way'],
  e_rise: ['提高值为整数，绝对值不超过 1000000000（不提高填 0）', 'The rise is a whole number, at most 1000000000 either way (0: none)'],
  e_finalPlayers: ['决赛人数为 3 到 999 之间 3 的倍数', 'The finalists are a multiple of 3 from 3 to 999'],
  e_finalHands: ['决赛局数为 1 到 50', '1 to 50 hands in the final'],
  e_finalBoth: ['决赛人数和局数须同时填写', 'Give both the finalists and the final’s hands'],
});

type Key = Parameters<typeof O>[0];

/** The tiebreaks the server knows, as the form takes them. */
export const TIEBREAKS = ['bh', 'bh-c1', 'bh-m1', 'sb', 'prog', 'de', 'win', 'won'];

/** The settings of an event at tables of three (docs/card-events.md). */
export interface CardConfig {
  hands_per_round: number;
  starting_chips?: number;
  elimination?: { threshold: number; rise: number } | null;
  final?: { players: number; hands: number } | null;
}

/** An event's settings as the server's EventConfig has them. */
export interface EventConfig {
  name: string;
  /** `swiss` (default), `points` or `duplicate` (a three-seat game). */
  kind?: 'swiss' | 'points' | 'duplicate';
  cards?: CardConfig | null;
  game: string;
  time: TimeControl;
  options?: unknown;
  rounds: number;
  starts_at: number;
  schedule?: { kind: 'after_previous'; pause_secs: number } | { kind: 'fixed'; times: number[] };
  registration_opens?: number | null;
  registration_closes?: number | null;
  late_entry_until_round?: number | null;
  rated?: boolean;
  entry?: { kind: 'open' } | { kind: 'rating'; min?: number | null; max?: number | null } | { kind: 'invitation'; users: string[] };
  forfeit_secs?: number;
  tiebreaks?: string[];
  players_chat?: boolean;
  paused?: boolean;
}

/** A `datetime-local` value (local time) for ms since the epoch. */
function local(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '';
  const d = new Date(ms - new Date(ms).getTimezoneOffset() * 60_000);
  return d.toISOString().slice(0, 16);
}

const parseLocal = (s: string): number | null => {
  if (!s.trim()) return null;
  const ms = new Date(s.trim()).getTime();
  return Number.isFinite(ms) ? ms : NaN;
};

// The clock's fields per kind: the field, its label and its unit in ms.
const CLOCK: Record<TimeControl['kind'], [string, Key, number][]> = {
  none: [],
  qq: [['game', 'f_game', 60_000], ['per_move', 'f_per_move', 1000], ['countdown', 'f_countdown', 1000]],
  fischer: [['base', 'f_base', 60_000], ['increment', 'f_increment', 1000]],
  byo_yomi: [['main', 'f_main', 60_000], ['periods', 'f_periods', 1], ['period', 'f_period', 1000]],
  canadian: [['main', 'f_main', 60_000], ['moves', 'f_moves', 1], ['period', 'f_cperiod', 60_000]],
  correspondence: [['days', 'f_days', 1]],
};

/**
 * The event form: a new event (`ev` unset: `POST /api/events`, then the event's
 * page) or the organiser's changes of event `id` (`PATCH /api/event/{id}`).
 */
export function eventForm(main: HTMLElement, ev?: { id: string; config: EventConfig }, done?: () => void): HTMLElement {
  const c = ev?.config;
  // Swiss events are for two-seat games; points and duplicate events for
  // three-seat ones (the registry's seats, from /api/games).
  const eventGames = allGames().filter((g) => g.seats === 2 || g.seats === 3);
  const seatsOf = (name: string) => eventGames.find((g) => g.name === name)?.seats ?? 0;
  const errs = new Map<string, HTMLElement>();
  const field = (name: string, label: string, input: HTMLElement) => {
    const err = h('span.field-error', { id: `err-${name}` });
    errs.set(name, err);
    return h('label.ev-field', { 'data-field': name }, h('span.ev-label', null, label), input, err);
  };
  const num = (id: string, v: number | null | undefined, step = 'any') => h('input', { id, type: 'number', step, value: v === null || v === undefined ? '' : String(v) }) as HTMLInputElement;
  const text = (id: string, v: string) => h('input', { id, type: 'text', value: v }) as HTMLInputElement;
  const when = (id: string, v: number | null | undefined) => h('input', { id, type: 'datetime-local', value: local(v) }) as HTMLInputElement;
  const check = (id: string, v: boolean) => h('input', { id, type: 'checkbox', checked: v }) as HTMLInputElement;
  const select = (id: string, opts: [string, string][], v: string) => h('select', { id }, opts.map(([value, label]) => h('option', { value, selected: value === v }, label))) as HTMLSelectElement;

  const name = text('ev-name', c?.name ?? '');
  const game = select('ev-game', eventGames.map((g) => [g.name, gameName(g.name)]), c?.game ?? eventGames.find((g) => g.seats === 2)?.name ?? eventGames[0]?.name ?? '');
  const preset = select('ev-preset', [], '');
  const kinds = Object.keys(CLOCK) as TimeControl['kind'][];
  const kind = select('ev-clock-kind', kinds.map((k) => [k, O(`kind_${k}` as Key)]), c?.time.kind ?? 'fischer');
  const clockFields = h('span.ev-clock-fields');
  const clockInputs = new Map<string, HTMLInputElement>();
  const drawClock = (tc?: TimeControl) => {
    clockInputs.clear();
    const k = kind.value as TimeControl['kind'];
    mount(
      clockFields,
      CLOCK[k].map(([f, label, unit]) => {
        const v = tc && tc.kind === k ? (tc as unknown as Record<string, number>)[f] / unit : null;
        const input = num(`ev-clock-${f}`, v);
        clockInputs.set(f, input);
        return field(`clock-${f}`, O(label), input);
      }),
    );
  };
  const presetsFor = () => {
    const ps = presetsOf(game.value);
    mount(preset, h('option', { value: '' }, O('custom')), ps.map((p) => h('option', { value: p.key }, `${presetLabel(p)} · ${tcText(p.time, game.value).split(' · ').pop()}`)));
  };
  preset.addEventListener('change', () => {
    const p = presetsOf(game.value).find((x) => x.key === preset.value);
    if (!p) return;
    kind.value = p.time.kind;
    drawClock(p.time);
  });
  kind.addEventListener('change', () => drawClock());
  game.addEventListener('change', presetsFor);
  presetsFor();
  drawClock(c?.time ?? presetsOf(game.value)[0]?.time ?? { kind: 'fischer', base: 600_000, increment: 5000 });

  const options = h('textarea', { id: 'ev-options', rows: 2 }, c?.options ? JSON.stringify(c.options) : '') as HTMLTextAreaElement;
  const rounds = num('ev-rounds', c?.rounds ?? 5, '1');
  const startsAt = when('ev-starts-at', c?.starts_at ?? Date.now() + 86_400_000);
  const schedKind = select('ev-schedule-kind', [['after_previous', O('afterPrevious')], ['fixed', O('fixed')]], c?.schedule?.kind ?? 'after_previous');
  const pauseSecs = num('ev-pause-secs', c?.schedule?.kind === 'after_previous' ? c.schedule.pause_secs : 60);
  const times = h('textarea', { id: 'ev-times', rows: 3 }, c?.schedule?.kind === 'fixed' ? c.schedule.times.map(local).join('\n') : '') as HTMLTextAreaElement;
  const pauseField = field('pause_secs', O('pauseSecs'), pauseSecs);
  const timesField = field('times', O('times'), times);
  const showSched = () => {
    pauseField.hidden = schedKind.value !== 'after_previous';
    timesField.hidden = schedKind.value !== 'fixed';
  };
  schedKind.addEventListener('change', showSched);
  showSched();
  const regOpens = when('ev-reg-opens', c?.registration_opens);
  const regCloses = when('ev-reg-closes', c?.registration_closes);
  const late = num('ev-late-entry', c?.late_entry_until_round, '1');
  const rated = check('ev-rated', c?.rated ?? false);
  const entryKind = select('ev-entry-kind', [['open', O('entryOpen')], ['rating', O('entryRating')], ['invitation', O('entryInvitation')]], c?.entry?.kind ?? 'open');
  const minR = num('ev-min-rating', c?.entry?.kind === 'rating' ? c.entry.min : null, '1');
  const maxR = num('ev-max-rating', c?.entry?.kind === 'rating' ? c.entry.max : null, '1');
  const invited = text('ev-invited', c?.entry?.kind === 'invitation' ? c.entry.users.join(', ') : '');
  const ratingFields = h('span', null, field('min', O('minRating'), minR), field('max', O('maxRating'), maxR));
  const invitedField = field('users', O('invited'), invited);
  const showEntry = () => {
    ratingFields.hidden = entryKind.value !== 'rating';
    invitedField.hidden = entryKind.value !== 'invitation';
  };
  entryKind.addEventListener('change', showEntry);
  showEntry();
  const forfeit = num('ev-forfeit-secs', c?.forfeit_secs ?? 900);
  const tiebreaks = text('ev-tiebreaks', (c?.tiebreaks ?? ['bh', 'prog', 'de', 'win']).join(', '));
  const chat = check('ev-players-chat', c?.players_chat ?? true);
  // The event's kind and, at tables of three, its card settings.
  const cc = c?.cards ?? null;
  const evKind = select('ev-kind', [], c?.kind ?? 'swiss');
  const hands = num('ev-hands', cc?.hands_per_round ?? (c?.kind === 'duplicate' ? 4 : 6), '1');
  const chips = num('ev-chips', cc?.starting_chips ?? 1000, '1');
  const elimThreshold = num('ev-elim-threshold', cc?.elimination?.threshold ?? null, '1');
  const elimRise = num('ev-elim-rise', cc?.elimination?.rise ?? 0, '1');
  const finalPlayers = num('ev-final-players', cc?.final?.players ?? null, '3');
  const finalHands = num('ev-final-hands', cc?.final?.hands ?? null, '1');
  const handsLabel = h('span.ev-label', null, O('handsPerRound'));
  const handsErr = h('span.field-error', { id: 'err-hands_per_round' });
  errs.set('hands_per_round', handsErr);
  const handsField = h('label.ev-field', { 'data-field': 'hands_per_round' }, handsLabel, hands, handsErr);
  const pointsFields = h(
    'span',
    { id: 'ev-points-fields' },
    field('starting_chips', O('startingChips'), chips),
    field('threshold', O('elimThreshold'), elimThreshold),
    field('rise', O('elimRise'), elimRise),
    field('final_players', O('finalPlayers'), finalPlayers),
    field('final_hands', O('finalHands'), finalHands),
  );
  const dupNote = h('p.hint', { id: 'ev-dup-note' }, O('dupNote'));
  const cardsBox = h('fieldset', { id: 'ev-cards' }, h('legend', null, O('cards')), handsField, pointsFields, dupNote);
  const kindField = field('kind', O('eventKind'), evKind);
  // Fields that only a Swiss event has, hidden at tables of three.
  const swissOnly: HTMLElement[] = [];
  const roundsField = field('rounds', O('rounds'), rounds);
  const showKind = () => {
    const three = seatsOf(game.value) === 3;
    const was = evKind.value;
    const kinds: ('swiss' | 'points' | 'duplicate')[] = three ? ['points', 'duplicate'] : ['swiss'];
    mount(evKind, kinds.map((k) => h('option', { value: k, selected: k === was }, O(`kind_${k}` as Key))));
    if (!kinds.includes(was as 'swiss')) evKind.value = kinds[0];
    // Shown or not by style: a field's own display would override `hidden`.
    const show = (el: HTMLElement, on: boolean) => (el.style.display = on ? '' : 'none');
    show(kindField, three);
    const k = evKind.value;
    show(cardsBox, k !== 'swiss');
    show(pointsFields, k === 'points');
    show(dupNote, k === 'duplicate');
    handsLabel.textContent = k === 'duplicate' ? O('boards') : O('handsPerRound');
    // A duplicate event is one round (the boards are its hands).
    show(roundsField, k !== 'duplicate');
    for (const el of swissOnly) show(el, k === 'swiss');
  };
  evKind.addEventListener('change', showKind);
  game.addEventListener('change', showKind);
  const status = h('span.hint', { id: 'ev-form-status' });
  swissOnly.push(field('forfeit_secs', O('forfeit'), forfeit), field('tiebreaks', O('tiebreaks'), tiebreaks));
  showKind();

  /** The form's config, or null with each wrong field marked in words. */
  const read = (): EventConfig | null => {
    for (const e of errs.values()) e.textContent = '';
    let ok = true;
    const bad = (f: string, msg: string) => {
      ok = false;
      const e = errs.get(f);
      if (e) e.textContent = msg;
    };
    const nm = name.value.trim();
    if (!nm || [...nm].length > 100) bad('name', O('e_name'));
    const ek = evKind.value as 'swiss' | 'points' | 'duplicate';
    const seats = seatsOf(game.value);
    if (ek === 'swiss' ? seats !== 2 : seats !== 3) bad('game', ek === 'swiss' ? O('e_game') : O('e_game3'));
    const k = kind.value as TimeControl['kind'];
    const tc: Record<string, unknown> = { kind: k };
    for (const [f, , unit] of CLOCK[k]) {
      const v = Number(clockInputs.get(f)?.value);
      if (clockInputs.get(f)?.value === '' || !Number.isFinite(v) || v < 0) bad(`clock-${f}`, O('e_number'));
      else tc[f] = Math.round(v * unit);
    }
    let opts: unknown = null;
    if (options.value.trim()) {
      try {
        opts = JSON.parse(options.value);
      } catch {
        bad('options', O('e_json'));
      }
    }
    const n = ek === 'duplicate' ? 1 : Number(rounds.value);
    if (!Number.isInteger(n) || n < 1 || n > 50) bad('rounds', O('e_rounds'));
    let cards: CardConfig | undefined;
    if (ek !== 'swiss') {
      const whole = (el: HTMLInputElement) => (el.value.trim() === '' ? null : Number(el.value));
      const hp = whole(hands);
      if (hp === null || !Number.isInteger(hp) || hp < 1 || hp > 50) bad('hands_per_round', ek === 'duplicate' ? O('e_boards') : O('e_hands'));
      cards = { hands_per_round: hp ?? 0 };
      if (ek === 'points') {
        const sc = whole(chips);
        if (sc === null || !Number.isInteger(sc) || sc < 0 || sc > 1e9) bad('starting_chips', O('e_chips'));
        cards.starting_chips = sc ?? 0;
        const th = whole(elimThreshold);
        const rise = whole(elimRise) ?? 0;
        if (th !== null) {
          if (!Number.isInteger(th) || Math.abs(th) > 1e9) bad('threshold', O('e_threshold'));
          if (!Number.isInteger(rise) || Math.abs(rise) > 1e9) bad('rise', O('e_rise'));
          cards.elimination = { threshold: th, rise };
        }
        const fp = whole(finalPlayers);
        const fh = whole(finalHands);
        if ((fp === null) !== (fh === null)) bad(fp === null ? 'final_players' : 'final_hands', O('e_finalBoth'));
        else if (fp !== null && fh !== null) {
          if (!Number.isInteger(fp) || fp < 3 || fp > 999 || fp % 3 !== 0) bad('final_players', O('e_finalPlayers'));
          if (!Number.isInteger(fh) || fh < 1 || fh > 50) bad('final_hands', O('e_finalHands'));
          cards.final = { players: fp, hands: fh };
        }
      }
    }
    const start = parseLocal(startsAt.value);
    if (start === null || Number.isNaN(start)) bad('starts_at', O('e_date'));
    let schedule: EventConfig['schedule'];
    if (schedKind.value === 'after_previous') {
      const p = Number(pauseSecs.value);
      if (pauseSecs.value === '' || !Number.isFinite(p) || p < 0 || p > 7 * 86_400) bad('pause_secs', O('e_pause'));
      schedule = { kind: 'after_previous', pause_secs: p };
    } else {
      const ts = times.value.split('\n').map((l) => l.trim()).filter(Boolean).map(parseLocal);
      if (ts.some((x) => x === null || Number.isNaN(x)) || ts.length > n) bad('times', O('e_times'));
      schedule = { kind: 'fixed', times: ts as number[] };
    }
    const opens = parseLocal(regOpens.value);
    const closes = parseLocal(regCloses.value);
    if (Number.isNaN(opens)) bad('registration_opens', O('e_date'));
    if (Number.isNaN(closes)) bad('registration_closes', O('e_date'));
    if (opens !== null && closes !== null && closes <= opens) bad('registration_closes', O('e_order'));
    let lateRound: number | null = null;
    if (late.value.trim()) {
      lateRound = Number(late.value);
      if (!Number.isInteger(lateRound) || lateRound < 1 || lateRound > n) bad('late_entry_until_round', O('e_late'));
    }
    let entry: EventConfig['entry'] = { kind: 'open' };
    if (entryKind.value === 'rating') {
      const mn = minR.value.trim() ? Number(minR.value) : null;
      const mx = maxR.value.trim() ? Number(maxR.value) : null;
      if (mn !== null && !Number.isInteger(mn)) bad('min', O('e_positive'));
      if (mx !== null && !Number.isInteger(mx)) bad('max', O('e_positive'));
      if (mn !== null && mx !== null && mn > mx) bad('max', O('e_range'));
      entry = { kind: 'rating', min: mn, max: mx };
    } else if (entryKind.value === 'invitation') {
      const users = invited.value.split(/[,，\s]+/).map((u) => u.trim()).filter(Boolean);
      if (!users.length) bad('users', O('e_invited'));
      entry = { kind: 'invitation', users };
    }
    const ff = Number(forfeit.value);
    if (ek === 'swiss' && (forfeit.value === '' || !Number.isFinite(ff) || ff <= 0 || ff > 86_400)) bad('forfeit_secs', O('e_forfeit'));
    const tbs = tiebreaks.value.split(/[,，\s]+/).map((x) => x.trim().toLowerCase()).filter(Boolean);
    const unknown = tbs.filter((x) => !TIEBREAKS.includes(x));
    if (ek === 'swiss' && unknown.length) bad('tiebreaks', O('e_tiebreaks', { x: unknown.join(', ') }));
    if (!ok) return null;
    const base: EventConfig = {
      name: nm,
      game: game.value,
      time: tc as unknown as TimeControl,
      options: opts,
      rounds: n,
      starts_at: start as number,
      schedule,
      registration_opens: opens,
      registration_closes: closes,
      late_entry_until_round: lateRound,
      rated: rated.checked,
      entry,
      forfeit_secs: ff,
      tiebreaks: tbs,
      players_chat: chat.checked,
    };
    if (ek === 'swiss') return base;
    // Forfeit time and tiebreaks are the Swiss events' (the server keeps its
    // defaults for them).
    delete base.forfeit_secs;
    delete base.tiebreaks;
    return { ...base, kind: ek, cards };
  };

  const submit = h(
    'button.btn.primary',
    {
      id: 'ev-submit',
      type: 'button',
      onclick: async () => {
        const config = read();
        if (!config) {
          status.textContent = O('fixErrors');
          return;
        }
        status.textContent = '';
        try {
          if (ev) {
            await api('PATCH', `/api/event/${ev.id}`, config);
            status.textContent = O('done');
            done?.();
          } else {
            const r = await api<{ id: string }>('POST', '/api/events', config);
            location.hash = `#/event/${r.id}`;
          }
        } catch (e) {
          status.textContent = errorOf(e) + (e instanceof Error && e.message ? ` (${e.message})` : '');
        }
      },
    },
    ev ? O('save') : O('create'),
  );
  const form = h(
    'div.panel.event-form',
    { id: 'event-form' },
    h('h2', null, ev ? O('editEvent') : O('newEvent')),
    field('name', O('name'), name),
    field('game', O('game'), game),
    kindField,
    cardsBox,
    h('fieldset', null, h('legend', null, O('clock')), field('preset', O('preset'), preset), field('clock-kind', O('clockKind'), kind), clockFields),
    field('options', O('options'), options),
    roundsField,
    field('starts_at', O('startsAt'), startsAt),
    h('fieldset', null, h('legend', null, O('schedule')), field('schedule', O('schedule'), schedKind), pauseField, timesField),
    field('registration_opens', O('regOpens'), regOpens),
    field('registration_closes', O('regCloses'), regCloses),
    field('late_entry_until_round', O('lateEntry'), late),
    field('rated', O('rated'), rated),
    h('fieldset', null, h('legend', null, O('entry')), field('entry', O('entry'), entryKind), ratingFields, invitedField),
    ...swissOnly,
    field('players_chat', O('playersChat'), chat),
    h('div', null, submit, ' ', status),
  );
  if (!ev) mount(main, form);
  return form;
}

/** `#/new-event`: the form for a new event. */
export function newEventPage(main: HTMLElement): () => void {
  eventForm(main);
  return () => {};
}

interface RunView {
  id: string;
  status: string;
  arbiters: string[];
  config: EventConfig;
  current_round: number | null;
}

interface Seen {
  user: string;
  online: boolean;
  presence: { state: string; table?: string };
  withdrawn: boolean;
  disqualified: boolean;
}

/**
 * The organiser's panel on the event's page: the controls, the form to edit
 * the settings, arbiters with their role, and the players' presence. `after`
 * reads the event again.
 */
export function organiserPanel(ev: RunView, after: () => void): { el: HTMLElement; update: (ev: RunView) => void } {
  const status = h('span.hint', { id: 'org-status' });
  const call = async (path: string) => {
    status.textContent = '';
    try {
      await api('POST', `/api/event/${ev.id}/${path}`, {});
      status.textContent = O('done');
      after();
    } catch (e) {
      status.textContent = errorOf(e);
    }
  };
  const btn = (id: string, label: Key, path: string, confirmText?: Key) =>
    h('button.btn', { id, type: 'button', onclick: () => (!confirmText || confirm(O(confirmText))) && void call(path) }, O(label));
  const controls = h('div.org-controls');
  const arbUser = h('input', { id: 'org-arbiter-user', placeholder: O('account') }) as HTMLInputElement;
  const arbRole = h('select', { id: 'org-arbiter-role' }, h('option', { value: 'table' }, O('roleTable')), h('option', { value: 'chief' }, O('roleChief'))) as HTMLSelectElement;
  const arbList = h('span', { id: 'org-arbiters' });
  const nameArbiter = h(
    'button.btn',
    {
      id: 'org-arbiter-add',
      type: 'button',
      onclick: async () => {
        status.textContent = '';
        try {
          await api('POST', `/api/event/${ev.id}/arbiters`, { user: arbUser.value.trim(), role: arbRole.value });
          arbUser.value = '';
          status.textContent = O('done');
          after();
        } catch (e) {
          status.textContent = errorOf(e);
        }
      },
    },
    O('nameArbiter'),
  );
  const presenceList = h('ul', { id: 'org-presence' });
  const readPresence = async () => {
    try {
      const r = await api<{ players: Seen[] }>('GET', `/api/event/${ev.id}/presence`);
      mount(
        presenceList,
        r.players.map((p) =>
          h(
            'li.org-seen',
            { 'data-user': p.user, 'data-online': String(p.online) },
            h('span', { class: p.online ? 'dot on' : 'dot off' }, p.online ? '●' : '○'),
            ` ${p.user} — `,
            p.presence.state === 'playing' ? O('playing') : p.presence.state === 'watching' ? O('watching') : p.online ? O('online') : O('away'),
          ),
        ),
      );
    } catch (e) {
      mount(presenceList, h('li', null, errorOf(e)));
    }
  };
  const editSlot = h('div', { id: 'org-edit-slot' });
  const editBtn = h(
    'button.btn',
    {
      id: 'org-edit',
      type: 'button',
      onclick: () => {
        if (editSlot.firstChild) return mount(editSlot);
        mount(editSlot, eventForm(editSlot, { id: ev.id, config: ev.config }, () => (mount(editSlot), after())));
      },
    },
    O('editEvent'),
  );
  const el = h(
    'div.panel.organiser-panel',
    { id: 'organiser-panel' },
    h('h3', null, O('run')),
    controls,
    status,
    h('div.org-arbiters', null, h('h4', null, O('arbiters')), arbList, h('div', null, arbUser, arbRole, nameArbiter)),
    h('div.org-presence', null, h('h4', null, O('presence'), ' ', h('button.btn.small', { id: 'org-presence-refresh', type: 'button', onclick: () => void readPresence() }, O('refresh'))), presenceList),
    editBtn,
    editSlot,
  );
  const update = (next: RunView) => {
    ev = next;
    const live = ev.status !== 'finished';
    mount(
      controls,
      ev.config.paused ? h('p.hint', { id: 'org-paused' }, O('paused')) : null,
      live && ev.status === 'registering' ? btn('org-open', 'open', 'open') : null,
      live && ev.status === 'registering' ? btn('org-start', 'start', 'start') : null,
      live ? (ev.config.paused ? btn('org-resume', 'resume', 'resume') : btn('org-pause', 'pause', 'pause')) : null,
      live ? btn('org-add-round', 'addRound', 'rounds') : null,
      live ? btn('org-end', 'end', 'end', 'endConfirm') : null,
    );
    mount(arbList, ev.arbiters.join('、') || '—');
    editBtn.hidden = !live;
    // Presence matters before a round: read whenever no round is played.
    if (live && ev.current_round === null) void readPresence();
  };
  update(ev);
  return { el, update };
}
