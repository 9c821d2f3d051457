#!/usr/bin/env bash
# 4 processes publish the same 50 versions (5 packs x 10 versions), each in its own random order,
# into one catalog and store at once. Every publish must succeed, find nothing to do, or be
# refused by the contract (not newer than a published version); no "database is locked", no
# environment failure, no version twice, and index.json must match the catalog (verify).
#   scripts/check/reliability/concurrent-publish.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
root=$(pwd)
# SOUNDPACK_BIN picks the binary (scripts/test.sh passes the release build it made); else a release build.
if [ -n "${SOUNDPACK_BIN:-}" ]; then bin=$SOUNDPACK_BIN; else swift build -c release --product soundpack >/dev/null; bin=$root/.build/release/soundpack; fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/packs"
for p in 1 2 3 4 5; do
  for v in 0 1 2 3 4 5 6 7 8 9; do
    dir=$work/packs/load$p-$v
    cp -r packs/wechat "$dir"
    sed -i "s/\"id\" : \"wechat\"/\"id\" : \"load$p\"/; s/\"version\" : \"1.0.0\"/\"version\" : \"1.0.$v\"/" "$dir/pack.json"
  done
done
export SOUNDPACK_CATALOG=$work/catalog.sqlite SOUNDPACK_STORE=$work/dist

worker() {
  local n=$1
  ls "$work/packs" | shuf --random-source=<(yes "$n") | while read -r dir; do
    set +e
    out=$("$bin" publish "$work/packs/$dir" 2>&1)
    code=$?
    set -e
    echo "$code $dir $out"
  done >"$work/worker-$n.log"
}
start=$(date +%s%N)
for n in 1 2 3 4; do worker "$n" & done
wait
elapsed_ms=$(( ($(date +%s%N) - start) / 1000000 ))

cat "$work"/worker-*.log >"$work/all.log"
calls=$(wc -l <"$work/all.log")
published=$(grep -c ': published ' "$work/all.log" || true)
unchanged=$(grep -c 'nothing to do' "$work/all.log" || true)
older=$(grep -c 'is not newer than the published' "$work/all.log" || true)
if grep -q 'database is locked' "$work/all.log"; then echo "FAIL: database is locked"; exit 1; fi
unexplained=$(awk '$1 != 0 && $0 !~ /is not newer than the published/ && ++shown <= 5' "$work/all.log")
[ -z "$unexplained" ] || { echo "FAIL: outcomes outside the contract:"; echo "$unexplained"; exit 1; }
[ $((published + unchanged + older)) -eq "$calls" ] || { echo "FAIL: $calls calls but $published + $unchanged + $older outcomes"; exit 1; }
rows=$(python3 -c "import sqlite3,sys; db=sqlite3.connect(sys.argv[1]); print(db.execute('SELECT COUNT(*) FROM versions WHERE published_at IS NOT NULL').fetchone()[0]); assert db.execute('PRAGMA integrity_check').fetchone()[0]=='ok'" "$SOUNDPACK_CATALOG")
[ "$rows" -eq "$published" ] || { echo "FAIL: $published publishes reported but $rows published rows"; exit 1; }
"$bin" verify >"$work/verify.log" || { echo "FAIL: verify found drift"; cat "$work/verify.log"; exit 1; }
echo "4 processes x 50 publish calls in ${elapsed_ms} ms: $published published, $unchanged already published (nothing to do), $older refused as not newer; no database-is-locked, $rows published rows (no duplicates), verify: $(tail -1 "$work/verify.log" | sed 's/^[^:]*: //')"
