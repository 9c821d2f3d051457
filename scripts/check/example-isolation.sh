#!/usr/bin/env bash
# Type-checks the iOS example's sources once more as Xcode 26 builds a new target: Swift 6 language
# mode, complete strict concurrency, default isolation MainActor, warnings as errors, against the
# Linux stand-ins of Apple's frameworks built by `swift build --build-tests` (.build/debug/Modules).
# The package's own build of the example (NotificationServiceExample) covers the nonisolated default.
#   scripts/check/example-isolation.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
modules=.build/debug/Modules
[ -f "$modules/UserNotifications.swiftmodule" ] || { echo "error: build first (swift build --build-tests)" >&2; exit 3; }
if ! swiftc -help 2>/dev/null | grep -c -- "-default-isolation" >/dev/null; then
  echo "example isolation: this toolchain has no -default-isolation; see Examples/NotificationServiceExtension/README.md" >&2
  exit 0
fi
maps=()
for map in Sources/C*/module.modulemap Sources/C*/include/module.modulemap; do maps+=(-Xcc "-fmodule-map-file=$map"); done
swiftc -typecheck -swift-version 6 -strict-concurrency=complete -default-isolation MainActor -warnings-as-errors \
  -I "$modules" "${maps[@]}" Examples/NotificationServiceExtension/*.swift
echo "example isolation: Examples/NotificationServiceExtension type-checks in Swift 6 with default isolation MainActor, warnings as errors"
