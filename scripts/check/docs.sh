#!/usr/bin/env bash
# Runs every command of docs/ci.md for real (see scripts/check/docs.py).
set -euo pipefail
cd "$(dirname "$0")/../.."
exec python3 scripts/check/docs.py "$@"
