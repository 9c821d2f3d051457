#!/usr/bin/env python3
"""The Kotlin reference player (Players/android) against soundpack itself.

    scripts/check/android-player.py SOUNDPACK JAR [--random N]

1. The table reader: for every grammar and every combination of its reading options, the player's
   reader of the bare table (`soundpack say --grammar G … --format table`; the player's reader is
   written from DESIGN §3b alone) reads the edge amounts and N seeded random ones (default 2,000)
   to the tokens `soundpack say --format tokens` prints.
2. Every demo pack, exported with `export --platform android`: the player says the edge amounts
   and N/4 random ones (up to the pack's maxAmount) as `soundpack say --pack DIR --format tokens`
   does, phrase pieces included, and for a dozen of them its joined PCM is the samples of
   `soundpack render` (both decoded by ffmpeg to raw 16-bit samples, compared byte for byte).

Exit 1 with the first differences; prints one summary line.
"""
import argparse, itertools, json, os, random, shutil, subprocess, sys, tempfile

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OPTIONS = {"--two": ["er", "liang", "liang-large"], "--money": ["yuan", "jiao-fen", "kuai-mao"], "--ten-start": ["shi", "yi-shi"]}
GRAMMARS = ["zh-Hans", "zh-Hant", "en-US", "en-IN", "hi-IN"]


def run(arguments, stdin=None):
    out = subprocess.run(arguments, input=stdin, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"android-player: {' '.join(arguments[:6])} … exited {out.returncode}: {out.stderr[-2000:]}")
    return out.stdout


def edge_amounts(maximum_minor):
    amounts = {0, 1, 100, 101, 200, 1000, 1001, 10010, 100100, maximum_minor}
    power = 1
    while power <= maximum_minor:
        for digit in range(1, 10):
            amounts.add(digit * power)
        amounts.add(power * 10 - 1)
        amounts.add(power + 1)
        power *= 10
    return sorted(a for a in amounts if 0 <= a <= maximum_minor)


def random_amounts(count, maximum_minor, seed):
    generator = random.Random(seed)
    amounts = []
    for _ in range(count):
        digits = "".join(generator.choice("0000123456789") for _ in range(14))
        amounts.append(int(digits[generator.randrange(0, 14):] or "0") % (maximum_minor + 1))
    return amounts


def written(minor):
    return f"{minor // 100}.{minor % 100:02d}"


def compare(what, amounts, expected, actual, failures):
    expected_lines, actual_lines = expected.splitlines(), actual.splitlines()
    if len(expected_lines) != len(amounts) or len(actual_lines) != len(amounts):
        failures.append(f"{what}: {len(amounts)} amounts, soundpack printed {len(expected_lines)} lines, the player {len(actual_lines)}")
        return
    for amount, want, got in zip(amounts, expected_lines, actual_lines):
        if want.strip() != got.strip():
            failures.append(f"{what} {written(amount)}: soundpack '{want.strip()}', the player '{got.strip()}'")
            return


def samples(path):
    return subprocess.run(["ffmpeg", "-v", "error", "-i", path, "-f", "s16le", "-acodec", "pcm_s16le", "-"], capture_output=True, check=True).stdout


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("soundpack")
    parser.add_argument("jar")
    parser.add_argument("--random", type=int, default=2000)
    args = parser.parse_args()
    player = ["java", "-jar", args.jar]
    failures, tables, read = [], 0, 0
    work = tempfile.mkdtemp(prefix="soundpack-android-player.")
    try:
        # 1. The bare table, every grammar and option combination.
        for grammar in GRAMMARS:
            combos = itertools.product(*OPTIONS.values()) if grammar.startswith("zh-") else [()]
            for combo in combos:
                flags = [part for name, value in zip(OPTIONS, combo) for part in (name, value)]
                table = os.path.join(work, "table.json")
                with open(table, "w") as out:
                    out.write(run([args.soundpack, "say", "--grammar", grammar, *flags, "--format", "table"]))
                limit = 10**14 - 1
                amounts = edge_amounts(limit) + random_amounts(args.random, limit, f"{grammar}{combo}")
                expected = run([args.soundpack, "say", "--grammar", grammar, *flags, "--format", "tokens", "-"], "\n".join(map(written, amounts)) + "\n")
                actual = run(player + ["table-say", table] + [written(a) for a in amounts])
                compare(f"{grammar} {' '.join(flags)}".strip(), amounts, expected, actual, failures)
                tables += 1
                read += len(amounts)
        # 2. Every demo pack, exported: tokens with the phrase's pieces, and the joined samples.
        packs = sorted(name for name in os.listdir(os.path.join(root, "packs")) if os.path.exists(os.path.join(root, "packs", name, "pack.json")))
        rendered = 0
        for name in packs:
            pack = os.path.join(root, "packs", name)
            export = os.path.join(work, f"export-{name}")
            run([args.soundpack, "export", pack, "--platform", "android", "-o", export])
            document = json.load(open(os.path.join(export, "soundpack.json")))
            whole, _, fraction = document["maxAmount"].partition(".")
            maximum = int(whole) * 100 + int((fraction + "00")[:2])
            amounts = edge_amounts(maximum) + random_amounts(max(1, args.random // 4), maximum, name)
            expected = run([args.soundpack, "say", "--pack", pack, "--format", "tokens", "-"], "\n".join(map(written, amounts)) + "\n")
            actual = run(player + ["say", export] + [written(a) for a in amounts])
            compare(f"pack {name}", amounts, expected, actual, failures)
            read += len(amounts)
            for amount in amounts[:: max(1, len(amounts) // 12)][:12]:
                ours, theirs = os.path.join(work, "ours.wav"), os.path.join(work, "theirs.wav")
                run([args.soundpack, "render", "--pack", pack, written(amount), "-o", ours])
                run(player + ["render", export, written(amount), theirs])
                if samples(ours) != samples(theirs):
                    failures.append(f"pack {name} {written(amount)}: the player's joined PCM differs from soundpack render's samples")
                rendered += 1
    finally:
        shutil.rmtree(work, ignore_errors=True)
    for failure in failures[:20]:
        print(f"android-player: {failure}", file=sys.stderr)
    if failures:
        sys.exit(f"android-player: {len(failures)} difference(s) between the Kotlin player and soundpack")
    print(f"android-player: {tables} tables and {len(packs)} exported packs, {read} amounts read as soundpack says them, {rendered} joined as soundpack renders them")


if __name__ == "__main__":
    main()
