// Every error code the server sends (docs/protocol.md "Error codes";
// crates/server/src/error.rs and the refusals of the table and the games), in
// both interface languages, so that no refusal shows the server's English text
// inside the Chinese interface. A unit test (web/test/errors.test.ts) reads the
// codes from the server's Rust sources and checks each has both messages here.
import { settings } from './settings';

export const ERRORS: Record<string, readonly [string, string]> = {
  // The envelope and routing.
  malformed_json: ['消息格式错误', 'The message is not valid JSON'],
  unknown_type: ['未知的消息类型', 'Unknown message type'],
  bad_message: ['消息内容有误', 'The message is missing fields or has wrong ones'],
  too_large: ['内容太长', 'Too large'],
  not_logged_in: ['请先登录或以游客进入', 'Log in or play as a guest first'],
  not_found: ['找不到该页面或对局', 'Not found'],
  unknown_game: ['没有这种游戏', 'No such game here'],
  wrong_game: ['这张桌子玩的是别的游戏', 'This table plays another game'],
  not_your_seat: ['这不是你的座位', 'That is not your seat'],
  guest_rated: ['游客只能下友谊赛', 'Guests play casual games only'],
  bad_settings: ['设置无效', 'Those settings cannot be used'],
  hidden_while_playing: ['对局结束后才能查看', 'Shown once the game is over'],
  board_sealed: ['各桌都打完这副牌后才能查看', 'Shown once every table has played this board'],
  too_many_tables: ['你同时占用的桌子太多了（含人机、单机），请先下完或离开一桌', 'You hold too many tables at once (games against the computer and private ones included): finish or leave one first'],
  private_table: ['这是别人的单机桌，只有桌主能观看或入座', 'This is someone else\'s private table: only its owner may watch or sit there'],
  sit_refused: ['无法在这个座位入座', 'That seat cannot be taken'],
  unavailable: ['这张桌子暂时连不上（服务器正在切换），请稍后再试', 'The table cannot be reached for a moment (a server is being replaced); try again'],
  internal: ['服务器出错，请重试', 'The server failed; try again'],
  // HTTP.
  method_not_allowed: ['不支持该操作', 'Method not allowed'],
  unsupported_media_type: ['请以 JSON 格式发送', 'Send the body as JSON'],
  bad_query: ['请求参数有误', 'Bad query parameters'],
  bad_origin: ['请求来源不被允许', 'Requests from that origin are refused'],
  forbidden: ['没有权限', 'Forbidden'],
  rate_limited: ['操作太频繁，请稍后再试', 'Too many attempts; wait a moment'],
  busy: ['服务器繁忙，请稍后再试', 'The server is busy; try again soon'],
  too_many_sockets: ['打开的连接太多', 'Too many connections open'],
  timeout: ['请求超时', 'The request timed out'],
  bad_credentials: ['用户名或密码错误', 'Wrong username or password'],
  username_taken: ['该用户名已被使用', 'That username is taken'],
  bad_username: ['用户名不可用：需 3–20 个字宽（汉字算 2），由汉字、字母、数字、_ 或 - 组成，不能与他人的名字相像，也不能混用不同文字', 'That username cannot be used: 3–20 columns wide (a Chinese character counts 2), letters, digits, _ or -, not looking like another player\'s name, in one script'],
  bad_password: ['密码不可用（至少 8 个字符）', 'That password cannot be used (at least 8 characters)'],
  bad_request: ['请求有误', 'Bad request'],
  // Relations (follow, block).
  guest_relations: ['游客不能关注或拉黑，请先注册', 'Guests neither follow nor block: register first'],
  self_relation: ['不能关注或拉黑自己', 'You cannot follow or block yourself'],
  blocked: ['对方已将你拉黑', 'This person does not accept that from you'],
  blocking: ['你已将对方拉黑，请先取消拉黑', 'You block this person: unblock them first'],
  // Invitations to a table.
  guest_invite: ['游客不能邀请或被邀请，请先注册', 'Guests neither invite nor are invited: register first'],
  self_invite: ['不能邀请自己', 'You cannot invite yourself'],
  invite_only: ['这是邀请桌，只有受邀的人能观战或入座', 'This table is for the people invited to it: ask its players for an invitation'],
  invitation_answered: ['这个邀请已经答复过了', 'This invitation was answered already'],
  invite_taken: ['这个邀请链接的座位已经有人了', 'This invite link’s seat is taken'],
  unknown_reason: ['没有这个理由', 'No such reason'],
  bad_body: ['请求内容有误', 'The request’s body cannot be read'],
  // Event pages.
  too_many_events: ['同时关注的比赛太多了', 'Following too many events at once'],
  bad_event_id: ['没有这个比赛', 'Not an event'],
  // The table.
  not_seated: ['你没有坐在这张桌上', 'You are not seated at this table'],
  already_seated: ['你已经坐下了', 'You are already seated'],
  seat_taken: ['这个座位已经有人了', 'That seat is taken'],
  no_such_seat: ['没有这个座位', 'No such seat'],
  not_at_table: ['你不在这张桌上', 'You are not at this table'],
  game_in_progress: ['对局进行中，不能这样做', 'Not while a game is being played'],
  no_game: ['现在没有对局', 'There is no game now'],
  settings_fixed: ['设置已确定，不能更改', 'The settings can no longer change'],
  stale_proposal: ['该提议已过期', 'That proposal is no longer current'],
  not_your_turn: ['还没轮到你', 'It is not your turn'],
  nothing_to_answer: ['没有需要回应的请求', 'There is nothing to answer'],
  not_allowed: ['现在不允许这样做', 'Not allowed now'],
  too_soon: ['太快了，请稍后再试', 'Too soon; wait a moment'],
  bad_outcome: ['对局结果无效', 'That result does not fit the game'],
  // The game.
  illegal: ['不合规则的着法', 'Illegal move'],
  malformed_action: ['无法识别的着法', 'Unreadable move'],
  wrong_phase: ['现在不能这样做', 'Not in this phase of the game'],
  game_over: ['对局已经结束', 'The game is over'],
  claim_refused: ['不能提出该要求', 'That claim is refused'],
  // Computer players.
  no_bots: ['这个游戏没有电脑玩家', 'This game has no computer players'],
  no_bot: ['这个座位上没有电脑', 'No computer player sits there'],
  bad_level: ['没有这个电脑级别', 'No such computer level'],
  bad_seat: ['没有这个座位或颜色', 'No such seat or colour'],
  // The analysis board and game reviews.
  bad_setup: ['无法从这个局面开始', 'That position cannot be set up'],
  not_finished: ['只能分析已结束的对局', 'Only a finished game can be analysed'],
  no_analysis: ['这种游戏没有分析引擎', 'There is no engine to analyse this game'],
  bad_record: ['棋谱无法读取', 'The record cannot be read'],
  too_long: ['对局太长，无法分析', 'The game is too long to analyse'],
  // The Lichess-compatible API's bot accounts.
  bot_rated: ['机器人账号与真人只下友谊赛', 'Bot accounts play casual games only with people'],
  // Accounts and roles.
  banned: ['该账号已被封禁', 'This account is banned'],
  not_admin: ['只有管理员可以这样做', 'Only an administrator can do that'],
  // Chat.
  muted: ['你已被禁言，发言不会送达', 'You are muted: your lines are not delivered'],
  chat_too_fast: ['发言太快了，请稍等', 'You are writing too fast; wait a moment'],
  already_reported: ['你已经举报过了，管理员会处理', 'You have reported this already'],
  chat_off: ['组织者已关闭本赛事棋手的聊天', 'The organiser has switched the players’ chat off for this event'],
  table_chat_off: ['本桌的棋手聊天已关闭', 'The players’ chat at this table is switched off'],
  not_in_room: ['请先进入聊天室', 'Join the room first'],
  guest_private: ['游客不能发私信，请注册', 'Guests send no private messages: register first'],
  self_message: ['不能给自己发私信', 'You cannot write to yourself'],
  self_report: ['不能举报自己', 'You cannot report yourself'],
  bad_mute: ['禁言时长无效', 'That mute’s length is not valid'],
  not_in_event: ['此人没有参加本赛事', 'That person does not play in this event'],
  bad_role: ['没有这种角色', 'No such role'],
  // Events (Swiss tournaments) and their arbiters.
  not_organiser: ['只有本赛事的组织者可以这样做', 'Only the event’s organiser can do that'],
  not_arbiter: ['只有本赛事的裁判可以这样做', 'Only an arbiter of the event can do that'],
  chief_only: ['只有裁判长可以这样做；监局裁判可以提交裁判长', 'Only the chief arbiter can do that; a table arbiter refers the case'],
  referral_decided: ['此申诉已有裁决', 'That case has been decided already'],
  hand_over: ['这一局已经结束，得分不再改判', 'That hand is over: its score stands'],
  arbiter_plays: ['裁判不能参加自己执裁的赛事，也不能裁决自己的对局', 'An arbiter cannot play in their own event or act on their own game'],
  guest: ['游客不能报名参赛', 'Guests cannot enter events'],
  rating_out_of_range: ['你的等级分不在本赛事的范围内', 'Your rating is outside the event’s range'],
  not_invited: ['本赛事仅限受邀棋手', 'This event is by invitation only'],
  bad_round: ['没有这一轮', 'No such round'],
  bad_bye: ['轮空只能是半分或零分', 'A bye is a half point or zero'],
  event_started: ['赛事已开始，不能再修改', 'The event has started and can no longer be changed'],
  registration_closed: ['报名已截止', 'Registration is closed'],
  already_registered: ['你已经报名了', 'You are already registered'],
  bad_reason: ['请写明理由', 'Give a reason'],
  bad_result: ['结果无效', 'That result is not valid'],
  bad_action: ['无法执行该裁判操作', 'That arbiter action cannot be taken'],
  cannot_pair: ['这一轮无法编排', 'The round cannot be paired'],
  refused: ['对局拒绝了这一操作', 'The game refused that'],
  bad_event: ['赛事设置无效', 'The event’s settings are not valid'],
  event_finished: ['赛事已结束', 'The event has finished'],
  not_event_staff: ['只有本赛事的组织者和裁判可以查看', 'Only the event’s organiser and arbiters can see that'],
};

/** The message for a server error code in the interface language; `fallback` (the
 * server's own text) only for a code this client does not know. */
export function errorText(code: string, fallback?: string): string {
  const pair = ERRORS[code];
  if (!pair) return fallback ?? code;
  return settings().lang === 'en' ? pair[1] : pair[0];
}

/** The message for anything thrown by an API call: its code's text where it has one. */
export function errorOf(e: unknown): string {
  if (e && typeof e === 'object') {
    const x = e as { code?: unknown; message?: unknown };
    if (typeof x.code === 'string') return errorText(x.code, typeof x.message === 'string' ? x.message : undefined);
    if (typeof x.message === 'string') return x.message;
  }
  return String(e);
}
