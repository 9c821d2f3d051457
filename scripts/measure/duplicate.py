#!/usr/bin/env python3
"""audio.duplicate on clean packs: espeak-ng voices of each grammar at several speeds. Each pack is
spoken by soundpack synth's own pipeline (the engine's files are kept aside, so a pack synth itself
refuses is still measured), converted as synth converts, then validated with the defaults; every
finding is a false positive. With --near, also the pairs of different words whose prints correlate
at least 0.95 whatever their difference in dB (the closest clean pairs). Planted copies are in the
test command (ClipIdentityTests).

usage: scripts/measure/duplicate.py [--near] [SOUNDPACK] (default .build/release/soundpack)
"""
import json, os, re, shutil, subprocess, sys, tempfile

args = [a for a in sys.argv[1:] if a != "--near"]
near = "--near" in sys.argv
root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
soundpack = os.path.abspath(args[0] if args else os.path.join(root, ".build/release/soundpack"))
VOICES = [("hi-IN", "hi"), ("hi-IN", "hi+f2"), ("zh-Hans", "cmn"), ("zh-Hans", "cmn+f3"), ("en-US", "en-us"), ("en-US", "en-us+f3"), ("en-IN", "en-us+m3")]
SPEEDS = [120, 140, 160, 175, 190, 220]

def run(*arguments, cwd):
    return subprocess.run([soundpack, *arguments], capture_output=True, text=True, cwd=cwd)

def findings(pack, cwd, checks):
    manifest = json.load(open(os.path.join(pack, "pack.json")))
    manifest["checks"] = dict(manifest.get("checks", {}), **checks)
    with open(os.path.join(pack, "pack.json"), "w") as f: json.dump(manifest, f, ensure_ascii=False)
    report = json.loads(run("validate", pack, "--format", "json", "--no-record", cwd=cwd).stdout)["packs"][0]
    return [f["message"] for f in report["findings"] if f["rule"] == "audio.duplicate"], len(report["clips"])

total_clips = total_false = 0
with tempfile.TemporaryDirectory() as work:
    for grammar, voice in VOICES:
        for speed in SPEEDS:
            cwd = os.path.join(work, f"{voice}-{speed}")
            side = os.path.join(cwd, "side")
            os.makedirs(side)
            engine = f"sh -c 'espeak-ng -v {voice} -s {speed} -w \"$1\" \"$2\" && cp \"$1\" {side}/' x {{out}} {{text}}"
            made = run("synth", "p", "--id", "p", "--grammar", grammar, "--max-amount", "99999.99", "--engine-command", engine, cwd=cwd)
            # The keys: synth's pack.json when it wrote one, else the files' names (a key each).
            if made.returncode == 0:
                clips = {k: os.path.splitext(v)[0] + ".wav" for k, v in json.load(open(os.path.join(cwd, "p/pack.json")))["clips"].items()}
            else:
                clips = {os.path.splitext(f)[0]: "clips/" + f for f in os.listdir(side)}
            os.makedirs(os.path.join(cwd, "src/clips"))
            for f in os.listdir(side): shutil.copy(os.path.join(side, f), os.path.join(cwd, "src/clips", f))
            loose = {"minDuplicateSimilarity": 1, "maxLoudnessDeviationLU": 60, "bannerCutSeconds": 30, "maxLeadingSilenceMs": 10000, "maxTrailingSilenceMs": 10000}
            with open(os.path.join(cwd, "src/pack.json"), "w") as f:
                json.dump({"id": "p", "version": "0.1.0", "grammar": grammar, "maxAmount": "99999.99", "clips": clips, "checks": loose}, f, ensure_ascii=False)
            converted = run("convert", "src", "out", "--mono", "--trim-silence", "--loudness", "-19", "--rate", "22050", cwd=cwd)
            if converted.returncode != 0: sys.exit(f"convert {voice} {speed}: {converted.stderr}")
            found, clip_count = findings(os.path.join(cwd, "out"), cwd, {"minDuplicateSimilarity": 0.99, "maxDuplicateDifferenceDb": 5})
            total_clips += clip_count; total_false += len(found)
            line = f"{voice} at {speed}: {clip_count} clips, {len(found)} findings"
            for message in found: line += "\n  " + message
            if near:
                close, _ = findings(os.path.join(cwd, "out"), cwd, {"minDuplicateSimilarity": 0.95, "maxDuplicateDifferenceDb": 60})
                figures = [(float(re.search(r"similarity ([0-9.]+)", m).group(1)), float(re.search(r"at most ([0-9.]+) dB", m).group(1))) for m in close]
                line += f"; pairs correlating ≥ 0.95: {sorted(figures, reverse=True)}"
            print(line, flush=True)
print(f"clean: {total_false} findings in {total_clips} clips")
