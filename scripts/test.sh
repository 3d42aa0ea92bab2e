#!/usr/bin/env bash
# The whole test suite: every crate's tests (rules, table, server against SQLite and
# PostgreSQL, command-line checks against ../shared/data), then the browser tests
# against the real server. It installs what it needs (Debian's chromium, gnugo,
# engines; a Python venv) and starts PostgreSQL and Redis if they are down: as
# root on Debian, a fresh machine needs nothing else.
set -euo pipefail
cd "$(dirname "$0")/.."

# What the tests need, installed or started when missing (so that on a fresh
# machine this one command is all the set-up): services, Debian packages, and
# the Python packages in a venv of the repository's own.
# Services the tests use (the machine normally starts them; start any that are down).
if ! pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; then
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql)" main start
fi
if ! redis-cli -h 127.0.0.1 ping >/dev/null 2>&1; then
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
    --dir /var/lib/redis --logfile /var/log/redis/ci.log
fi

# Debian packages: a real browser for the web tests, GNU Go for the Go scoring test,
# CJK fonts for screenshots, the engines our engines and protocols are tested against.
need=()
for pkg in chromium gnugo fonts-noto-cjk stockfish fairy-stockfish sqlite3 postgresql-client; do
  dpkg -s "$pkg" >/dev/null 2>&1 || need+=("$pkg")
done
if [ ${#need[@]} -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${need[@]}" >/dev/null
fi

# Python packages the tests use (python-chess, sgfmill, prometheus-client, berserk), in a venv of the repository's
# own; tests find it through QIYUAN_PYTHON.
[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/pip install -q --disable-pip-version-check chess sgfmill prometheus-client berserk
# lichess-bot's own requirements: the lichess-bot test (crates/server/tests/it/lichess_bot.rs)
# runs its unchanged copy beside the repository (../shared/vendor/lichess-bot; it is not on PyPI).
if [ -f ../shared/vendor/lichess-bot/requirements.txt ]; then
  .venv/bin/pip install -q --disable-pip-version-check -r ../shared/vendor/lichess-bot/requirements.txt
fi
export QIYUAN_PYTHON="${QIYUAN_PYTHON:-$PWD/.venv/bin/python}"

echo "== cargo test (workspace)"
cargo test --workspace

if [ -f web/package.json ] && grep -q '"e2e"' web/package.json; then
  echo "== browser tests (chromium + playwright-core)"
  [ -d web/node_modules ] || (cd web && npm ci --no-audit --no-fund)
  echo "== web unit tests"
  npm --prefix web test
  cargo build -p qiyuan-server --example toy_hall
  QIYUAN_BIN="${QIYUAN_BIN:-$PWD/target/debug/qiyuan}" npm --prefix web run e2e
fi
