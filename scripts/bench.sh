#!/usr/bin/env bash
# Benchmarks, each a ratio measured in this one run against a named baseline on the same input,
# with wall time and peak memory from /usr/bin/time -v.
#
#   render   soundpack render of N random amounts (default 10000) with packs/wechat
#            vs  a sox loop joining the same clips for each amount          target >= 20x
#   validate soundpack validate of 50 packs x 20 clips (made from the demo pack by soundpack convert)
#            vs  ffprobe (format) + ffmpeg -af ebur128 (loudness) per clip  target >= 5x
#            vs  the decode floor: only reading every sample via libsndfile  target <= 3x of it
#            validate of 200 packs x 20 clips with the catalog vs a C program (libsndfile decode +
#            libebur128, every core)  target <= 1.0x wall; vs the decode floor  target <= 5x CPU;
#            both on cpu 0 only (taskset -c 0)  target <= 0.3x; then validate's time on cpu 0 phase by
#            phase (SOUNDPACK_TIMINGS=1), and what reading, hashing, decoding and measuring cost alone
#   memory   validate peak memory for 1, 10 and 50 packs (20 to 1000 clips)  target flat, < 64 MB
#   publish  soundpack publish of 50 packs vs tar czf + sha256sum of the same files  target <= 1.5x
#            publish into a store of 5,000 versions (200 packs x 25) vs an empty store    target <= 1.2x
#   verify   soundpack verify of the 50-pack store vs sha256sum of every file in it  target <= 1.0x
#   json     soundpack validate of a pack whose pack.json is 0.9 MiB on one line vs the same pack
#            with its ordinary pack.json, and vs python3 json.load      target: adds < 1 s
#   say      soundpack say --grammar zh-Hans of 1,000,000 amounts (text), with each reading option
#            vs  the same amounts read by BENCH_SAY_BASELINE's binary (default 4f716a5, before
#            the grammar framework), with its default reading  target >= 1.5 M/s, <= 1.1x;
#            en-US, en-IN and hi-IN on the same amounts vs this binary's zh-Hans   target >= 1 M/s
#   extension the extension's plan + verify + join of packs/wechat's worst-case amount (from
#            validate), every clip in Library/Sounds and hash-checked, 50 runs in one process
#            vs  the phone's budget                                    target <= 50 ms, <= 8 MiB added
#
# Sub-second figures are hyperfine medians of 10 runs; the rest single /usr/bin/time runs.
#   s3       soundpack publish to an S3 store (OpenStack Swift's s3api, scripts/servers/): one version
#            vs  curl PUTs of the same files: one curl process per file (started by xargs, no shell
#                between), and one curl over one keep-alive connection  target <= 1.0x the first
#            16 packs by 8 runners at once (PostgreSQL catalog) vs 8 parallel curl processes  target <= 1.5x
# Usage: scripts/bench.sh [render|validate|publish|json|say|s3|extension|all]   (env BENCH_RENDER_N, BENCH_WORK=folder to keep)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
what=${1:-all}
scripts/bootstrap.sh --dev
command -v gcc >/dev/null || { echo "error: gcc is needed for the decode floor" >&2; exit 3; }
swift build -c release --product soundpack >/dev/null
bin=$root/.build/release/soundpack
work=${BENCH_WORK:-$(mktemp -d)}
mkdir -p "$work"
[ -n "${BENCH_WORK:-}" ] || trap 'rm -rf "$work"' EXIT

# measure NAME COMMAND... : runs once, records wall seconds and peak KiB in $work/NAME.time
measure() {
  local name=$1; shift
  /usr/bin/time -v -o "$work/$name.time" "$@" >"$work/$name.out" 2>"$work/$name.err" || {
    echo "error: $name failed:" >&2; tail -5 "$work/$name.err" >&2; exit 1; }
}
wall() {
  if [ -f "$work/$1.json" ]; then python3 -c "import json,sys; print('%.3f' % json.load(open(sys.argv[1]))['results'][0]['median'])" "$work/$1.json"
  else awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; print s }' "$work/$1.time"; fi
}
# precise NAME COMMAND... : for sub-second commands, the median of 10 hyperfine runs replaces the
# single /usr/bin/time wall figure (which has 10 ms resolution); peak memory still comes from time -v.
precise() {
  local name=$1; shift
  measure "$name" "$@"
  hyperfine -N -w 2 -r 10 --export-json "$work/$name.json" "$(printf '%q ' "$@")" >/dev/null 2>&1
}
peak_mb() { awk -F': ' '/Maximum resident set size/ { printf "%.1f", $2 / 1024 }' "$work/$1.time"; }
ratio() { awk -v a="$1" -v b="$2" -v d="${3:-1}" 'BEGIN { printf "%.*f", d, a / b }'; }
row() { printf '%-44s %10s s %9s MB\n' "$1" "$(wall "$2")" "$(peak_mb "$2")"; }
# demo_copies DIR PREFIX COUNT: COUNT copies of packs/wechat in DIR/packs/PREFIXnn, with ids PREFIXnn.
demo_copies() {
  rm -rf "$1"; mkdir -p "$1/packs"
  for n in $(seq -w 1 "$3"); do
    cp -r packs/wechat "$1/packs/$2$n"
    sed -i "s/\"id\" : \"wechat\"/\"id\" : \"$2$n\"/" "$1/packs/$2$n/pack.json"
  done
}
# grow_stores DIR: the stores of the store-growth figures, built once: DIR/big (200 packs x 25
# versions), DIR/own (grow-001's 25 versions alone), DIR/empty; each with packs/grow-001 at 1.0.25 to
# publish, and big's and own's index.json and catalog saved (index.saved, catalog.saved).
grow_stores() {
  local grow=$1
  if [ -f "$grow/own/catalog.saved" ]; then
    # Saved by an older build: its catalog is brought to this binary's (migrations, indexes) once,
    # here, untimed (as a team's catalog is), not in every timed publish.
    for place in big own; do SOUNDPACK_CATALOG="$grow/$place/catalog.saved" "$bin" list >/dev/null; done
    return 0
  fi
  rm -rf "$grow"; mkdir -p "$grow/big" "$grow/own/packs" "$grow/empty/packs"
  demo_copies "$grow/big" grow- 200
  for v in $(seq 0 24); do
    sed -i "s/\"version\" : \"[^\"]*\"/\"version\" : \"1.0.$v\"/" "$grow"/big/packs/*/pack.json
    (cd "$grow/big" && SOUNDPACK_CATALOG="$grow/big/catalog.sqlite" "$bin" publish packs/* >/dev/null)
  done
  cp -r "$grow/big/packs/grow-001" "$grow/own/packs/"
  for v in $(seq 0 24); do
    sed -i "s/\"version\" : \"[^\"]*\"/\"version\" : \"1.0.$v\"/" "$grow/own/packs/grow-001/pack.json"
    (cd "$grow/own" && SOUNDPACK_CATALOG="$grow/own/catalog.sqlite" "$bin" publish packs/grow-001 >/dev/null)
  done
  for place in big own empty; do
    [ "$place" = empty ] || { cp "$grow/$place/dist/index.json" "$grow/$place/index.saved"; cp "$grow/$place/catalog.sqlite" "$grow/$place/catalog.saved"; }
    rm -rf "$grow/$place/packs"; mkdir -p "$grow/$place/packs"; cp -r packs/wechat "$grow/$place/packs/grow-001"
    sed -i -e 's/"id" : "wechat"/"id" : "grow-001"/' -e 's/"version" : "[^"]*"/"version" : "1.0.25"/' "$grow/$place/packs/grow-001/pack.json"
  done
}
# Two commands paired by hyperfine (7 runs each after a warm-up); prints their medians, "this that".
paired() {
  hyperfine -w 1 -r 7 --export-json "$work/paired.json" "$1" "$2" >/dev/null 2>&1
  python3 -c "import json,sys; r=json.load(open(sys.argv[1]))['results']; print('%.3f %.3f' % (r[0]['median'], r[1]['median']))" "$work/paired.json"
}
# A row of a paired table: label, this, that, then readings per second from this.
paired_row() {
  printf '%-44s %10s %10s %7sx %10s\n' "$1" "$2" "$3" "$(ratio "$2" "$3" 2)" "$(awk -v s="$2" 'BEGIN { printf "%.2f", 1 / s }')"
}

echo "soundpack benchmarks — $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, $(uname -m)"
echo

if [ "$what" = all ] || [ "$what" = render ]; then
  n=${BENCH_RENDER_N:-10000}
  python3 - "$n" >"$work/amounts.txt" <<'PY'
import random, sys
rng = random.Random(2026)
for _ in range(int(sys.argv[1])):
    print("%d.%02d" % (rng.randrange(0, 100_000_000), rng.randrange(0, 100)))
PY
  # The baseline's input: the clip files of each amount, computed beforehand and not timed.
  "$bin" say --pack packs/wechat --format files - <"$work/amounts.txt" >"$work/files.txt"
  paste -d' ' <(sed 's/$//' "$work/amounts.txt") "$work/files.txt" >"$work/jobs.txt"
  mkdir -p "$work/sox" "$work/ours"
  cat >"$work/sox-loop.sh" <<'SH'
#!/usr/bin/env bash
cd "$1"
while read -r amount files; do sox $files "$2/$amount.wav"; done <"$3"
SH
  chmod +x "$work/sox-loop.sh"
  measure render-ours "$bin" render --pack packs/wechat --amounts "$work/amounts.txt" -o "$work/ours" --container wav
  measure render-sox "$work/sox-loop.sh" "$root/packs/wechat" "$work/sox" "$work/jobs.txt"
  # Same input, same output: every file must hold the same samples.
  sample=$(head -1 "$work/amounts.txt")
  cmp <(sox "$work/ours/$(printf '%s' "$sample" | sed 's/\.00$//').wav" -t raw -) <(sox "$work/sox/$sample.wav" -t raw -) \
    || { echo "error: render and sox disagree on $sample" >&2; exit 1; }
  echo "render: $n random amounts up to 99999999.99 with packs/wechat, WAV out"
  row "soundpack render --amounts" render-ours
  row "baseline: sox loop joining the same clips" render-sox
  echo "ratio: soundpack is $(ratio "$(wall render-sox)" "$(wall render-ours)")x faster than the sox loop (target >= 20x)"
  echo
fi

if [ "$what" = all ] || [ "$what" = validate ]; then
  packs=$work/packs
  rm -rf "$packs"; mkdir -p "$packs"
  rates=(16000 22050 24000 44100 48000)
  codecs=(pcm16 ulaw alaw)
  containers=(caf wav aiff)
  # 20 clips: the demo pack's 18, and 两 and a suffix as other takes (2 and 元 backwards, by sox:
  # copies of another word's clip would be audio.duplicate).
  source=$work/source
  rm -rf "$source"; cp -R packs/wechat "$source"
  sox -D packs/wechat/clips/2.caf "$source/clips/liang.caf" reverse
  sox -D packs/wechat/clips/yuan.caf "$source/clips/suffix.caf" reverse
  python3 - "$source/pack.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["clips"]["两"] = "clips/liang.caf"
d["clips"]["suffix"] = "clips/suffix.caf"
json.dump(d, open(sys.argv[1], "w"), ensure_ascii=False, indent=2)
PY
  for i in $(seq -w 1 50); do
    r=${rates[$((10#$i % 5))]}; c=${codecs[$((10#$i % 3))]}; k=${containers[$(((10#$i / 3) % 3))]}
    "$bin" convert "$source" "$packs/p$i" --rate "$r" --codec "$c" --container "$k" >/dev/null
    sed -i "s/\"id\" *: *\"wechat\"/\"id\": \"bench-$i\"/" "$packs/p$i/pack.json"
  done
  find "$packs" -type f ! -name pack.json | sort >"$work/clips.txt"
  clips=$(wc -l <"$work/clips.txt")
  cat >"$work/ffmpeg-loop.sh" <<'SH'
#!/usr/bin/env bash
while read -r f; do
  ffprobe -v error -show_entries stream=codec_name,sample_rate,channels -of csv=p=0 "$f"
  ffmpeg -nostdin -hide_banner -nostats -i "$f" -af ebur128=peak=true -f null - 2>&1 | grep -E "I:|Peak:"
done <"$1"
SH
  chmod +x "$work/ffmpeg-loop.sh"
  gcc -O2 -o "$work/decode-floor" scripts/bench/decode-floor.c $(pkg-config --cflags --libs sndfile)

  precise validate-ours "$bin" validate --no-record $(ls -d "$packs"/p*)
  measure validate-ffmpeg "$work/ffmpeg-loop.sh" "$work/clips.txt"
  precise validate-floor "$work/decode-floor" $(cat "$work/clips.txt")
  precise validate-1 "$bin" validate --no-record "$packs/p01"
  precise validate-10 "$bin" validate --no-record $(ls -d "$packs"/p* | awk 'NR <= 10')
  grep -q "50 packs: 50 passed" "$work/validate-ours.out" || { echo "error: the bench packs do not all validate" >&2; tail -3 "$work/validate-ours.out" >&2; exit 1; }

  echo "validate: 50 packs x 20 clips = $clips clips (16-48 kHz; PCM, µLaw, aLaw; caf, wav, aiff)"
  row "soundpack validate (every rule, loudness, true peak)" validate-ours
  row "baseline: ffprobe + ffmpeg ebur128 per clip" validate-ffmpeg
  row "floor: read every sample via libsndfile, 1 core" validate-floor
  echo "ratio: soundpack is $(ratio "$(wall validate-ffmpeg)" "$(wall validate-ours)")x faster than the ffmpeg pipeline (target >= 5x)"
  echo "ratio: soundpack takes $(ratio "$(wall validate-ours)" "$(wall validate-floor)")x the decode floor (target <= 3x)"
  echo
  # 200 packs of 20 clips, recorded in a catalog, against the minimal C validator (decode with
  # libsndfile + momentary loudness with libebur128, on every core) and the decode-only floor.
  gcc -O2 -o "$work/decode-ebur128" scripts/bench/decode-ebur128.c $(pkg-config --cflags --libs sndfile libebur128) -lpthread
  packs200=$work/packs200
  rm -rf "$packs200"; mkdir -p "$packs200"
  for copy in a b c d; do
    for p in "$packs"/p*; do
      cp -r "$p" "$packs200/$copy-$(basename "$p")"
      sed -i "s/\"bench-/\"bench-$copy-/" "$packs200/$copy-$(basename "$p")/pack.json"
    done
  done
  find "$packs200" -type f ! -name pack.json | sort >"$work/clips200.txt"
  cat >"$work/validate-200.sh" <<SH
#!/usr/bin/env bash
rm -f "$work/catalog200.sqlite" && SOUNDPACK_CATALOG="$work/catalog200.sqlite" "$bin" validate "$packs200"/* >/dev/null
SH
  chmod +x "$work/validate-200.sh"
  precise validate-200 "$work/validate-200.sh"
  precise validate-c200 "$work/decode-ebur128" --list "$work/clips200.txt"
  precise validate-floor200 "$work/decode-floor" --list "$work/clips200.txt"
  cpu() { awk -F': ' '/User time/ { u = $2 } /System time/ { s = $2 } END { printf "%.3f", u + s }' "$work/$1.time"; }
  echo "validate: 200 packs x 20 clips = $(wc -l <"$work/clips200.txt") clips, recorded in a catalog"
  row "soundpack validate (every rule, catalog)" validate-200
  row "C: libsndfile decode + libebur128, all cores" validate-c200
  row "floor: libsndfile decode only, 1 core" validate-floor200
  echo "ratio: validate takes $(ratio "$(wall validate-200)" "$(wall validate-c200)")x the C validator's wall time (target <= 1.0x)"
  echo "ratio: validate uses $(ratio "$(cpu validate-200)" "$(cpu validate-floor200)")x the decode floor's CPU time ($(cpu validate-200) s vs $(cpu validate-floor200) s; target <= 5x)"
  echo "       for scale: the C program (momentary loudness only) uses $(ratio "$(cpu validate-c200)" "$(cpu validate-floor200)")x it ($(cpu validate-c200) s)"
  # Per core: both on cpu 0 alone, so neither gains from the second core.
  precise validate-200-core0 taskset -c 0 "$work/validate-200.sh"
  precise validate-c200-core0 taskset -c 0 "$work/decode-ebur128" --list "$work/clips200.txt"
  row "soundpack validate, cpu 0 only" validate-200-core0
  row "C: libsndfile decode + libebur128, cpu 0 only" validate-c200-core0
  echo "ratio: on one core validate takes $(ratio "$(wall validate-200-core0)" "$(wall validate-c200-core0)" 2)x the C program (target <= 0.3x)"
  # Where that time goes (SOUNDPACK_TIMINGS=1 on cpu 0, medians of 5 runs), and what the work
  # validate cannot leave out (read, hash, decode, loudness, true peak) costs on its own.
  for n in 1 2 3 4 5; do
    rm -f "$work/catalog200.sqlite"
    SOUNDPACK_TIMINGS=1 SOUNDPACK_CATALOG="$work/catalog200.sqlite" taskset -c 0 "$bin" validate "$packs200"/* 2>&1 >/dev/null \
      | sed -n '/^timings/,$p'
  done >"$work/validate-phases.txt"
  python3 - "$work/validate-phases.txt" "$(wall validate-c200-core0)" <<'PY'
import re, statistics, sys
runs = {}
for line in open(sys.argv[1]):
    m = re.match(r"(.+?)\s+(\d+)\s+([\d.]+)$", line.rstrip())
    if m and m.group(1) != "phase":
        runs.setdefault(m.group(1), []).append(float(m.group(3)))
ms = {name: statistics.median(values) for name, values in runs.items()}
whole, c = ms["validate, in all"], float(sys.argv[2]) * 1000
print("validate on cpu 0, phase by phase (SOUNDPACK_TIMINGS=1, medians of 5 runs; nested phases indented):")
# Each phase, those measured within another under it (a phase is listed when it first ends).
within = {"clips decoded and measured": ["clips hashed (SHA-256)", "voice prints (FFT, pitch)", "voice prints: resampled to 8 kHz"],
          "catalog record": ["catalog: write transactions"]}
inner = {name for names in within.values() for name in names}
# With a store, the earlier version's clips are hashed and printed outside "clips decoded and measured".
assert "earlier version's clips checked" not in ms, "the bench packs have no store"
for name in [name for name in ms if name not in inner]:
    print("  %-36s %8.1f ms %5.1f%%" % (name, ms[name], 100 * ms[name] / whole))
    for part in within.get(name, []):
        print("    %-34s %8.1f ms %5.1f%%" % (part, ms.get(part, 0.0), 100 * ms.get(part, 0.0) / whole))
probe = ms["clips decoded and measured"]
prints = ms.get("voice prints (FFT, pitch)", 0.0) + ms.get("voice prints: resampled to 8 kHz", 0.0)
hashing = ms.get("clips hashed (SHA-256)", 0.0)
measuring = probe - hashing - prints
essential = ms["clips read"] + hashing + measuring
print("  decoded and measured without the hash and the prints: %.1f ms (loudness, true peak, levels)" % measuring)
print("ratio: read + SHA-256 + decode and measure alone take %.3fx the C program (%.1f ms of %.0f ms); the target leaves" % (essential / c, essential, c))
print("       %.1f ms for the rest of validate (voice prints, rules, pack.json, catalog, report), which takes %.1f ms"
      % (max(0.0, 0.3 * c - essential), whole - essential))
PY
  echo
  echo "memory: validate peak RSS by pack count (target: flat, under 64 MB at 1000 clips)"
  row "1 pack, 20 clips" validate-1
  row "10 packs, 200 clips" validate-10
  row "50 packs, 1000 clips" validate-ours
fi

if [ "$what" = all ] || [ "$what" = publish ]; then
  # 50 packs: the demo pack under 50 ids. The floor archives and hashes the same files.
  pub=$work/publish
  demo_copies "$pub" pub- 50
  cat >"$work/publish-floor.sh" <<'SH'
#!/usr/bin/env bash
# What any publish must do at least: one compressed archive of every pack and a hash of every file.
cd "$1" && tar czf "$2/floor.tar.gz" packs && find packs -type f -print0 | xargs -0 sha256sum >"$2/floor.sha256"
SH
  chmod +x "$work/publish-floor.sh"
  cat >"$work/publish-50.sh" <<SH
#!/usr/bin/env bash
rm -rf "$pub/dist" "$pub/catalog.sqlite" && cd "$pub" && SOUNDPACK_CATALOG="$pub/catalog.sqlite" "$bin" publish packs/* >/dev/null
SH
  chmod +x "$work/publish-50.sh"
  hyperfine -N -w 1 -r 5 --export-json "$work/publish-50.json" "$work/publish-50.sh" >/dev/null 2>&1
  hyperfine -N -w 1 -r 5 --export-json "$work/publish-floor.json" "$work/publish-floor.sh $pub $work" >/dev/null 2>&1
  measure publish-50 "$work/publish-50.sh"; measure publish-floor "$work/publish-floor.sh" "$pub" "$work"
  # verify reads back what publish wrote: every hash in the store, against sha256sum of its files.
  precise verify-50 env SOUNDPACK_CATALOG="$pub/catalog.sqlite" "$bin" verify --store "$pub/dist"
  (cd "$pub/dist" && find . -type f -print0 | sort -z) >"$work/store-files"
  precise verify-floor bash -c "cd '$pub/dist' && xargs -0 sha256sum <'$work/store-files' >/dev/null"

  # Store growth: one publish into a store of 5,000 versions (200 packs x 25 versions, built once)
  # against the same publish into an empty store, and into a store holding only that pack's 25
  # versions (what is proportional to the pack: its earlier versions are checked and compared).
  # Before each run the version is taken out again (its folder, index.json and the catalog put
  # back, then synced), so every run does the same work; hyperfine's --prepare is not timed.
  grow=$work/grow
  grow_stores "$grow"
  growth_run() {
    local place=$1 restore
    if [ "$place" = empty ]; then restore="rm -rf dist catalog.sqlite"
    else restore="rm -rf dist/grow-001/1.0.25 && cp index.saved dist/index.json && cp catalog.saved catalog.sqlite"; fi
    hyperfine -N -w 1 -r 9 --export-json "$work/publish-grow-$place.json" --prepare "bash -c 'cd $grow/$place && $restore && sync'" \
      "bash -c 'cd $grow/$place && SOUNDPACK_CATALOG=$grow/$place/catalog.sqlite $bin publish packs/grow-001 >/dev/null'" >/dev/null 2>&1
  }
  growth_run big; growth_run own; growth_run empty

  echo "publish: 50 packs x 18 clips into an empty store and catalog (medians of 5 runs)"
  printf '%-44s %10s s\n' "soundpack publish (validate, archive, hash, fsync, record)" "$(wall publish-50)"
  printf '%-44s %10s s\n' "floor: tar czf + sha256sum of the same files" "$(wall publish-floor)"
  echo "ratio: publish takes $(ratio "$(wall publish-50)" "$(wall publish-floor)")x the floor (target <= 1.5x)"
  printf '%-44s %10s s\n' "publish into a store of 5,000 versions" "$(wall publish-grow-big)"
  printf '%-44s %10s s\n' "  into a store of that pack's 25 versions" "$(wall publish-grow-own)"
  printf '%-44s %10s s\n' "  into an empty store, medians of 9" "$(wall publish-grow-empty)"
  echo "ratio: into 5,000 versions takes $(ratio "$(wall publish-grow-big)" "$(wall publish-grow-empty)" 2)x the empty store (target <= 1.2x), $(ratio "$(wall publish-grow-big)" "$(wall publish-grow-own)" 2)x the store of its own versions"
  row "soundpack verify (the 50-version store)" verify-50
  row "floor: sha256sum of every file in the store" verify-floor
  echo "ratio: verify takes $(ratio "$(wall verify-50)" "$(wall verify-floor)")x sha256sum (target <= 1.0x: on its floor)"
  echo
fi

if [ "$what" = all ] || [ "$what" = json ]; then
  # A pack.json near the 1 MiB cap on one line (33,000 texts): the strict-JSON scan and the reader
  # must stay linear. Baselines: the same pack with its ordinary pack.json, and python3's json.load.
  rm -rf "$work/bigjson" "$work/plainjson" && cp -r packs/wechat "$work/bigjson" && cp -r packs/wechat "$work/plainjson"
  python3 - "$work/bigjson/pack.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for i in range(33000): d["texts"]["k%d" % i] = "微信到账%d" % i
open(sys.argv[1], "w").write(json.dumps(d, ensure_ascii=False, separators=(",", ":")))
PY
  precise json-big "$bin" validate "$work/bigjson" --no-record
  precise json-plain "$bin" validate "$work/plainjson" --no-record
  precise json-python python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$work/bigjson/pack.json"
  echo "json: validate with a $(wc -c <"$work/bigjson/pack.json")-byte one-line pack.json"
  row "  soundpack validate, big pack.json" json-big
  row "  soundpack validate, ordinary pack.json" json-plain
  row "  python3 json.load of the big pack.json" json-python
  echo "  the big manifest adds $(awk -v a="$(wall json-big)" -v b="$(wall json-plain)" 'BEGIN { printf "%.3f", a - b }') s (target < 1 s); $(ratio "$(wall json-big)" "$(wall json-python)" 2)x python3's json.load"
  echo
fi

if [ "$what" = all ] || [ "$what" = say ]; then
  python3 - >"$work/amounts-1m.txt" <<'PY'
import random
rng = random.Random(2026)
print("\n".join("%d.%02d" % (rng.randrange(0, 100_000_000), rng.randrange(0, 100)) for _ in range(1_000_000)))
PY
  # The baseline: the release binary of BENCH_SAY_BASELINE (default: the last commit before the
  # grammar framework), built in a worktree of this repository. It knows no reading options, so
  # each option is compared with its default reading of the same amounts.
  base_ref=${BENCH_SAY_BASELINE:-4f716a5}
  base=$work/baseline-$base_ref
  if [ ! -x "$base/.build/release/soundpack" ]; then
    git worktree add --detach "$base" "$base_ref" >/dev/null 2>&1
    (cd "$base" && swift build -c release --product soundpack >/dev/null)
  fi
  basebin=$base/.build/release/soundpack
  echo "say: 1,000,000 random amounts read as text on cpu 0, medians of 7 runs each, against $base_ref's binary"
  printf '%-44s %10s %10s %8s %10s
' "grammar and options" "this (s)" "base (s)" "ratio" "M/s"
  for options in "" "--two liang" "--two liang-large" "--money jiao-fen" "--money kuai-mao" "--ten-start yi-shi" \
                 "--two liang-large --money kuai-mao --ten-start yi-shi"; do
    # The baseline reads with the options it has (--two er|liang), else with the defaults.
    case "$options" in ""|"--two liang") baseopts=$options ;; *) baseopts="" ;; esac
    # One core for both (say reads on one thread): the other core's load moves neither.
    read -r this that < <(paired \
      "taskset -c 0 $bin say --grammar zh-Hans $options - <$work/amounts-1m.txt >/dev/null" \
      "taskset -c 0 $basebin say --grammar zh-Hans $baseopts - <$work/amounts-1m.txt >/dev/null")
    paired_row "zh-Hans ${options:-(defaults)}" "$this" "$that"
  done
  hyperfine -w 1 -r 5 --export-json "$work/say.json" "$bin say --pack packs/wechat - <$work/amounts-1m.txt >/dev/null" >/dev/null 2>&1
  printf '%-44s %10s s\n' "soundpack say --pack packs/wechat -" "$(wall say)"
  echo "target: >= 1.5 M readings/s for every option, ratio to the baseline <= 1.1"
  # The other grammars (DESIGN §4b) on the same amounts, against this binary's zh-Hans reading.
  echo "say: the same amounts in en-US, en-IN and hi-IN on cpu 0, medians of 7 runs each, against zh-Hans"
  printf '%-44s %10s %10s %8s %10s\n' "grammar" "this (s)" "zh (s)" "ratio" "M/s"
  for grammar in en-US en-IN hi-IN; do
    read -r this that < <(paired \
      "taskset -c 0 $bin say --grammar $grammar - <$work/amounts-1m.txt >/dev/null" \
      "taskset -c 0 $bin say --grammar zh-Hans - <$work/amounts-1m.txt >/dev/null")
    paired_row "$grammar" "$this" "$that"
  done
  echo "target: >= 1 M readings/s for each of en-US, en-IN and hi-IN"
  [ -n "${BENCH_WORK:-}" ] || git worktree remove --force "$base" >/dev/null 2>&1 || true
  echo
fi

if [ "$what" = all ] || [ "$what" = s3 ]; then
  # Publishing to object storage, against curl PUTs of the same files (the upload floor), on the
  # throw-away OpenStack Swift (S3 API) and PostgreSQL of scripts/servers/, on loopback.
  servers=$work/servers.env
  if [ -z "${SOUNDPACK_TEST_S3_ENDPOINT:-}" ]; then scripts/servers/swift.sh start >"$servers.swift"; . "$servers.swift"; fi
  if [ -z "${SOUNDPACK_TEST_POSTGRES:-}" ]; then scripts/servers/postgres.sh start >"$servers.pg"; . "$servers.pg"; fi
  stop_servers() {
    [ -f "$servers.swift" ] && scripts/servers/swift.sh stop "$SOUNDPACK_SWIFT_DIR" >/dev/null 2>&1 || true
    [ -f "$servers.pg" ] && scripts/servers/postgres.sh stop "$SOUNDPACK_PG_DIR" >/dev/null 2>&1 || true
  }
  trap 'stop_servers; [ -n "${BENCH_WORK:-}" ] || rm -rf "$work"' EXIT
  export AWS_ENDPOINT_URL_S3=$SOUNDPACK_TEST_S3_ENDPOINT
  bucket=bench$(date +%s)
  python3 scripts/check/reliability/check-s3-store.py --create-bucket "$SOUNDPACK_TEST_S3_ENDPOINT" "$bucket"
  s3=$work/s3
  demo_copies "$s3" bench- 16
  # The files a publish uploads, as a folder store holds them: the same names and bytes.
  (cd "$s3" && SOUNDPACK_CATALOG="$s3/local.sqlite" "$bin" publish packs/* --store "$s3/local" >/dev/null)
  (cd "$s3/local" && find bench-01 -type f | sort && echo index.json) >"$s3/one.txt"
  (cd "$s3/local" && find . -type f -printf '%P\n' | sort) >"$s3/all.txt"
  # The access key (test:tester) holds a colon, which --user cannot carry: a netrc file does.
  (umask 077; printf 'machine 127.0.0.1 login %s password %s\n' "$AWS_ACCESS_KEY_ID" "$AWS_SECRET_ACCESS_KEY" >"$s3/netrc")
  # The floors run curl itself: xargs starts one curl per file (no shell per file), or one curl
  # uploads every file over one keep-alive connection (several -T FILE URL pairs). Each signs with
  # SigV4 and sends the payload unsigned: the floor does not even hash the bytes.
  curl_put=(curl -sf --aws-sigv4 "aws:amz:$AWS_REGION:s3" --netrc-file "$s3/netrc" -H "x-amz-content-sha256: UNSIGNED-PAYLOAD")
  cat >"$s3/curl-files.sh" <<SH
#!/usr/bin/env bash
# curl-files.sh LIST WORKERS: every file of LIST PUT under a new prefix by WORKERS curl processes at
# once, one curl process per file, started by xargs directly.
prefix=curl-\$(date +%s%N)
exec xargs -a "\$1" -P "\$2" -I{} ${curl_put[*]@Q} -o /dev/null -T "$s3/local/{}" "$SOUNDPACK_TEST_S3_ENDPOINT/$bucket/\$prefix/{}"
SH
  cat >"$s3/curl-keepalive.sh" <<SH
#!/usr/bin/env bash
# curl-keepalive.sh LIST: every file of LIST PUT under a new prefix by one curl process, one request
# after another over one keep-alive connection: the network floor.
prefix=curl-\$(date +%s%N)
transfers=()
while IFS= read -r file; do transfers+=(-T "$s3/local/\$file" "$SOUNDPACK_TEST_S3_ENDPOINT/$bucket/\$prefix/\$file"); done <"\$1"
exec ${curl_put[*]@Q} "\${transfers[@]}" >/dev/null
SH
  cat >"$s3/publish-one.sh" <<SH
#!/usr/bin/env bash
# publish-one.sh: packs/bench-01 into a new prefix with a fresh SQLite catalog.
prefix=one-\$(date +%s%N)
cd "$s3" && SOUNDPACK_CATALOG="$s3/\$prefix.sqlite" "$bin" publish packs/bench-01 --store "s3://$bucket/\$prefix" >/dev/null
SH
  cat >"$s3/publish-runners.sh" <<SH
#!/usr/bin/env bash
# publish-runners.sh RUNNERS: the 16 packs into a new prefix by RUNNERS processes at once (each its
# share of the packs), on a fresh PostgreSQL catalog: a team's CI runners.
prefix=team-\$(date +%s%N)
db=b\$(date +%s%N)
psql -q "\$SOUNDPACK_TEST_POSTGRES" -c "CREATE DATABASE \$db" >/dev/null
catalog=\$(printf '%s' "\$SOUNDPACK_TEST_POSTGRES" | sed "s|@/soundpack?|@/\$db?|")
cd "$s3"
pids=()
for r in \$(seq 0 \$((\$1 - 1))); do
  share=()
  for n in \$(seq 1 16); do [ \$(( (n - 1) % \$1 )) -eq \$r ] && share+=("packs/bench-\$(printf %02d \$n)"); done
  SOUNDPACK_CATALOG="\$catalog" "$bin" publish "\${share[@]}" --store "s3://$bucket/\$prefix" >/dev/null &
  pids+=(\$!)
done
for pid in "\${pids[@]}"; do wait "\$pid" || exit 1; done
SH
  chmod +x "$s3"/*.sh
  hyperfine -N -w 1 -r 7 --export-json "$work/s3-one.json" "$s3/publish-one.sh" >/dev/null 2>&1
  hyperfine -N -w 1 -r 7 --export-json "$work/s3-serial.json" "$s3/curl-files.sh $s3/one.txt 1" >/dev/null 2>&1
  hyperfine -N -w 1 -r 7 --export-json "$work/s3-keepalive.json" "$s3/curl-keepalive.sh $s3/one.txt" >/dev/null 2>&1
  hyperfine -N -w 1 -r 7 --export-json "$work/s3-parallel.json" "$s3/curl-files.sh $s3/one.txt 8" >/dev/null 2>&1
  hyperfine -N -w 1 -r 5 --export-json "$work/s3-runners-1.json" "$s3/publish-runners.sh 1" >/dev/null 2>&1
  hyperfine -N -w 1 -r 5 --export-json "$work/s3-runners-8.json" "$s3/publish-runners.sh 8" >/dev/null 2>&1
  hyperfine -N -w 1 -r 5 --export-json "$work/s3-all-8.json" "$s3/curl-files.sh $s3/all.txt 8" >/dev/null 2>&1
  echo "s3: publish to OpenStack Swift's S3 API on loopback, against curl PUTs of the same files (medians of 7 runs; 5 for 16 packs)"
  printf '%-52s %8s s\n' "publish of one version ($(wc -l <"$s3/one.txt") files)" "$(wall s3-one)"
  printf '%-52s %8s s\n' "floor: curl PUT of its files, one process per file" "$(wall s3-serial)"
  printf '%-52s %8s s\n' "       one curl, every file over one connection" "$(wall s3-keepalive)"
  printf '%-52s %8s s\n' "       curl PUT of its files, 8 at a time" "$(wall s3-parallel)"
  echo "ratio: one publish takes $(ratio "$(wall s3-one)" "$(wall s3-serial)" 2)x the serial curl PUTs (target <= 1.0x), $(ratio "$(wall s3-one)" "$(wall s3-keepalive)" 2)x one keep-alive curl, $(ratio "$(wall s3-one)" "$(wall s3-parallel)" 2)x 8 parallel ones"
  printf '%-52s %8s s\n' "16 packs by 1 runner (PostgreSQL catalog)" "$(wall s3-runners-1)"
  printf '%-52s %8s s\n' "16 packs by 8 runners at once" "$(wall s3-runners-8)"
  printf '%-52s %8s s\n' "floor: curl PUT of their $(wc -l <"$s3/all.txt") files, 8 at a time" "$(wall s3-all-8)"
  echo "ratio: 8 runners take $(ratio "$(wall s3-runners-8)" "$(wall s3-all-8)" 2)x 8 parallel curl workers (target <= 1.5x); $(ratio "$(wall s3-runners-1)" "$(wall s3-runners-8)" 2)x faster than 1 runner"
  # Store growth on S3 + PostgreSQL: big's and own's index.json and grow-001's 25 versions (every
  # object a publish of grow-001 reads) under a prefix of their own, their catalogs migrated into
  # PostgreSQL; empty: a new prefix and database each run. Each run publishes grow-001's next version
  # (1.0.25, 1.0.26, ...), so each store grows by one version a run; hyperfine's --prepare is untimed.
  grow_stores "$work/grow"
  cat >"$s3/curl-upload.sh" <<SH
#!/usr/bin/env bash
# curl-upload.sh DIR LIST PREFIX: the files LIST names (relative to DIR) PUT under PREFIX, 8 at a time.
exec xargs -a "\$2" -P 8 -I{} ${curl_put[*]@Q} -o /dev/null -T "\$1/{}" "$SOUNDPACK_TEST_S3_ENDPOINT/$bucket/\$3/{}"
SH
  cat >"$s3/grow-next.sh" <<SH
#!/usr/bin/env bash
# grow-next.sh PLACE: grow-001's next version in PLACE's pack.json; for the empty place also a new
# prefix and a new database.
dir=$s3/grow-\$1
n=\$(( \$(cat "\$dir/next" 2>/dev/null || echo 24) + 1 )); echo \$n >"\$dir/next"
sed -i "s/\"version\" : \"[^\"]*\"/\"version\" : \"1.0.\$n\"/" "\$dir/packs/grow-001/pack.json"
if [ "\$1" = empty ]; then
  db=ge\$(date +%s%N); psql -q "\$SOUNDPACK_TEST_POSTGRES" -c "CREATE DATABASE \$db" >/dev/null
  printf '%s' "\$SOUNDPACK_TEST_POSTGRES" | sed "s|@/soundpack?|@/\$db?|" >"\$dir/catalog"
  echo "grow-empty-\$(date +%s%N)" >"\$dir/prefix"
fi
SH
  chmod +x "$s3"/*.sh
  for place in big own empty; do
    dir=$s3/grow-$place; rm -rf "$dir"; mkdir -p "$dir/packs"; cp -r "$work/grow/$place/packs/grow-001" "$dir/packs/"
    if [ "$place" != empty ]; then
      db=g$place$(date +%s%N); psql -q "$SOUNDPACK_TEST_POSTGRES" -c "CREATE DATABASE $db" >/dev/null
      printf '%s' "$SOUNDPACK_TEST_POSTGRES" | sed "s|@/soundpack?|@/$db?|" >"$dir/catalog"
      "$bin" catalog migrate --from "$work/grow/$place/catalog.saved" --to "$(cat "$dir/catalog")" >/dev/null
      echo "grow-$place-$(date +%s%N)" >"$dir/prefix"
      (cd "$work/grow/$place/dist" && find grow-001 -type f) >"$dir/files"
      "$s3/curl-upload.sh" "$work/grow/$place/dist" "$dir/files" "$(cat "$dir/prefix")"
      cp "$work/grow/$place/index.saved" "$dir/index.json"; echo index.json >"$dir/index-list"
      "$s3/curl-upload.sh" "$dir" "$dir/index-list" "$(cat "$dir/prefix")"
    fi
    hyperfine -N -w 1 -r 9 --export-json "$work/s3-grow-$place.json" --prepare "$s3/grow-next.sh $place" \
      "bash -c 'cd $dir && SOUNDPACK_CATALOG=\$(cat catalog) $bin publish packs/grow-001 --store s3://$bucket/\$(cat prefix) >/dev/null'" >/dev/null 2>&1
  done
  echo "store growth on S3 + PostgreSQL: one publish of grow-001's next version (medians of 9)"
  printf '%-52s %8s s\n' "into a store of 5,000 versions" "$(wall s3-grow-big)"
  printf '%-52s %8s s\n' "  into a store of that pack's 25 versions" "$(wall s3-grow-own)"
  printf '%-52s %8s s\n' "  into an empty store" "$(wall s3-grow-empty)"
  echo "ratio: into 5,000 versions takes $(ratio "$(wall s3-grow-big)" "$(wall s3-grow-empty)" 2)x the empty store (target <= 1.2x), $(ratio "$(wall s3-grow-big)" "$(wall s3-grow-own)" 2)x the store of its own versions"
  # Where one publish's time goes: one more run into a fresh prefix, with soundpack's own phase
  # timings (SOUNDPACK_TIMINGS=1; its phases nest, and requests made at once add up).
  SOUNDPACK_TIMINGS=1 "$s3/publish-one.sh" 2>"$work/s3-phases.txt"
  echo "where one publish of one version goes (one more run, SOUNDPACK_TIMINGS=1):"
  sed -n '/^phase/,$p' "$work/s3-phases.txt" | sed 's/^/  /'
  echo
fi

if [ "$what" = all ] || [ "$what" = extension ]; then
  swift build -c release --product soundpack-bench-extension >/dev/null
  ext=$work/extension
  rm -rf "$ext"; mkdir -p "$ext/Library/Sounds"
  cp packs/wechat/clips/* "$ext/Library/Sounds/"
  "$bin" export packs/wechat --format json -o "$ext/manifest.json" 2>/dev/null
  worst=$("$bin" validate --no-record --format json packs/wechat | python3 -c "import json,sys; print(json.load(sys.stdin)['packs'][0]['worstCase']['amount'])")
  "$root/.build/release/soundpack-bench-extension" "$ext/manifest.json" "$ext/Library/Sounds" "$worst" --runs 50 >"$work/extension.json"
  read -r clips ms first slowest added < <(python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(d['clips'], '%.2f' % d['medianMs'], '%.2f' % d['firstMs'], '%.2f' % d['slowestMs'], '%.2f' % (d['addedPeakKiB'] / 1024))" "$work/extension.json")
  echo "extension: plan + verify + join of the worst case, $worst ($clips clips), median of 50 runs in one process"
  printf '%-44s %10s ms (first %s, slowest %s)\n' "plan, SHA-256 of each clip, join, cache" "$ms" "$first" "$slowest"
  printf '%-44s %10s MiB\n' "peak memory added by the runs" "$added"
  echo "ratio: the join takes $(ratio "$ms" 50 2)x the 50 ms budget and $(ratio "$added" 8 2)x the 8 MiB budget (target <= 1.0x each)"
  echo
fi
