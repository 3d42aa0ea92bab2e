#!/usr/bin/env bash
# Go engine speed, as CPU time (user+sys, from /usr/bin/time), so the machine's load
# changes the wall time but hardly the figures:
#   qiyuan: playouts per second, one search of 20000 playouts from the empty board
#           (tree walk + heavy playout + RAVE update per playout);
#   GNU Go: moves per second over the first M moves of a game against itself.
# Usage: scripts/go-speed.sh [path/to/qiyuan]   (default target/release/qiyuan)
set -euo pipefail
QIYUAN="${1:-target/release/qiyuan}"
GNUGO=/usr/games/gnugo
cpu() { # command... ; prints user+sys seconds
  local out
  out=$( { /usr/bin/time -f "%U %S" "$@" >/dev/null; } 2>&1 | tail -1)
  awk '{print $1 + $2}' <<<"$out"
}
for size in 9 19; do
  n=20000
  out=$(printf 'boardsize %s\nclear_board\ngenmove b\nquit\n' "$size" |
    { /usr/bin/time -f "cpu %U %S" "$QIYUAN" engine --game go --level 8 --playouts "$n" \
      --seed 1 --verbose >/dev/null; } 2>&1)
  # The search may stop at the level's time cap on a loaded machine: count what ran.
  ran=$(grep -o '[0-9]* playouts' <<<"$out" | head -1 | cut -d' ' -f1)
  secs=$(awk '/^cpu/ {print $2 + $3}' <<<"$out")
  echo "qiyuan ${size}x${size}: $ran playouts in ${secs}s CPU = $(awk -v n="$ran" -v s="$secs" 'BEGIN{printf "%.0f", n/s}') playouts/s"
done
for size in 9 19; do
  moves=$([ "$size" = 9 ] && echo 30 || echo 10)
  for level in 1 5 10; do
    cmds=$( { echo "boardsize $size"; echo clear_board;
      for ((i = 0; i < moves; i++)); do [ $((i % 2)) = 0 ] && echo "genmove b" || echo "genmove w"; done;
      echo quit; } )
    secs=$(cpu "$GNUGO" --mode gtp --chinese-rules --level "$level" --seed 1 <<<"$cmds")
    echo "gnugo ${size}x${size} level $level: $moves moves in ${secs}s CPU = $(awk -v n=$moves -v s="$secs" 'BEGIN{printf "%.2f", n/s}') moves/s"
  done
done
