#!/usr/bin/env bash
# End-to-end tests of the web client in a real browser against the real server.
# Needs Debian's chromium and CJK fonts (apt-get install chromium fonts-noto-cjk)
# and a built qiyuan binary (QIYUAN_BIN, else target/release/qiyuan or
# target/debug/qiyuan). Screenshots land in test-artifacts/.
set -euo pipefail
cd "$(dirname "$0")/../web"
[ -d node_modules ] || npm ci --no-audit --no-fund
if [ ! -x "${CHROMIUM:-/usr/bin/chromium}" ]; then
  echo "e2e: no chromium at ${CHROMIUM:-/usr/bin/chromium} (apt-get install chromium fonts-noto-cjk)" >&2
  exit 1
fi
exec npm run e2e
