#!/usr/bin/env bash
# SoundpackCore must build for iOS apps and their extensions: Foundation only, no C module
# anywhere in its dependency graph. Checks the package graph, the imports, and builds it alone.
# Then prints SoundpackKit's layers (SwiftPM targets, which the compiler keeps from importing upward;
# `swift build --explicit-target-dependency-import-check error` in scripts/test.sh refuses an import
# a target does not declare) and checks the arrows the design names: Reports renders what it is
# given (no Catalog, Store, Publish), and each C module has one owner.
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
swift package describe --type json 2>/dev/null | python3 -c '
import json, sys
targets = {t["name"]: t for t in json.load(sys.stdin)["targets"]}
layers = [n for n in targets if n.startswith("Soundpack") and n not in ("SoundpackCore", "SoundpackCLI", "SoundpackTestSupport") and not n.endswith("Tests")]
def closure(name, seen=None):
    seen = set() if seen is None else seen
    for d in targets[name].get("target_dependencies", []):
        if d not in seen: seen.add(d); closure(d, seen)
    return seen
if len(layers) < 2: sys.exit(f"SoundpackKit: no layers found in the package graph ({layers})")
order = sorted(layers, key=lambda n: len(closure(n) & set(layers)))
for name in order:
    uses = [d for d in targets[name].get("target_dependencies", []) if d in layers]
    shown = ", ".join(uses) or "no other layer"
    print(f"{name:20} uses {shown}")
reports = closure("SoundpackReports")
for forbidden in ("SoundpackCatalog", "SoundpackStore", "SoundpackPublish"):
    if forbidden in reports: sys.exit(f"SoundpackReports depends on {forbidden}: it renders what it is given")
owners = {}
for name, target in targets.items():
    if name in layers:
        for d in target.get("target_dependencies", []):
            if targets.get(d, {}).get("module_type") in ("SystemLibraryTarget", "ClangTarget"): owners.setdefault(d, []).append(name)
shared = {c: o for c, o in owners.items() if len(o) > 1}
if shared: sys.exit(f"C modules with more than one owner: {shared}")
print(f"SoundpackKit: {len(order)} layers; Reports knows no Catalog, Store or Publish; {len(owners)} C modules, one owner each")
'
