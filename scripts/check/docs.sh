#!/usr/bin/env bash
# Runs every command of docs/ci.md for real: the `run:` steps of the workflow and the lines of the
# sh blocks, in order, in a fresh git project holding the demo pack; then exercises the pre-commit
# hook with a broken and a good commit. Build steps run at the repository root (their output is
# .build, which git ignores); the others in the project.
#   scripts/check/docs.sh [path/to/soundpack-folder]   (default: build release)
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
project=$work/project
mkdir -p "$project/packs" "$project/scripts"
cp -r packs/wechat "$project/packs/wechat"
cp scripts/pre-commit-hook.sh "$project/scripts/"
(cd "$project" && git init -q && git config user.email ci@example.invalid && git config user.name ci && git add -A && git commit -qm "packs")
export GITHUB_PATH=$work/github-path

# Commands in document order: `run:` steps of yaml blocks, and lines of sh blocks.
python3 - "$root/docs/ci.md" >"$work/commands" <<'PY'
import re, sys
lang, out = None, []
for line in open(sys.argv[1]):
    fence = re.match(r"^```(\w*)", line)
    if fence:
        lang = fence.group(1) if lang is None else None
        continue
    if lang == "yaml":
        m = re.match(r"^\s*-?\s*run:\s*(.+)$", line)
        if m: out.append(m.group(1).strip())
    elif lang == "sh":
        if line.strip() and not line.strip().startswith("#"): out.append(line.rstrip("\n"))
print("\n".join(out))
PY

ran=0
while IFS= read -r command; do
  case "$command" in
    "set -e") continue ;;
    scripts/bootstrap.sh*|"swift build"*)
      (cd "$root" && bash -c "$command") >/dev/null ;;
    echo*GITHUB_PATH*)
      (cd "$root" && bash -c "$command") ;;
    *)
      PATH="$(tr '\n' ':' <"$GITHUB_PATH")$PATH"
      (cd "$project" && bash -o pipefail -c "$command") >"$work/out" 2>&1 || { echo "docs/ci.md: '$command' failed:"; cat "$work/out"; exit 1; } ;;
  esac
  ran=$((ran + 1))
done <"$work/commands"

# The hook refuses a commit with a broken clip and accepts one that validates.
PATH="$(tr '\n' ':' <"$GITHUB_PATH")$PATH"
cd "$project"
printf 'not audio %.0s' $(seq 500) >packs/wechat/clips/5.caf
git add packs/wechat/clips/5.caf
if git commit -qm "broken clip" 2>/dev/null; then echo "pre-commit hook let a broken clip through"; exit 1; fi
git checkout -q HEAD -- packs/wechat/clips/5.caf
sed -i 's/"maxLeadingSilenceMs" : 60/"maxLeadingSilenceMs" : 70/' packs/wechat/pack.json
git add packs/wechat/pack.json
git commit -qm "tune a threshold" >/dev/null || { echo "pre-commit hook refused a good commit"; exit 1; }
for file in soundpack.sarif soundpack-junit.xml dist/index.json SoundpackManifest.plist soundpack-baseline.json; do
  [ -s "$file" ] || { echo "docs/ci.md promised $file"; exit 1; }
done
echo "docs/ci.md: $ran commands ran; the pre-commit hook refused a broken clip and passed a good commit"
