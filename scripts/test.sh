#!/usr/bin/env bash
# The test command of the README and CI: installs what is missing, builds, checks the JSON
# schemas against real output, then runs every test. `swift test` runs last so its closing
# line is the last line of output.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh --dev
swift build --build-tests
python3 scripts/check-schemas.py .build/debug/soundpack
swift test
