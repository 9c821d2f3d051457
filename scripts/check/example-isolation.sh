#!/usr/bin/env bash
# Type-checks the iOS example's sources once more as Xcode 26 builds a new target: Swift 6 language
# mode, complete strict concurrency, default isolation MainActor, warnings as errors, against the
# Linux stand-ins of Apple's frameworks built by `swift build --build-tests` (.build/debug/Modules);
# then again with Xcode 26's Approachable Concurrency on (the upcoming features
# NonisolatedNonsendingByDefault and InferIsolatedConformances), where the toolchain has them.
# The package's own build of the example (NotificationServiceExample) covers the nonisolated default.
# First: the package's tools version is at least the Swift that the example's nonisolated types need,
# and the example uses no stand-in-only API (what the stand-ins add for tests and Apple's SDK lacks).
#   scripts/check/example-isolation.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
# `nonisolated` on a type or an extension is Swift 6.1 (SE-0449): Package.swift's tools version must
# not promise an older Xcode than the example (and Core) need.
tools=$(sed -n '1s|^// swift-tools-version: *\([0-9.]*\).*|\1|p' Package.swift)
if grep -qE '^\s*((public|package|internal|fileprivate|private)\s+)?nonisolated\s+(final\s+)?(struct|class|enum|extension|protocol|actor)\b' \
    Examples/NotificationServiceExtension/*.swift Sources/SoundpackCore/*.swift; then
  case $tools in
    [0-5].* | 6.0 | 6.0.*) echo "example isolation: the example has nonisolated types (Swift 6.1, Xcode 16.3) but Package.swift's tools version is $tools" >&2; exit 1 ;;
  esac
fi
# Stand-in-only API is declared `@_spi(StandIn)`, which the example never imports, so the compiler
# refuses any use of it there. Every public declaration the stand-ins document as "Stand-in only"
# must carry the attribute, and the example must import no SPI.
unmarked=$(awk '
  FNR == 1 { pending = 0 }
  /^[[:space:]]*\/\/\/ Stand-in only/ { pending = 1; at = FILENAME ":" FNR; next }
  pending && /^[[:space:]]*(\/\/\/|@available)/ { next }
  pending { if ($0 ~ /(^|[[:space:]])(public|open)[[:space:]]/ && $0 !~ /@_spi\(StandIn\)/) print at ": " $0; pending = 0 }
' Tests/StandIns/*/*.swift)
if [ -n "$unmarked" ]; then
  echo "example isolation: stand-in-only declarations without @_spi(StandIn), which the example could then call:" >&2
  echo "$unmarked" >&2
  exit 1
fi
if grep -n '@_spi' Examples/NotificationServiceExtension/*.swift >&2; then
  echo "example isolation: the example imports SPI; stand-in-only API does not exist in Apple's SDK" >&2
  exit 1
fi
modules=.build/debug/Modules
[ -f "$modules/UserNotifications.swiftmodule" ] || { echo "error: build first (swift build --build-tests)" >&2; exit 3; }
if ! swiftc -help 2>/dev/null | grep -c -- "-default-isolation" >/dev/null; then
  echo "example isolation: this toolchain has no -default-isolation; see Examples/NotificationServiceExtension/README.md" >&2
  exit 0
fi
maps=()
for map in Sources/C*/module.modulemap Sources/C*/include/module.modulemap Tests/StandIns/C*/module.modulemap; do maps+=(-Xcc "-fmodule-map-file=$map"); done
check() {
  swiftc -typecheck -swift-version 6 -strict-concurrency=complete -default-isolation MainActor -warnings-as-errors \
    -I "$modules" "${maps[@]}" "$@" Examples/NotificationServiceExtension/*.swift
}
check
echo "example isolation: Examples/NotificationServiceExtension type-checks in Swift 6 with default isolation MainActor, warnings as errors"
# Approachable Concurrency: nonisolated async functions run on the caller's actor, and conformances
# of main-actor types are main-actor isolated. Features this toolchain lacks are named and skipped.
supported=$(swiftc -print-supported-features 2>/dev/null || true)
approachable=()
for feature in NonisolatedNonsendingByDefault InferIsolatedConformances; do
  if grep -q "\"$feature\"" <<<"$supported"; then
    approachable+=(-enable-upcoming-feature "$feature")
  else
    echo "example isolation: this toolchain has no upcoming feature $feature; checked without it" >&2
  fi
done
if [ ${#approachable[@]} -gt 0 ]; then
  check "${approachable[@]}"
  echo "example isolation: and with Approachable Concurrency (${approachable[*]})"
fi
