// Records made in the browser (offline games and analysis): PGN for chess, the
// xiangqi PGN dialect with ICCS moves for xiangqi. Online games are saved from the
// server's /game/{id}.pgn.
import type { GameKind, Played } from './games';
import type { Side } from './boards/types';
import { t, reasonText, paren } from './i18n';
import { START } from './games';

export function resultLine(kind: GameKind, winner: Side | null, reason: string): string {
  const who =
    winner === null ? t('drawResult') : winner === 0 ? (kind === 'chess' ? t('whiteWins') : t('redWins')) : t('blackWins');
  return who + paren(reasonText(reason));
}

export function recordText(kind: GameKind, fen: string, moves: Played[], winner: Side | null | undefined, names: { white: string; black: string }): string {
  const result = winner === undefined ? '*' : winner === null ? '1/2-1/2' : winner === 0 ? '1-0' : '0-1';
  const d = new Date();
  const date = `${d.getFullYear()}.${String(d.getMonth() + 1).padStart(2, '0')}.${String(d.getDate()).padStart(2, '0')}`;
  const tags: Array<[string, string]> = [
    ['Event', kind === 'chess' ? 'Qiyuan offline game' : 'Qiyuan offline xiangqi game'],
    ['Site', 'qiyuan'],
    ['Date', date],
    ['White', names.white],
    ['Black', names.black],
    ['Result', result],
  ];
  if (kind === 'xiangqi') tags.push(['Variant', 'xiangqi'], ['Format', 'ICCS']);
  if (fen !== START[kind]) tags.push(['SetUp', '1'], ['FEN', fen]);
  const black = fen.split(' ')[1] === 'b';
  let body = '';
  moves.forEach((m, i) => {
    const ply = i + (black ? 1 : 0);
    const num = Math.floor(ply / 2) + 1;
    if (ply % 2 === 0) body += `${num}. `;
    else if (i === 0) body += `${num}... `;
    const text = kind === 'chess' ? m.display : m.uci.slice(0, 2).toUpperCase() + '-' + m.uci.slice(2, 4).toUpperCase();
    body += text + ' ';
  });
  return tags.map(([k, v]) => `[${k} "${v}"]`).join('\n') + '\n\n' + body + result + '\n';
}
