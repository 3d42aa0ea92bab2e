// The count game's strings in both languages.
import { texts } from '../../i18n';

export const tx = texts({
  first: ['先手', 'First'],
  second: ['后手', 'Second'],
  total: ['合计', 'Total'],
  target: ['目标 {n}', 'Target {n}'],
  add: ['加 {n}', 'Add {n}'],
  yourTurn: ['轮到你', 'Your turn'],
  seatToMove: ['{n}号位行棋', 'Seat {n} to move'],
  moves: ['记录', 'Moves'],
  notationSums: ['累计', 'Running total'],
});
