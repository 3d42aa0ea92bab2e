// The controller of one table page, as lichess ui/round's `ctrl.ts` is: it owns
// the table's view as the server last sent it, the connection (table/live.ts)
// and what the viewer decided locally (a proposal declined, the seat to take as
// the page opens), answers the views' questions (whose seat, may one rematch)
// and carries out their actions. The views (view/) draw from it and nothing
// else; it draws nothing itself but asks the shell to redraw. It names no game:
// what differs comes from the page's hooks and the game's descriptor.
import { t } from '../i18n';
import { toast } from '../ui';
import { errorText } from '../errors';
import { play as sound } from '../sound';
import { gameInfo, quickPairing, recordExtension } from '../net/games';
import { poolOf, poolShortName } from '../net/pools';
import type { SocketState } from '../net/socket';
import type { Batch, ChatMsg, RatingChange, TableView, TimeControl } from '../net/generated/protocol';
import type { ShellContext, ShellHooks } from './hooks';
import { liveTable, takeAutoSit, type LiveTable } from './live';
import type { CommandType, FieldsArg, TableEvent } from './connection';
import { forgetRatings, ratingOf, type Rating } from './ratings';

/** What the controller asks the shell to draw again. */
export interface Redraw {
  /** Everything, after a new view (with the events that led to it; none to draw again in place). */
  all(events: TableEvent[]): void;
  /** The seats (a seat's lag or rating came). */
  seats(): void;
  /** The offers (the viewer declined a proposal). */
  offers(): void;
  /** The connection's banner (the socket's state changed). */
  conn(): void;
  /** The chat (a line came). */
  chat(): void;
}

/** The chat lines the page keeps, at most. */
const CHAT_LINES = 200;

export class TableCtrl<V> {
  /** The table's view as the server last sent it (null until the first). */
  state: TableView<V> | null = null;
  /** What the game's page is handed with the view last drawn. */
  ctx: ShellContext<V> | null = null;
  /** The socket's state (null until it reports one). */
  conn: SocketState | null = null;
  closed = false;
  /** Each seat's measured lag (ms), for the connection indicator. */
  lagMs: Array<number | null> = [];
  /** The rating changes of the batch that ended the last game. */
  ratingChanges: RatingChange[] | null = null;
  /** The chat lines received, in order of their ids (a line sent again after a reconnect is kept once). */
  chat: ChatMsg[] = [];
  /** Who keeps the players' chat closed (`chat.players`; empty: open). */
  chatOff: string[] = [];
  /** The proposal the viewer declined (its bar and dialog stay away). */
  dismissedProposal = -1;
  /** The proposal standing when the page opened (no dialog for it). */
  firstProposal: number | undefined;
  /** The last proposal of the viewer's that another seat declined. */
  declined = -1;
  /** The seats' sides in the game's words (`black`, `white`), if it has sides. */
  readonly sides: string[];
  readonly live: LiveTable;
  /** The seat to take once the first view shows it free (a table this browser just made). */
  private autoSit: number | null;
  private readonly ratings = new Map<string, Rating | null>();

  constructor(
    readonly id: string,
    readonly hooks: ShellHooks<V>,
    private readonly redraw: Redraw,
  ) {
    this.sides = gameInfo(hooks.game)?.seat_names ?? [];
    this.autoSit = takeAutoSit(id);
    this.live = liveTable<V>(id, {
      onState: (s, events, batch) => {
        this.state = s;
        this.lagMs = s.seats.map((x) => x.lag_ms);
        this.noteRatings(events, batch);
        redraw.all(events);
      },
      onStatus: (st) => {
        this.conn = st;
        redraw.conn();
      },
      onLag: (seats) => {
        // Live only: the next view carries the same in `seats[i].lag_ms`.
        this.lagMs = seats;
        if (this.state) redraw.seats();
      },
      onChat: (line) => {
        if (this.chat.some((l) => l.id === line.id)) return;
        this.chat.push(line);
        this.chat.sort((a, b) => a.id - b.id);
        if (this.chat.length > CHAT_LINES) this.chat.splice(0, this.chat.length - CHAT_LINES);
        redraw.chat();
      },
      onChatPlayers: (off) => {
        this.chatOff = off;
        redraw.chat();
      },
      onError: (msg, code) => {
        // In the page's language: the server's English text only for a code this client does not know.
        toast(errorText(code, msg), 'error');
        // Put a refused move back.
        if (this.state) redraw.all([]);
      },
    });
  }

  /**
   * Takes in the view about to be drawn with the events that led to it: the
   * page's context, the seat to take on opening, a declined proposal of the
   * viewer's, the sound of a move.
   */
  update(events: TableEvent[]): ShellContext<V> | null {
    const s = this.state;
    if (this.closed || !s) return null;
    const me = this.me();
    this.ctx = { state: s, events, me, live: this.live, playing: s.status === 'playing' };
    if (this.firstProposal === undefined) this.firstProposal = s.proposal?.id ?? -1;
    if (this.autoSit !== null) {
      const seat = this.autoSit;
      this.autoSit = null;
      if (me === null && !s.seats?.[seat]?.user) this.sit(seat);
    }
    for (const e of events) {
      if (e.type === 'declined' && e.seat !== me && s.proposal.id === e.proposal && s.proposal.by === me) {
        this.declined = e.proposal;
        toast(t('proposalDeclined'), 'error');
      }
      // An arbiter's warning, foul or violation, shown at the table (the
      // reason is the arbiter's text: shown as text).
      if (e.type === 'warned' || e.type === 'fouled' || e.type === 'violated') {
        const who = s.seats?.[e.seat]?.user ?? '';
        const what = e.type === 'warned' ? t('arbWarned') : e.type === 'fouled' ? t('arbFouled') : t('arbViolated');
        const count = e.type === 'warned' ? '' : ` (${e.count}/3)`;
        toast(`${what}${count} · ${who}${e.reason ? `: ${e.reason}` : ''}`, 'error');
      }
      // The arbiter's other acts at the table, and an incorrect claim.
      if (e.type === 'restored') toast(t('arbRestored').replace('{n}', String(e.ply)), 'error');
      if (e.type === 'clock_adjusted') {
        const who = s.seats?.[e.seat]?.user ?? '';
        const secs = Math.round(e.delta / 1000);
        toast(`${t('arbClockAdded')} · ${who} ${secs > 0 ? '+' : ''}${secs}s`, 'error');
      }
      if (e.type === 'paused') toast(e.paused ? t('arbPaused') : t('arbResumed'), 'error');
      if (e.type === 'claim_incorrect') {
        const who = s.seats?.[e.opponent]?.user ?? '';
        toast(`${t('claimIncorrect')} · ${who} +${Math.round(e.added / 1000)}s`, 'error');
      }
    }
    // The offerer is told of a decline (the decliner knows).
    for (const e of events) {
      if (me === null || e.type === undefined) continue;
      if (e.type === 'draw_declined' && e.seat !== me) toast(t('drawDeclined'), 'error');
      if (e.type === 'takeback_declined' && e.seat !== me) toast(t('takebackDeclined'), 'error');
    }
    const acted = events.filter((e) => e.type === 'acted').pop();
    if (acted?.type === 'acted') sound(acted.check ? 'check' : acted.capture ? 'capture' : 'move');
    return this.ctx;
  }

  private noteRatings(events: TableEvent[], batch: Batch | null) {
    if (events.some((e) => e.type === 'started')) this.ratingChanges = null;
    if (!batch?.ratings?.length) return;
    this.ratingChanges = batch.ratings;
    // A finished rated game changes ratings: ask again.
    for (const r of batch.ratings) {
      forgetRatings(r.user);
      for (const key of [...this.ratings.keys()]) if (key.endsWith(` ${r.user}`)) this.ratings.delete(key);
    }
  }

  /** The viewer's seat, or null for a spectator. */
  me(): number | null {
    return typeof this.state?.you === 'number' ? this.state.you : null;
  }

  playing(): boolean {
    return this.state?.status === 'playing';
  }

  /** Whether a rematch can be asked for: the game is over and nobody left. */
  canRematch(): boolean {
    const s = this.state;
    // An event's table plays one game: no 再来一局 there.
    return !!s && !s.tournament && this.me() !== null && s.status === 'over' && s.seats.every((x) => !!x.user);
  }

  /** Whether every other seat agreed to the proposal (the proposer's own agreement is its proposing, or its 开始). */
  allAccepted(): boolean {
    const s = this.state;
    const p = s?.proposal;
    const mine = this.me();
    return !!s && !!p && s.seats.every((x, i) => i === mine || x.accepted === p.id);
  }

  /** The seat a two-seat table swaps with. */
  other(): number {
    return this.me() === 0 ? 1 : 0;
  }

  /** The stored game's id: the table's for its first game, `{table}-{n}` after. */
  gameId(): string | null {
    const n = this.state?.game?.number;
    if (typeof n !== 'number') return null;
    return n <= 1 ? this.id : `${this.id}-${n}`;
  }

  /** The address of the game's record and its file name, once there is a game. */
  record(): { href: string; file: string } | null {
    const gid = this.gameId();
    if (!gid) return null;
    const ext = recordExtension(this.hooks.game);
    return { href: `/game/${encodeURIComponent(gid)}.${ext}`, file: `qiyuan-${gid}.${ext}` };
  }

  /** A seat's rating as its card shows it, asked of its player's profile once. */
  /** `name`'s rating in the pool of the table's time control (its game's, or the
   * one being proposed), with the pool's name where the game has several. */
  ratingText(name: string | null): string {
    if (!this.hooks.ratings || !name) return '';
    const s = this.state;
    const settings = s && (s.status === 'playing' || s.status === 'over') ? s.game?.settings : s?.proposal?.settings;
    const pool = poolOf(this.hooks.game, settings?.time ?? quickPairing(this.hooks.game));
    const key = `${pool} ${name}`;
    if (!this.ratings.has(key)) {
      this.ratings.set(key, null);
      void ratingOf(name, pool).then((r) => {
        this.ratings.set(key, r);
        if (r && !this.closed && this.state) this.redraw.seats();
      });
    }
    const r = this.ratings.get(key);
    if (!r) return '';
    const label = pool.includes(':') ? `${poolShortName(pool)} ` : '';
    return ` · ${label}${Math.round(r.rating)}${r.provisional ? '?' : ''}`;
  }

  /** Sends a table command (the table id is added). */
  send<T extends CommandType>(cmd: T, ...d: FieldsArg<T>): void {
    this.live.send(cmd, ...d);
  }

  /** Sends a table command, settled by the server's answer: a request such as a
   * draw offer says it was sent only once the server took it. */
  request<T extends CommandType>(cmd: T, ...d: FieldsArg<T>): Promise<unknown> {
    return this.live.request(cmd, ...d);
  }

  sit(seat: number): void {
    this.send('sit', { seat });
  }

  /** Leaves the table for the game's lobby, at once (the page goes with it). */
  leave(): void {
    this.live.sendNow('leave');
    location.hash = `#/lobby/${this.hooks.game}`;
  }

  /** Proposes the next game's settings, keeping what the proposal does not change. */
  propose(change: { time?: TimeControl; setup?: { position: string } }): Promise<unknown> {
    const cur = this.state!.proposal.settings;
    const setup = change.setup ?? 'standard';
    return this.request('propose', {
      settings: {
        time: change.time ?? cur.time,
        options: cur.options ?? {},
        setup,
        // A game from a position read in is never rated.
        rated: change.setup ? false : !!cur.rated,
        takebacks: cur.takebacks ?? true,
      },
    });
  }

  /** 不同意: the proposer is told; the dialog and the bar go. */
  declineProposal(pid: number): void {
    this.dismissedProposal = pid;
    this.send('decline', { proposal: pid });
    if (this.state) this.redraw.offers();
  }

  /** The server's time now, as this browser estimates it (net/lag.ts). */
  serverNow(): number {
    return this.live.serverNow();
  }

  close(): void {
    this.closed = true;
    this.live.close();
  }
}
