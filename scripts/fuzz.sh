#!/usr/bin/env bash
# Runs every fuzz target (fuzz/, cargo-fuzz + libFuzzer) one after another and
# prints, per target, the executions, the speed and whether it crashed.
#
#   scripts/fuzz.sh [seconds] [target...]
#
# seconds   the most time each target runs (default 600)
# target    only these targets (default: all of `cargo fuzz list`)
#
# Environment:
#   FUZZ_RUNS      stop a target after this many executions (default 1000000;
#                  0: run each for the full `seconds`)
#   FUZZ_SANITIZER libFuzzer sanitizer (default none: the fuzzed code is safe Rust,
#                  so a panic or a failed property is the crash; `address` works too)
#   FUZZ_NICE      niceness of the fuzzing processes (default 10)
#   FUZZ_MAX_LEN   the largest input libFuzzer makes, in bytes (default 4096)
#
# The corpus grows in fuzz/corpus/TARGET (not committed), starting from the
# committed seeds in fuzz/seeds/TARGET. A crash leaves its input in
# fuzz/artifacts/TARGET/; reproduce it with
#   fuzz/target/x86_64-unknown-linux-gnu/release/TARGET FILE
# (after this script or `cargo fuzz build --sanitizer none` built it)
# then make it a regression (fuzz/regressions/TARGET/ and a test in the crate).
# Needs cargo-fuzz (`cargo install cargo-fuzz`); runs on stable Rust through
# RUSTC_BOOTSTRAP=1, which allows the nightly-only flags cargo-fuzz passes.
set -euo pipefail

cd "$(dirname "$0")/../fuzz"
seconds="${1:-600}"
shift || true
runs="${FUZZ_RUNS:-1000000}"
sanitizer="${FUZZ_SANITIZER:-none}"
nice_level="${FUZZ_NICE:-10}"
max_len="${FUZZ_MAX_LEN:-4096}"
export RUSTC_BOOTSTRAP=1 QIYUAN_SKIP_WEB=1

if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "cargo-fuzz is missing: cargo install cargo-fuzz" >&2
    exit 2
fi

if [ "$#" -gt 0 ]; then
    targets=("$@")
else
    mapfile -t targets < <(cargo fuzz list)
fi

nice -n "$nice_level" cargo fuzz build --sanitizer "$sanitizer"
bin="target/$(rustc -vV | sed -n 's/^host: //p')/release"

mkdir -p logs
summary=()
failed=0
for t in "${targets[@]}"; do
    mkdir -p "corpus/$t" "artifacts/$t"
    seeds=()
    [ -d "seeds/$t" ] && seeds=("seeds/$t")
    log="logs/$t.log"
    before=$(find "artifacts/$t" -type f | wc -l)
    echo "== $t (at most ${seconds}s, $runs runs)"
    status=0
    # The binary itself, not `cargo fuzz run`: that would rebuild the server crate
    # (its build script watches a path that may not exist) before every target.
    nice -n "$nice_level" "$bin/$t" "corpus/$t" "${seeds[@]}" \
        -max_total_time="$seconds" -runs="$runs" -max_len="$max_len" -timeout=10 \
        -print_final_stats=1 -artifact_prefix="artifacts/$t/" >"$log" 2>&1 || status=$?
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    secs=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1 | cut -d' ' -f2)
    after=$(find "artifacts/$t" -type f | wc -l)
    crashes=$((after - before))
    if [ "$crashes" -gt 0 ]; then
        result="CRASH ($crashes new in fuzz/artifacts/$t; see fuzz/$log)"
        failed=1
    elif [ "$status" -ne 0 ]; then
        result="FAILED (exit $status, no crash input: interrupted? see fuzz/$log)"
        failed=1
    else
        result="ok"
    fi
    summary+=("$(printf '%-18s %12s %9s %7s  %s' "$t" "${execs:-?}" "${secs:-?}" "${cov:-?}" "$result")")
done

echo
printf '%-18s %12s %9s %7s  %s\n' target executions exec/s cov result
printf '%s\n' "${summary[@]}"
exit "$failed"
