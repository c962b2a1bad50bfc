#!/usr/bin/env bash
# Renders the sample corpus's batch report and takes a screenshot of it in headless Chromium,
# to look at what an analyst sees (the charts' axes and labels). Not part of `npm test`: CI
# machines may lack Chromium (test/cli/report-html.test.ts checks the charts' marks there).
#   bench/report-screenshot.sh [out-dir]      (default: /tmp/parley-report-screenshot)
# Needs Chromium (CHROMIUM, default /usr/bin/chromium). The store is a fresh one in out-dir.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-/tmp/parley-report-screenshot}"
chromium="${CHROMIUM:-/usr/bin/chromium}"
mkdir -p "$out"
PARLEY_DATA_DIR="$out/data" node packages/cli/bin/parley.mjs analyze-corpus corpora/sudan-drc-2024 --graph sample --out "$out" --progress none
profile="$(mktemp -d)"
trap 'rm -rf "$profile"' EXIT
"$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking \
  --disable-component-update --disable-sync --user-data-dir="$profile" --hide-scrollbars \
  --screenshot="$out/report.png" --window-size=1400,"${HEIGHT:-9000}" "file://$(cd "$out" && pwd)/report.html"
echo "screenshot: $out/report.png"
