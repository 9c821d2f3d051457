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
# line is the last line of output.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh --dev
# Throw-away servers for the catalog and store tests, stopped on any exit (a failing test too):
# PostgreSQL on a Unix socket, OpenStack Swift (S3 API) on 127.0.0.1.
servers_started=$(date +%s)
eval "$(scripts/servers/postgres.sh start)"
trap 'scripts/servers/postgres.sh stop "$SOUNDPACK_PG_DIR"' EXIT
eval "$(scripts/servers/swift.sh start)"
trap 'scripts/servers/postgres.sh stop "$SOUNDPACK_PG_DIR"; scripts/servers/swift.sh stop "$SOUNDPACK_SWIFT_DIR"' EXIT
echo "servers: PostgreSQL and Swift (S3) up in $(( $(date +%s) - servers_started )) s"
export SOUNDPACK_REQUIRE_SERVERS=1
scripts/check/run-script.sh
scripts/check/core-graph.sh
python3 scripts/check/early-exit-pipes.py  # no `| head`/`grep -q` that can kill its writer with SIGPIPE under pipefail
python3 scripts/check/function-length.py --max 60 --top 3  # no function in Sources longer than 60 lines
python3 scripts/check/public-surface.py        # every public declaration of the engine's layers has a doc comment
python3 scripts/check/linux-imports.py
python3 scripts/check/ios-availability.py
python3 scripts/check/ios-availability-selftest.py
python3 scripts/check/privacy-manifest.py
swift build --build-tests --explicit-target-dependency-import-check error  # a target imports only what it declares
scripts/check/example-isolation.sh
swift build -c release  # every target, as a developer types it (docs.sh then reuses it for the product)
scripts/check/release.sh  # the static release build, its tarball, signature and a run without the toolchain
scripts/check/version.sh .build/debug/soundpack
python3 scripts/check/schemas.py .build/debug/soundpack
python3 scripts/check/ci-formats.py .build/debug/soundpack
scripts/check/docs.sh
python3 scripts/check/action.py
python3 scripts/check/readme.py .build/debug/soundpack
python3 scripts/check/report-layout.py .build/debug/soundpack
scripts/android-player.sh  # the Kotlin reference player, built with kotlinc against its Android stand-ins, its JUnit tests run
python3 scripts/check/android-player.py .build/debug/soundpack Players/android/build/soundpack-player.jar  # it reads and joins as soundpack does
SOUNDPACK_BIN=$PWD/.build/debug/soundpack scripts/check/reliability/kill-publish.sh 24
SOUNDPACK_BIN=$PWD/.build/debug/soundpack scripts/check/reliability/concurrent-publish.sh
SOUNDPACK_BIN=$PWD/.build/debug/soundpack scripts/check/reliability/team-publish.sh 20
scripts/fuzz.sh all "${SOUNDPACK_FUZZ_SECONDS:-60}"
swift test
