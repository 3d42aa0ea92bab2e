// Every UI string in both languages. t(key) picks the current language.
import { settings } from './settings';

const S = {
  appName: ['棋苑', 'Qiyuan'],
  tagline: ['在线棋牌大厅', 'Online game hall'],
  login: ['登录', 'Log in'],
  logout: ['退出', 'Log out'],
  logoutEverywhere: ['全部退出', 'Log out everywhere'],
  logoutEverywhereHint: ['在所有设备上退出登录？', 'Log out on every device?'],
  register: ['注册', 'Register'],
  guest: ['游客进入', 'Play as guest'],
  username: ['用户名', 'Username'],
  password: ['密码', 'Password'],
  noAccount: ['还没有账号？', 'No account yet?'],
  haveAccount: ['已有账号？', 'Already registered?'],
  lobby: ['大厅', 'Lobby'],
  profile: ['个人资料', 'Profile'],
  settings: ['设置', 'Settings'],
  offline: ['单机', 'Offline'],
  comingSoon: ['即将开放', 'Coming soon'],
  tables: ['游戏桌', 'Tables'],
  newTable: ['创建新桌', 'New table'],
  inviteOnlyTable: ['邀请桌', 'Invite-only table'],
  inviteOnlyHint: ['不在大厅列出，只有受邀的人能入座、观战和聊天', 'Listed nowhere: only the people you invite sit, watch and chat there'],
  quickPair: ['快速开始', 'Quick pairing'],
  cancelPair: ['取消匹配', 'Cancel pairing'],
  searching: ['正在匹配对手…', 'Looking for an opponent…'],
  table: ['桌', 'Table'],
  emptySeat: ['空位', 'Empty seat'],
  sitHere: ['坐下', 'Sit'],
  watch: ['观战', 'Watch'],
  spectators: ['观众', 'Spectators'],
  noTables: ['暂无游戏桌，创建一张吧', 'No tables yet — create one'],
  playing: ['对局中', 'Playing'],
  waiting: ['等待中', 'Waiting'],
  finished: ['已结束', 'Finished'],
  online: ['在线', 'online'],
  start: ['开始', 'Start'],
  ready: ['已准备', 'Ready'],
  swap: ['交换', 'Swap'],
  draw: ['和棋', 'Draw'],
  load: ['读入', 'Load'],
  time: ['时间', 'Time'],
  takeback: ['悔棋', 'Take back'],
  resign: ['认输', 'Resign'],
  save: ['保存', 'Save'],
  analysis: ['研究', 'Analysis'],
  leave: ['离开', 'Leave'],
  standUp: ['站起', 'Stand up'],
  rematch: ['再来一局', 'Rematch'],
  accept: ['同意', 'Accept'],
  decline: ['拒绝', 'Decline'],
  cancel: ['取消', 'Cancel'],
  ok: ['确定', 'OK'],
  close: ['关闭', 'Close'],
  propose: ['提议', 'Propose'],
  timeSettings: ['时间设置', 'Time settings'],
  quick: ['快棋', 'Quick'],
  match: ['比赛', 'Match'],
  custom: ['自定义', 'Custom'],
  gameTime: ['局时(分)', 'Game time (min)'],
  moveTime: ['步时(秒)', 'Move time (s)'],
  byoyomi: ['读秒(秒)', 'Count-down (s)'],
  increment: ['加秒(秒)', 'Increment (s)'],
  proposedTime: ['对方提议时间设置', 'Your opponent proposes time settings'],
  waitingAccept: ['等待对方同意…', 'Waiting for your opponent…'],
  proposalDeclined: ['对方不同意你的设置', 'Your opponent declined your settings'],
  arbWarned: ['裁判警告', "Arbiter's warning"],
  arbFouled: ['裁判判犯规', 'Foul'],
  arbViolated: ['裁判判违例', 'Violation'],
  arbMarks: ['裁判记录', "Arbiter's record"],
  arbWarnings: ['警告', 'warnings'],
  arbFouls: ['犯规', 'fouls'],
  arbViolations: ['违例', 'violations'],
  arbRestored: ['裁判恢复局面至第 {n} 步后', 'The arbiter restored the position after move {n}'],
  arbClockAdded: ['裁判调整时钟', 'The arbiter adjusted a clock'],
  arbPaused: ['裁判暂停了比赛，计时停止', 'The arbiter paused the game: the clocks are stopped'],
  arbResumed: ['裁判恢复了比赛', 'The arbiter resumed the game'],
  claimIncorrect: ['和棋要求不成立：对方加时', 'Incorrect claim: the opponent gets more time'],
  proposalPending: ['对方的设置', "Your opponent's settings"],
  ratedOrCasual: ['计分', 'Rated'],
  guestCasual: ['游客只能下友谊赛', 'Guests play casual games only'],
  opponentLeft: ['对手已离开，不能再来一局', 'Your opponent left: no rematch'],
  eventOneGame: ['比赛对局：本桌只下这一局', "An event's game: this table plays it alone"],
  drawOffered: ['对方提议和棋', 'Your opponent offers a draw'],
  takebackAsked: ['对方请求悔棋', 'Your opponent asks to take back'],
  swapAsked: ['对方请求交换座位', 'Your opponent asks to swap seats'],
  offerSent: ['请求已发送', 'Request sent'],
  confirmResign: ['确定认输吗？', 'Resign this game?'],
  loadTitle: ['读入棋局 (PGN / FEN / 棋谱)', 'Load a game (PGN / FEN / record)'],
  loadHint: ['粘贴 PGN、FEN 或中国象棋棋谱，开始一局友谊赛', 'Paste a PGN, FEN or xiangqi record to start a casual game'],
  moves: ['着法', 'Moves'],
  notation: ['记谱', 'Notation'],
  chineseNotation: ['中文', 'Chinese'],
  result: ['对局结果', 'Result'],
  youWin: ['你赢了！', 'You won!'],
  youLose: ['你输了', 'You lost'],
  drawResult: ['和棋', 'Draw'],
  whiteWins: ['白方胜', 'White wins'],
  blackWins: ['黑方胜', 'Black wins'],
  redWins: ['红方胜', 'Red wins'],
  ratingChange: ['等级分变化', 'Rating change'],
  saveRecord: ['保存棋谱？', 'Save the record?'],
  white: ['白方', 'White'],
  black: ['黑方', 'Black'],
  red: ['红方', 'Red'],
  toMove: ['走棋', ' to move'],
  yourTurn: ['轮到你走', 'Your turn'],
  check: ['将军！', 'Check!'],
  r_checkmate: ['将死', 'checkmate'],
  r_stalemate: ['无子可动', 'stalemate'],
  r_insufficient_material: ['子力不足', 'insufficient material'],
  r_threefold_repetition: ['三次重复', 'threefold repetition'],
  r_fivefold_repetition: ['五次重复', 'fivefold repetition'],
  r_fifty_moves: ['五十回合', 'fifty moves'],
  r_seventy_five_moves: ['七十五回合', 'seventy-five moves'],
  r_perpetual_check: ['长将', 'perpetual check'],
  r_perpetual_chase: ['长捉', 'perpetual chase'],
  r_repetition: ['重复局面', 'repetition'],
  r_move_limit: ['自然限着', 'move limit'],
  r_resignation: ['认输', 'resignation'],
  r_timeout: ['超时', 'time'],
  r_agreement: ['协议和棋', 'agreement'],
  r_escape: ['逃跑', 'leaving'],
  r_aborted: ['对局作废', 'aborted'],
  r_adjudication: ['裁判判定', 'adjudication'],
  r_fouls: ['犯规', 'fouls'],
  r_violations: ['违例', 'violations'],
  r_counted: ['数子', 'counting'],
  r_other: ['其他', 'other'],
  r_hand_emptied: ['出完手牌', 'hand played out'],
  animation: ['动画效果', 'Animation'],
  sound: ['声音效果', 'Sounds'],
  music: ['背景音乐', 'Background music'],
  flash: ['棋子闪烁', 'Flash the last move'],
  premove: ['预走棋', 'Premoves'],
  boardTheme: ['棋盘', 'Board'],
  pieceTheme: ['棋子', 'Pieces'],
  language: ['语言', 'Language'],
  themeWood: ['木纹', 'Wood'],
  themeGreen: ['青绿', 'Green'],
  themeBlue: ['湖蓝', 'Blue'],
  piecesTraditional: ['传统', 'Traditional'],
  piecesModern: ['现代', 'Modern'],
  history: ['对局记录', 'Game history'],
  rating: ['等级分', 'Rating'],
  games: ['对局', 'Games'],
  opponent: ['对手', 'Opponent'],
  date: ['日期', 'Date'],
  noGames: ['暂无对局', 'No games yet'],
  points: ['积分', 'Points'],
  hands: ['局', 'hands'],
  leaderboard: ['积分榜', 'Leaderboard'],
  noPoints: ['暂无积分', 'No points yet'],
  hotseat: ['双人同屏', 'Two players, one screen'],
  goConfirm: ['围棋落子确认（点两下落子）', 'Go: confirm each move (tap twice)'],
  goConfirmHint: ['再点一下此处落子', 'Tap the point again to play'],
  offlineHint: ['单机模式：不需联网，不计积分', 'Offline: no network, no rating'],
  newGame: ['新局', 'New game'],
  flip: ['翻转', 'Flip'],
  back: ['后退', 'Back'],
  exitAnalysis: ['退出研究', 'Leave analysis'],
  analysisBoard: ['研究棋盘', 'Analysis board'],
  promoteTo: ['升变为', 'Promote to'],
  connecting: ['正在连接…', 'Connecting…'],
  lag: ['网络延迟', 'Lag'],
  lagUnknown: ['网络延迟未知', 'Lag not measured'],
  disconnected: ['连接已断开，正在重连…', 'Disconnected, reconnecting…'],
  reconnecting: ['正在重新连接…', 'Reconnecting…'],
  errorPrefix: ['错误：', 'Error: '],
  guestName: ['游客', 'Guest'],
  provisional: ['待定', 'provisional'],
  vs: ['对', 'vs'],
  seat: ['座位', 'Seat'],
  notFound: ['页面不存在', 'Page not found'],
  enterRoom: ['进入', 'Enter'],
  players: ['棋手', 'Players'],
  noMoves: ['尚未走棋', 'No moves yet'],
  timePreset: ['时间', 'Time'],
  none: ['不限时', 'Unlimited'],
  invalidRecord: ['无法识别的棋局', 'Could not read that record'],
  you: ['你', 'you'],
  offlineTag: ['掉线', 'away'],
  rated: ['计积分', 'rated'],
  clockKind: ['计时方式', 'Clock'],
  gameKind: ['棋类', 'Game'],
  // Lichess's Chinese names (crates/clock `Speed::label`): 快棋 is rapid, where QQ's 快棋 preset plays.
  speed_ultrabullet: ['超级子弹棋', 'UltraBullet'],
  speed_bullet: ['子弹棋', 'Bullet'],
  speed_blitz: ['超快棋', 'Blitz'],
  speed_rapid: ['快棋', 'Rapid'],
  speed_classical: ['慢棋', 'Classical'],
  speed_correspondence: ['通讯棋', 'Correspondence'],
  casual: ['友谊赛', 'casual'],
  rematchAsked: ['对方请求再来一局', 'Your opponent wants a rematch'],
  confirmLeave: ['对局中离开将判负（逃跑），确定离开吗？', 'Leaving a live game loses it. Leave?'],
  // The table shell (web/src/table/) and the new-table dialogs.
  waitingToStart: ['等待开始', 'Waiting to start'],
  perTurn: ['每手', 'per turn'],
  resultTitle: ['结果', 'Result'],
  create: ['创建', 'Create'],
  clock: ['计时', 'Clock'],
  // The replay viewer (web/src/replay/).
  replay: ['复盘', 'Replay'],
  replayOf: ['对局回放', 'Game replay'],
  firstPly: ['开局', 'Start'],
  prevPly: ['上一步', 'Previous'],
  nextPly: ['下一步', 'Next'],
  lastPly: ['终局', 'End'],
  download: ['下载棋谱', 'Download record'],
  startPosition: ['开始局面', 'Start position'],
  notFinished: ['对局尚未结束', 'The game is not over yet'],
  winner: ['胜者', 'Winner'],
  // Issue 46: promotion, refusals, the analysis board, the table's words.
  queen: ['后', 'Queen'],
  rook: ['车', 'Rook'],
  bishop: ['象', 'Bishop'],
  knight: ['马', 'Knight'],
  drawDeclined: ['对方拒绝了和棋', 'Your opponent declined the draw'],
  takebackDeclined: ['对方拒绝了悔棋', 'Your opponent declined the takeback'],
  swapDeclined: ['对方没有同意交换', 'Your opponent did not agree to swap'],
  takebacksOff: ['本局不允许悔棋', 'Takebacks are off in this game'],
  analyseGame: ['研究这盘棋', 'Analyse this game'],
  reviewGame: ['分析这盘棋', 'Review this game'],
  forwardPly: ['前进', 'Forward'],
  evalGraph: ['局势曲线', 'Evaluation graph'],
  bestMove: ['最佳', 'Best'],
  waitingForPlayer: ['等待对手入座', 'Waiting for an opponent to sit'],
  swapAndStart: ['交换先后再开始', 'Swap sides and start'],
  startSame: ['不交换，直接开始', 'Start without swapping'],
  swapQuestion: ['下一局交换先后手吗？', 'Swap sides for the next game?'],
  loadCasualHint: ['读入的局面或棋谱开始的对局不计积分（友谊赛）', 'A game from a position or record read in is casual (not rated)'],
  loadedCasual: ['已读入局面：从读入局面开始的对局不计积分（友谊赛）', 'Position loaded: a game from a loaded position is casual (not rated)'],
} as const;

export type Key = keyof typeof S;

/** Words the server names (each game's name, from its descriptor: net/games.ts). */
const extra = new Map<string, readonly [string, string]>();

/** Adds words given by the server; the built-in keys above keep theirs. */
export function addLabels(labels: Record<string, readonly [string, string]>): void {
  for (const [k, pair] of Object.entries(labels)) extra.set(k, pair);
}

export function t(k: Key): string {
  const pair = (S as Record<string, readonly [string, string] | undefined>)[k] ?? extra.get(k);
  if (!pair) return k;
  return settings().lang === 'en' ? pair[1] : pair[0];
}

/** A string table of one part of the client (a game's folder), in both
 * languages, with `{name}` placeholders: its own `t`. */
export function texts<K extends string>(table: Record<K, readonly [string, string]>) {
  return (k: K, vars: Record<string, string | number> = {}): string => {
    const pair = table[k];
    let s: string = settings().lang === 'en' ? pair[1] : pair[0];
    for (const [name, v] of Object.entries(vars)) s = s.replace(`{${name}}`, String(v));
    return s;
  };
}

const languageListeners = new Set<() => void>();

/** Calls `cb` whenever the interface language changes, until the returned function is called. */
export function onLanguage(cb: () => void): () => void {
  languageListeners.add(cb);
  return () => languageListeners.delete(cb);
}

/** Tells every listener the language changed; how many were told. */
export function languageChanged(): number {
  [...languageListeners].forEach((cb) => cb());
  return languageListeners.size;
}

/** A parenthesised aside, with the parentheses of the current language. */
export function paren(x: string): string {
  return settings().lang === 'en' ? ` (${x})` : `（${x}）`;
}

/** A string for a server-sent end reason, e.g. `checkmate`; a reason this
 * client does not know yet is "other", never the server's code. */
export function reasonText(reason: string): string {
  const k = `r_${reason}` as Key;
  return k in S ? t(k) : t('r_other');
}
