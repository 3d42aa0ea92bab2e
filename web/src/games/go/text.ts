// Go's strings in both languages: its table, its new-table dialog, its replay.
import { texts } from '../../i18n';

/** This game's own words; the table shell's are in i18n.ts. */
export const tx = texts({
  black: ['黑方', 'Black'],
  white: ['白方', 'White'],
  captures: ['提子', 'Captures'],
  pass: ['停一手', 'Pass'],
  passed: ['停', 'pass'],
  komi: ['贴目', 'Komi'],
  handicap: ['让子', 'Handicap'],
  boardSize: ['棋盘', 'Board size'],
  marking: ['点目：点击棋块标记死子', 'Counting: click groups to mark them dead'],
  acceptMarking: ['同意数子', 'Accept'],
  resumePlay: ['继续对局', 'Resume play'],
  accepted: ['已同意', 'accepted'],
  notAccepted: ['未同意', 'not yet'],
  opponentAccepted: ['对方已同意此结果', 'Your opponent accepted this marking'],
  deadStones: ['死子', 'Dead stones'],
  yourTurn: ['轮到你', 'Your turn'],
  toMove: ['行棋', 'to move'],
  newGoTable: ['创建围棋桌', 'New Go table'],
  moves: ['着法', 'Moves'],
  noMoves: ['尚未落子', 'No moves yet'],
  notationCoords: ['坐标', 'Coordinates'],
  replayPass: ['停一手', 'pass'],
  rules: ['规则', 'Rules'],
  chineseRules: ['中国规则（数子）', 'Chinese rules (area)'],
});
