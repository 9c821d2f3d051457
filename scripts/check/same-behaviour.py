#!/usr/bin/env python3
"""Runs the recorded command lines with two soundpack binaries and shows where they differ.

    scripts/check/same-behaviour.py BEFORE AFTER [--keep DIR]

For a change that must not change behaviour (a refactor): build the base commit's binary and this
one's (`swift build -c release`, copying the first away with its `*.resources` folder), then compare.
Each side runs scripts/check/behaviour-commands.sh in a fresh sandbox at the same path (so paths
in messages match), with no standard input. Compared per case: stdout, stderr and exit code; then
every file the sandbox holds at the end — text byte for byte, SQLite catalogs as their `.dump`,
other files by SHA-256. Times of day, JUnit's elapsed seconds and staging files' random names are masked: the
two runs happen at different moments. Exits 0 when everything is equal, 1 with the differences otherwise.
"""
import argparse, difflib, hashlib, os, re, shutil, sqlite3, subprocess, sys

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
work = "/tmp/soundpack-behaviour"
sandbox = os.path.join(work, "sandbox")
TIMES = [
    re.compile(rb"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:?\d\d)?"),
    re.compile(rb"\d{4}-\d\d-\d\d \d\d:\d\d(?::\d\d)?(?: UTC)?"),
    re.compile(rb'(?<= time=")[0-9.]+(?=")'),  # JUnit's elapsed seconds
    re.compile(rb"(?<=\.)\d+\.\d+(?=\.partial)"),  # a staging file's process id and random suffix
]

DRIVER = r"""
set -u
cd "$SANDBOX"
n=0
run() {
  local name=$1; shift
  n=$((n + 1))
  local stem; stem=$(printf '%s/%03d %s' "$RECORD" "$n" "$name")
  "$@" >"$stem.out" 2>"$stem.err" </dev/null
  echo $? >"$stem.rc"
}
source "$COMMANDS"
"""


def mask(data):
    for pattern in TIMES:
        data = pattern.sub(b"<time>", data)
    return data


def snapshot(folder):
    """Every file under folder: relative path -> comparable bytes."""
    files = {}
    for directory, _, names in os.walk(folder):
        for name in sorted(names):
            path = os.path.join(directory, name)
            relative = os.path.relpath(path, folder)
            if os.path.islink(path):
                files[relative] = b"symlink -> " + os.readlink(path).encode()
                continue
            data = open(path, "rb").read()
            if data.startswith(b"SQLite format 3\0"):
                connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
                data = "\n".join(connection.iterdump()).encode()
                connection.close()
            try:
                data.decode("utf-8")
                files[relative] = mask(data)
            except UnicodeDecodeError:
                files[relative] = b"sha256 " + hashlib.sha256(data).hexdigest().encode()
    return files


def run_side(label, binary):
    record = os.path.join(work, label)
    shutil.rmtree(sandbox, ignore_errors=True)
    shutil.rmtree(record, ignore_errors=True)
    os.makedirs(record)
    shutil.copytree(os.path.join(root, "packs"), os.path.join(sandbox, "packs"))
    environment = {
        "PATH": "/usr/bin:/bin", "HOME": sandbox, "LANG": "C.UTF-8", "SP": os.path.abspath(binary),
        "SANDBOX": sandbox, "RECORD": record, "FIXTURES": os.path.join(work, "fixtures"),
        "COMMANDS": os.path.join(root, "scripts/check/behaviour-commands.sh"),
    }
    subprocess.run(["bash", "-c", DRIVER], env=environment, stdin=subprocess.DEVNULL, check=True)
    cases = {}
    for name in sorted(os.listdir(record)):
        cases[name] = mask(open(os.path.join(record, name), "rb").read())
    return cases, snapshot(sandbox)


def compare(kind, before, after, problems):
    for key in sorted(set(before) | set(after)):
        a, b = before.get(key), after.get(key)
        if a == b:
            continue
        if a is None or b is None:
            problems.append(f"{kind} {key}: only {'after' if a is None else 'before'}")
            continue
        lines = difflib.unified_diff(a.decode(errors="replace").splitlines(), b.decode(errors="replace").splitlines(),
                                     "before", "after", lineterm="", n=1)
        problems.append(f"{kind} {key}:\n" + "\n".join(list(lines)[:20]))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before")
    parser.add_argument("after")
    arguments = parser.parse_args()
    fixtures = os.path.join(work, "fixtures")
    shutil.rmtree(fixtures, ignore_errors=True)
    os.makedirs(fixtures)
    subprocess.run([arguments.before, "keygen", "-o", os.path.join(fixtures, "key")], check=True,
                   stdout=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
    before_cases, before_files = run_side("before", arguments.before)
    after_cases, after_files = run_side("after", arguments.after)
    problems = []
    compare("case", before_cases, after_cases, problems)
    compare("file", before_files, after_files, problems)
    count = len([name for name in before_cases if name.endswith(".rc")])
    if count == 0 or not before_files:
        sys.exit("same-behaviour: no command line ran; nothing was compared")
    if problems:
        print("\n".join(problems))
        sys.exit(f"same-behaviour: {len(problems)} differences in {count} command lines and {len(before_files)} files")
    print(f"same-behaviour: {count} command lines and {len(before_files)} files identical "
          f"(stdout, stderr, exit codes; files byte for byte, catalogs by rows)")


if __name__ == "__main__":
    main()
