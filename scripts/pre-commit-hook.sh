#!/usr/bin/env bash
# Git pre-commit hook: validate every pack whose files are staged, strictly (the banner advice,
# compose.banner-cut, is printed but not a failure: see docs/ci.md). Install with
#   ln -s ../../scripts/pre-commit-hook.sh .git/hooks/pre-commit
# Needs soundpack on PATH (scripts/soundpack builds it). Pack folders may have any name: paths are
# read NUL-separated, never split on spaces or quoted by git.
set -euo pipefail
declare -A seen=()
packs=()
while IFS= read -r -d '' path; do
  rest=${path#packs/}
  [ "$rest" != "$path" ] && [ "${rest%%/*}" != "$rest" ] || continue
  pack="packs/${rest%%/*}"
  [ -n "${seen[$pack]+set}" ] && continue
  seen[$pack]=1
  packs+=("$pack")
done < <(git diff --cached --name-only -z --diff-filter=ACMR -- 'packs/*')
for pack in "${packs[@]}"; do
  [ -f "$pack/pack.json" ] || continue
  soundpack validate "$pack" --strict --ignore compose.banner-cut --no-record || {
    echo "pre-commit: $pack does not validate; fix the findings above or commit with --no-verify" >&2
    exit 1
  }
done
