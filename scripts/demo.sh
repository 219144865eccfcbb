#!/usr/bin/env bash
# The README's main-job command: sets up a fresh machine (Node 20 + npm only), builds, and runs the
# reference CLI host against the built-in scripted demo model (no network, no keys).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$(pnpm --version 2>/dev/null || true)" != "12.4.2" ]; then
  echo "demo: installing pnpm 12.4.2"
  npm i -g pnpm@12.4.2 >/dev/null 2>&1
fi
export npm_config_nodedir="${npm_config_nodedir:-/usr}"
pnpm install --frozen-lockfile
pnpm exec turbo run build --output-logs=errors-only
node apps/cli/dist/bin.js demo "$@"
