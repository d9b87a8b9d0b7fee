#!/usr/bin/env bash
# `npm run setup`: what a fresh machine needs, then the locked npm dependencies.
# System packages: Chromium and, where the distribution has it, its headless shell (browser
# journeys run in it: e2e/support/service-process.ts), ffmpeg and poppler-utils (media, demo content),
# and the fonts receipt PDFs embed (DejaVu: Latin, Greek, Cyrillic, Arabic, Hebrew; Droid Sans
# Fallback: Chinese, Japanese, Korean), and PostgreSQL 15 or later, which the tests start on
# loopback for the scale-out profile's metadata (the S3-compatible server, s3rver, is an npm
# dependency).
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || missing+=(chromium)
command -v ffmpeg >/dev/null 2>&1 || missing+=(ffmpeg)
command -v pdftoppm >/dev/null 2>&1 || missing+=(poppler-utils)
[ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || missing+=(fonts-dejavu-core)
[ -f /usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf ] || missing+=(fonts-droid-fallback)
compgen -G "/usr/lib/postgresql/1[5-9]/bin/postgres" >/dev/null || missing+=(postgresql)
# Optional: installed where the distribution has it, else the journeys use the full browser.
shell=chromium-headless-shell
want_shell() { ! command -v $shell >/dev/null 2>&1 && apt-cache show $shell >/dev/null 2>&1; }
if command -v apt-get >/dev/null 2>&1 && { [ ${#missing[@]} -gt 0 ] || want_shell; }; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "Installing ${missing[*]} with apt-get"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  [ ${#missing[@]} -eq 0 ] || $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
  if want_shell; then $sudo apt-get install -y -qq $shell >/dev/null; fi
elif [ ${#missing[@]} -gt 0 ]; then
  echo "Please install: ${missing[*]} (Playwright's own Chromium also works for the tests)" >&2
fi

npm ci --no-audit --no-fund --json=false
# The lock's better-sqlite3 12 is the one Node 20 can load; on Node 24 it aborts when a statement
# is collected (node::ObjectWrap's cleanup hook, WiseLibs/better-sqlite3#1515), and 13 (Node-API,
# Node 22.14 or later) is the fix.
if [ "$(node -p 'process.versions.node.split(".")[0]')" -ge 24 ]; then
  npm install --no-save --no-audit --no-fund --json=false "better-sqlite3@^13"
fi
