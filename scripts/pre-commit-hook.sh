#!/bin/sh
# Git pre-commit hook: validate every pack whose files are staged, strictly (the banner advice,
# compose.banner-cut, is printed but not a failure: see docs/ci.md). Install with
#   ln -s ../../scripts/pre-commit-hook.sh .git/hooks/pre-commit
# Needs soundpack on PATH (scripts/soundpack builds it). POSIX sh (macOS's bash 3.2 and Debian's
# dash run it). Pack folders may have any name: paths are read NUL-separated (xargs -0), never
# split on spaces or quoted by git, and each pack is validated once (its name, in hex so that one
# name is one line, is listed in a file as it is validated).
set -eu
seen=$(mktemp "${TMPDIR:-/tmp}/soundpack-pre-commit.XXXXXX")
trap 'rm -f "$seen"' EXIT
git diff --cached --name-only -z --diff-filter=ACMR -- 'packs/*' | xargs -0 sh -c '
  seen=$1
  shift
  for path do
    case $path in packs/*/*) ;; *) continue ;; esac
    rest=${path#packs/}
    pack="packs/${rest%%/*}"
    marker=$(printf "%s" "$pack" | od -An -tx1 | tr -d " \n")
    grep -qxF "$marker" "$seen" && continue
    echo "$marker" >> "$seen"
    [ -f "$pack/pack.json" ] || continue
    soundpack validate "$pack" --strict --ignore compose.banner-cut --no-record || {
      echo "pre-commit: $pack does not validate; fix the findings above or commit with --no-verify" >&2
      exit 1
    }
  done
' sh "$seen"
