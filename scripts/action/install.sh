#!/usr/bin/env bash
# The action's first step: checks the command, then puts soundpack on the job's PATH — a release
# (SOUNDPACK_ACTION_VERSION: downloaded, its SHA256SUMS checked and its signature verified with
# OpenSSL) or a build of the action's own checkout (SOUNDPACK_ACTION_PATH), never anything from the
# team's workspace. Run by action.yml; the variables are the action's inputs.
set -euo pipefail

fail() { echo "::error title=soundpack action::$1" >&2; exit 1; }

case "${SOUNDPACK_ACTION_COMMAND:-}" in
  gate|publish) ;;
  *) fail "the command input must be gate or publish, not '${SOUNDPACK_ACTION_COMMAND:-}'" ;;
esac
action=${GITHUB_ACTION_PATH:?GITHUB_ACTION_PATH is set by the runner}
os=${SOUNDPACK_ACTION_OS:-$(uname -s)}
version=${SOUNDPACK_ACTION_VERSION:-}
tmp=${RUNNER_TEMP:?RUNNER_TEMP is set by the runner}

if [ -n "$version" ]; then
  case "$version" in
    [0-9]*.[0-9]*.[0-9]*) ;;
    *) fail "the version input is a release number such as 0.1.0, not '$version'" ;;
  esac
  case "$version" in *[!0-9A-Za-z.+-]*) fail "the version input is a release number such as 0.1.0, not '$version'" ;; esac
  [ "$os" = Linux ] && [ "$(uname -m)" = x86_64 ] ||
    fail "releases are built for Linux x86_64; on $os $(uname -m), leave the version input empty to build soundpack from the action's checkout"
  name="soundpack-$version-linux-x86_64"
  # github.action_repository is empty inside composite steps (actions/runner#2473): the repository
  # is read from the action's path, …/_actions/OWNER/REPO/REF, when the input does not name it.
  repository=${SOUNDPACK_ACTION_REPOSITORY:-}
  if [ -z "$repository" ]; then
    case "$action" in
      */_actions/*/*/*) repository=$(printf '%s' "$action" | sed -n 's|.*/_actions/\([^/]*\)/\([^/]*\)/[^/]*/*$|\1/\2|p') ;;
    esac
  fi
  if [ -z "${SOUNDPACK_ACTION_RELEASE_URL:-}" ] && [ -z "$repository" ]; then
    fail "cannot tell which repository's releases to download: set the release-url input"
  fi
  base=${SOUNDPACK_ACTION_RELEASE_URL:-https://github.com/$repository/releases/download/v$version}
  key=${SOUNDPACK_ACTION_RELEASE_PUBLIC_KEY:-}
  if [ -z "$key" ]; then
    [ -s "$action/release-key.pub" ] || fail "no key to check the release with: set the release-public-key input, or leave version empty to build"
    key=$(cat "$action/release-key.pub")
  fi
  download="$tmp/soundpack-release"
  rm -rf "$download" && mkdir -p "$download"
  for file in "$name.tar.gz" SHA256SUMS SHA256SUMS.sig; do
    curl --fail --silent --show-error --location --proto '=https,file' --proto-redir '=https' --output "$download/$file" "$base/$file" ||
      fail "cannot download $base/$file"
  done
  # The signature first: SHA256SUMS is only trusted once the release key signed it.
  { printf '\x30\x2a\x30\x05\x06\x03\x2b\x65\x70\x03\x21\x00'; printf '%s' "$key" | base64 -d; } >"$download/release-key.der" 2>/dev/null ||
    fail "the release public key is not one line of base64 (a .pub file written by soundpack keygen)"
  [ "$(wc -c <"$download/release-key.der")" -eq 44 ] || fail "the release public key is not a 32-byte Ed25519 key (a .pub file written by soundpack keygen)"
  openssl pkeyutl -verify -pubin -inkey "$download/release-key.der" -keyform DER -rawin \
      -in "$download/SHA256SUMS" -sigfile "$download/SHA256SUMS.sig" >/dev/null ||
    fail "the signature of $base/SHA256SUMS does not verify with the release public key: do not use this download"
  (cd "$download" && awk -v file="$name.tar.gz" '$2 == file' SHA256SUMS | grep . | sha256sum --check --status) ||
    fail "$name.tar.gz does not match the signed SHA256SUMS: do not use this download"
  # The C libraries the binary links (the Swift runtime is inside it).
  runtime=(libsqlite3-0 libsndfile1 libsodium23 libsamplerate0 libebur128-1 libarchive13 libssl3 libpq5 libcurl4)
  missing=()
  for package in "${runtime[@]}"; do
    case "$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true)" in *"install ok installed"*) ;; *) missing+=("$package") ;; esac
  done
  if [ ${#missing[@]} -gt 0 ]; then
    sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo
    echo "installing ${missing[*]}"
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
  tar -xzf "$download/$name.tar.gz" -C "$download"
  bin="$download/$name/bin"
elif [ "$os" = macOS ]; then
  # Homebrew's C libraries; libpq, libcurl, libespeak-ng and FFmpeg's are opened on first use, so only
  # their headers are needed to build (libpq and libarchive are keg-only: not on the default paths).
  brew install --quiet pkg-config sqlite libsndfile libsodium libebur128 libsamplerate libarchive openssl@3 libpq espeak-ng ffmpeg
  prefix=$(brew --prefix)
  export PKG_CONFIG_PATH="$(brew --prefix libarchive)/lib/pkgconfig:$(brew --prefix sqlite)/lib/pkgconfig:$(brew --prefix openssl@3)/lib/pkgconfig:${PKG_CONFIG_PATH:-}"
  echo "building soundpack (release) in the action's checkout"
  swift build -c release --package-path "$action" --product soundpack \
    -Xcc -I"$prefix/include" -Xcc -I"$(brew --prefix libpq)/include"
  bin="$action/.build/release"
else
  "$action/scripts/bootstrap.sh"
  echo "building soundpack (release) in the action's checkout"
  swift build -c release --package-path "$action" --product soundpack
  bin="$action/.build/release"
fi
"$bin/soundpack" --version
echo "$bin" >>"${GITHUB_PATH:?GITHUB_PATH is set by the runner}"
