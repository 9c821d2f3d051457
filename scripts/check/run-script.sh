#!/usr/bin/env bash
# scripts/soundpack, the README's first command, against a stand-in `swift` (canned SwiftPM output)
# and a stand-in binary, in a copy of the script with its own root, so no real build runs:
# - up to date: stdout is the binary's alone and stderr is empty;
# - a build that compiles: "building soundpack (…)…" and the [N/M] steps on stderr, stdout still the
#   binary's alone, and its standard input (a pipe) reaches the binary whole, under `set -u`;
# - on a terminal (script(1)), the steps are condensed into one line rewritten in place;
# - a failed build: the compiler's messages (SwiftPM prints them on stdout) on stderr, exit 3.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

clone=$work/clone
mkdir -p "$clone/scripts" "$clone/.build/release" "$work/bin"
cp "$root/scripts/soundpack" "$clone/scripts/soundpack"
printf '#!/bin/sh\nexit 0\n' >"$clone/scripts/bootstrap.sh"
# The binary says its arguments and what it read from standard input.
printf '#!/bin/sh\necho "soundpack $*"\ncat\n' >"$clone/.build/release/soundpack"
# swift: reads whatever standard input it is given (a build must not eat soundpack's), then prints
# what SwiftPM prints for $FAKE_BUILD (uptodate, compile, fail) on stdout.
cat >"$work/bin/swift" <<'EOF'
#!/bin/sh
cat >/dev/null
case $FAKE_BUILD in
  uptodate) printf '%s\n' 'Building for production...' '[0/2] Write swift-version-6A52383ED409C6A7.txt' "Build of product 'soundpack' complete! (0.30s)" ;;
  compile) printf '%s\n' '[0/1] Planning build' 'Building for production...' '[1/4] Write sources' '[2/4] Compiling SoundpackCore Amount.swift' \
             '[3/4] Compiling soundpack main.swift' '[4/4] Linking soundpack' "Build of product 'soundpack' complete! (131.02s)" ;;
  fail) printf '%s\n' 'Building for production...' '[2/4] Compiling SoundpackCore Amount.swift' \
          '/src/Sources/SoundpackCore/Amount.swift:1:14: error: cannot convert value of type '"'String'"' to specified type '"'Int'"
        exit 1 ;;
esac
EOF
chmod +x "$clone/scripts/bootstrap.sh" "$clone/.build/release/soundpack" "$work/bin/swift"
export PATH="$work/bin:$PATH" TMPDIR=$work/tmp
mkdir "$TMPDIR"
failures=0
fail() { echo "run-script: $*" >&2; failures=$((failures + 1)); }

run() {  # run MODE ARGS…: the script with stdin "15.40"; sets out, err, status
  status=0
  printf '15.40\n' | FAKE_BUILD=$1 "$clone/scripts/soundpack" "${@:2}" >"$work/out" 2>"$work/err" || status=$?
  out=$(cat "$work/out") err=$(cat "$work/err")
}

run uptodate say -
[ "$status" -eq 0 ] || fail "up to date: exit $status"
[ "$out" = "soundpack say -"$'\n'"15.40" ] || fail "up to date: stdout is not the binary's alone: $out"
[ -z "$err" ] || fail "up to date: stderr is not empty: $err"

run compile say -
[ "$status" -eq 0 ] || fail "compile: exit $status"
[ "$out" = "soundpack say -"$'\n'"15.40" ] || fail "compile: stdout is not the binary's alone, or its stdin was read by the build: $out"
grep -qx 'building soundpack (release; the first build takes a few minutes)…' <<<"$err" || fail "compile: no building line on stderr: $err"
grep -qx '\[3/4\] Compiling soundpack main.swift' <<<"$err" || fail "compile: the steps are not on stderr: $err"
! grep -q 'Planning build\|Build of product' <<<"$err" || fail "compile: more than the steps on stderr: $err"

run fail validate packs/wechat
[ "$status" -eq 3 ] || fail "fail: exit $status, not 3"
[ -z "$out" ] || fail "fail: stdout is not empty: $out"
grep -q "Amount.swift:1:14: error: cannot convert value of type 'String'" <<<"$err" || fail "fail: the compiler's error is not on stderr: $err"

# On a terminal: script(1) gives the script a pseudo-terminal for stdin, stdout and stderr.
if command -v script >/dev/null; then
  FAKE_BUILD=compile script -qec "$clone/scripts/soundpack --version </dev/null" /dev/null >"$work/tty" || fail "terminal: exit $?"
  grep -q $'\r\033\\[K\\[4/4\\] Linking soundpack' "$work/tty" || fail "terminal: the steps are not one line rewritten in place: $(cat -v "$work/tty")"
  [ "$(grep -c 'Compiling' "$work/tty")" -eq 1 ] || fail "terminal: steps on lines of their own: $(cat -v "$work/tty")"
fi
# The build log is kept in $TMPDIR, and removed, after a failed build too.
[ -z "$(ls -A "$TMPDIR")" ] || fail "left in TMPDIR: $(ls -A "$TMPDIR")"

[ "$failures" -eq 0 ] || exit 1
echo "run-script: scripts/soundpack is silent when up to date, shows the build on stderr only, and exits 3 with the compiler's errors"
