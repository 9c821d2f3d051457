#!/usr/bin/env bash
# Makes a "raw delivery" of the demo pack, as a voice actor might send it: 48 kHz stereo WAV,
# levels scattered over 12 dB, 300-400 ms of silence around every word. The README's convert
# example starts from it.
#   scripts/make-raw-pack.sh [DEST]   (default raw-wechat; needs sox: scripts/bootstrap.sh --dev)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dest=${1:-raw-wechat}
[ ! -e "$dest" ] || { echo "error: $dest already exists" >&2; exit 1; }
command -v sox >/dev/null || { echo "error: sox is not installed (scripts/bootstrap.sh --dev)" >&2; exit 3; }
mkdir -p "$dest/clips"
python3 - "$root/packs/wechat" "$dest" <<'PY'
import json, os, subprocess, sys
source, dest = sys.argv[1], sys.argv[2]
manifest = json.load(open(os.path.join(source, "pack.json")))
clips = {}
for index, (key, path) in enumerate(sorted(manifest["clips"].items())):
    name = "clips/" + os.path.splitext(os.path.basename(path))[0] + ".wav"
    gain = (index * 7 % 13) - 9 - 3          # -12 … 0 dB, scattered
    subprocess.run(["sox", "-R", os.path.join(source, path), "-r", "48000", "-c", "2", "-b", "16", os.path.join(dest, name),
                    "gain", str(gain), "pad", "0.3", "0.4"], check=True)
    clips[key] = name
manifest["clips"] = clips
manifest.pop("checks", None)
json.dump(manifest, open(os.path.join(dest, "pack.json"), "w"), ensure_ascii=False, indent=2, sort_keys=True)
PY
echo "wrote $dest (18 clips, 48 kHz stereo WAV)"
