#!/usr/bin/env python3
"""Checks that SoundpackKit's folders form layers: no cycle between folders, judged from type uses.

A folder uses another when one of its files names a type (struct, class, enum, protocol, actor,
typealias) or a top-level function declared in the other. Comments and string literals are
ignored. Prints each folder's dependencies; exits 1 with the cycle when there is one.

Usage: scripts/check/kit-folders.py [Sources/SoundpackKit]
"""
import os, re, sys

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
kit = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "Sources/SoundpackKit")

DECL = re.compile(r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|internal|private|fileprivate|package|final|indirect|nonisolated)\s+)*"
                  r"(?:struct|class|enum|protocol|actor|typealias|func)\s+([A-Za-z_][A-Za-z0-9_]*)")
IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def strip(source):
    """Source without comments and string literals (multi-line strings included)."""
    source = re.sub(r'"""[\s\S]*?"""', '""', source)
    source = re.sub(r"/\*[\s\S]*?\*/", "", source)
    source = re.sub(r"//[^\n]*", "", source)
    return re.sub(r'"(?:\\.|[^"\\\n])*"', '""', source)


def folder_of(path):
    relative = os.path.relpath(path, kit)
    return relative.split(os.sep)[0] if os.sep in relative else "."


files = {}
for directory, _, names in os.walk(kit):
    for name in names:
        if name.endswith(".swift"):
            path = os.path.join(directory, name)
            files[path] = strip(open(path, encoding="utf-8").read())

declared = {}  # name -> folder
for path, source in files.items():
    for line in source.splitlines():
        # Top-level declarations only: nested types are named through their outer type.
        match = DECL.match(line)
        if match and not line[:1].isspace():
            declared.setdefault(match.group(1), folder_of(path))

edges = {}
for path, source in files.items():
    here = folder_of(path)
    for name in set(IDENT.findall(source)):
        there = declared.get(name)
        if there and there != here:
            edges.setdefault(here, {}).setdefault(there, set()).add(name)

folders = sorted({folder_of(p) for p in files})
for folder in folders:
    uses = edges.get(folder, {})
    print(f"{folder:12} uses " + (", ".join(f"{d} ({', '.join(sorted(n)[:4])}{'…' if len(n) > 4 else ''})" for d, n in sorted(uses.items())) or "nothing"))

# Cycles: depth-first search for a back edge.
state, stack = {}, []
def visit(node):
    state[node] = "open"
    stack.append(node)
    for nxt in sorted(edges.get(node, {})):
        if state.get(nxt) == "open":
            cycle = stack[stack.index(nxt):] + [nxt]
            detail = "; ".join(f"{a} → {b} via {', '.join(sorted(edges[a][b])[:3])}" for a, b in zip(cycle, cycle[1:]))
            sys.exit(f"cycle between SoundpackKit folders: {' → '.join(cycle)} ({detail})")
        if nxt not in state:
            visit(nxt)
    stack.pop()
    state[node] = "done"
for folder in folders:
    if folder not in state:
        visit(folder)
print("SoundpackKit folders: no cycles")
