#!/usr/bin/env bash
# kill -9 of `soundpack publish` at increasing points of its run. After each kill: the catalog
# passes integrity_check and foreign_key_check, the version is either fully present or absent
# from catalog and index, and rerunning publish completes it (verify then finds no drift).
#   scripts/check/reliability/kill-publish.sh [POINTS]   (default 30)
set -euo pipefail
cd "$(dirname "$0")/../../.."
root=$(pwd)
points=${1:-30}
# SOUNDPACK_BIN picks the binary (scripts/test.sh passes the release build it made); else a release build.
if [ -n "${SOUNDPACK_BIN:-}" ]; then bin=$SOUNDPACK_BIN; else swift build -c release --product soundpack >/dev/null; bin=$root/.build/release/soundpack; fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

fresh() {
  rm -rf "$work/p"
  mkdir -p "$work/p/packs"
  cp -r packs/wechat "$work/p/packs/wechat"
}

# How long one publish takes here, to spread the kill points over it.
fresh
start=$(date +%s%N)
(cd "$work/p" && SOUNDPACK_CATALOG="$work/p/catalog.sqlite" "$bin" publish >/dev/null)
duration_us=$(( ($(date +%s%N) - start) / 1000 ))
echo "one publish takes ${duration_us} us; killing at $points points from 0 to 120 % of it"

present=0 absent=0 finished=0
for i in $(seq 0 $((points - 1))); do
  fresh
  delay_us=$(( duration_us * 12 * i / (10 * (points - 1)) ))
  (cd "$work/p" && exec env SOUNDPACK_CATALOG="$work/p/catalog.sqlite" "$bin" publish >/dev/null 2>&1) &
  pid=$!
  sleep "$(printf '0.%06d' "$delay_us")"
  if kill -9 "$pid" 2>/dev/null; then wait "$pid" 2>/dev/null || true; killed=1; else wait "$pid" || true; killed=0; fi
  state=$(python3 scripts/check/reliability/check-store.py "$work/p/catalog.sqlite" "$work/p/dist" wechat 1.0.0) || {
    echo "point $i (${delay_us} us): $state"; exit 1; }
  if [ $killed -eq 0 ]; then finished=$((finished + 1)); elif [ "$state" = present ]; then present=$((present + 1)); else absent=$((absent + 1)); fi
  # A rerun completes whatever the kill interrupted.
  (cd "$work/p" && SOUNDPACK_CATALOG="$work/p/catalog.sqlite" "$bin" publish >/dev/null) || { echo "point $i: rerun of publish failed"; exit 1; }
  (cd "$work/p" && SOUNDPACK_CATALOG="$work/p/catalog.sqlite" "$bin" verify >/dev/null) || { echo "point $i: verify found drift after the rerun"; exit 1; }
  [ "$(python3 scripts/check/reliability/check-store.py "$work/p/catalog.sqlite" "$work/p/dist" wechat 1.0.0)" = present ] || { echo "point $i: not present after rerun"; exit 1; }
done
echo "kill -9 at $points points: $absent left the version absent, $present left it fully present, $finished finished before the kill; every rerun completed it and verify found no drift"
