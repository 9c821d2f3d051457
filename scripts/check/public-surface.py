#!/usr/bin/env python3
"""SoundpackKit's surface, per layer target: how many declarations are `public` (the library
product's contract, what a program importing SoundpackKit sees), how many are `package` (between
this package's targets only), and how many `public` ones have no `///` doc comment above them
(attribute lines such as `@inlinable` or `@discardableResult` may sit between the two).

    scripts/check/public-surface.py [TARGET...]

A declaration is a line matching `^\\s*(@\\w+(\\(…\\))?\\s+)*public\\s` (or `package`) that is not an import.
Exits 1 when one of the TARGETs (default: every layer)
has an undocumented `public` declaration, listing them.
"""
import os, re, sys

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# SoundpackKit's layers, lowest first (Package.swift); not SoundpackCore (the iOS library) nor the CLI.
LAYERS = ["SoundpackSupport", "SoundpackAudio", "SoundpackPack", "SoundpackCatalog", "SoundpackValidation",
          "SoundpackStore", "SoundpackRendering", "SoundpackSynthesis", "SoundpackReports", "SoundpackPublish",
          "SoundpackExport", "SoundpackPush", "SoundpackKit"]
DOCUMENTED = LAYERS
PUBLIC = re.compile(r"^\s*(@\w+(\([^)]*\))?\s+)*public\s")
PACKAGE = re.compile(r"^\s*(@\w+(\([^)]*\))?\s+)*package\s")
IMPORT = re.compile(r"^\s*(@\w+\s+)*(public|package)\s+import\s")
ATTRIBUTE = re.compile(r"^\s*@[\w.]+(\(.*\))?\s*$")


def documented(lines, index):
    """Whether the declaration at `index` has a `///` (or `/** */`) comment right above it."""
    k = index - 1
    while k >= 0 and ATTRIBUTE.match(lines[k]):
        k -= 1
    if k < 0:
        return False
    above = lines[k].strip()
    return above.startswith("///") or above.endswith("*/") and "/**" in "".join(lines[max(0, k - 50):k + 1])


def survey(target):
    publics = packages = files = 0
    undocumented = []
    folder = os.path.join(root, "Sources", target)
    for directory, _, names in sorted(os.walk(folder)):
        for name in sorted(names):
            if not name.endswith(".swift"):
                continue
            files += 1
            path = os.path.join(directory, name)
            lines = open(path, encoding="utf-8").read().split("\n")
            for index, line in enumerate(lines):
                if IMPORT.match(line):
                    continue
                if PUBLIC.match(line):
                    publics += 1
                    if not documented(lines, index):
                        undocumented.append(f"{os.path.relpath(path, root)}:{index + 1}: {line.strip()}")
                elif PACKAGE.match(line):
                    packages += 1
    if files == 0:
        # A layer with no sources is a moved folder or a wrong root, never a documented surface.
        sys.exit(f"public-surface: no Swift files in {os.path.relpath(folder, root)}; nothing to check")
    return publics, packages, undocumented


def main(arguments):
    checked = arguments or DOCUMENTED
    unknown = [t for t in checked if t not in LAYERS]
    if unknown:
        sys.exit(f"public-surface: not a SoundpackKit layer: {', '.join(unknown)}")
    print(f"{'target':<22}{'public':>8}{'package':>9}{'undocumented public':>21}")
    failures = []
    totals = [0, 0, 0]
    for target in LAYERS:
        publics, packages, undocumented = survey(target)
        totals = [totals[0] + publics, totals[1] + packages, totals[2] + len(undocumented)]
        mark = " *" if target in checked else ""
        print(f"{target:<22}{publics:>8}{packages:>9}{len(undocumented):>21}{mark}")
        if target in checked:
            failures += undocumented
    print(f"{'total':<22}{totals[0]:>8}{totals[1]:>9}{totals[2]:>21}")
    if failures:
        print(f"\n{len(failures)} public declarations without a /// doc comment in the checked (*) targets:")
        for failure in failures:
            print("  " + failure)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
