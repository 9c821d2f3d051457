#!/usr/bin/env bash
# The test command of the README and CI: installs what is missing, starts throw-away PostgreSQL
# and OpenStack Swift servers (stopped at the end, whatever happens), checks the iOS availability of
# the code that ships to phones and its privacy manifests, builds (the iOS example too, against the
# stand-ins of Apple's frameworks, and once more with default isolation MainActor), cuts a
# release with a throw-away key and checks it (scripts/check/release.sh), checks the JSON
# schemas and CI formats against real output and their consumers, builds and tests the Kotlin player
# (Players/android) and checks it against soundpack on every grammar and demo pack, runs every command of
# docs/ci.md from a team's repository, runs action.yml as GitHub's runner does, runs the publish reliability scripts (kill -9 at 24 points, 4 concurrent
# publishers; 8 runners on PostgreSQL + S3 with a server restart, kill -9 at 20 points there), runs every fuzz target for 60 s (SOUNDPACK_FUZZ_SECONDS), then runs every test. `swift test` runs last so its closing
# line is the last line of output; every step before it says on standard error how long it took.
set -euo pipefail
cd "$(dirname "$0")/.."
# Each step's wall time on standard error (the last, swift test, prints its own), and the whole run's.
run_started=$SECONDS
step() {
  local started=$SECONDS
  "$@"
  echo "ci: $(( SECONDS - started )) s for ${*:1:3}" >&2
}
step scripts/bootstrap.sh --dev
# Throw-away servers for the catalog and store tests, stopped on any exit (a failing test too):
# PostgreSQL on a Unix socket, OpenStack Swift (S3 API) on 127.0.0.1.
servers_started=$(date +%s)
eval "$(scripts/servers/postgres.sh start)"
trap 'scripts/servers/postgres.sh stop "$SOUNDPACK_PG_DIR"' EXIT
eval "$(scripts/servers/swift.sh start)"
trap 'scripts/servers/postgres.sh stop "$SOUNDPACK_PG_DIR"; scripts/servers/swift.sh stop "$SOUNDPACK_SWIFT_DIR"' EXIT
echo "servers: PostgreSQL and Swift (S3) up in $(( $(date +%s) - servers_started )) s"
export SOUNDPACK_REQUIRE_SERVERS=1
step scripts/check/run-script.sh
step scripts/check/core-graph.sh
step python3 scripts/check/early-exit-pipes.py  # no `| head`/`grep -q` that can kill its writer with SIGPIPE under pipefail
step python3 scripts/check/function-length.py --max 60 --top 3  # no function in Sources longer than 60 lines
step python3 scripts/check/public-surface.py        # every public declaration of the engine's layers has a doc comment
step python3 scripts/check/linux-imports.py
step python3 scripts/check/ios-availability.py
step python3 scripts/check/ios-availability-selftest.py
step python3 scripts/check/privacy-manifest.py
step swift build --build-tests --explicit-target-dependency-import-check error  # a target imports only what it declares
step scripts/check/example-isolation.sh
step swift build -c release  # every target, as a developer types it (docs.sh then reuses it for the product)
step scripts/check/release.sh  # the static release build, its tarball, signature and a run without the toolchain
step scripts/check/version.sh .build/debug/soundpack
step python3 scripts/check/schemas.py .build/debug/soundpack
step python3 scripts/check/ci-formats.py .build/debug/soundpack
step scripts/check/docs.sh
step python3 scripts/check/action.py
step python3 scripts/check/readme.py .build/debug/soundpack
step python3 scripts/check/report-layout.py .build/debug/soundpack
step scripts/android-player.sh  # the Kotlin reference player, built with kotlinc against its Android stand-ins, its JUnit tests run
step python3 scripts/check/android-player.py .build/debug/soundpack Players/android/build/soundpack-player.jar  # it reads and joins as soundpack does
step env "SOUNDPACK_BIN=$PWD/.build/release/soundpack" scripts/check/reliability/kill-publish.sh 24
step env "SOUNDPACK_BIN=$PWD/.build/release/soundpack" scripts/check/reliability/concurrent-publish.sh
step env "SOUNDPACK_BIN=$PWD/.build/release/soundpack" scripts/check/reliability/team-publish.sh 20
step scripts/fuzz.sh all "${SOUNDPACK_FUZZ_SECONDS:-60}"
echo "ci: $(( SECONDS - run_started )) s before swift test" >&2
swift test
