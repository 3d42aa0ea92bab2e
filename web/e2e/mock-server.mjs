// Development only: serves web/dist with a fake account and a fake table view over
// a hand-rolled WebSocket, so the pages can be looked at without the real server.
// usage: node e2e/mock-server.mjs PORT
import { createServer } from 'node:http';
import { readFileSync, existsSync } from 'node:fs';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const port = Number(process.argv[2] ?? 4180);
const types = { '.js': 'text/javascript', '.css': 'text/css', '.html': 'text/html', '.svg': 'image/svg+xml' };
const clock = (running) => ({ control: { kind: 'qq', game: 600000, per_move: 60000, countdown: 30000 }, running, paused: false, at: Date.now(), seats: [{ main: 512000, move_left: 41000, periods: 0, moves_left: 0, overtime: false, flagged: false }, { main: 587000, move_left: 60000, periods: 0, moves_left: 0, overtime: false, flagged: false }] });
const views = {
  chess: { id: 'c1', game_name: 'chess', version: 9, status: 'playing', spectators: ['w1', 'w2'], you: 0, seats: [{ user: 'alice', connected: true }, { user: '棋手李', connected: true }], ratings: { alice: { rating: 1523, provisional: true }, '棋手李': { rating: 1611 } }, proposal: { id: 1, by: 0, settings: { time: { kind: 'qq', game: 600000, per_move: 60000, countdown: 30000 } } }, game: { turn: { seat: 1 }, moves: [['e2e4', 'e4'], ['e7e5', 'e5'], ['g1f3', 'Nf3'], ['b8c6', 'Nc6'], ['f1c4', 'Bc4']].map(([action, display]) => ({ action, display })), clock: clock(1), board: {} } },
  xiangqi: { id: 'x1', game_name: 'xiangqi', version: 5, status: 'playing', spectators: 3, you: 0, seats: [{ user: 'alice', connected: true }, { user: '王小明', connected: false }], proposal: { id: 1, by: 0, settings: { time: { kind: 'qq', game: 1800000, per_move: 300000, countdown: 180000 } } }, game: { turn: { seat: 0 }, moves: [['h2e2', '炮二平五'], ['h9g7', '马８进７'], ['h0g2', '马二进三'], ['i9h9', '车９平８']].map(([action, display]) => ({ action, display })), clock: clock(0), board: {} } },
};
const lobby = { tables: [
  { id: '1', game: 'chess', status: 'playing', seats: ['alice', '棋手李'], spectators: 2, settings: { time: { kind: 'qq', game: 600000, per_move: 60000, countdown: 30000 } } },
  { id: '2', game: 'chess', status: 'waiting', seats: ['bob', null], spectators: 0, settings: { time: { kind: 'fischer', base: 300000, increment: 3000 } } },
  { id: '3', game: 'chess', status: 'waiting', seats: [null, null], spectators: 0 },
  { id: '4', game: 'xiangqi', status: 'playing', seats: ['alice', '王小明'], spectators: 3 },
], online: ['alice', 'bob', '棋手李', '王小明'] };

function frame(obj) {
  const data = Buffer.from(JSON.stringify(obj));
  const head = data.length < 126 ? Buffer.from([0x81, data.length]) : Buffer.from([0x81, 126, data.length >> 8, data.length & 255]);
  return Buffer.concat([head, data]);
}
function parseFrames(buf) {
  const out = [];
  let i = 0;
  while (i + 2 <= buf.length) {
    let len = buf[i + 1] & 127;
    let off = i + 2;
    if (len === 126) { len = buf.readUInt16BE(off); off += 2; }
    const mask = buf.subarray(off, off + 4);
    off += 4;
    if (off + len > buf.length) break;
    const payload = Buffer.from(buf.subarray(off, off + len)).map((b, k) => b ^ mask[k % 4]);
    if ((buf[i] & 15) === 1) out.push(JSON.parse(payload.toString()));
    i = off + len;
  }
  return out;
}

const server = createServer((req, res) => {
  const url = new URL(req.url, 'http://x');
  if (url.pathname === '/api/account/me' || url.pathname.startsWith('/api/account/')) {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ user: { id: 1, username: 'alice', guest: false }, ratings: [{ pool: 'chess', rating: 1523, provisional: true, games: 3 }], games: [] }));
    return;
  }
  if (url.pathname.startsWith('/api/user/')) {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ user: { id: 1, username: decodeURIComponent(url.pathname.slice(10)), guest: false }, created_at: 1764400000, ratings: [{ pool: 'chess', rating: 1523, provisional: true, games: 3 }, { pool: 'xiangqi', rating: 1602, provisional: false, games: 31 }], games: [{ id: 7, game: 'chess', players: ['alice', 'bob'], score: '1-0', reason: 'checkmate', ended_at: 1764400500 }, { id: 6, game: 'xiangqi', players: ['王小明', 'alice'], score: '0-1', reason: 'resignation', ended_at: 1764300500 }] }));
    return;
  }
  if (url.pathname.startsWith('/api/lobby/')) {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(lobby));
    return;
  }
  const file = path.join(dist, url.pathname === '/' ? 'index.html' : url.pathname);
  if (existsSync(file) && !file.endsWith('/')) {
    res.setHeader('content-type', types[path.extname(file)] ?? 'application/octet-stream');
    res.end(readFileSync(file));
  } else {
    res.setHeader('content-type', 'text/html');
    res.end(readFileSync(path.join(dist, 'index.html')));
  }
});
server.on('upgrade', (req, socket) => {
  const accept = createHash('sha1').update(req.headers['sec-websocket-key'] + '258EAFA5-E914-47DA-95CA-C5AB0DC85B11').digest('base64');
  socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`);
  socket.on('data', (buf) => {
    for (const m of parseFrames(buf)) {
      if (m.t === 'join') socket.write(frame({ t: 'table', d: views[m.d.table === 'x1' ? 'xiangqi' : 'chess'] }));
      if (m.t === 'lobby') socket.write(frame({ t: 'lobby', d: lobby }));
    }
  });
  socket.on('error', () => undefined);
});
server.listen(port, '127.0.0.1', () => console.log(`mock on ${port}`));
