#!/usr/bin/env bash
# The one-node load curve (docs/benchmarks.md, "Server load"): for each binary and
# each number of games, a fresh `qiyuan serve` (SQLite in a new folder, or a new
# PostgreSQL schema) and `qiyuan bench-load` against it, one run after the other.
# A benchmark, not a test: run it by hand on a machine you can load.
#
#   scripts/bench-curve.sh sqlite|postgres "BIN1 BIN2" "1000 3000 9000"
#
# Environment: THINK_MS (900), RAMP (30), SETTLE (30: after the ramp, the longest wait for
# every pair to play before the measured part begins), DURATION (20), PORT (18090), PLIES (30: plies
# per game before the pair resigns and starts another), TIMELINE (1: print each second),
# LOADGEN (the load generator's binary: the last of BINS), LOADGEN_THREADS (its worker
# threads: 1, a single-threaded runtime, unless set; "" for one per core, as binaries
# before `--threads` need), PG (the PostgreSQL URL), LOG (the server's `--log` filter: warn),
# STAGGER (1: each pair's first game cut short, so that games end and start all through
# the run, `--stagger`), LOGDIR (a folder that keeps each run's server log), METRICS (a path prefix: each run's
# `/metrics` at its end is kept as PREFIX.GAMES.BINARY), CHAT (seconds: each game's players write a
# table chat line every CHAT seconds and hold a page socket each, `--chat-every`).
set -euo pipefail
store=$1
bins=($2)
games=($3)
think=${THINK_MS:-900}
ramp=${RAMP:-30}
settle=${SETTLE:-30}
duration=${DURATION:-20}
plies=${PLIES:-30}
port=${PORT:-18090}
loadgen=${LOADGEN:-${bins[-1]}}
threads=${LOADGEN_THREADS-1}
extra=()
if [ -n "$threads" ]; then
  extra=(--threads "$threads")
fi
if [ "$plies" != 30 ]; then
  extra+=(--plies "$plies")
fi
if [ -n "${TIMELINE:-}" ]; then
  extra+=(--timeline)
fi
if [ -n "${STAGGER:-}" ]; then
  extra+=(--stagger)
fi
if [ -n "${CHAT:-}" ]; then
  extra+=(--chat-every "$CHAT")
fi
pg=${PG:-postgres://root@127.0.0.1:5432/test}
log=${LOG:-warn}
ulimit -n 20000 || ulimit -n "$(ulimit -Hn)"
for n in "${games[@]}"; do
  for bin in "${bins[@]}"; do
    data=$(mktemp -d /tmp/qiyuan-curve.XXXXXX)
    db=()
    schema=curve_$(date +%s%N)
    if [ "$store" = postgres ]; then
      db=(--database "$pg?schema=$schema")
    fi
    nice -n 10 "$bin" serve --listen "127.0.0.1:$port" --data "$data" "${db[@]}" \
      --max-sockets-per-address 0 --guests-per-address-per-hour 0 --log "$log" \
      >"$data/server.log" 2>&1 &
    server=$!
    for _ in $(seq 100); do
      curl -sf "http://127.0.0.1:$port/api/health" >/dev/null && break
      sleep 0.2
    done
    echo "== $store, $n games, server $bin, $(uptime | sed 's/.*load/load/')"
    nice -n 10 "$loadgen" bench-load --url "http://127.0.0.1:$port" --games "$n" \
      --think-ms "$think" --ramp "$ramp" --settle "$settle" --duration "$duration" --server-pid "$server" \
      "${extra[@]}" 2>&1 |
      grep -v '^bench-load:' | grep -v 'simulated game failed' || true
    echo "   warnings in the server's log: $(grep -c WARN "$data/server.log" || true)," \
      "errors: $(grep -c ERROR "$data/server.log" || true); the most common:"
    grep -E 'WARN|ERROR' "$data/server.log" | sed -E 's/^[^ ]+ +//; s/[0-9]+/N/g' | cut -c1-100 |
      sort | uniq -c | sort -rn | head -2 || true
    # The store's group writer over the whole run (ramp included): batches, mean
    # batch, mean write time of a batch, and a table's mean wait for its commit.
    metrics=$(curl -sf "http://127.0.0.1:$port/metrics" || true)
    if [ -n "${METRICS:-}" ]; then
      printf '%s\n' "$metrics" >"$METRICS.$n.$(basename "$bin")"
    fi
    printf '%s\n' "$metrics" | awk '
      /^qiyuan_store_batch_size_count/ {b=$2} /^qiyuan_store_batch_size_sum/ {a=$2}
      /^qiyuan_store_batch_write_seconds_total/ {w=$2}
      /^qiyuan_store_commit_seconds_sum/ {cs=$2} /^qiyuan_store_commit_seconds_count/ {cc=$2}
      END { if (b > 0) printf "   store: %d batches, %.1f appends each, %.2f ms to write one; a commit waited %.2f ms on average\n", b, a/b, 1000*w/b, (cc > 0 ? 1000*cs/cc : 0) }' || true
    if [ "$store" = sqlite ] && [ -f "$data/qiyuan.db-wal" ]; then
      # Bounded by the checkpointer (64 MiB; docs/deploy.md, `data_dir`).
      echo "   SQLite files: $(du -m "$data/qiyuan.db" | cut -f1) MB database," \
        "$(du -m "$data/qiyuan.db-wal" | cut -f1) MB WAL"
    fi
    kill "$server"
    wait "$server" 2>/dev/null || true
    if [ -n "${LOGDIR:-}" ]; then
      mkdir -p "$LOGDIR"
      cp "$data/server.log" "$LOGDIR/$store-$n-$(basename "$(dirname "$bin")")-$(date +%H%M%S).log"
    fi
    rm -rf "$data"
    if [ "$store" = postgres ]; then
      # A run's rows left behind would be vacuumed and checkpointed during the next run.
      psql "$pg" -qc "DROP SCHEMA $schema CASCADE; CHECKPOINT" >/dev/null 2>&1 || true
    fi
  done
done
