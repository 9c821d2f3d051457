#!/usr/bin/env bash
# Builds the libFuzzer targets in fuzz/targets (against SoundpackCore and SoundpackKit's layers built
# with the same instrumentation) and runs each for SECONDS from its committed seed corpus.
#   scripts/fuzz.sh [TARGET|all] [SECONDS]     targets: manifest amount audio plain mp4 archive payload json archiver store synth reading
# Prints, per target, total executions and executions per second; exits 1 when a target crashes
# or leaks, with the input libFuzzer saved under .build/fuzz/crashes/TARGET/. A crash found becomes
# a regression input in fuzz/regressions/TARGET/, which the test suite replays.
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:-all}
seconds=${2:-60}
out=.build/fuzz
mkdir -p "$out/lib"

modules=()
for lib in CSQLite CPostgreSQL CCurl CEspeakNG CPocketSphinx CFFmpeg COpenSSL CSyscalls CSndFile CSodium CEBUR128 CSampleRate CArchive; do modules+=(-I "$PWD/Sources/$lib"); done
modules+=(-I "$PWD/Sources/CSoundpackKernels/include")
# libpq's header lives in its own folder; pkg-config says where.
for flag in $(pkg-config --cflags-only-I libpq libcurl); do modules+=(-Xcc "$flag"); done
links=(-lsqlite3 -lcrypto -lsndfile -lsodium -lebur128 -lsamplerate -larchive)
flags=(-sanitize=fuzzer,address -parse-as-library -O -g -swift-version 6 -package-name soundpack)

# The libraries are rebuilt only when a source is newer than the built module.
build_library() {
  local name=$1; shift
  local stamp="$out/lib/$name.stamp" dependency
  local stale=0
  [ -e "$stamp" ] && [ -z "$(find "Sources/$name" -name '*.swift' -newer "$stamp" -print -quit)" ] || stale=1
  # A library is rebuilt too when one it depends on was (each layer on those below it).
  for dependency in "${DEPENDS_ON[@]:-}"; do [ -n "$dependency" ] && [ "$out/lib/$dependency.stamp" -nt "$stamp" ] && stale=1; done
  if [ $stale -eq 1 ]; then
    echo "fuzz: building $name with -sanitize=fuzzer,address" >&2
    (cd "$out/lib" && swiftc "${flags[@]}" -whole-module-optimization -num-threads "$(nproc)" -enable-testing -module-name "$name" -emit-module -emit-library -static \
      "$@" $(find "$OLDPWD/Sources/$name" -name '*.swift' | sort))
    touch "$out/lib/$name.stamp"
  fi
}
# Our own C (the AVX2 loops), under the same sanitizers; SoundpackAudio is rebuilt after it.
kernels="$out/lib/libCSoundpackKernels.a"
if [ ! -e "$kernels" ] || [ -n "$(find Sources/CSoundpackKernels -newer "$kernels" -print -quit)" ]; then
  echo "fuzz: building CSoundpackKernels with -fsanitize=fuzzer-no-link,address" >&2
  objects=()
  for source in Sources/CSoundpackKernels/*.c; do
    objects+=("$out/lib/kernels-$(basename "$source" .c).o")
    clang -fsanitize=fuzzer-no-link,address -O2 -g -I Sources/CSoundpackKernels/include -c "$source" -o "${objects[-1]}"
  done
  rm -f "$kernels" && ar rcs "$kernels" "${objects[@]}"
  rm -f "$out/lib/SoundpackAudio.stamp"
fi
# (DEPENDS_ON is set before each call: bash cannot pass an array in a command's prefix.)
DEPENDS_ON=()
build_library SoundpackCore
# SoundpackKit's layers, lowest first (Package.swift), each rebuilt after any below it.
layers=(SoundpackSupport SoundpackAudio SoundpackPack SoundpackCatalog SoundpackValidation SoundpackRendering SoundpackSynthesis
        SoundpackStore SoundpackPublish SoundpackExport SoundpackPush SoundpackReports SoundpackKit)
below=(SoundpackCore)
for layer in "${layers[@]}"; do
  DEPENDS_ON=("${below[@]}")
  build_library "$layer" -I . "${modules[@]}"
  below+=("$layer")
done
layer_links=(); for layer in "${layers[@]}"; do layer_links=(-l"$layer" "${layer_links[@]}"); done

targets=(manifest amount audio plain mp4 archive payload json archiver store synth reading)
[ "$target" = all ] || targets=("$target")
export SWIFT_BACKTRACE=enable=no SOUNDPACK_FUZZ_TMP=${SOUNDPACK_FUZZ_TMP:-/dev/shm}
[ -d "$SOUNDPACK_FUZZ_TMP" ] || SOUNDPACK_FUZZ_TMP=/tmp
# Every target is built first, one at a time (the compiler takes both cores); then they run.
for name in "${targets[@]}"; do
  binary="$out/fuzz-$name"
  if [ ! -e "$binary" ] || [ "fuzz/targets/$name.swift" -nt "$binary" ] || [ "$(ls -t "$out"/lib/*.stamp | awk 'NR == 1')" -nt "$binary" ] || [ "$out/lib/SoundpackCore.stamp" -nt "$binary" ] || [ "$kernels" -nt "$binary" ]; then
    # gold warns about ASan's local helper symbols in the static libraries; harmless, so filtered.
    # The old binary goes first: a target that no longer compiles must not run as it was.
    rm -f "$binary"
    swiftc "${flags[@]}" -I "$out/lib" -L "$out/lib" "${modules[@]}" "fuzz/targets/$name.swift" \
      "${layer_links[@]}" -lSoundpackCore -lCSoundpackKernels "${links[@]}" -o "$binary" 2>&1 | { grep -v 'Cannot export local symbol' || true; } >&2
    [ "${PIPESTATUS[0]}" -eq 0 ] && [ -x "$binary" ] || { echo "fuzz: cannot build $name" >&2; exit 3; }
  fi
done

# One target's run, its summary lines on standard output; non-zero when it crashed or a seed failed.
run_target() {
  local name=$1 binary="$out/fuzz-$1" status=0
  corpus="$out/corpus/$name"
  mkdir -p "$corpus" "$out/crashes/$name"
  cp -n fuzz/corpus/"$name"/* "$corpus"/ 2>/dev/null || true
  cp -n fuzz/regressions/"$name"/* "$corpus"/ 2>/dev/null || true
  log="$out/$name.log"
  max_len=262144 timeout=10
  if [ "$name" = json ]; then
    # The JSON readers' cost: 1 MiB inputs through all eight readers, each input allowed 30 s under
    # ASan (about 8 s on the slowest seed; a release build scans one in 0.05 s, scripts/bench.sh json;
    # the quadratic scan took more than 300 s in release). The seeds are generated, not committed,
    # and timed first.
    max_len=1048576 timeout=30
    python3 - "$corpus" <<'PY'
import json, sys
folder = sys.argv[1]
size = 1 << 20
seeds = {
    "big-keys": "{" + ",".join('"k%d":%d' % (i, i) for i in range(60000)) + "}",
    "big-nesting": "[" * (size // 2) + "]" * (size // 2),
    "big-objects": '{"a":' * (size // 6) + "1" + "}" * (size // 6),
    # Every object, however deep, with its key twice: a scan that goes on past the first duplicate
    # (key locations) must not spell the path of each later one.
    "big-repeats": '{"a""a":' * (size // 8) + "1" + "}" * (size // 8),
    # A long name over many containers, and over many keys: key paths stay bounded, not copied each time.
    "big-long-arrays": '{"' + "x" * (size // 2) + '":[' + "[]," * (size // 6 - 8) + "[]]}",
    "big-long-keys": '{"' + "n" * (size // 2) + '":{' + ",".join('"k%d":0' % i for i in range(size // 26)) + "}}",
    "big-escapes": '{"texts":{"prefix":"' + "\\u5fae" * (size // 7) + '"}}',
    "big-commas": "[" + "1," * (size // 2 - 2) + "1]",
    "big-multibyte": '{"' + "微" * (size // 4) + '":1,"x":[' + ",".join(["2"] * 1000) + "]}",
}
for name, text in seeds.items():
    data = text.encode()[:size]
    open(f"{folder}/{name}", "wb").write(data)
PY
    "$binary" -runs=1 -timeout="$timeout" "$corpus"/big-* > "$out/$name-seeds.log" 2>&1 || { echo "fuzz: a 1 MiB JSON seed is slow or crashes" >&2; tail -5 "$out/$name-seeds.log" >&2; status=1; }
    grep -oE 'Executed [^ ]+ in [0-9]+ ms' "$out/$name-seeds.log" | sed -E 's#Executed .*/(big-[a-z-]+) in#  json seed \1:#' || true
  fi
  if "$binary" -max_total_time="$seconds" -print_final_stats=1 -rss_limit_mb=2048 -timeout="$timeout" -max_len="$max_len" \
      -artifact_prefix="$out/crashes/$name/" "$corpus" >"$log" 2>&1; then
    result=ok
  else
    result=CRASH
    status=1
  fi
  runs=$(awk '/stat::number_of_executed_units/ { print $2 }' "$log")
  speed=$(awk '/stat::average_exec_per_sec/ { print $2 }' "$log")
  coverage=$(grep -oE 'cov: [0-9]+' "$log" | tail -1 | awk '{ print $2 }' || true)
  printf 'fuzz %-9s %-5s %10s runs in %ss, %7s exec/s, coverage %s edges\n' "$name" "$result" "${runs:-?}" "$seconds" "${speed:-?}" "${coverage:-?}"
  if [ "$result" = CRASH ]; then
    awk '/ERROR|Fatal|panic|precondition|SUMMARY/ && ++shown <= 5' "$log"
    ls "$out/crashes/$name/"
  fi
  return $status
}

# The targets run side by side, one per processor (SOUNDPACK_FUZZ_JOBS), each for SECONDS; their
# summaries are printed in the targets' order.
jobs_at_once=${SOUNDPACK_FUZZ_JOBS:-$(nproc)}
for name in "${targets[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs_at_once" ]; do wait -n || true; done
  rm -f "$out/$name.status"
  { code=0; run_target "$name" || code=$?; echo "$code" > "$out/$name.status"; } > "$out/$name.summary" 2>&1 &
done
wait
status=0
for name in "${targets[@]}"; do
  cat "$out/$name.summary"
  [ "$(cat "$out/$name.status" 2>/dev/null)" = 0 ] || status=1
done
exit $status
