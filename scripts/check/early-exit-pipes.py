#!/usr/bin/env python3
"""No pipeline in a `pipefail` script ends in a reader that may stop before the writer is done.

Under `set -o pipefail`, `producer | head -1` (or `grep -q`, `grep -m N`, an awk program that runs
`exit`, a sed script that quits) fails with 141 whenever the producer is still writing when the
reader leaves: the producer dies of SIGPIPE, the pipeline's status is 141 and `set -e` ends the
script without a word. Whether it happens depends on how much the producer writes and on timing
(`ldconfig -p` writes 50 kB on one machine, more than a pipe's 64 kB buffer on another), so it
passes here and fails on a runner. A reader that reads to the end (`awk 'NR <= 5'`, a flag instead
of `exit`, `find -print -quit`) has no such race.

Scanned: every tracked shell script that sets pipefail, and action.yml's `shell: bash` steps
(GitHub runs them with `bash -e -o pipefail`). Exit 1 with file:line for each such pipe.
"""
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PIPE = r"(?<!\|)\|(?!\|)\s*"  # a pipe, not `||`
# A reader after `|` that can leave early. `grep -q`/`-m`, `head`, `sed …q`, awk with `exit`.
EARLY = [
    (re.compile(PIPE + r"head\b"), "head stops reading after its lines"),
    (re.compile(PIPE + r"grep\s+(-\w*\s+)*-\w*[qm]"), "grep -q/-m stops reading at its match"),
    (re.compile(PIPE + r"awk\b[^|]*\bexit\b"), "awk's exit stops reading"),
    (re.compile(PIPE + r"sed\b[^|]*[;{'\s]q\b"), "sed's q stops reading"),
]


def shell_files():
    listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    for name in listed:
        path = ROOT / name
        if not path.is_file() or name.endswith((".py", ".swift", ".kt", ".md")):
            continue
        try:
            head = path.read_bytes()[:120]
        except OSError:
            continue
        if re.match(rb"#!\S*(/env\s+)?\S*\b(ba)?sh\b", head) or name.endswith(".sh"):
            yield name, path.read_text(encoding="utf-8", errors="replace")


def action_steps():
    """action.yml's bash `run:` blocks, as (first line number, text)."""
    path = ROOT / "action.yml"
    if not path.exists():
        return
    lines = path.read_text(encoding="utf-8").splitlines()
    for index, line in enumerate(lines):
        match = re.match(r"^(\s*)run:\s*\|", line)
        if not match:
            continue
        indent = len(match.group(1))
        block = []
        for later in lines[index + 1:]:
            if later.strip() and len(later) - len(later.lstrip()) <= indent:
                break
            block.append(later)
        yield index + 2, "\n".join(block)


def offences(text, first_line=1):
    for number, line in enumerate(text.splitlines(), start=first_line):
        code = line.split(" #", 1)[0] if not line.lstrip().startswith("#") else ""
        for pattern, why in EARLY:
            if pattern.search(code):
                yield number, why, line.strip()


def main():
    found = []
    for name, text in shell_files():
        if "pipefail" not in text:
            continue
        found += [(name, number, why, line) for number, why, line in offences(text)]
    for first, block in action_steps():
        found += [("action.yml", number, why, line) for number, why, line in offences(block, first)]
    for name, number, why, line in found:
        print(f"{name}:{number}: {why}; under pipefail the writer can die of SIGPIPE (exit 141): {line}")
    if found:
        print(f"early-exit pipes: {len(found)} pipe(s) that can fail at random under pipefail; make the reader read to the end")
        return 1
    print("early-exit pipes: none in the pipefail scripts and action.yml's bash steps")
    return 0


if __name__ == "__main__":
    sys.exit(main())
