#!/bin/sh
# The version has one source of truth: `soundpack --version` prints the newest numbered entry of
# CHANGELOG.md ("## X.Y.Z — date"); an Unreleased section may sit above it.
# Usage: scripts/check/version.sh [path/to/soundpack]   (default .build/debug/soundpack)
set -eu
cd "$(dirname "$0")/../.."
binary=${1:-.build/debug/soundpack}
printed=$("$binary" --version)
newest=$(sed -n 's/^## \([0-9][0-9]*\.[0-9][0-9]*\.[0-9][0-9]*[^ ]*\).*/\1/p' CHANGELOG.md | head -n 1)
if [ -z "$newest" ]; then
  echo "version: CHANGELOG.md has no numbered entry (## X.Y.Z — date)" >&2
  exit 1
fi
if [ "$printed" != "soundpack $newest" ]; then
  echo "version: soundpack --version prints '$printed', CHANGELOG.md's newest entry is $newest" >&2
  exit 1
fi
# The license, as Debian's licensecheck (installed by bootstrap.sh --dev) names it.
license=$(licensecheck LICENSE)
case "$license" in
  *"Apache License 2.0"*) ;;
  *) echo "version: licensecheck does not name LICENSE Apache License 2.0: $license" >&2; exit 1 ;;
esac
echo "version: soundpack $newest, as CHANGELOG.md's newest entry says; LICENSE is the Apache License 2.0 (licensecheck)"
