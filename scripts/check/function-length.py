#!/usr/bin/env python3
"""The longest functions in Sources: each `func`, `init`, `deinit`, `subscript` and computed
property body (`var x: T {`), counted from its declaration's line to its closing brace, comments
and blank lines included (what a reader scrolls through). Nested functions count inside their
outer one too. String literals and comments are skipped when matching braces.

    scripts/check/function-length.py [--max N] [--top K] [PATH...]

Prints the K longest (default 10); with --max, exits 1 listing every function longer than N lines.
"""
import argparse, os, re, sys

from swift_source import blank

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HEAD = re.compile(r"^\s*(?:@[\w.]+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|private|fileprivate|open|static|class|final|override|"
                  r"mutating|nonmutating|convenience|required|nonisolated|lazy|dynamic|@\w+)\s+|private\(set\)\s+|package\(set\)\s+|public\(set\)\s+)*"
                  r"(func\s+[^\s(<]+|init[?!]?|deinit|subscript|var\s+\w+)")


def functions(path):
    lines = blank(open(path, encoding="utf-8").read()).split("\n")
    found = []
    for number, line in enumerate(lines):
        match = HEAD.match(line)
        if not match:
            continue
        if match.group(1).startswith("var") and "{" not in line:
            continue
        # The body opens at the first `{` at or after the declaration (a signature may wrap).
        depth, opened, end = 0, False, None
        for k in range(number, min(len(lines), number + 400)):
            segment = lines[k]
            for ch in segment:
                if ch == "{":
                    depth += 1; opened = True
                elif ch == "}":
                    depth -= 1
                    if opened and depth == 0:
                        end = k; break
            if end is not None or (not opened and k > number and re.match(r"^\s*(?:@|(?:public|package|internal|private|static|func|var|let|case|init)\b)", lines[k])):
                break
            if not opened and k == number and match.group(1).startswith("var") and "=" in segment.split("{")[0]:
                break
        if opened and end is not None:
            found.append((end - number + 1, path, number + 1, match.group(1).split()[-1]))
    return found


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--max", type=int)
    parser.add_argument("--top", type=int, default=10)
    parser.add_argument("paths", nargs="*", default=[os.path.join(root, "Sources")])
    arguments = parser.parse_args()
    found = []
    for base in arguments.paths:
        for directory, _, names in os.walk(base):
            for name in names:
                if name.endswith(".swift"):
                    found += functions(os.path.join(directory, name))
    if not found:
        sys.exit(f"function-length: no Swift function found under {', '.join(arguments.paths)}")
    found.sort(reverse=True)
    for length, path, line, name in found[:arguments.top]:
        print(f"{length:4} lines  {os.path.relpath(path, root)}:{line}  {name}")
    if arguments.max is not None:
        over = [f for f in found if f[0] > arguments.max]
        if over:
            sys.exit(f"{len(over)} functions longer than {arguments.max} lines (the longest: {over[0][0]})")
        print(f"every function in {len(found)} is at most {arguments.max} lines")


if __name__ == "__main__":
    main()
