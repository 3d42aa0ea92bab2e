#!/usr/bin/env python3
"""A referee for engine matches: qiyuan's built-in engine against another UCI
engine, in chess or xiangqi, with every move checked by a rules implementation.

chess:   python-chess drives both engines (chess.engine.SimpleEngine.popen_uci)
         and judges the game (checkmate, stalemate, threefold, fifty moves,
         insufficient material).
xiangqi: both engines speak UCI as Fairy-Stockfish writes it (UCI_Variant
         xiangqi, ranks 1-10); after every move `qiyuan xiangqi play` checks it
         with qiyuan's rules and judges the game (mate, stalemate, perpetual check
         and chase, the natural move limit, bare material).

Colours alternate; game 2k and 2k+1 share an opening from a small book so that
deterministic engines do not replay one game. At the end it prints the score of
qiyuan's side and the Elo difference with a 95% interval.

Games can be played several at once (--concurrency) and a match in chunks
(--first, the number of the chunk's first game); --tally adds up the logs.

Examples (see docs/engines.md):
  scripts/engine-match.py --game chess --level 8 --games 100 --movetime 100 \
      --opponent /usr/games/stockfish --opt UCI_LimitStrength=true --opt UCI_Elo=2200
  scripts/engine-match.py --game xiangqi --level 8 --games 100 --movetime 100 \
      --opponent /usr/games/fairy-stockfish --opt UCI_Variant=xiangqi --opt "Skill Level=0"
"""

import argparse
import concurrent.futures
import math
import subprocess
import sys
import threading
import time

CHESS_BOOK = [
    "e2e4 e7e5", "d2d4 d7d5", "e2e4 c7c5", "c2c4 e7e5", "g1f3 d7d5", "e2e4 e7e6",
    "d2d4 g8f6 c2c4 e7e6", "e2e4 c7c6", "d2d4 g8f6 c2c4 g7g6", "e2e4 d7d6",
    "e2e4 e7e5 g1f3 b8c6", "d2d4 d7d5 c2c4 c7c6", "e2e4 c7c5 g1f3 d7d6", "c2c4 c7c5",
    "g1f3 g8f6", "e2e4 g7g6", "d2d4 f7f5", "e2e4 e7e5 f1c4", "b2b3 e7e5", "e2e4 d7d5",
]
# ICCS (ranks 0-9).
XIANGQI_BOOK = [
    "h2e2 h9g7", "h2e2 b9c7", "b2e2 h9g7", "c3c4 g6g5", "g3g4 c6c5", "b0c2 h9g7",
    "h2e2 h7e7", "c3c4 h9g7", "h2f2 b9c7", "b2d2 h9g7", "g3g4 h9g7", "h0g2 c6c5",
    "c0e2 h7e7", "h2e2 h9g7 h0g2 i9h9", "b2e2 b9c7 b0c2 a9b9", "c3c4 b7e7",
    "h2e2 b7e7", "g0e2 h7e7", "h2d2 h9g7", "b2c2 b9c7",
]


class Uci:
    """A bare UCI client over pipes (for xiangqi, whose moves python-chess cannot read)."""

    def __init__(self, cmd, options):
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.send("uci")
        self.wait_for("uciok")
        for name, value in options:
            self.send(f"setoption name {name} value {value}")
        self.send("isready")
        self.wait_for("readyok")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def wait_for(self, word):
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError(f"engine closed its output waiting for {word}")
            if line.split() and line.split()[0] == word:
                return line.split()

    def new_game(self):
        self.send("ucinewgame")
        self.send("isready")
        self.wait_for("readyok")

    def best(self, fen, moves, go):
        self.send(f"position fen {fen}" + (" moves " + " ".join(moves) if moves else ""))
        self.send("go " + go)
        words = self.wait_for("bestmove")
        return words[1] if len(words) > 1 else None

    def quit(self):
        try:
            self.send("quit")
            self.p.wait(timeout=5)
        except Exception:
            self.p.kill()


def to_iccs(uci):
    """Fairy-Stockfish's `h3e3` (ranks 1-10) to ICCS `h2e2` (ranks 0-9)."""
    out, i = "", 0
    for _ in range(2):
        f = uci[i]
        j = i + 1
        while j < len(uci) and uci[j].isdigit():
            j += 1
        out += f + str(int(uci[i + 1:j]) - 1)
        i = j
    if i != len(uci):
        raise ValueError(uci)
    return out


def to_uci(iccs):
    return iccs[0] + str(int(iccs[1]) + 1) + iccs[2] + str(int(iccs[3]) + 1)


XQ_START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"


def xiangqi_judge(qiyuan, moves_iccs):
    """`qiyuan xiangqi play`: (status, detail); status 'ongoing', 'red', 'black',
    'draw', or 'illegal' (then detail says why)."""
    r = subprocess.run([qiyuan, "xiangqi", "play", *moves_iccs], capture_output=True, text=True)
    if r.returncode != 0:
        return "illegal", r.stderr.strip()
    words = r.stdout.split()
    return words[0], " ".join(words[1:])


class Clock:
    def __init__(self, args):
        self.movetime = args.movetime
        if args.tc:
            base, _, inc = args.tc.partition("+")
            self.left = [float(base) * 1000] * 2
            self.inc = float(inc or 0) * 1000
        else:
            self.left = None

    def go(self, side):
        if self.left is None:
            return f"movetime {self.movetime}"
        return "wtime %d btime %d winc %d binc %d" % (self.left[0], self.left[1], self.inc, self.inc)

    def spend(self, side, ms):
        if self.left is None:
            return True
        self.left[side] -= ms
        if self.left[side] < 0:
            return False
        self.left[side] += self.inc
        return True


def play_chess(args, game_no, qiyuan_white):
    import chess
    import chess.engine
    ours = chess.engine.SimpleEngine.popen_uci(qiyuan_cmd(args))
    theirs = chess.engine.SimpleEngine.popen_uci(args.opponent)
    try:
        ours.configure({"Level": args.level})
        if args.opt:
            theirs.configure({k: v for k, v in args.opt})
        board = chess.Board()
        for uci in CHESS_BOOK[(game_no // 2) % len(CHESS_BOOK)].split():
            board.push_uci(uci)
        clock = Clock(args)
        reason = None
        used = {True: 0.0, False: 0.0}  # ms thought, by "is it qiyuan"
        while not board.is_game_over(claim_draw=True) and board.ply() < args.max_plies:
            side = 0 if board.turn == chess.WHITE else 1
            eng = ours if (board.turn == chess.WHITE) == qiyuan_white else theirs
            if clock.left is None:
                limit = chess.engine.Limit(time=args.movetime / 1000)
            else:
                limit = chess.engine.Limit(white_clock=clock.left[0] / 1000, black_clock=clock.left[1] / 1000,
                                           white_inc=clock.inc / 1000, black_inc=clock.inc / 1000)
            if eng is theirs and args.opponent_depth:
                # On the clock, but no deeper than this (see --opponent-depth).
                limit.depth = args.opponent_depth
            t0 = time.monotonic()
            res = eng.play(board, limit)
            took = (time.monotonic() - t0) * 1000
            used[eng is ours] += took
            before = clock.left[side] if clock.left else 0
            if not clock.spend(side, took):
                who = "qiyuan" if eng is ours else "opponent"
                reason = f"time ({who} took {took:.0f} ms with {before:.0f} ms left)"
                winner = not board.turn
                break
            if res.move is None or res.move not in board.legal_moves:
                reason = f"illegal move {res.move}"
                winner = not board.turn
                break
            board.push(res.move)
        if reason is None:
            outcome = board.outcome(claim_draw=True)
            if outcome is None:
                reason, winner = "ply limit", None
            else:
                reason, winner = outcome.termination.name.lower(), outcome.winner
        if winner is None:
            score = 0.5
        else:
            score = 1.0 if (winner == chess.WHITE) == qiyuan_white else 0.0
        reason += "; thought: qiyuan %.1f s, opponent %.1f s" % (used[True] / 1000, used[False] / 1000)
        return score, reason, " ".join(m.uci() for m in board.move_stack)
    finally:
        ours.quit()
        theirs.quit()


def play_xiangqi(args, game_no, qiyuan_red):
    ours = Uci(qiyuan_cmd(args), [("UCI_Variant", "xiangqi"), ("Level", str(args.level))])
    theirs = Uci(args.opponent, args.opt)
    try:
        moves = XIANGQI_BOOK[(game_no // 2) % len(XIANGQI_BOOK)].split()
        status, detail = xiangqi_judge(args.qiyuan, moves)
        clock = Clock(args)
        ply = len(moves)
        while status == "ongoing" and ply < args.max_plies:
            side = ply % 2
            eng = ours if (side == 0) == qiyuan_red else theirs
            t0 = time.monotonic()
            best = eng.best(XQ_START, [to_uci(m) for m in moves], clock.go(side))
            if not clock.spend(side, (time.monotonic() - t0) * 1000):
                status, detail = ("black" if side == 0 else "red"), "time"
                break
            try:
                m = to_iccs(best) if best else None
            except (ValueError, IndexError):
                m = None
            if m is None:
                status, detail = ("black" if side == 0 else "red"), f"no move ({best})"
                break
            status, detail = xiangqi_judge(args.qiyuan, moves + [m])
            if status == "illegal":
                status, detail = ("black" if side == 0 else "red"), f"illegal move {best}: {detail}"
                break
            moves.append(m)
            ply += 1
        if status == "ongoing":
            status, detail = "draw", "ply limit"
        if status == "draw":
            score = 0.5
        else:
            score = 1.0 if (status == "red") == qiyuan_red else 0.0
        return score, detail, " ".join(moves)
    finally:
        ours.quit()
        theirs.quit()


def qiyuan_cmd(args):
    return [args.qiyuan, "engine", "--game", args.game, "--level", str(args.level),
            "--seed", str(args.seed), "--hash", str(args.hash)]


def elo(p):
    p = min(max(p, 1e-4), 1 - 1e-4)
    return -400 * math.log10(1 / p - 1)


def summary(scores):
    """The result line: won, drawn, lost, the score and its Elo with Wilson's 95% interval."""
    n = len(scores)
    w, d, l = scores.count(1.0), scores.count(0.5), scores.count(0.0)
    p = sum(scores) / n
    # Wilson's 95% interval of the score (it stays sensible at 0% and 100%).
    z = 1.96
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    lo, hi = elo(max(centre - half, 0)), elo(min(centre + half, 1))
    return (f"result: {w} won, {d} drawn, {l} lost of {n}: score {p:.3f}, "
            f"Elo difference {elo(p):+.0f} (95% {lo:+.0f} .. {hi:+.0f})")


def tally(paths):
    """Scores of the games in log files written by --log (one game a line)."""
    scores = []
    for path in paths:
        with open(path) as f:
            for line in f:
                words = line.split(":", 1)[0].split()
                if len(words) >= 3:
                    scores.append(float(words[2]))
    return scores


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", choices=["chess", "xiangqi"])
    ap.add_argument("--qiyuan", default="target/release/qiyuan")
    ap.add_argument("--level", type=int, default=8)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--hash", type=int, default=32)
    ap.add_argument("--opponent", help="the other engine's command")
    ap.add_argument("--opt", action="append", default=[], type=lambda s: tuple(s.split("=", 1)),
                    help="a UCI option of the opponent, NAME=VALUE")
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--first", type=int, default=1,
                    help="number of the first game (openings and colours follow the number, so a "
                         "match can be played in chunks: --first 1 --games 50, then --first 51)")
    ap.add_argument("--concurrency", type=int, default=1, help="games played at once")
    ap.add_argument("--movetime", type=int, default=100, help="ms per move (unless --tc)")
    ap.add_argument("--tc", help="clock: base seconds + increment, e.g. 5+0.05")
    ap.add_argument("--opponent-depth", type=int,
                    help="chess: the opponent also stops at this depth (on the clock of --tc). For "
                         "Stockfish with UCI_LimitStrength, whose move is the one it picks when "
                         "depth 1 + int(skill level) completes, a cap at that depth changes its "
                         "moves little and saves the time it would spend searching past it")
    ap.add_argument("--max-plies", type=int, default=400)
    ap.add_argument("--log", help="append each game's moves here")
    ap.add_argument("--tally", nargs="+", metavar="LOG",
                    help="play nothing: print the result of the games in these logs")
    args = ap.parse_args()
    if args.tally:
        print(summary(tally(args.tally)))
        return 0
    if not args.game or not args.opponent:
        ap.error("--game and --opponent are needed to play")
    args.opponent = args.opponent.split()

    play = play_chess if args.game == "chess" else play_xiangqi
    lock = threading.Lock()
    scores = []

    def one(number):
        g = number - 1
        qiyuan_first = g % 2 == 0
        score, reason, moves = play(args, g, qiyuan_first)
        colour = "first" if qiyuan_first else "second"
        with lock:
            scores.append(score)
            print(f"game {number}: qiyuan {colour} scores {score} ({reason}, {len(moves.split())} plies)",
                  flush=True)
            if args.log:
                with open(args.log, "a") as f:
                    f.write(f"{number} {colour} {score} {reason}: {moves}\n")

    numbers = range(args.first, args.first + args.games)
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.concurrency)) as pool:
        for future in [pool.submit(one, n) for n in numbers]:
            future.result()
    print(summary(scores))
    return 0


if __name__ == "__main__":
    sys.exit(main())
