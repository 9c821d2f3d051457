#!/usr/bin/env bash
# Many CI runners publishing at once to a PostgreSQL catalog and an S3 store (OpenStack Swift's
# s3api), each runner a process with its own working copy:
#  1. 8 runners publish their own pack (5 versions each) and the same shared pack@versions, in
#     their own random orders; the PostgreSQL server is restarted once mid-run (after 20 calls). Every call must
#     publish, find nothing to do (or the version already in the store, recorded from it), be refused as not newer, or fail on the lost connection (exit
#     3, nothing recorded); a rerun of every call then completes the lot. No version is recorded
#     twice, index.json lists exactly the catalog's versions (checked from outside, with Python's
#     own SigV4 requests), and verify is clean.
#  2. kill -9 of publish at 20 points of its run: nothing half-published is ever listed, and a
#     rerun completes it.
# Uses the servers scripts/test.sh started (SOUNDPACK_TEST_POSTGRES, SOUNDPACK_PG_DIR,
# SOUNDPACK_TEST_S3_ENDPOINT, AWS_*); starts its own when they are not set.
#   scripts/check/reliability/team-publish.sh [KILL_POINTS]   (default 20)
set -euo pipefail
cd "$(dirname "$0")/../../.."
root=$(pwd)
points=${1:-20}
if [ -n "${SOUNDPACK_BIN:-}" ]; then bin=$SOUNDPACK_BIN; else swift build -c release --product soundpack >/dev/null; bin=$root/.build/release/soundpack; fi
work=$(mktemp -d)
cleanup="rm -rf '$work'"
if [ -z "${SOUNDPACK_TEST_POSTGRES:-}" ]; then
  eval "$(scripts/servers/postgres.sh start)"; cleanup="$cleanup; scripts/servers/postgres.sh stop '$SOUNDPACK_PG_DIR'"
fi
if [ -z "${SOUNDPACK_TEST_S3_ENDPOINT:-}" ]; then
  eval "$(scripts/servers/swift.sh start)"; cleanup="$cleanup; scripts/servers/swift.sh stop '$SOUNDPACK_SWIFT_DIR'"
fi
trap "$cleanup" EXIT

# A fresh database and bucket for each phase.
fresh_database() {
  local name="team_$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')"
  psql "$SOUNDPACK_TEST_POSTGRES" -qc "CREATE DATABASE $name" >/dev/null
  python3 -c 'import sys, urllib.parse as u; p = u.urlsplit(sys.argv[1]); print(u.urlunsplit(p._replace(path="/" + sys.argv[2])))' \
    "$SOUNDPACK_TEST_POSTGRES" "$name"
}
fresh_bucket() {
  local bucket="team-$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')"
  python3 scripts/check/reliability/check-s3-store.py --create-bucket "$SOUNDPACK_TEST_S3_ENDPOINT" "$bucket"
  echo "$bucket"
}
# A pack folder: the demo pack under another id and version.
make_pack() {  # DIR ID VERSION
  cp -r packs/wechat "$1"
  sed -i "s/\"id\" : \"wechat\"/\"id\" : \"$2\"/; s/\"version\" : \"1.0.0\"/\"version\" : \"$3\"/" "$1/pack.json"
}

# ---- 1. eight runners at once, with a PostgreSQL restart ----
catalog=$(fresh_database)
bucket=$(fresh_bucket)
store="s3://$bucket/voice"
export SOUNDPACK_CATALOG=$catalog SOUNDPACK_STORE=$store AWS_ENDPOINT_URL_S3=$SOUNDPACK_TEST_S3_ENDPOINT
for n in 1 2 3 4 5 6 7 8; do
  mkdir -p "$work/runner$n/packs"
  for v in 0 1 2 3 4; do
    make_pack "$work/runner$n/packs/runner$n-$v" "runner$n" "1.0.$v"
    make_pack "$work/runner$n/packs/shared-$v" shared "1.0.$v"
  done
done
runner() {
  local n=$1
  (cd "$work/runner$n" && ls packs | shuf --random-source=<(yes "$n") | while read -r dir; do
    set +e
    out=$("$bin" publish "packs/$dir" 2>&1)
    code=$?
    set -e
    echo "$code $dir $(echo "$out" | tr '\n' ' ')"
  done) >"$work/runner-$n.log"
}
start=$(date +%s%N)
for n in 1 2 3 4 5 6 7 8; do runner "$n" & done
# The restart lands mid-run: once a quarter of the 80 calls have finished (or after
# SOUNDPACK_RESTART_AFTER seconds, 60 by default, whichever comes first).
deadline=$(( $(date +%s) + ${SOUNDPACK_RESTART_AFTER:-60} ))
while [ "$(cat "$work"/runner-*.log 2>/dev/null | wc -l)" -lt 20 ] && [ "$(date +%s)" -lt "$deadline" ]; do sleep 0.05; done
scripts/servers/postgres.sh restart "$SOUNDPACK_PG_DIR"
restarted_ms=$(( ($(date +%s%N) - start) / 1000000 ))
wait
elapsed_ms=$(( ($(date +%s%N) - start) / 1000000 ))
cat "$work"/runner-*.log >"$work/all.log"
calls=$(wc -l <"$work/all.log")
# A call whose catalog connection was cut after its commit published all the same, and says so
# (exit 3, "index.json was not rewritten after publishing …"; the next publish rewrites it).
published=$(grep -c -E ': published |not rewritten after publishing' "$work/all.log" || true)
unchanged=$(grep -c -E 'nothing to do|is already in the store .* with this content' "$work/all.log" || true)
older=$(grep -c 'is not newer than the published' "$work/all.log" || true)
lost=$(awk '$1 == 3 && $0 !~ /not rewritten after publishing/' "$work/all.log" | wc -l)
unexplained=$(awk '$1 != 0 && $1 != 3 && $0 !~ /is not newer than the published/ && ++shown <= 5' "$work/all.log")
[ -z "$unexplained" ] || { echo "FAIL: outcomes outside the contract:"; echo "$unexplained"; exit 1; }
bad3=$(awk '$1 == 3 && $0 !~ /(PostgreSQL|connection|server|catalog)/ && ++shown <= 3' "$work/all.log")
[ -z "$bad3" ] || { echo "FAIL: exit 3 not caused by the restart:"; echo "$bad3"; exit 1; }
[ $((published + unchanged + older + lost)) -eq "$calls" ] || { echo "FAIL: $calls calls but $published + $unchanged + $older + $lost outcomes"; exit 1; }
state=$(python3 scripts/check/reliability/check-s3-store.py "$SOUNDPACK_TEST_S3_ENDPOINT" "$bucket" voice "$catalog") || { echo "FAIL after the run: $state"; exit 1; }
# The rerun: every runner runs all its calls again, one runner at a time.
: >"$work/rerun.log"
for n in 1 2 3 4 5 6 7 8; do
  (cd "$work/runner$n" && for dir in packs/*; do
    "$bin" publish "$dir" >"$work/rerun.err" 2>&1 || grep -q 'is not newer than the published' "$work/rerun.err" \
      || { echo "FAIL: rerun of $dir: $(cat "$work/rerun.err")"; exit 1; }
    cat "$work/rerun.err" >>"$work/rerun.log"
  done)
done
state=$(python3 scripts/check/reliability/check-s3-store.py "$SOUNDPACK_TEST_S3_ENDPOINT" "$bucket" voice "$catalog") || { echo "FAIL after the rerun: $state"; exit 1; }
listed=${state#listed=}; listed=${listed%% *}; recorded=${state#*recorded=}
[ "$listed" = "$recorded" ] && [ "$recorded" -ge 9 ] || { echo "FAIL: after the rerun index.json lists $listed versions, the catalog records $recorded (at least one per pack expected)"; exit 1; }
# A version whose files reached the store before its catalog commit was cut is recorded from the
# store by the next call that meets it ("recorded it in the catalog"): the store is the truth.
from_store=$(cat "$work/all.log" "$work/rerun.log" | grep -c 'recorded it in the catalog' || true)
[ "$recorded" -eq $((published + $(grep -c ': published ' "$work/rerun.log" || true) + from_store)) ] || { echo "FAIL: $recorded recorded but the run and the rerun reported other publish counts"; exit 1; }
"$bin" verify >"$work/verify.log" || { echo "FAIL: verify found drift"; cat "$work/verify.log"; exit 1; }
rate=$(python3 -c "print(f'{$published / ($elapsed_ms / 1000):.2f}')")
echo "8 runners x 10 publish calls in ${elapsed_ms} ms (PostgreSQL restarted at ${restarted_ms} ms): $published published (${rate} publishes/s), $unchanged already published, $older refused as not newer, $lost failed on the lost connection (exit 3, nothing recorded); the rerun published the $(grep -c ': published ' "$work/rerun.log" || true) the lost connections had cut short, $from_store recorded from the store ($recorded versions in all); index.json lists exactly the catalog's versions; verify: $(tail -1 "$work/verify.log" | sed 's/^[^:]*: //')"

# ---- 2. kill -9 during publish ----
catalog=$(fresh_database)
bucket=$(fresh_bucket)
export SOUNDPACK_CATALOG=$catalog SOUNDPACK_STORE="s3://$bucket/voice"
mkdir -p "$work/kill/packs"
make_pack "$work/kill/packs/base" killed 1.0.0
(cd "$work/kill" && "$bin" publish packs/base >/dev/null)
v=1
start=$(date +%s%N)
make_pack "$work/kill/packs/timing" killed "1.0.$v"
(cd "$work/kill" && "$bin" publish packs/timing >/dev/null)
duration_us=$(( ($(date +%s%N) - start) / 1000 ))
absent=0 present=0 finished=0
for i in $(seq 0 $((points - 1))); do
  v=$((v + 1))
  rm -rf "$work/kill/packs/next"
  make_pack "$work/kill/packs/next" killed "1.0.$v"
  delay_us=$(( duration_us * 12 * i / (10 * (points - 1)) ))
  (cd "$work/kill" && exec "$bin" publish packs/next >/dev/null 2>&1) &
  pid=$!
  sleep "$(printf '%d.%06d' $((delay_us / 1000000)) $((delay_us % 1000000)))"
  if kill -9 "$pid" 2>/dev/null; then wait "$pid" 2>/dev/null || true; killed=1; else wait "$pid" || true; killed=0; fi
  state=$(python3 scripts/check/reliability/check-s3-store.py "$SOUNDPACK_TEST_S3_ENDPOINT" "$bucket" voice "$catalog" "killed@1.0.$v") \
    || { echo "FAIL at kill point $i (${delay_us} us): $state"; exit 1; }
  recorded=$(psql "$catalog" -Atc "SELECT COUNT(*) FROM versions WHERE pack_id = 'killed' AND version = '1.0.$v' AND published_at IS NOT NULL")
  if [ $killed -eq 0 ]; then finished=$((finished + 1)); elif [ "$recorded" = 1 ]; then present=$((present + 1)); else absent=$((absent + 1)); fi
  (cd "$work/kill" && "$bin" publish packs/next >/dev/null) || { echo "FAIL: the rerun after kill point $i did not publish"; exit 1; }
  (cd "$work/kill" && "$bin" verify >/dev/null) || { echo "FAIL: verify found drift after the rerun at kill point $i"; exit 1; }
done
state=$(python3 scripts/check/reliability/check-s3-store.py "$SOUNDPACK_TEST_S3_ENDPOINT" "$bucket" voice "$catalog") || { echo "FAIL: $state"; exit 1; }
echo "kill -9 at $points points over a ${duration_us} us publish to PostgreSQL + S3: $absent left the version unrecorded, $present recorded, $finished finished first; nothing unrecorded was ever listed in index.json, every rerun completed it, verify clean ($state)"
