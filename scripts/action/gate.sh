#!/usr/bin/env bash
# The action's gate, for pull requests: validate every pack (SARIF and JUnit files, annotations in
# the log, a table in the job summary), then `publish --dry-run` against the store, so a clip
# changed without a version bump fails here and not after the merge (reading the store is enough:
# read-only credentials do). Every check runs whatever the one before decided; the step fails if
# any failed. Run by action.yml; the variables are the action's inputs.
set -uo pipefail
. "$(dirname "$0")/common.sh"
pack_folders
use_inputs
strict=()
case "${SOUNDPACK_ACTION_STRICT:-true}" in
  true) strict=(--strict) ;;
  false) ;;
  *) fail "the strict input is true or false, not '${SOUNDPACK_ACTION_STRICT}'" ;;
esac
sarif="$work/soundpack.sarif" junit="$work/soundpack-junit.xml"
rm -f "$sarif" "$junit"
verdict=0
# The step's exit code is the worst of the checks': 1 a pack failed, 2 usage, 3 environment.
worst() { [ "$1" -le "$verdict" ] || verdict=$1; }

# The SARIF file, and the text (findings and one line per pack) in the log.
soundpack validate "${folders[@]}" ${strict[@]+"${strict[@]}"} --no-record --color never --format sarif --output "$sarif"
worst $?
# Annotations on the pull request's files, and the JUnit file.
soundpack validate "${folders[@]}" ${strict[@]+"${strict[@]}"} --no-record --format github
worst $?
soundpack validate "${folders[@]}" ${strict[@]+"${strict[@]}"} --no-record --format junit --output "$junit" >/dev/null
[ -s "$sarif" ] && echo "sarif=$sarif" >>"$GITHUB_OUTPUT"
[ -s "$junit" ] && echo "junit=$junit" >>"$GITHUB_OUTPUT"
# (validate --format github wrote its table of packs to the job summary itself.)

if [ -n "${SOUNDPACK_STORE:-}" ]; then
  # What publish would do on main, against what the store holds: a version conflict or a missing
  # bump is refused now. Nothing is written, not even a lock.
  soundpack publish "${folders[@]}" --dry-run --color never --format github >"$work/dry-run.txt" 2>&1
  worst $?
  cat "$work/dry-run.txt"
  plain <"$work/dry-run.txt" >"$work/dry-run-summary.txt"
  summary "soundpack publish --dry-run" "$work/dry-run-summary.txt"
else
  echo "::warning title=soundpack gate::no store input: the gate validated the packs but could not check version bumps against what is published"
fi
exit "$verdict"
