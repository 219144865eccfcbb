#!/usr/bin/env bash
# `npm run web`: sets up a fresh machine (Node 20 + npm only), builds, and starts the reference web host on
# 127.0.0.1; it prints the URL with the per-run token. With no CODEAGENT_* provider set it runs the scripted demo
# model in a temporary copy of the demo workspace. Arguments go to the server (--cwd, --port, --data-dir, --demo).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$(pnpm --version 2>/dev/null || true)" != "12.4.2" ]; then
  echo "web: installing pnpm 12.4.2"
  npm i -g pnpm@12.4.2 >/dev/null 2>&1
fi
# better-sqlite3 builds from source against the installed Node headers.
export npm_config_nodedir="${npm_config_nodedir:-/usr}"
pnpm install --frozen-lockfile
pnpm exec turbo run build --filter=@codeagent/web... --output-logs=errors-only
cwd="${CODEAGENT_CWD:-${INIT_CWD:-$PWD}}"
exec node apps/web/dist/server/bin.js --cwd "$cwd" "$@"
