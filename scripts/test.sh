#!/usr/bin/env bash
# The whole test suite: every crate's tests (rules, table, server against SQLite and
# PostgreSQL, command-line checks against ../shared/data), then the browser tests
# against the real server. Needs PostgreSQL on 127.0.0.1:5432 and Debian's chromium
# and gnugo; .ci/run installs and starts them on a fresh machine.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== cargo test (workspace)"
cargo test --workspace

if [ -f web/package.json ] && grep -q '"e2e"' web/package.json; then
  echo "== browser tests (chromium + playwright-core)"
  [ -d web/node_modules ] || (cd web && npm ci --no-audit --no-fund)
  echo "== web unit tests"
  npm --prefix web test
  QIYUAN_BIN="${QIYUAN_BIN:-$PWD/target/debug/qiyuan}" npm --prefix web run e2e
fi
