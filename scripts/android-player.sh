#!/usr/bin/env bash
# Builds and tests the Kotlin reference player (Players/android) on the JVM with Debian's kotlinc
# and the JUnit 5 jars in /usr/share/java: the library and harness into one runnable jar, the
# Android adapter against the android.media stand-ins, then the tests. Each source set is
# compiled once (kotlinc 1.3 is slow). Output goes to Players/android/build/.
#
#   scripts/android-player.sh            build, test, smoke-test the harness
#   KOTLINC=/path/to/kotlinc scripts/android-player.sh   another compiler (e.g. a current Kotlin)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
player="$root/Players/android"
build="$player/build"
kotlinc="${KOTLINC:-kotlinc}"
java_dir="${JAVA_JARS:-/usr/share/java}"

for jar in junit-platform-console-standalone junit-jupiter-api apiguardian-api opentest4j junit-platform-commons; do
    if [[ ! -f "$java_dir/$jar.jar" ]]; then
        echo "error: $java_dir/$jar.jar is missing — install the JUnit 5 jars (apt-get install junit5)" >&2
        exit 3
    fi
done
command -v "$kotlinc" >/dev/null || { echo "error: $kotlinc not found — install kotlin (apt-get install kotlin)" >&2; exit 3; }

# The adapter must reach Android only through android.*: never the stand-ins' test controls.
if grep -rn "standin" "$player/android" "$player/src"; then
    echo "error: the player imports the stand-ins' test controls (above); only tests may" >&2
    exit 1
fi

rm -rf "$build"
mkdir -p "$build"
compile() { # label, kotlinc arguments…
    local label="$1" started=$SECONDS log="$build/kotlinc-$1.log"
    shift
    # -nowarn keeps the logs to errors; the JVM's -Xverify deprecation notice is not ours.
    if ! "$kotlinc" -nowarn "$@" >"$log" 2>&1; then
        grep -v -- '-Xverify' "$log" >&2 || true
        echo "error: compiling $label failed" >&2
        exit 1
    fi
    echo "compiled $label in $((SECONDS - started))s"
}

compile library "$player/src" "$player/harness" -include-runtime -d "$build/soundpack-player.jar" </dev/null
compile android "$player/android" "$player/standins" -cp "$build/soundpack-player.jar" -d "$build/android-classes" </dev/null
test_cp="$java_dir/junit-jupiter-api.jar:$java_dir/apiguardian-api.jar:$java_dir/opentest4j.jar:$java_dir/junit-platform-commons.jar"
compile tests "$player/test" -cp "$build/soundpack-player.jar:$build/android-classes:$test_cp" -d "$build/test-classes" </dev/null

started=$SECONDS
status=0
# The tests' temporary exports go under build/ (wiped by the next run), not into /tmp.
mkdir -p "$build/tmp"
java -Djava.io.tmpdir="$build/tmp" -jar "$java_dir/junit-platform-console-standalone.jar" \
    -cp "$build/soundpack-player.jar:$build/android-classes:$build/test-classes" \
    --scan-classpath "$build/test-classes" --include-engine junit-jupiter \
    --disable-banner --disable-ansi-colors --details=summary --details-theme=ascii \
    --reports-dir "$build/test-reports" </dev/null || status=$?
echo "tests ran in $((SECONDS - started))s"
if [[ $status -ne 0 ]]; then
    echo "error: tests failed (status $status); reports in $build/test-reports" >&2
    exit 1
fi

# The harness jar runs on its own: a usage error must exit 2.
harness_status=0
java -jar "$build/soundpack-player.jar" >/dev/null 2>&1 </dev/null || harness_status=$?
if [[ $harness_status -ne 2 ]]; then
    echo "error: java -jar soundpack-player.jar without arguments exited $harness_status, not 2" >&2
    exit 1
fi
echo "built $build/soundpack-player.jar (java -jar … say|render|table-say)"
