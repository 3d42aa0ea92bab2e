// Doudizhu's strings in both languages: its table, its new-table dialog.
import { texts } from '../../i18n';

/** This game's own words; the table shell's are in i18n.ts. */
export const tx = texts({
  yourTurn: ['轮到你', 'Your turn'],
  newDdzTable: ['创建斗地主桌', 'New Doudizhu table'],
  moves: ['着法', 'Moves'],
  noPlays: ['尚未出牌', 'No plays yet'],
  bidN: ['{n}分', '{n}'],
  noBid: ['不叫', 'No bid'],
  play: ['出牌', 'Play'],
  passPlay: ['不出', 'Pass'],
  hint: ['提示', 'Hint'],
  clear: ['重选', 'Clear'],
  landlord: ['地主', 'Landlord'],
  farmer: ['农民', 'Farmer'],
  bottom: ['底牌', 'Bottom cards'],
  multiplier: ['倍数', 'Multiplier'],
  base: ['底分', 'Bid'],
  cardsLeft: ['剩余 {n} 张', '{n} cards'],
  bidding: ['叫地主', 'Bidding'],
  bombs: ['炸弹', 'Bombs'],
  handScore: ['本局得分', 'This hand'],
  total: ['累计', 'Total'],
  match: ['战绩（本桌）', 'Match (this table)'],
  hands: ['局', 'hands'],
  landlordWins: ['地主胜', 'The landlord wins'],
  farmersWin: ['农民胜', 'The farmers win'],
  notLegal: ['这手牌不能出', 'Those cards cannot be played now'],
  redeal: ['无人叫地主，重新发牌', 'Nobody bid: dealt again'],
  seatN: ['{n}号位', 'Seat {n}'],
});
