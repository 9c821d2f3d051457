#!/usr/bin/env python3
"""Checks that no iOS API newer than the package's floor runs unguarded in the code that ships to
phones: Sources/SoundpackCore (which an app's extension links) and Examples/ (the extension and app
code teams copy). On Linux no compiler checks either against the iOS SDK, so this does the part of
that check that matters for shipping.

What guarantees an iOS version at a call, as Swift's own rules do:
  if #available(iOS N, *) { here } else { not here }    guard #available(iOS N, *) else { not here }; here
  if #unavailable(iOS N) { not here } else { here }     guard #unavailable(iOS N) else { here }; not here
  @available(iOS N, *) / @available(iOS, introduced: N) / @available(macOS 12, iOS N, *) on a declaration: its body
  #available(macOS 12, *) with no iOS entry guarantees only the floor on iOS ("*" is the deployment target).

Usage: scripts/check/ios-availability.py [--root DIR] [--quiet]
"""
import os, re, sys

from swift_source import blank

# (pattern in code with comments and string contents removed, what it is, the iOS version that introduced it)
SENSITIVE = [
    (r"\.data\((?:from|for):", "URLSession.data(from:/for:) async", 15),
    (r"\.bytes\((?:from|for):", "URLSession.bytes(from:/for:)", 15),
    (r"\.download\((?:from|for):", "URLSession.download(from:/for:) async", 15),
    (r"\.upload\(for:", "URLSession.upload(for:) async", 15),
    (r"\binterruptionLevel\b", "UNNotificationContent.interruptionLevel", 15),
    (r"\.timeSensitive\b", "UNNotificationInterruptionLevel.timeSensitive", 15),
    (r"\brelevanceScore\b", "UNNotificationContent.relevanceScore", 15),
    (r"\bfilterCriteria\b", "UNNotificationContent.filterCriteria", 16),
    (r"\.formatted\(", ".formatted() (FormatStyle)", 15),
    (r"\bString\(localized:", "String(localized:)", 15),
    (r"\bAttributedString\b", "AttributedString", 15),
    (r"\.appending\((?:path|component|components):", "URL.appending(path:/component:)", 16),
    (r"\bURL\(filePath:", "URL(filePath:)", 16),
    (r"\.path\(percentEncoded:", "URL.path(percentEncoded:)", 16),
    (r"\bDuration\b", "Duration", 16),
    (r"\b(?:Continuous|Suspending)Clock\b", "Clock (ContinuousClock/SuspendingClock)", 16),
    (r"\bTask\.sleep\(for:", "Task.sleep(for:) (Duration)", 16),
    (r"\bRegex\s*[<(]", "Regex", 16),
    (r"#/", "regex literal", 16),
    (r"(?:^|[=(,:\[]|\breturn)\s*/(?![/*\s])[^/\n]*[^\\\s]/(?=\s*[)\],.;]|\s*$)", "regex literal", 16),
    (r"\.(?:wholeMatch|prefixMatch|firstMatch|matches)\((?:of|in):", "_StringProcessing matching", 16),
    (r"\.(?:ranges|firstRange)\(of:", "_StringProcessing ranges(of:)", 16),
    (r"\.trimmingPrefix\(", "_StringProcessing trimmingPrefix", 16),
    (r"\.replacing\([^()]*?,\s*with:", "_StringProcessing replacing(_:with:)", 16),
    (r"\bMutex\s*[<(]", "Synchronization.Mutex", 18),
    (r"\bAtomic\s*[<(]", "Synchronization.Atomic", 18),
    (r"\bimport\s+Synchronization\b", "import Synchronization", 18),
]
NEVER = 10_000  # @available(iOS, unavailable): the body never runs on iOS


def ios_version(arguments):
    """The iOS version an #available/@available argument list names: a number, NEVER, or None."""
    parts = [p.strip() for p in arguments.split(",")]
    for index, part in enumerate(parts):
        m = re.fullmatch(r"iOS\s+(\d+)(?:\.\d+)*", part)
        if m:
            return int(m.group(1))
        if part == "iOS":
            rest = ",".join(parts[index + 1:])
            m = re.search(r"introduced:\s*(\d+)", rest)
            if m:
                return int(m.group(1))
            if re.match(r"\s*unavailable", rest):
                return NEVER
    return None


def matching(code, start):
    """Index just past the parenthesis that closes the one at `start`."""
    depth = 0
    for j in range(start, len(code)):
        if code[j] == "(":
            depth += 1
        elif code[j] == ")":
            depth -= 1
            if depth == 0:
                return j + 1
    return len(code)


def identifier(code, index):
    """Whether the character at `index` continues an identifier (so "else" there is not the keyword)."""
    return 0 <= index < len(code) and (code[index].isalnum() or code[index] == "_")


def check(path, code, floor):
    """Yields (line, api, needed, guaranteed) for every sensitive call in one file."""
    lines = [0]
    for m in re.finditer("\n", code):
        lines.append(m.end())

    def line_of(pos):
        lo, hi = 0, len(lines) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if lines[mid] <= pos: lo = mid
            else: hi = mid - 1
        return lo + 1

    # Every sensitive call's position, then one pass over the braces that knows the version at each.
    calls = sorted((m.start(), api, version) for pattern, api, version in SENSITIVE for m in re.finditer(pattern, code, re.M))
    scopes = [{"version": floor, "after": None}]
    pending = None          # ("if", then, else) or ("guard", else_block, after) for the next "{"
    declaration = None      # an @available version for the next "{"
    alternative = None      # the version an "else" right after a closed block gets
    chain = None            # the version an "else if" condition and blocks start from
    call_index, i, n = 0, 0, len(code)
    while i < n:
        while call_index < len(calls) and calls[call_index][0] <= i:
            position, api, version = calls[call_index]
            here = chain if chain is not None else scopes[-1]["version"]
            yield line_of(position), api, version, here
            call_index += 1
        c = code[i]
        if code.startswith("#available(", i) or code.startswith("#unavailable(", i):
            unavailable = code[i + 1] == "u"
            open_paren = code.index("(", i)
            end = matching(code, open_paren)
            named = ios_version(code[open_paren + 1:end - 1])
            current = chain if chain is not None else scopes[-1]["version"]
            raised = max(current, named or floor)
            statement = code[max(code.rfind("\n", 0, i), code.rfind("{", 0, i), code.rfind("}", 0, i), code.rfind(";", 0, i)) + 1:i]
            if re.search(r"\bguard\b", statement):
                pending = ("guard", raised if unavailable else current, current if unavailable else raised)
            else:
                pending = ("if", current if unavailable else raised, raised if unavailable else current)
            i = end
            continue
        if code.startswith("@available(", i):
            open_paren = code.index("(", i)
            end = matching(code, open_paren)
            named = ios_version(code[open_paren + 1:end - 1])
            if named is not None:
                declaration = max(scopes[-1]["version"], named)
            i = end
            continue
        if code.startswith("else", i) and not identifier(code, i - 1) and not identifier(code, i + 4):
            if alternative is not None:
                chain = alternative
                alternative = None
            i += 4
            continue
        if c == "{":
            current = chain if chain is not None else scopes[-1]["version"]
            if pending and pending[0] == "if":
                scopes.append({"version": pending[1], "after": ("else", pending[2])})
            elif pending and pending[0] == "guard":
                scopes.append({"version": pending[1], "after": ("raise", pending[2])})
            elif declaration is not None:
                scopes.append({"version": declaration, "after": None})
            else:
                scopes.append({"version": current, "after": ("else", current) if chain is not None else None})
            pending = declaration = chain = None
            alternative = None
        elif c == "}":
            closed = scopes.pop() if len(scopes) > 1 else scopes[0]
            alternative = None
            if closed["after"] and closed["after"][0] == "else":
                alternative = closed["after"][1]
            elif closed["after"] and closed["after"][0] == "raise":
                scopes[-1]["version"] = max(scopes[-1]["version"], closed["after"][1])
        elif not c.isspace() and alternative is not None and not code.startswith("else", i):
            alternative = None
        if declaration is not None and c == "\n":
            # an @available stored property or a declaration without a body does not carry over
            line = code[code.rfind("\n", 0, i) + 1:i]
            if re.search(r"\b(?:let|var|case|typealias)\b", line) and "{" not in line and not line.rstrip().endswith(("(", ",")):
                declaration = None
        i += 1


def check_file(path, relative, floor):
    """(seen, problems) for one Swift file."""
    seen, problems = [], []
    code = blank(open(path, encoding="utf-8").read())
    # AVAudioFile.close() (iOS 18): a .close() on a name the file declares as an AVAudioFile.
    extra = [(rf"\b{m.group(1)}\.close\(\)", "AVAudioFile.close()", 18)
             for m in re.finditer(r"\b(?:let|var)\s+(\w+)\s*(?::\s*AVAudioFile\b|=\s*(?:try\s+)?AVAudioFile\()", code)]
    SENSITIVE.extend(extra)
    try:
        for line, api, needed, here in check(relative, code, floor):
            if here >= NEVER:
                continue
            seen.append(f"{relative}:{line}: {api} needs iOS {needed}; iOS {here} is guaranteed here")
            if needed > here:
                problems.append(f"{relative}:{line}: error: {api} needs iOS {needed}, but only iOS {here} is guaranteed here (floor iOS {floor}); "
                                f"put it under if #available(iOS {needed}, *) or an @available(iOS {needed}, *) declaration")
    finally:
        for item in extra:
            SENSITIVE.remove(item)
    return seen, problems


def floor_of(root):
    match = re.search(r"\.iOS\(\.v(\d+)\)", open(os.path.join(root, "Package.swift")).read())
    return int(match.group(1)) if match else 0


def check_tree(root):
    """(seen, problems, files) for Sources/SoundpackCore and Examples/ under `root`."""
    floor = floor_of(root)
    seen, problems, files = [], [], 0
    for top in ("Sources/SoundpackCore", "Examples"):
        for folder, _, names in sorted(os.walk(os.path.join(root, top))):
            for name in sorted(names):
                if name.endswith(".swift"):
                    files += 1
                    path = os.path.join(folder, name)
                    found, wrong = check_file(path, os.path.relpath(path, root), floor)
                    seen += found
                    problems += wrong
    return seen, problems, files


def main():
    arguments = sys.argv[1:]
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    if "--root" in arguments:
        root = os.path.abspath(arguments[arguments.index("--root") + 1])
    seen, problems, files = check_tree(root)
    if "--quiet" not in arguments:
        for line in seen:
            print(line)
    if problems:
        sys.exit("\n".join(problems))
    print(f"ios availability: {len(seen)} version-sensitive calls in {files} files of Sources/SoundpackCore and Examples/; "
          f"none above the iOS {floor_of(root)} floor runs unguarded")


if __name__ == "__main__":
    main()
