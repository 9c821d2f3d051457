#!/usr/bin/env python3
"""audio.swapped on a labelled set. For each voice (espeak-ng's Mandarin, US English and Hindi,
through soundpack synth) version 1.0.0 is published to a folder store, and versions 1.0.1 are
validated against it:
  clean   - the same words spoken again at another speed (espeak-ng -s 150 instead of 175), a
            retake of every clip; the same pack through µ-law; one clip re-recorded 5 % faster;
  planted - the retake with every clip moved to another word's key (each shift of the keys, so
            every clip under every other key once), and the 1.0.0 files themselves so moved;
  voice   - the pack spoken by another voice: a note, no finding.
Prints the figures the README quotes.

usage: scripts/measure/swapped.py [SOUNDPACK] (default .build/release/soundpack)
"""
import json, os, shutil, subprocess, sys, tempfile

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
soundpack = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, ".build/release/soundpack"))
VOICES = [("zh-Hans", "cmn", "cmn+f3"), ("en-US", "en-us", "en-us+f3"), ("hi-IN", "hi", "hi+f2")]

def run(*args, cwd):
    out = subprocess.run([soundpack, *args], capture_output=True, text=True, cwd=cwd)
    return out

def synth(folder, grammar, voice, speed, cwd):
    engine = f"espeak-ng -v {voice} -s {speed} -w {{out}} {{text}}"
    made = run("synth", folder, "--id", "voiced", "--grammar", grammar, "--max-amount", "99999.99", "--engine-command", engine, cwd=cwd)
    if made.returncode != 0: sys.exit(f"synth {voice}: {made.stdout}{made.stderr}")

def swapped(pack, manifest, cwd):
    manifest = dict(manifest, version="1.0.1")
    with open(os.path.join(pack, "pack.json"), "w") as f: json.dump(manifest, f, ensure_ascii=False)
    out = run("validate", pack, "--format", "json", "--no-record", "--store", "store", "--catalog", "catalog.sqlite", cwd=cwd)
    report = json.loads(out.stdout)["packs"][0]
    return {f["token"] for f in report["findings"] if f["rule"] == "audio.swapped"}, report["notes"]

totals = {"clean": [0, 0], "planted retake": [0, 0], "planted files": [0, 0]}
with tempfile.TemporaryDirectory() as work:
    for grammar, voice, other in VOICES:
        cwd = os.path.join(work, voice)
        os.makedirs(cwd)
        synth("v1", grammar, voice, 175, cwd)
        published = run("publish", "v1", "--store", "store", "--catalog", "catalog.sqlite", cwd=cwd)
        if published.returncode != 0: sys.exit(f"publish {voice}: {published.stdout}{published.stderr}")
        synth("retake", grammar, voice, 150, cwd)
        synth("other", grammar, other, 175, cwd)
        converted = run("convert", "v1", "ulaw", "--codec", "ulaw", cwd=cwd)
        if converted.returncode != 0: sys.exit(converted.stderr)
        manifest = json.load(open(os.path.join(cwd, "v1/pack.json")))
        keys = sorted(manifest["clips"])
        shutil.copytree(os.path.join(cwd, "v1"), os.path.join(cwd, "faster"))
        first = os.path.join(cwd, "faster", manifest["clips"][keys[0]])
        subprocess.run(["sox", "-D", first, first + ".caf", "tempo", "1.05"], check=True)
        os.replace(first + ".caf", first)
        for name in ["retake", "ulaw", "faster"]:
            found, notes = swapped(os.path.join(cwd, name), json.load(open(os.path.join(cwd, name, "pack.json"))), cwd)
            totals["clean"][0] += len(found); totals["clean"][1] += len(keys)
            print(f"{voice} clean {name}: {sorted(found) or 'none'}{' ' + str(notes) if notes and 'swap' in str(notes) else ''}")
        found, notes = swapped(os.path.join(cwd, "other"), json.load(open(os.path.join(cwd, "other/pack.json"))), cwd)
        print(f"{voice} another voice ({other}): findings {sorted(found) or 'none'}; notes {[n for n in notes if 'voice' in n]}")
        for kind, source in [("planted retake", "retake"), ("planted files", "v1")]:
            base = json.load(open(os.path.join(cwd, source, "pack.json")))
            for shift in range(1, len(keys)):
                moved = dict(base, clips={keys[i]: base["clips"][keys[(i + shift) % len(keys)]] for i in range(len(keys))})
                found, _ = swapped(os.path.join(cwd, source), moved, cwd)
                totals[kind][0] += len(found); totals[kind][1] += len(keys)
        print(f"{voice}: done", flush=True)
for kind, (hit, total) in totals.items():
    print(f"{kind}: {hit} of {total} clips flagged ({100 * hit / total:.1f} %)")
