#!/usr/bin/env bash
# Renders `soundpack report` of the given packs (default packs/wechat) in headless Chromium to a
# PNG, to look at with your own eyes. The PNG is written outside the repository; never commit it.
#   scripts/render-report.sh [OUT.png] [DIR...]
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-/tmp/soundpack-report.png}
shift || true
packs=("${@:-packs/wechat}")
command -v chromium >/dev/null || { echo "error: chromium is not installed (apt-get install chromium)" >&2; exit 3; }
swift build --product soundpack >/dev/null
html=$(mktemp --suffix=.html)
trap 'rm -f "$html"' EXIT
.build/debug/soundpack report "${packs[@]}" -o "$html" >/dev/null
chromium --headless=new --no-sandbox --disable-gpu --hide-scrollbars --window-size=1400,3600 \
  --screenshot="$out" "file://$html" >/dev/null 2>&1
echo "wrote $out"
