#!/usr/bin/env python3
"""Runs every console block of README.md, in order, in one fresh project, and compares what each
command prints with what the README shows, so the tour cannot drift from the tool.

- `$ command` lines run with bash in the project (soundpack on PATH); the lines after one, up to
  the next `$`, are its expected output (stdout, then stderr). `$ echo $?` prints the previous
  command's exit status.
- A line `…` in the expected output stands for any number of lines; ISO timestamps are compared
  as <time>.
- An ```sh block just after `<!-- check: run -->` is set-up the reader runs too: it runs (with
  `set -e`) before the next console block. `<!-- check: COMMAND -->` just before a block runs
  COMMAND first (set-up a reader needs no picture of); `<!-- check: no-compare -->` runs the block
  without comparing its output (JSON shown abridged).
- The project is the tour's: a folder `tour` beside the demo packs (`../packs`, `../scripts`), as
  the README has the reader make it in the clone, holding a copy of packs/wechat.
- `$ # …` narrative lines run the edit this script keeps for them (NARRATION).
- The tour's set-up scripts (make-raw-pack.sh) must write the same bytes on two runs: what the
  README shows after them would otherwise hold only by chance.

Usage: scripts/check/readme.py [path/to/soundpack]   (default .build/debug/soundpack)
"""
import os, re, shutil, subprocess, sys, tempfile

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
binary = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, ".build/debug/soundpack"))
NARRATION = {
    # A new take of 5 (the old one 5 % faster): a copy of another clip would be audio.duplicate.
    "# change clips/5.caf without touching the version…": "sox -D packs/wechat/clips/5.caf retake.caf tempo 1.05 && mv retake.caf packs/wechat/clips/5.caf",
    '# …set "version": "1.0.1"': "sed -i 's/\"version\" : \"1.0.0\"/\"version\" : \"1.0.1\"/' packs/wechat/pack.json",
}
TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z")

text = open(os.path.join(root, "README.md")).read()
blocks = []  # (setup commands, compare?, lines)
pending, compare = [], True
for match in re.finditer(r"<!-- check: run -->\n```sh\n(.*?)^```|(<!-- check: (.*?) -->\n)|^```console\n(.*?)^```", text, re.S | re.M):
    if match.group(1) is not None:
        pending.append("set -e\n" + match.group(1))
        continue
    if match.group(2):
        if match.group(3).strip() == "no-compare":
            compare = False
        else:
            pending.append(match.group(3))
        continue
    blocks.append((pending, compare, match.group(4).splitlines()))
    pending, compare = [], True

work = tempfile.mkdtemp(prefix="soundpack-readme-")
bin_dir = os.path.join(work, "bin")
project = os.path.join(work, "tour")
os.makedirs(bin_dir)
os.makedirs(os.path.join(work, "scripts"))
os.symlink(binary, os.path.join(bin_dir, "soundpack"))
shutil.copytree(os.path.join(root, "packs/wechat"), os.path.join(project, "packs/wechat"))
for script in ("make-raw-pack.sh",):
    shutil.copy(os.path.join(root, "scripts", script), os.path.join(work, "scripts"))
# The clone the tour sits in: its demo packs (make-raw-pack.sh reads them from beside itself).
os.symlink(os.path.join(root, "packs"), os.path.join(work, "packs"))
env = {**os.environ, "PATH": bin_dir + ":" + os.environ["PATH"], "NO_COLOR": "1", "SOUNDPACK_CATALOG": "", "SOUNDPACK_STORE": ""}
env.pop("SOUNDPACK_CATALOG"); env.pop("SOUNDPACK_STORE")


def shell(command):
    # One stream, as a terminal shows it: soundpack flushes standard output before an error line.
    return subprocess.run(["bash", "-o", "pipefail", "-c", command], cwd=project, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, stdin=subprocess.DEVNULL)


def matches(expected, actual):
    """Expected lines against actual ones, `…` matching any run of lines."""
    expected = [TIME.sub("<time>", l.rstrip()) for l in expected]
    actual = [TIME.sub("<time>", l.rstrip()) for l in actual]
    def walk(i, j):
        if i == len(expected):
            return j == len(actual)
        if expected[i] == "…":
            return any(walk(i + 1, k) for k in range(j, len(actual) + 1))
        return j < len(actual) and expected[i] == actual[j] and walk(i + 1, j + 1)
    return walk(0, 0)


def same_twice(script):
    """Runs a set-up script of the tour twice; the README's figures come from its output, so they
    hold only if it writes the same bytes every time (sox dithers from a random seed without -R)."""
    made = []
    for run in ("first", "second"):
        dest = os.path.join(work, f"{script}-{run}")
        subprocess.run([os.path.join(work, "scripts", script), dest], cwd=work, env=env, check=True,
                       stdout=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
        made.append({os.path.relpath(os.path.join(d, f), dest): open(os.path.join(d, f), "rb").read()
                     for d, _, files in os.walk(dest) for f in files})
    differ = sorted(name for name in made[0].keys() | made[1].keys() if made[0].get(name) != made[1].get(name))
    if differ:
        sys.exit(f"README set-up: scripts/{script} wrote different bytes on a second run ({', '.join(differ[:3])}"
                 f"{', …' if len(differ) > 3 else ''}), so what the README shows after it is left to chance; make it repeatable")


commands = problems = 0
try:
    for script in ("make-raw-pack.sh",):
        same_twice(script)
    for setup, compare, lines in blocks:
        for command in setup:
            result = shell(command)
            if result.returncode != 0:
                sys.exit(f"README set-up '{command}' failed: {result.stdout}")
        index, status = 0, 0
        while index < len(lines):
            line = lines[index]
            index += 1
            if not line.startswith("$ "):
                continue
            command = line[2:]
            expected = []
            while index < len(lines) and not lines[index].startswith("$ "):
                expected.append(lines[index])
                index += 1
            while expected and not expected[-1].strip():
                expected.pop()
            commands += 1
            if command.startswith("#"):
                edit = NARRATION.get(command.strip())
                if edit is None:
                    sys.exit(f"README narration without an edit in scripts/check/readme.py: {command}")
                if shell(edit).returncode != 0:
                    sys.exit(f"README narration edit failed: {edit}")
                continue
            if command.strip() == "echo $?":
                output = [str(status)]
            else:
                result = shell(command)
                status = result.returncode
                output = result.stdout.splitlines()
            if compare and not matches(expected, output):
                problems += 1
                print(f"README: '{command}' printed:\n  " + "\n  ".join(output) + "\nbut the README shows:\n  " + "\n  ".join(expected) + "\n")
finally:
    shutil.rmtree(work)
if problems:
    sys.exit(f"README: {problems} of {commands} commands print something other than the README shows")
print(f"README: {commands} commands in {len(blocks)} console blocks ran and printed what the README shows")
