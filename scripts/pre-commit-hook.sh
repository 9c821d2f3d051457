#!/usr/bin/env bash
# Git pre-commit hook: validate every pack whose files are staged, strictly (the banner advice,
# compose.banner-cut, is printed but not a failure: see docs/ci.md). Install with
#   ln -s ../../scripts/pre-commit-hook.sh .git/hooks/pre-commit
# Needs soundpack on PATH (scripts/soundpack builds it).
set -euo pipefail
packs=$(git diff --cached --name-only --diff-filter=ACMR -- 'packs/*' | cut -d/ -f1-2 | sort -u)
[ -n "$packs" ] || exit 0
for pack in $packs; do
  [ -f "$pack/pack.json" ] || continue
  soundpack validate "$pack" --strict --ignore compose.banner-cut --no-record || {
    echo "pre-commit: $pack does not validate; fix the findings above or commit with --no-verify" >&2
    exit 1
  }
done
