#!/usr/bin/env bash
# `bash scripts/test-node.sh <major> [vitest args]` (`npm run test:node24` is the CI's): the unit
# and service tests on another Node release line than the machine's, e.g. the current LTS. That
# Node comes from the npm registry (the platform's `node-<os>-<arch>` package, which also ships
# the headers node-gyp needs), and the tests run in a copy of the tree with its own `npm ci` made
# by that Node, so native addons (better-sqlite3) are built for its ABI and the machine's
# node_modules is never touched.
set -euo pipefail
cd "$(dirname "$0")/.."
major="${1:?usage: test-node.sh <major> [vitest args]}"
shift
repo=$PWD
work="${TMPDIR:-/tmp}/consign-node$major"
pkg="node-$(node -p process.platform)-$(node -p process.arch)"

mkdir -p "$work/runtime"
npm install --prefix "$work/runtime" --no-save --no-package-lock --no-audit --no-fund \
  --json=false --loglevel=error "$pkg@$major"
home="$work/runtime/node_modules/$pkg"
export PATH="$home/bin:$PATH"
export npm_config_nodedir="$home"
echo "Node $(node --version) from $pkg"

# The tree as it is (committed or not), without anything built or installed; its setup finds
# the system packages already there.
rm -rf "$work/repo"
mkdir -p "$work/repo"
tar -C "$repo" -c --exclude=./node_modules --exclude=./dist --exclude=./data \
  --exclude=./test-results --exclude=./playwright-report --exclude=./.git . | tar -C "$work/repo" -x
cd "$work/repo"
bash scripts/setup.sh
node -e 'require("better-sqlite3")(":memory:").close()'
exec node_modules/.bin/vitest run "$@"
