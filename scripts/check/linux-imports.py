#!/usr/bin/env python3
"""Fails on a Linux-only import outside a platform guard, so the package keeps building on macOS.

Every `import Glibc` / `import Musl` / `import FoundationNetworking` in Sources/, Tests/, Benchmarks/,
Examples/ and fuzz/ must sit inside an `#if canImport(...)` or `#if os(Linux)` block (macOS has Darwin,
and URLSession in Foundation). macOS itself is not available here; this is the check that can run.
Usage: scripts/check/linux-imports.py
"""
import os
import re
import sys

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
linux_only = re.compile(r"^\s*(@preconcurrency\s+)?import\s+(Glibc|Musl|FoundationNetworking)\b")
guard = re.compile(r"^\s*#(if|elseif)\s+.*(canImport\((Glibc|Musl|FoundationNetworking)\)|os\(Linux\))")
problems, checked = [], 0
for folder in ("Sources", "Tests", "Benchmarks", "Examples", "fuzz"):
    for directory, _, files in os.walk(os.path.join(root, folder)):
        for name in files:
            if not name.endswith(".swift"):
                continue
            path = os.path.join(directory, name)
            checked += 1
            stack = []  # for each open #if: whether the branch we are in is a Linux guard
            for number, line in enumerate(open(path, encoding="utf-8"), 1):
                stripped = line.strip()
                if stripped.startswith("#if"):
                    stack.append(bool(guard.match(line)))
                elif stripped.startswith("#elseif"):
                    if stack:
                        stack[-1] = bool(guard.match(line))
                elif stripped.startswith("#else"):
                    if stack:
                        stack[-1] = False
                elif stripped.startswith("#endif"):
                    if stack:
                        stack.pop()
                elif linux_only.match(line) and not any(stack):
                    problems.append(f"{os.path.relpath(path, root)}:{number}: {stripped} outside #if canImport(...) or #if os(Linux)")
if problems:
    sys.exit("linux imports: " + "\n".join(problems))
print(f"linux imports: none outside a platform guard in {checked} Swift files")
