// What a game's table page and the table shell (shell.ts) say to each other: the
// page plugs its board into the shell with `ShellHooks` and is handed a
// `ShellContext` with every new view. `V` is the game's own view (`game.board`).
import type { JsonValue, TableView } from '../net/generated/protocol';
import type { TableEvent } from './connection';
import type { LiveTable } from './live';

export interface ShellContext<V = unknown> {
  state: TableView<V>;
  events: TableEvent[];
  /** The viewer's seat, or null for a spectator. */
  me: number | null;
  live: LiveTable;
  playing: boolean;
}

export interface ShellHooks<V> {
  /** The game's name, as the server's registry has it. */
  game: string;
  seats: number;
  /** The main area (board or card table). */
  main: HTMLElement;
  /** Extra panels under the seats, in order. */
  panels: HTMLElement[];
  /** Under each seat's name: black / white, landlord / farmer. */
  seatSub(ctx: ShellContext<V>, seat: number): string;
  /** Called with every new state (and again when the language or the settings change). */
  render(ctx: ShellContext<V>): void;
  /** The status line while playing. */
  status(ctx: ShellContext<V>): string;
  /** The result dialog's extra body (score details). */
  resultBody?(ctx: ShellContext<V>): HTMLElement | null;
  /** Whether the table offers draws and takebacks (Go; not Doudizhu). */
  offers?: boolean;
  /** Whether seats may swap (交换) between games. */
  swap?: boolean;
  /** Whether a position or record can be read in (读入) for the next game. */
  load?: boolean;
  /** Whether the time dialog offers a clock of one's own besides the presets. */
  customTime?: boolean;
  /** Whether each seat shows its player's rating. */
  ratings?: boolean;
  /** Buttons of the game's own, after the shell's (研究). */
  buttons?(ctx: ShellContext<V>): HTMLElement[];
  /** Whether the result line shows the record's score (Go's `B+3.5`, chess's `0-1`). */
  showScore?: boolean;
  /** A line describing the game's options in a proposal (board size, komi). */
  optionsText?(options: JsonValue): string | null;
  /** The seat order in the seats panel (the viewer's seat last, nearest the board). */
  seatOrder?(me: number | null): number[];
}
