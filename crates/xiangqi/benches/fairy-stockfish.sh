#!/usr/bin/env bash
# Times perft(5) of the start position with our binary and with fairy-stockfish
# (Debian: apt-get install fairy-stockfish; it lands in /usr/games), and prints
# both in nodes per second. Usage: QIYUAN=path/to/qiyuan bash fairy-stockfish.sh
set -eu
QIYUAN=${QIYUAN:-target/release/qiyuan}
FS=${FAIRY_STOCKFISH:-$(command -v fairy-stockfish || echo /usr/games/fairy-stockfish)}
DEPTH=${DEPTH:-5}
now() { date +%s.%N; }

t0=$(now)
ours=$("$QIYUAN" perft --game xiangqi --depth "$DEPTH" 2>/dev/null | grep -Eo '[0-9]+' | tail -1)
t1=$(now)
echo "qiyuan:          $ours nodes in $(echo "$t1 - $t0" | bc -l | cut -c1-6) s, $(echo "$ours / ($t1 - $t0) / 1000000" | bc -l | cut -c1-6) M nodes/s"

if [ -x "$FS" ]; then
  t0=$(now)
  fs=$(printf 'uci\nsetoption name UCI_Variant value xiangqi\nposition startpos\ngo perft %s\nquit\n' "$DEPTH" \
       | "$FS" 2>/dev/null | grep -i "nodes searched" | grep -Eo '[0-9]+' | tail -1)
  t1=$(now)
  echo "fairy-stockfish: $fs nodes in $(echo "$t1 - $t0" | bc -l | cut -c1-6) s, $(echo "$fs / ($t1 - $t0) / 1000000" | bc -l | cut -c1-6) M nodes/s"
else
  echo "fairy-stockfish not installed ($FS)"
fi
