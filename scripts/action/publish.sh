#!/usr/bin/env bash
# The action's publish, for the main branch: publish every pack (signed with the sign-key input),
# record what else the store holds (catalog rebuild --from-store: a fresh runner's catalog learns
# the store's earlier versions, so none of them reads as a leftover), then verify the whole store,
# every signature checked with the public key the app trusts. The secret key is written to a 0600
# file in a private folder under RUNNER_TEMP and removed when the step ends, whatever happens.
# Run by action.yml; the variables are the action's inputs.
set -euo pipefail
. "$(dirname "$0")/common.sh"
pack_folders
use_inputs
[ -n "${SOUNDPACK_STORE:-}" ] || fail "publish needs the store input (s3://BUCKET/PREFIX or a folder): a runner's own disk is gone when the job ends"

sign=() public=()
keys=$(umask 077 && mktemp -d "$work/keys.XXXXXX")
trap 'rm -rf "$keys"' EXIT
if [ -n "${SOUNDPACK_ACTION_SIGN_KEY:-}" ]; then
  [ -n "${SOUNDPACK_ACTION_PUBLIC_KEY:-}" ] ||
    fail "the sign-key input needs the public-key input too: the public key your app trusts, so verify checks what phones check"
  (umask 077 && printf '%s\n' "$SOUNDPACK_ACTION_SIGN_KEY" >"$keys/sign.key")
  unset SOUNDPACK_ACTION_SIGN_KEY  # soundpack and what it starts never see the secret itself
  sign=(--sign-key "$keys/sign.key")
else
  echo "::warning title=soundpack publish::no sign-key input: manifests are published unsigned, and an app that trusts a key (ManifestTrust.signed) refuses them"
fi
if [ -n "${SOUNDPACK_ACTION_PUBLIC_KEY:-}" ]; then
  printf '%s\n' "$SOUNDPACK_ACTION_PUBLIC_KEY" >"$keys/sign.key.pub"
  public=(--public-key "$keys/sign.key.pub")
fi

status=0
rm -f "$work/publish.txt" "$work/rebuild.txt" "$work/verify.txt"  # not an earlier use's, in the same job
soundpack publish "${folders[@]}" ${sign[@]+"${sign[@]}"} --color never --format github 2>&1 | tee "$work/publish.txt" || status=$?
if [ "$status" -eq 0 ]; then
  soundpack catalog rebuild --from-store --color never 2>&1 | tee "$work/rebuild.txt" || status=$?
fi
if [ "$status" -eq 0 ]; then
  soundpack verify ${public[@]+"${public[@]}"} --color never --format github 2>&1 | tee "$work/verify.txt" || status=$?
fi
# What ran (a failed publish skips the rest): its lines, in the summary, whatever the exit code.
cat "$work"/publish.txt "$work"/rebuild.txt "$work"/verify.txt 2>/dev/null | plain >"$work/publish-summary.txt" || true
summary "soundpack publish" "$work/publish-summary.txt"
exit "$status"
