#!/usr/bin/env bash
# Type-checks the iOS example's sources once more as Xcode 26 builds a new target: Swift 6 language
# mode, complete strict concurrency, default isolation MainActor, warnings as errors, against the
# Linux stand-ins of Apple's frameworks built by `swift build --build-tests` (.build/debug/Modules).
# The package's own build of the example (NotificationServiceExample) covers the nonisolated default.
# First: the package's tools version is at least the Swift that the example's nonisolated types need.
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
