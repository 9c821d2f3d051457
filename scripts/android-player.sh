#!/usr/bin/env bash
# Builds and tests the Kotlin reference player (Players/android) with Debian's kotlinc and JUnit 5,
# no Gradle: the library and the Android stand-ins compiled once, the tests against them, the JUnit
# console launcher run over them (any failure fails the script), and the command-line harness jar
# (Players/android/build/soundpack-player.jar: say, render, table-say).
# Usage: scripts/android-player.sh
set -euo pipefail
cd "$(dirname "$0")/.."
command -v kotlinc >/dev/null || { echo "android-player: kotlinc is missing (scripts/bootstrap.sh --dev installs kotlin)" >&2; exit 3; }
player=Players/android
build=$player/build
rm -rf "$build"
mkdir -p "$build"
junit=/usr/share/java
classpath="$junit/junit-jupiter-api.jar:$junit/apiguardian-api.jar:$junit/opentest4j.jar:$junit/junit-platform-commons.jar"
for jar in junit-jupiter-api.jar apiguardian-api.jar opentest4j.jar junit-platform-commons.jar junit-platform-console-standalone.jar; do
  [ -e "$junit/$jar" ] || { echo "android-player: $junit/$jar is missing (scripts/bootstrap.sh --dev installs junit5)" >&2; exit 3; }
done
started=$(date +%s)
# The library with the stand-ins of android.media, then the tests against both.
kotlinc -nowarn $(find "$player/src/main/kotlin" "$player/standins" -name '*.kt' | sort) -d "$build/classes" 2>&1
kotlinc -nowarn -cp "$build/classes:$classpath" $(find "$player/src/test/kotlin" -name '*.kt' | sort) -d "$build/test-classes" 2>&1
java -jar "$junit/junit-platform-console-standalone.jar" --disable-banner --details=summary --fail-if-no-tests \
  -cp "$build/classes:$build/test-classes:/usr/share/java/kotlin-stdlib.jar" \
  --select-package dev.soundpack.player
# The harness: the library (no stand-ins: the harness never opens an AudioTrack) with Kotlin's runtime.
kotlinc -nowarn $(find "$player/src/main/kotlin" -name '*.kt' ! -name 'AudioTrackSink.kt' | sort) -include-runtime -d "$build/soundpack-player.jar" 2>&1
echo "android-player: built and tested in $(( $(date +%s) - started )) s; harness $build/soundpack-player.jar"
