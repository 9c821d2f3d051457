#!/usr/bin/env python3
"""audio.voice-outlier on a labelled set: how far (in semitones) each clean clip's pitch sits from its
pack's median, and how far a clip of another voice sits when planted in a pack. Clean: the demo packs
and packs synth speaks with espeak-ng's male and female voices for each language. Planted: for each
pair of voices of one language, every clip of the one pack put in turn in place of the same key's
clip of the other. Each pack is validated with checks.maxVoicePitchSemitones 0, so every clip with a
pitch is reported with its distance. Prints the figures the README quotes.

usage: scripts/measure/voice-outlier.py [SOUNDPACK] (default .build/release/soundpack)
"""
import json, os, re, shutil, subprocess, sys, tempfile

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
soundpack = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, ".build/release/soundpack"))
LANGUAGES = [("zh-Hans", ["cmn", "cmn+f3"]), ("en-US", ["en-us", "en-us+f3", "en-us+m3"]), ("hi-IN", ["hi", "hi+f2"])]
DEFAULT = 7

def distances(pack):
    """token → semitones from the pack's median, for every clip with a pitch."""
    manifest = json.load(open(os.path.join(pack, "pack.json")))
    manifest["checks"] = dict(manifest.get("checks", {}), maxVoicePitchSemitones=0)
    with open(os.path.join(pack, "pack.json"), "w") as f: json.dump(manifest, f, ensure_ascii=False)
    out = subprocess.run([soundpack, "validate", pack, "--format", "json", "--no-record"], capture_output=True, text=True)
    report = json.loads(out.stdout)["packs"][0]
    found = {}
    for f in report["findings"]:
        if f["rule"] == "audio.voice-outlier":
            found[f["token"]] = float(re.search(r"is ([0-9.]+) semitones", f["message"]).group(1))
    return found

clean, planted = [], []
with tempfile.TemporaryDirectory() as work:
    packs = {}
    for grammar, voices in LANGUAGES:
        for voice in voices:
            folder = os.path.join(work, voice.replace("+", "-"))
            made = subprocess.run([soundpack, "synth", folder, "--id", "voiced", "--grammar", grammar, "--voice", voice, "--max-amount", "999.99"],
                                  capture_output=True, text=True, cwd=work)
            if made.returncode != 0: sys.exit(f"synth {voice}: {made.stdout}{made.stderr}")
            packs[voice] = folder
    for name in ["wechat", "merchant", "en-us", "hi-in"]:
        copy = os.path.join(work, "demo-" + name)
        shutil.copytree(os.path.join(root, "packs", name), copy)
        packs["demo " + name] = copy
    for name, folder in packs.items():
        found = distances(folder)
        clean += found.values()
        worst = max(found.items(), key=lambda x: x[1], default=(None, 0))
        print(f"clean {name}: {len(found)} clips with a pitch, farthest {worst[0]} at {worst[1]} semitones", flush=True)
    for grammar, voices in LANGUAGES:
        for one in voices:
            for other in voices:
                if one == other: continue
                manifest = json.load(open(os.path.join(packs[one], "pack.json")))
                hits = misses = 0
                for key, path in sorted(manifest["clips"].items()):
                    copy = os.path.join(work, "planted")
                    shutil.rmtree(copy, ignore_errors=True)
                    shutil.copytree(packs[one], copy)
                    other_path = json.load(open(os.path.join(packs[other], "pack.json")))["clips"].get(key)
                    if not other_path: continue
                    shutil.copy(os.path.join(packs[other], other_path), os.path.join(copy, path))
                    found = distances(copy)
                    if key not in found: continue
                    planted.append(found[key])
                    hits += found[key] > DEFAULT; misses += found[key] <= DEFAULT
                print(f"{other} clips in a {one} pack: {hits} above {DEFAULT} semitones, {misses} not", flush=True)
print(f"clean: {len(clean)} clips, farthest {max(clean)} semitones from their pack's median; above {DEFAULT}: {sum(d > DEFAULT for d in clean)}")
print(f"planted: {len(planted)} clips of another voice, {sum(d > DEFAULT for d in planted)} above {DEFAULT} semitones")
