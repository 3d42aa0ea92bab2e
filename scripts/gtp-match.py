#!/usr/bin/env python3
"""A GTP match between two engines on one board size, colours alternating.

Each game starts both engines fresh (clear_board, boardsize, komi), relays genmove and
play until two passes in a row, a resignation or a move limit, then counts the final
position with a scorer engine (GNU Go's final_score under Chinese rules by default).
`{seed}` in a command is replaced by the game's number, so that deterministic engines
play different games. Prints one line per game and the first engine's score, win rate
and Elo difference with its 95% interval.

Example (the top Go level against GNU Go 3.8 level 10 on 9x9):
  nice -n 10 scripts/gtp-match.py --games 100 --size 9 \\
    --a 'target/release/qiyuan engine --game go --level 8 --seed {seed}' \\
    --b '/usr/games/gnugo --mode gtp --chinese-rules --level 10 --seed {seed}'
"""

import argparse
import math
import shlex
import subprocess
import sys
import time


class Gtp:
    def __init__(self, command):
        self.command = command
        self.proc = subprocess.Popen(
            shlex.split(command),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )

    def ask(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        lines = []
        while True:
            out = self.proc.stdout.readline()
            if out == "":
                raise RuntimeError(f"{self.command!r} closed after {line!r}")
            if out.strip() == "" and lines:
                break
            if out.strip() == "":
                continue
            lines.append(out.rstrip("\n"))
        text = "\n".join(lines)
        if text.startswith("?"):
            raise ValueError(f"{self.command!r} refused {line!r}: {text}")
        return text[1:].strip()

    def close(self):
        try:
            self.ask("quit")
        except Exception:
            pass
        self.proc.wait(timeout=10)


def elo(p):
    p = min(max(p, 1e-3), 1 - 1e-3)
    return -400 * math.log10(1 / p - 1)


def play_game(cmd_black, cmd_white, scorer_cmd, size, komi, max_moves, seed):
    black = Gtp(cmd_black.replace("{seed}", str(seed)))
    white = Gtp(cmd_white.replace("{seed}", str(seed)))
    times = {"b": 0.0, "w": 0.0}
    moves = []
    try:
        for e in (black, white):
            e.ask(f"boardsize {size}")
            e.ask("clear_board")
            e.ask(f"komi {komi}")
        engines = {"b": (black, white), "w": (white, black)}
        color, passes, result = "b", 0, None
        while len(moves) < max_moves:
            mover, other = engines[color]
            t = time.time()
            mv = mover.ask(f"genmove {color}").lower()
            times[color] += time.time() - t
            if mv == "resign":
                result = ("w" if color == "b" else "b", f"{'W' if color == 'b' else 'B'}+R")
                break
            try:
                other.ask(f"play {color} {mv}")
            except ValueError:
                result = ("w" if color == "b" else "b", f"illegal {mv}")
                break
            moves.append((color, mv))
            passes = passes + 1 if mv == "pass" else 0
            if passes >= 2:
                break
            color = "w" if color == "b" else "b"
        if result is None:
            scorer = Gtp(scorer_cmd)
            scorer.ask(f"boardsize {size}")
            scorer.ask("clear_board")
            scorer.ask(f"komi {komi}")
            for c, mv in moves:
                scorer.ask(f"play {c} {mv}")
            score = scorer.ask("final_score")
            scorer.close()
            winner = score[0].lower() if score[0] in "BW" else None
            result = (winner, score)
    finally:
        black.close()
        white.close()
    return result, len(moves), times


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--a", required=True, help="first engine's command")
    ap.add_argument("--b", required=True, help="second engine's command")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--size", type=int, default=9)
    ap.add_argument("--komi", type=float, default=7.5)
    ap.add_argument("--first-seed", type=int, default=1)
    ap.add_argument("--scorer", default="/usr/games/gnugo --mode gtp --chinese-rules")
    ap.add_argument(
        "--max-seconds",
        type=float,
        default=0,
        help="start no game after this many seconds (0: no limit); the summary counts the games played",
    )
    args = ap.parse_args()
    max_moves = 3 * args.size * args.size
    a_points = 0.0
    cpu = {"a": 0.0, "b": 0.0}
    started = time.time()
    played = 0
    for g in range(args.games):
        if args.max_seconds and time.time() - started > args.max_seconds:
            break
        seed = args.first_seed + g
        a_black = g % 2 == 0
        cb, cw = (args.a, args.b) if a_black else (args.b, args.a)
        (winner, text), n, times = play_game(cb, cw, args.scorer, args.size, args.komi, max_moves, seed)
        a_color = "b" if a_black else "w"
        point = 0.5 if winner is None else (1.0 if winner == a_color else 0.0)
        a_points += point
        cpu["a"] += times[a_color]
        cpu["b"] += times["w" if a_black else "b"]
        played = g + 1
        p = a_points / played
        print(
            f"game {played} seed {seed}: A {'black' if a_black else 'white'}, {text}, {n} moves;"
            f" A {a_points:g}/{played} ({100 * p:.0f}%)",
            flush=True,
        )
    n = max(played, 1)
    p = a_points / n
    se = math.sqrt(max(p * (1 - p), 0.25 / n) / n)
    lo, hi = elo(max(p - 1.96 * se, 0)), elo(min(p + 1.96 * se, 1))
    print(
        f"A scored {a_points:g}/{played} = {100 * p:.1f}% +- {196 * se:.1f}%:"
        f" Elo {elo(p):+.0f} (95% {lo:+.0f} .. {hi:+.0f});"
        f" thinking wall time A {cpu['a']:.0f}s, B {cpu['b']:.0f}s"
    )


if __name__ == "__main__":
    sys.exit(main())
