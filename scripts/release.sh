#!/usr/bin/env bash
# Cuts a release that a runner installs without building: a statically linked (Swift runtime and
# Foundation inside), stripped soundpack with its manual page, shell completions and pre-commit
# hook, in a reproducible tarball, with SHA256SUMS and an Ed25519 signature of it that OpenSSL
# verifies from the public key alone (README.md, "Install a release").
set -euo pipefail

usage() {
  cat <<'EOF'
Usage: scripts/release.sh --sign-key FILE [-o DIR]

Builds soundpack statically (swift build -c release --static-swift-stdlib, scratch path
.build/static, so .build/release is left alone), strips it, and writes DIR/VERSION/:

  soundpack-VERSION-linux-ARCH.tar.gz   one folder soundpack-VERSION-linux-ARCH/ with bin/soundpack,
                                        share/man/man1/soundpack.1, bash, zsh and fish completions,
                                        share/soundpack/pre-commit-hook.sh, LICENSE, CHANGELOG.md,
                                        README.md and BUILD (git describe --always --dirty, toolchain)
  SHA256SUMS                            sha256sum's listing of the tarball
  SHA256SUMS.sig                        raw 64-byte Ed25519 signature of SHA256SUMS (OpenSSL)

VERSION is what the built binary's --version prints (CHANGELOG.md's newest numbered entry).
The tarball is reproducible: names sorted, owner and group 0, every time set to the last commit's
(SOURCE_DATE_EPOCH, when set, instead), gzip without a name or time. DIR/VERSION/ appears whole or
not at all: everything is written in a temporary folder inside DIR and renamed into place last;
an earlier release of the same version there is replaced.

Options:
  --sign-key FILE   the secret key that signs SHA256SUMS, as `soundpack keygen -o FILE` writes it
                    (FILE.pub is its public key: what users verify with)
  -o DIR            where to write the release (default .build/releases)
  -h, --help        show this help

Exit status: 0 released, 1 a step failed, 2 usage, 3 a file or tool is missing.
Needs git, GNU tar, gzip, binutils (strip), coreutils and openssl, and the Swift toolchain.
EOF
}

fail() { echo "release: error: $1" >&2; exit "${2:-1}"; }

root=$(cd "$(dirname "$0")/.." && pwd)
sign_key=""
out="$root/.build/releases"
while [ $# -gt 0 ]; do
  case $1 in
    --sign-key) [ $# -ge 2 ] || fail "--sign-key needs a FILE (see --help)" 2; sign_key=$2; shift 2 ;;
    --sign-key=*) sign_key=${1#*=}; shift ;;
    -o|--output) [ $# -ge 2 ] || fail "$1 needs a DIR (see --help)" 2; out=$2; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) fail "unknown argument '$1' (see --help)" 2 ;;
  esac
done
[ -n "$sign_key" ] || fail "--sign-key FILE is required: a release is signed. Write a key with \`soundpack keygen -o FILE\` (outside the repository), or see --help" 2
[ -f "$sign_key" ] || fail "sign key '$sign_key' does not exist; write one with \`soundpack keygen -o $sign_key\`" 3
for tool in git tar gzip strip sha256sum base64 openssl swift; do
  command -v "$tool" >/dev/null || fail "'$tool' is not on PATH; scripts/bootstrap.sh --dev installs the Debian tools (binutils, openssl), the Swift toolchain goes on PATH" 3
done
[[ $(tar --version 2>/dev/null) == *'GNU tar'* ]] || fail "tar is not GNU tar (needed for --sort=name and --mtime); install Debian's tar" 3

mkdir -p "$out" || fail "cannot create the output folder '$out'" 3
out=$(cd "$out" && pwd)  # -o is relative to where the script is called from
sign_key=$(realpath -s "$sign_key")
cd "$root"

# Everything secret lives in a folder only this user can read, removed on any exit; everything
# of the release is written in a temporary folder inside the output folder (same file system,
# so the final rename is atomic), removed on any exit unless it was renamed into place.
secrets="" staging=""
trap 'rm -rf ${secrets:+"$secrets"} ${staging:+"$staging"}' EXIT
secrets=$(umask 077 && mktemp -d "${TMPDIR:-/tmp}/soundpack-release-key.XXXXXX") || fail "cannot make a private temporary folder" 3
staging=$(mktemp -d "$out/.release.XXXXXX") || fail "cannot write in the output folder '$out'" 3
trap 'exit 130' INT
trap 'exit 143' TERM

# The signing key: libsodium's 64-byte secret key, seed then public key. OpenSSL reads the seed
# as a PKCS#8 DER (RFC 8410: this fixed prefix, then the 32 bytes); the public half it derives
# must be the key file's own, or the file is damaged.
(
  umask 077
  base64 -d "$sign_key" > "$secrets/secret.bin" 2>/dev/null || true
  [ "$(wc -c < "$secrets/secret.bin")" -eq 64 ] || exit 1
  { printf '\x30\x2e\x02\x01\x00\x30\x05\x06\x03\x2b\x65\x70\x04\x22\x04\x20'; head -c 32 "$secrets/secret.bin"; } > "$secrets/secret.der"
) || fail "'$sign_key' is not a soundpack secret key (one line of base64 of 64 bytes, as \`soundpack keygen -o FILE\` writes)"
public_key=$(openssl pkey -inform DER -in "$secrets/secret.der" -pubout -outform DER 2>/dev/null | tail -c 32 | base64 -w0) \
  || fail "OpenSSL cannot read the Ed25519 seed of '$sign_key' (OpenSSL 3 is needed)"
[ "$public_key" = "$(tail -c 32 "$secrets/secret.bin" | base64 -w0)" ] \
  || fail "'$sign_key' is damaged: its public half does not match its seed; sign with the key file keygen wrote"
if [ -f "$sign_key.pub" ] && [ "$(tr -d ' \n' < "$sign_key.pub")" != "$public_key" ]; then
  fail "'$sign_key.pub' is not the public key of '$sign_key'; users would verify against the wrong key"
fi
if [ -f release-key.pub ] && [ "$(tr -d ' \n' < release-key.pub)" != "$public_key" ]; then
  echo "release: warning: '$sign_key' is not the key of the repository's release-key.pub; users who verify with release-key.pub will reject this release" >&2
fi

# 1. The static build, in its own scratch path.
echo "release: swift build -c release --static-swift-stdlib --product soundpack --scratch-path .build/static" >&2
build_started=$(date +%s)
swift build -c release --static-swift-stdlib --product soundpack --scratch-path .build/static >&2 \
  || fail "the static build failed (output above); fix it, then run scripts/release.sh again"
echo "release: built in $(( $(date +%s) - build_started )) s" >&2
built=.build/static/release/soundpack
[ -x "$built" ] || fail "the build reported success but '$built' is missing"

# 2. What the release is: the version the binary prints, the source it came from, its time.
version_line=$("$built" --version) || fail "'$built --version' failed"
version=${version_line#soundpack }
[[ $version_line == "soundpack "* && $version =~ ^[0-9]+\.[0-9]+\.[0-9]+([-+][0-9A-Za-z.+-]+)?$ ]] \
  || fail "'$built --version' printed '$version_line', not 'soundpack X.Y.Z'"
source_describe=$(git describe --always --dirty) || fail "git describe failed: run scripts/release.sh from a clone"
if [ -n "${SOURCE_DATE_EPOCH:-}" ]; then
  [[ $SOURCE_DATE_EPOCH =~ ^[0-9]+$ ]] || fail "SOURCE_DATE_EPOCH='$SOURCE_DATE_EPOCH' is not a number of seconds" 2
  epoch=$SOURCE_DATE_EPOCH
else
  epoch=$(git log -1 --format=%ct) || fail "cannot read the last commit's time (git log)"
fi
name="soundpack-$version-linux-$(uname -m)"

# 3. The tree, made by the stripped binary itself (which proves the stripped binary runs).
# Left out on purpose: SoundpackCore's resource bundle (soundpack_SoundpackCore.resources, its
# PrivacyInfo.xcprivacy). It is for App Store review of apps that link SoundpackCore; nothing in
# Sources/ reads Bundle.module, so the command-line tool never opens it.
tree="$staging/tree/$name"
mkdir -p "$tree/bin" "$tree/share/man/man1" "$tree/share/bash-completion/completions" \
  "$tree/share/zsh/site-functions" "$tree/share/fish/vendor_completions.d" "$tree/share/soundpack"
strip -o "$tree/bin/soundpack" "$built" || fail "strip failed on '$built'"
binary="$tree/bin/soundpack"
[ "$("$binary" --version)" = "$version_line" ] || fail "the stripped binary does not print '$version_line'"
"$binary" man > "$tree/share/man/man1/soundpack.1" || fail "'soundpack man' failed"
"$binary" completions bash > "$tree/share/bash-completion/completions/soundpack" || fail "'soundpack completions bash' failed"
"$binary" completions zsh > "$tree/share/zsh/site-functions/_soundpack" || fail "'soundpack completions zsh' failed"
"$binary" completions fish > "$tree/share/fish/vendor_completions.d/soundpack.fish" || fail "'soundpack completions fish' failed"
cp scripts/pre-commit-hook.sh "$tree/share/soundpack/pre-commit-hook.sh"
cp LICENSE CHANGELOG.md README.md "$tree/"
cat > "$tree/BUILD" <<EOF
$version_line
source: $source_describe
source date: $(date -u -d "@$epoch" +%Y-%m-%dT%H:%M:%SZ)
toolchain: $(swift --version 2>/dev/null | sed -n 1p)
build: swift build -c release --static-swift-stdlib --product soundpack, stripped
EOF
find "$staging/tree" -type d -exec chmod 755 {} +
find "$staging/tree" -type f -exec chmod 644 {} +
chmod 755 "$tree/bin/soundpack" "$tree/share/soundpack/pre-commit-hook.sh"

# The tarball, reproducible: the same tree gives the same bytes (with the same gzip) on any day,
# for any user.
mkdir "$staging/release"
tarball="$name.tar.gz"
tar --create --format=ustar --sort=name --mtime="@$epoch" --owner=0 --group=0 --numeric-owner \
    --directory="$staging/tree" "$name" | gzip -n -9 > "$staging/release/$tarball" \
  || fail "packing $tarball failed"

# 4. SHA256SUMS and its signature; checked here with the public key, as users will check it.
(cd "$staging/release" && sha256sum "$tarball" > SHA256SUMS) || fail "sha256sum failed"
openssl pkeyutl -sign -rawin -inkey "$secrets/secret.der" -keyform DER \
    -in "$staging/release/SHA256SUMS" -out "$staging/release/SHA256SUMS.sig" \
  || fail "OpenSSL could not sign SHA256SUMS with '$sign_key'"
printf '%s\n' '-----BEGIN PUBLIC KEY-----' "MCowBQYDK2VwAyEA$public_key" '-----END PUBLIC KEY-----' > "$secrets/public.pem"
openssl pkeyutl -verify -pubin -inkey "$secrets/public.pem" -rawin \
    -in "$staging/release/SHA256SUMS" -sigfile "$staging/release/SHA256SUMS.sig" >/dev/null \
  || fail "the signature of SHA256SUMS does not verify with the key's own public key"
chmod 644 "$staging/release/"*

# 5. Into place, whole: DIR/VERSION is renamed in only now; an older one is moved aside first.
release="$out/$version"
if [ -e "$release" ]; then
  mv "$release" "$staging/previous" || fail "cannot move the earlier '$release' aside"
fi
if ! mv "$staging/release" "$release"; then
  [ -e "$staging/previous" ] && mv "$staging/previous" "$release"
  fail "cannot rename the release into '$release'"
fi
echo "release: $release: $tarball ($(wc -c < "$release/$tarball") bytes), SHA256SUMS, SHA256SUMS.sig (Ed25519 public key $public_key); source $source_describe"
