// Strings of the Go and Doudizhu pages, in both languages (kept here so that the
// shared i18n table stays the chess and xiangqi pages' own).
import { settings } from '../settings';

const S = {
  black: ['黑方', 'Black'],
  white: ['白方', 'White'],
  captures: ['提子', 'Captures'],
  pass: ['停一手', 'Pass'],
  passed: ['停', 'pass'],
  komi: ['贴目', 'Komi'],
  handicap: ['让子', 'Handicap'],
  boardSize: ['棋盘', 'Board size'],
  clock: ['计时', 'Clock'],
  marking: ['点目：点击棋块标记死子', 'Counting: click groups to mark them dead'],
  acceptMarking: ['同意数子', 'Accept'],
  resumePlay: ['继续对局', 'Resume play'],
  accepted: ['已同意', 'accepted'],
  notAccepted: ['未同意', 'not yet'],
  opponentAccepted: ['对方已同意此结果', 'Your opponent accepted this marking'],
  estimate: ['按当前标记', 'With this marking'],
  deadStones: ['死子', 'Dead stones'],
  result: ['结果', 'Result'],
  yourTurn: ['轮到你', 'Your turn'],
  toMove: ['行棋', 'to move'],
  waiting: ['等待开始', 'Waiting to start'],
  newGoTable: ['创建围棋桌', 'New Go table'],
  newDdzTable: ['创建斗地主桌', 'New Doudizhu table'],
  create: ['创建', 'Create'],
  none: ['不限时', 'No clock'],
  moves: ['着法', 'Moves'],
  noMoves: ['尚未落子', 'No moves yet'],
  noPlays: ['尚未出牌', 'No plays yet'],
  bid: ['叫分', 'Bid'],
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
  spring: ['春天', 'Spring'],
  handScore: ['本局得分', 'This hand'],
  total: ['累计', 'Total'],
  match: ['战绩（本桌）', 'Match (this table)'],
  hands: ['局', 'hands'],
  landlordWins: ['地主胜', 'The landlord wins'],
  farmersWin: ['农民胜', 'The farmers win'],
  notLegal: ['这手牌不能出', 'Those cards cannot be played now'],
  redeal: ['无人叫地主，重新发牌', 'Nobody bid: dealt again'],
  seatN: ['{n}号位', 'Seat {n}'],
  nextHand: ['下一局', 'Next hand'],
  revealed: ['亮牌', 'Hands'],
  playerHand: ['手牌', 'Hand'],
  rules: ['规则', 'Rules'],
  chineseRules: ['中国规则（数子）', 'Chinese rules (area)'],
  clockPreset: ['时间设置', 'Time settings'],
  perTurn: ['每手', 'per turn'],
  r_hand_emptied: ['出完手牌', 'hand emptied'],
} as const;

export type TextKey = keyof typeof S;

export function tx(k: TextKey, vars: Record<string, string | number> = {}): string {
  const pair = S[k];
  let s: string = settings().lang === 'en' ? pair[1] : pair[0];
  for (const [name, v] of Object.entries(vars)) s = s.replace(`{${name}}`, String(v));
  return s;
}
