#!/usr/bin/env python3
"""Lists the iOS-version-sensitive calls of the example extension and app (Examples/**/*.swift)
against the floor Package.swift declares, and fails when one newer than the floor is not inside an
`if #available(iOS N, *)` block or an `@available(iOS N, *)` declaration with N high enough.

The example compiles only for iOS, so no compiler on this machine checks it; this script does the
part of that check that matters for shipping: nothing newer than the floor runs unguarded.

Usage: scripts/check/ios-availability.py
"""
import os, re, sys

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
floor_match = re.search(r"\.iOS\(\.v(\d+)\)", open(os.path.join(root, "Package.swift")).read())
floor = int(floor_match.group(1)) if floor_match else 0

# (pattern in source, how it is named, the iOS version that introduced it)
SENSITIVE = [
    (r"\.data\(from:", "URLSession.data(from:)", 15), (r"\.data\(for:", "URLSession.data(for:)", 15),
    (r"\.bytes\(from:", "URLSession.bytes(from:)", 15), (r"\.download\(from:", "URLSession.download(from:)", 15),
    (r"\.upload\(for:", "URLSession.upload(for:)", 15), (r"\binterruptionLevel\b", "UNNotificationContent.interruptionLevel", 15),
    (r"\.timeSensitive\b", "UNNotificationInterruptionLevel.timeSensitive", 15),
    (r"\brelevanceScore\b", "UNNotificationContent.relevanceScore", 15), (r"\bfilterCriteria\b", "filterCriteria", 16),
]

problems, seen = [], []
for folder, _, names in os.walk(os.path.join(root, "Examples")):
    for name in sorted(names):
        if not name.endswith(".swift"):
            continue
        path = os.path.join(folder, name)
        relative = os.path.relpath(path, root)
        # A stack of (brace depth where the block opened, iOS version it guarantees).
        guards, depth, pending = [], 0, None
        for number, line in enumerate(open(path), 1):
            code = re.sub(r"//.*", "", line)
            code = re.sub(r'"(?:\\.|[^"\\])*"', '""', code)
            available = re.search(r"#available\(iOS (\d+)", code) or re.search(r"@available\(iOS (\d+)", code)
            if available:
                pending = int(available.group(1))
            guaranteed = max([v for _, v in guards] + [floor])
            for pattern, api, version in SENSITIVE:
                if re.search(pattern, code):
                    here = max(guaranteed, pending or 0) if "#available" in code or "@available" in code else guaranteed
                    seen.append(f"{relative}:{number}: {api} needs iOS {version}; iOS {here} is guaranteed here")
                    if version > here:
                        problems.append(f"{relative}:{number}: needs iOS {version}, but only iOS {here} is guaranteed here (floor iOS {floor}); put it under if #available(iOS {version}, *)")
            for char in code:
                if char == "{":
                    depth += 1
                    if pending is not None:
                        guards.append((depth, pending))
                        pending = None
                elif char == "}":
                    while guards and guards[-1][0] == depth:
                        guards.pop()
                    depth -= 1
for line in seen:
    print(line)
if problems:
    sys.exit("\n".join(problems))
print(f"ios availability: {len(seen)} version-sensitive calls in Examples/; none above the iOS {floor} floor runs unguarded")
