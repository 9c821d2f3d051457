# Shared by the action's gate.sh and publish.sh (sourced): the pack folders, the store and catalog
# settings from the inputs, and the job summary.

fail() { echo "::error title=soundpack action::$1" >&2; exit 1; }

# The pack folders under the packs input: each folder that holds a pack.json. None is an error,
# never a green gate on nothing.
pack_folders() {
  local packs=${SOUNDPACK_ACTION_PACKS:-packs} folder
  [ -d "$packs" ] || fail "no folder '$packs' in the repository ($PWD): set the packs input to the folder that holds your pack folders"
  folders=()
  for folder in "$packs"/*/; do
    folder=${folder%/}
    [ -f "$folder/pack.json" ] || continue
    case "$folder" in -*) folder="./$folder" ;; esac  # never read as an option
    folders+=("$folder")
  done
  [ ${#folders[@]} -gt 0 ] || fail "no pack folder (a folder holding pack.json) under '$packs'"
}

# The store, catalog and S3 endpoint inputs, as soundpack's own variables; empty inputs leave the
# job's environment as it is.
use_inputs() {
  if [ -n "${SOUNDPACK_ACTION_STORE:-}" ]; then export SOUNDPACK_STORE="$SOUNDPACK_ACTION_STORE"; fi
  if [ -n "${SOUNDPACK_ACTION_CATALOG:-}" ]; then export SOUNDPACK_CATALOG="$SOUNDPACK_ACTION_CATALOG"; fi
  if [ -n "${SOUNDPACK_ACTION_S3_ENDPOINT:-}" ]; then export AWS_ENDPOINT_URL_S3="$SOUNDPACK_ACTION_S3_ENDPOINT"; fi
  # The reports and keys of this job live under RUNNER_TEMP, outside the team's workspace.
  work="${RUNNER_TEMP:?RUNNER_TEMP is set by the runner}/soundpack"
  mkdir -p "$work"
}

# Appends a heading and a text file to the job summary, in a code fence longer than any run of
# backticks in the text (a file name cannot close it).
summary() {
  local heading=$1 file=$2 fence='```' longest
  [ -n "${GITHUB_STEP_SUMMARY:-}" ] || return 0
  longest=$({ grep -o '`*' "$file" || true; } | awk '{ if (length($0) > n) n = length($0) } END { print n + 0 }')
  while [ ${#fence} -le "$longest" ]; do fence="$fence\`"; done
  { printf '### %s\n\n%s text\n' "$heading" "$fence"; cat "$file"; printf '%s\n\n' "$fence"; } >>"$GITHUB_STEP_SUMMARY"
}

# github-format lines as plain text for the summary: `::error file=…::message` becomes `error: message`.
plain() { sed -E 's/^::(error|warning|notice)[^:]*::/\1: /'; }
