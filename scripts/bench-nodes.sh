#!/usr/bin/env bash
# bench-load totals for several nodes (docs/benchmarks.md, "Several nodes"): for
# each configuration, fresh `qiyuan serve` nodes on one new PostgreSQL schema and
# one Redis prefix, and one `qiyuan bench-load` spreading its sockets over them
# round robin; one run after the other. A benchmark, not a test: run it by hand.
#
#   scripts/bench-nodes.sh BIN "0 1 2 3" "200 1000"
#
# The first list is the node counts (0: one node without Redis). Environment:
# THINK_MS (1000), RAMP (10), DURATION (20), PORT (18701: nodes on PORT, PORT+1,
# ...), PG (the PostgreSQL URL), REDIS (redis://127.0.0.1:6379).
set -euo pipefail
bin=$1
counts=($2)
games=($3)
think=${THINK_MS:-1000}
ramp=${RAMP:-10}
duration=${DURATION:-20}
port=${PORT:-18701}
pg=${PG:-postgres://root@127.0.0.1:5432/test}
redis=${REDIS:-redis://127.0.0.1:6379}
ulimit -n 20000 || ulimit -n "$(ulimit -Hn)"
for g in "${games[@]}"; do
  for n in "${counts[@]}"; do
    data=$(mktemp -d /tmp/qiyuan-nodes.XXXXXX)
    schema="nodes_$(date +%s%N)"
    pids=()
    urls=()
    for i in $(seq 1 $((n > 0 ? n : 1))); do
      p=$((port + i - 1))
      cluster=()
      if [ "$n" -gt 0 ]; then
        cluster=(--redis "$redis" --node-id "n$i" --redis-prefix "$schema:")
      fi
      "$bin" serve --listen "127.0.0.1:$p" --data "$data" \
        --database "$pg?schema=$schema" "${cluster[@]}" \
        --max-sockets-per-address 0 --guests-per-address-per-hour 0 --log warn \
        >"$data/node$i.log" 2>&1 &
      pids+=($!)
      urls+=(--url "http://127.0.0.1:$p")
      for _ in $(seq 100); do
        curl -sf "http://127.0.0.1:$p/api/health" >/dev/null && break
        sleep 0.2
      done
    done
    echo "== $n nodes (0: no Redis), $g games, $(uptime | sed 's/.*load/load/')"
    "$bin" bench-load "${urls[@]}" --games "$g" --think-ms "$think" --ramp "$ramp" \
      --duration "$duration" 2>&1 |
      grep -v '^bench-load:' | grep -v 'simulated game failed' || true
    echo "   after: $(uptime | sed 's/.*load/load/')"
    for i in $(seq 1 ${#pids[@]}); do
      echo "   node $i: warnings $(grep -c WARN "$data/node$i.log" || true)," \
        "errors $(grep -c ERROR "$data/node$i.log" || true)," \
        "leases lost $(grep -c 'lease lost' "$data/node$i.log" || true)"
    done
    kill "${pids[@]}"
    wait "${pids[@]}" 2>/dev/null || true
    rm -rf "$data"
  done
done
