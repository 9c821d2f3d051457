#!/usr/bin/env python3
"""audio.wrong-word on a labelled set: false positives on clean English packs, detection of clips
filed under another word's key. Clean: the demo en-us pack and packs synthesised by soundpack synth
with espeak-ng voices. Planted: in a copy of each clean pack, every clip moved to the next word's
key, then the one after (each shift puts every clip under another key once). Each copy is
validated with checks.minWrongWordMargin 0, so every clip heard as another word is reported with
its margin; the figures are then counted at several thresholds. Prints what the README quotes.

usage: scripts/measure/wrong-word.py [SOUNDPACK] (default .build/release/soundpack)
"""
import json, os, re, shutil, subprocess, sys, tempfile

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
soundpack = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, ".build/release/soundpack"))
# espeak-ng's voices as synth speaks them (libespeak-ng, its default speed), and through the
# espeak-ng program slower and faster (--engine-command).
VOICES = [("en-us", None), ("en-us+f3", None), ("en-us+m3", None), ("en-us+f2", None), ("en-us+m5", None), ("en", None),
          ("en-us", 140), ("en-us", 210), ("en-us+f3", 140), ("en-us+m3", 210)]
THRESHOLDS = [15, 20, 25, 30, 40]  # the default, checks.minWrongWordMargin, is 25

def margins(pack, manifest, keys_of_files=None):
    """Validates `pack` (its pack.json replaced by `manifest` with the margin at 0): token → margin (inf: not aligned)."""
    manifest = dict(manifest)
    manifest["checks"] = dict(manifest.get("checks", {}), minWrongWordMargin=0)
    with open(os.path.join(pack, "pack.json"), "w") as f: json.dump(manifest, f, ensure_ascii=False)
    out = subprocess.run([soundpack, "validate", pack, "--format", "json", "--no-record"], capture_output=True, text=True)
    report = json.loads(out.stdout)["packs"][0]
    found = {}
    for f in report["findings"]:
        if f["rule"] != "audio.wrong-word": continue
        m = re.search(r"better by ([0-9.]+) per frame", f["message"])
        found[f["token"]] = float(m.group(1)) if m else float("inf")
    return report, found

with tempfile.TemporaryDirectory() as work:
    packs = [("demo", os.path.join(root, "packs/en-us"))]
    for voice, speed in VOICES:
        name = f"{voice} at {speed}" if speed else voice
        folder = os.path.join(work, f"{voice.replace('+', '-')}-{speed or 'synth'}")
        how = ["--engine-command", f"espeak-ng -v {voice} -s {speed} -w {{out}} {{text}}"] if speed else ["--voice", voice]
        made = subprocess.run([soundpack, "synth", folder, "--id", "voiced", "--grammar", "en-US", *how,
                               "--max-amount", "99999999.99"], capture_output=True, text=True, cwd=work)
        if made.returncode != 0: sys.exit(f"synth {name}: {made.stdout}{made.stderr}")
        packs.append((name, folder))
    clean, planted = [], []  # margins of clips heard as another word (clean) / of every planted clip (0 when heard right)
    clean_clips = 0
    for name, pack in packs:
        copy = os.path.join(work, "copy")
        shutil.rmtree(copy, ignore_errors=True)
        shutil.copytree(pack, copy)
        manifest = json.load(open(os.path.join(pack, "pack.json")))
        report, found = margins(copy, manifest)
        clean_clips += sum(1 for c in report["clips"] if c.get("facts"))
        clean += list(found.values())
        for token, margin in sorted(found.items(), key=lambda x: -x[1])[:3]: print(f"clean {name}: {token} heard as another word, margin {margin}")
        keys = sorted(manifest["clips"])
        for shift in range(1, len(keys)):
            moved = dict(manifest)
            moved["clips"] = {keys[i]: manifest["clips"][keys[(i + shift) % len(keys)]] for i in range(len(keys))}
            _, found = margins(copy, moved)
            planted += [found.get(k, 0.0) for k in keys]
        print(f"{name}: done", flush=True)
    print(f"clean: {clean_clips} clips, {len(clean)} heard as another word; largest margin {max(clean, default=0)}")
    for t in THRESHOLDS:
        fp = sum(1 for m in clean if m >= t)
        hit = sum(1 for m in planted if m >= t)
        print(f"threshold {t}: clean flagged {fp} of {clean_clips}; planted flagged {hit} of {len(planted)} ({100 * hit / len(planted):.1f} %)")
