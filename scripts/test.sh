#!/usr/bin/env bash
# The test command of the README and CI: installs what is missing, starts a throw-away PostgreSQL
# server (stopped at the end, whatever happens), builds, checks the JSON
# schemas and CI formats against real output and their consumers, runs every command of
# docs/ci.md, runs the publish reliability scripts (kill -9 at 24 points, 4 concurrent
# publishers), runs every fuzz target for 60 s (SOUNDPACK_FUZZ_SECONDS), then runs every test. `swift test` runs last so its closing
# line is the last line of output.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh --dev
# Throw-away servers for the catalog and store tests, stopped on any exit (a failing test too).
eval "$(scripts/servers/postgres.sh start)"
trap 'scripts/servers/postgres.sh stop "$SOUNDPACK_PG_DIR"' EXIT
export SOUNDPACK_REQUIRE_SERVERS=1
scripts/check/core-graph.sh
python3 scripts/check/ios-availability.py
swift build --build-tests
python3 scripts/check/schemas.py .build/debug/soundpack
python3 scripts/check/ci-formats.py .build/debug/soundpack
scripts/check/docs.sh
python3 scripts/check/readme.py .build/debug/soundpack
python3 scripts/check/report-layout.py .build/debug/soundpack
SOUNDPACK_BIN=$PWD/.build/debug/soundpack scripts/check/reliability/kill-publish.sh 24
SOUNDPACK_BIN=$PWD/.build/debug/soundpack scripts/check/reliability/concurrent-publish.sh
scripts/fuzz.sh all "${SOUNDPACK_FUZZ_SECONDS:-60}"
swift test
