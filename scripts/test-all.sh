#!/usr/bin/env bash
# The README's test command: sets up a fresh machine (Node 20 + npm only) and runs everything CI checks.
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
command -v tmux >/dev/null 2>&1 || need_apt+=(tmux)
command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ] || need_apt+=(chromium)
# The session-store and web host tests start a throwaway PostgreSQL server (initdb in a temporary folder).
compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || [ -n "${CODEAGENT_PG_BIN:-}" ] || need_apt+=(postgresql)
if [ ${#need_apt[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    echo "test-all: installing ${need_apt[*]} from Debian"
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_apt[@]}" >/dev/null
  else
    echo "test-all: missing ${need_apt[*]}; install them with apt-get (root needed)" >&2
    exit 1
  fi
fi

if [ "$(pnpm --version 2>/dev/null || true)" != "12.4.2" ]; then
  echo "test-all: installing pnpm 12.4.2"
  npm i -g pnpm@12.4.2 >/dev/null 2>&1
fi
export npm_config_nodedir="${npm_config_nodedir:-/usr}"
export CHROMIUM_PATH="${CHROMIUM_PATH:-/usr/bin/chromium}"

pnpm install --frozen-lockfile
rm -f packages/*/test-results.json apps/*/test-results.json
export CODEAGENT_TEST_REPORT=1
pnpm run check
node scripts/summarize-tests.mjs
