#!/usr/bin/env bash
# SoundpackCore must build for iOS apps and their extensions: Foundation only, no C module
# anywhere in its dependency graph. Checks the package graph, the imports, and builds it alone.
# Then checks that SoundpackKit's folders form layers with no cycle (scripts/check/kit-folders.py).
set -euo pipefail
cd "$(dirname "$0")/../.."
swift package describe --type json 2>/dev/null | python3 -c '
import json, sys
package = json.load(sys.stdin)
targets = {t["name"]: t for t in package["targets"]}
seen, stack = set(), ["SoundpackCore"]
while stack:
    name = stack.pop()
    if name in seen: continue
    seen.add(name)
    target = targets[name]
    if target.get("type") == "system-target" or target.get("module_type") == "SystemLibraryTarget":
        sys.exit(f"SoundpackCore depends on the C module {name}")
    stack += target.get("target_dependencies", []) + [d for d in target.get("product_dependencies", [])]
print("SoundpackCore graph:", ", ".join(sorted(seen)))
'
bad=$(grep -hE '^\s*(@testable )?import ' Sources/SoundpackCore/*.swift | sed -E 's/^\s*(@testable )?import //' | sort -u | grep -vxE 'Foundation' || true)
[ -z "$bad" ] || { echo "SoundpackCore imports more than Foundation: $bad"; exit 1; }
swift build --target SoundpackCore >/dev/null
echo "SoundpackCore builds alone, imports Foundation only, and has no C module in its graph"
python3 scripts/check/kit-folders.py
