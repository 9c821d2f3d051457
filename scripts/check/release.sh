#!/usr/bin/env bash
# The release a runner installs without building (scripts/release.sh), checked as its users meet it:
# the README's OpenSSL command verifies the signature (and rejects a changed SHA256SUMS), sha256sum -c
# passes, the tarball holds the documented layout owned by 0/0 at the commit's time, two runs give
# the same bytes, the binary needs no Swift library or toolchain path and no Debian package the
# README does not name, and it validates a pack in an environment with no Swift on PATH. A failed
# run leaves an earlier release in place and nothing half-written.
# Usage: scripts/check/release.sh [path/to/soundpack]   (makes the throw-away key; default .build/debug/soundpack)
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
fail() { echo "release check: $1" >&2; exit 1; }
# The Debian package that owns a library file (dpkg knows it by /lib or /usr/lib: merged /usr).
package_of() {
  local owner
  owner=$(dpkg -S "$1" 2>/dev/null || dpkg -S "/usr$1" 2>/dev/null || dpkg -S "$(readlink -f "$1")" 2>/dev/null) || return 1
  echo "${owner%%:*}"
}
keygen_binary=${1:-.build/debug/soundpack}
[ -x "$keygen_binary" ] || fail "$keygen_binary is not a built soundpack (swift build makes .build/debug/soundpack)"
keygen_binary=$(realpath "$keygen_binary")

work=$(mktemp -d "${TMPDIR:-/tmp}/soundpack-release-check.XXXXXX")
trap 'rm -rf "$work"' EXIT

# A throw-away key. --force: the key dies with $work, wherever TMPDIR points (even into a clone).
mkdir "$work/key"
"$keygen_binary" keygen -o "$work/key/release-key" --force >/dev/null

# Two whole runs of scripts/release.sh. The second run's swift build finds nothing to do, so it
# repacks the same binary: this proves the packing and signing are reproducible (same tree, same
# bytes), not that two clean builds of the compiler give the same binary (that would cost a second
# cold static build, minutes here, for a property of the toolchain rather than of this script).
scripts/release.sh --sign-key "$work/key/release-key" -o "$work/first" > "$work/first.log" 2>&1 \
  || { cat "$work/first.log" >&2; fail "scripts/release.sh failed (its output above)"; }
scripts/release.sh --sign-key "$work/key/release-key" -o "$work/second" > "$work/second.log" 2>&1 \
  || { cat "$work/second.log" >&2; fail "the second run of scripts/release.sh failed (its output above)"; }
releases=("$work/first"/*)
[ ${#releases[@]} -eq 1 ] && [ -d "${releases[0]}" ] || fail "expected one release folder in $work/first, found: ${releases[*]}"
release=${releases[0]}
version=$(basename "$release")
tarball=$(cd "$release" && echo soundpack-*-linux-*.tar.gz)
name=${tarball%.tar.gz}
[ "$name" = "soundpack-$version-linux-$(uname -m)" ] || fail "tarball $tarball does not name release $version"
[ "$(ls -A "$release" | sort | tr '\n' ' ')" = "SHA256SUMS SHA256SUMS.sig $tarball " ] \
  || fail "$release holds $(ls -A "$release" | tr '\n' ' '), expected SHA256SUMS, SHA256SUMS.sig and $tarball"
[ -z "$(ls -A "$work/first" | grep -v -x "$version" || true)" ] || fail "scripts/release.sh left temporary files in its output folder"
for file in "$tarball" SHA256SUMS SHA256SUMS.sig; do
  cmp -s "$release/$file" "$work/second/$version/$file" || fail "$file differs between two runs of scripts/release.sh"
done
[ "$(wc -c < "$release/SHA256SUMS.sig")" -eq 64 ] || fail "SHA256SUMS.sig is not a raw 64-byte Ed25519 signature"

# The README's verification, its lines as written, with the key as a user downloads it.
verify=$(awk '/^```sh$/ { inside = 1; block = ""; next }
              inside && /^```$/ { inside = 0; if (block ~ /openssl pkeyutl -verify/) { printf "%s", block; found++ } next }
              inside { block = block $0 "\n" }
              END { exit found == 1 ? 0 : 1 }' README.md) \
  || fail "README.md needs exactly one sh block with the 'openssl pkeyutl -verify' command (Install a release)"
grep -q 'sha256sum -c SHA256SUMS' <<< "$verify" || fail "README.md's verification block does not run sha256sum -c SHA256SUMS"
mkdir "$work/download"
cp "$release"/* "$work/download/"
cp "$work/key/release-key.pub" "$work/download/release-key.pub"
(cd "$work/download" && bash -euo pipefail -c "$verify") > "$work/verify.log" 2>&1 \
  || { cat "$work/verify.log" >&2; fail "README.md's verification fails on a good release"; }
grep -qx 'Signature Verified Successfully' "$work/verify.log" || fail "README.md's verification did not run OpenSSL's check"
grep -qx "$tarball: OK" "$work/verify.log" || fail "sha256sum -c SHA256SUMS did not pass $tarball"
# One byte of SHA256SUMS changed (its file name, so only the signature can notice): refused.
mkdir "$work/tampered"
cp "$work/download"/* "$work/tampered/"
printf 'X' | dd of="$work/tampered/SHA256SUMS" bs=1 seek=66 conv=notrunc status=none
if (cd "$work/tampered" && bash -euo pipefail -c "$verify") > "$work/tampered.log" 2>&1; then
  fail "README.md's verification accepts a SHA256SUMS with a changed byte"
fi
grep -q 'Signature Verification Failure' "$work/tampered.log" || { cat "$work/tampered.log" >&2; fail "a changed SHA256SUMS failed, but not at the signature check"; }

# The layout, as bsdtar lists it: sorted, owner and group 0, only the two programs executable.
expected="drwxr-xr-x $name/
-rw-r--r-- $name/BUILD
-rw-r--r-- $name/CHANGELOG.md
-rw-r--r-- $name/LICENSE
-rw-r--r-- $name/README.md
drwxr-xr-x $name/bin/
-rwxr-xr-x $name/bin/soundpack
drwxr-xr-x $name/share/
drwxr-xr-x $name/share/bash-completion/
drwxr-xr-x $name/share/bash-completion/completions/
-rw-r--r-- $name/share/bash-completion/completions/soundpack
drwxr-xr-x $name/share/fish/
drwxr-xr-x $name/share/fish/vendor_completions.d/
-rw-r--r-- $name/share/fish/vendor_completions.d/soundpack.fish
drwxr-xr-x $name/share/man/
drwxr-xr-x $name/share/man/man1/
-rw-r--r-- $name/share/man/man1/soundpack.1
drwxr-xr-x $name/share/soundpack/
-rwxr-xr-x $name/share/soundpack/pre-commit-hook.sh
drwxr-xr-x $name/share/zsh/
drwxr-xr-x $name/share/zsh/site-functions/
-rw-r--r-- $name/share/zsh/site-functions/_soundpack"
listing=$(bsdtar -tvf "$release/$tarball")
[ "$(awk '{ print $1, $9 }' <<< "$listing")" = "$expected" ] \
  || { diff <(echo "$expected") <(awk '{ print $1, $9 }' <<< "$listing") >&2 || true; fail "$tarball's layout differs from the documented one (diff above: expected, listed)"; }
[ -z "$(awk '$3 != "0" || $4 != "0"' <<< "$listing")" ] || fail "$tarball has entries not owned by 0/0: $(awk '$3 != "0" || $4 != "0"' <<< "$listing")"
epoch=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct)}
times=$(TZ=UTC tar -tvzf "$release/$tarball" --full-time | awk '{ print $4 "T" $5 }' | sort -u)
[ "$times" = "$(date -u -d "@$epoch" +%Y-%m-%dT%H:%M:%S)" ] || fail "$tarball's times are not the commit's ($(date -u -d "@$epoch")): $times"

# Unpacked in an empty folder: no Swift library, no toolchain path, and only the packages the
# README lists (each NEEDED library's Debian package, as the loader finds it here).
mkdir "$work/unpacked"
tar -xzf "$release/$tarball" -C "$work/unpacked"
binary="$work/unpacked/$name/bin/soundpack"
grep -qx "source: $(git describe --always --dirty)" "$work/unpacked/$name/BUILD" || fail "BUILD does not record git describe --always --dirty"
dynamic=$(readelf -d "$binary")
needed=$(sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' <<< "$dynamic")
swift_libraries=$(grep -E '^lib(swift|Foundation|dispatch|BlocksRuntime|_FoundationICU)' <<< "$needed" || true)
[ -z "$swift_libraries" ] || fail "bin/soundpack needs the Swift toolchain's libraries: $swift_libraries"
# SwiftPM links every executable with RUNPATH $ORIGIN (its own folder, harmless); anything else
# would be a toolchain path or a path of the build machine.
for path in $(sed -n 's/.*(R\(UN\)\{0,1\}PATH).*\[\(.*\)\]/\2/p' <<< "$dynamic" | tr ':' ' '); do
  [ "$path" = '$ORIGIN' ] || fail "bin/soundpack has RUNPATH/RPATH $path; it must not depend on the build machine's folders"
done
install_line=$(grep -m1 '^sudo apt-get install --no-install-recommends lib' README.md) || fail "README.md lacks the apt-get install line of the runtime packages"
read -ra listed <<< "${install_line#sudo apt-get install --no-install-recommends }"
required=()
for soname in $needed; do
  path=$(ldd "$binary" | awk -v soname="$soname" '!found && $1 == soname && $2 == "=>" { print $3; found = 1 } !found && $1 ~ "/" soname "$" { print $1; found = 1 }')
  [ -n "$path" ] || fail "the loader finds no $soname here (scripts/bootstrap.sh installs the libraries)"
  package=$(package_of "$path") || fail "no Debian package owns $path ($soname)"
  required+=("$package")
done
required_sorted=$(printf '%s\n' "${required[@]}" | sort -u | tr '\n' ' ')
listed_sorted=$(printf '%s\n' "${listed[@]}" | sort -u | tr '\n' ' ')
[ "$required_sorted" = "$listed_sorted" ] || fail "README.md's apt-get line lists '$listed_sorted', the binary needs '$required_sorted'"
# The libraries opened on first use (dlopen) are named in the README with their packages.
# (FFmpeg's sonames are made in Sources/CFFmpeg/shim.h from the major versions of the headers built
# against: the C preprocessor gives them here.)
ffmpeg=()
for library in avutil avcodec avformat; do
  upper=$(printf '%s' "$library" | tr a-z A-Z)
  major=$(printf '#include <lib%s/version.h>\nSOUNDPACK_MAJOR=LIB%s_VERSION_MAJOR\n' "$library" "$upper" | cc -E -P -x c - 2>/dev/null | tr -d "\n" | sed -n 's/.*SOUNDPACK_MAJOR= *\([0-9][0-9]*\).*/\1/p')
  [ -n "$major" ] || fail "cannot read LIB${upper}_VERSION_MAJOR from <lib$library/version.h> (scripts/bootstrap.sh installs FFmpeg's headers)"
  ffmpeg+=("lib$library.so.$major")
done
for soname in $(sed -n 's/.*soundpack_open_library(&handle, "\(.*\)").*/\1/p' Sources/C*/shim.h) "${ffmpeg[@]}"; do
  path=$(ldconfig -p | awk -v soname="$soname" '!found && $1 == soname { print $NF; found = 1 }')
  package=$([ -n "$path" ] && package_of "$path") || fail "no Debian package provides $soname here (scripts/bootstrap.sh --dev installs them)"
  grep -q "\`$package\`" README.md || fail "README.md does not name $package, the package of $soname (opened on first use)"
done

# Run as a runner would: a bare environment, no Swift anywhere on PATH, a copy of the demo pack.
mkdir -p "$work/home" "$work/project/packs"
cp -R packs/wechat "$work/project/packs/wechat"
bare=(env -i PATH=/usr/bin:/bin "HOME=$work/home")
if "${bare[@]}" sh -c 'command -v swift' >/dev/null; then fail "swift is on PATH=/usr/bin:/bin; the check would not prove the binary runs without it"; fi
[ "$("${bare[@]}" "$binary" --version)" = "soundpack $version" ] || fail "bin/soundpack --version does not print soundpack $version"
(cd "$work/project" && "${bare[@]}" "$binary" validate packs/wechat) > "$work/validate.log" 2>&1 \
  || { cat "$work/validate.log" >&2; fail "bin/soundpack validate packs/wechat failed in a bare environment"; }
grep -q '^packs/wechat: passed' "$work/validate.log" || fail "bin/soundpack validate did not pass packs/wechat: $(cat "$work/validate.log")"

# A run that fails late (gzip broken) leaves the earlier release as it was, and no temporary folder.
mkdir "$work/broken-tools"
printf '#!/bin/sh\nexit 1\n' > "$work/broken-tools/gzip"
chmod +x "$work/broken-tools/gzip"
if PATH="$work/broken-tools:$PATH" scripts/release.sh --sign-key "$work/key/release-key" -o "$work/second" > "$work/broken.log" 2>&1; then
  fail "scripts/release.sh succeeded with a gzip that fails"
fi
[ "$(ls -A "$work/second")" = "$version" ] || fail "a failed run left $(ls -A "$work/second" | tr '\n' ' ') in the output folder"
for file in "$tarball" SHA256SUMS SHA256SUMS.sig; do
  cmp -s "$release/$file" "$work/second/$version/$file" || fail "a failed run changed the earlier release's $file"
done

size=$(( ($(wc -c < "$release/$tarball") + 524288) / 1048576 ))
echo "release: $tarball ($size MiB, ${#required[@]} libraries from ${#listed[@]} Debian packages the README lists, no Swift library or toolchain RUNPATH) verifies with the README's OpenSSL command, which rejects a changed SHA256SUMS; sha256sum -c passes; $(wc -l <<< "$listing") entries as documented, 0/0, at the commit's time, byte-identical over two runs; validates packs/wechat with no swift on PATH; a failed run keeps the earlier release"
