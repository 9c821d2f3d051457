#!/usr/bin/env bash
# Regenerates the IMA4 fixtures of Tests/SoundpackKitTests/Fixtures from the demo pack:
# Apple IMA4 in CAF encoded by ffmpeg (adpcm_ima_qt), and the samples ffmpeg decodes from it
# (raw signed 16-bit little-endian, interleaved), which the decoder tests must reproduce exactly.
set -euo pipefail
cd "$(dirname "$0")/.."
out=Tests/SoundpackKitTests/Fixtures
src=packs/wechat/clips/3.caf
mkdir -p "$out"
ff() { ffmpeg -nostdin -loglevel error -y "$@"; }
ff -i "$src" -map_metadata -1 -fflags +bitexact -c:a adpcm_ima_qt -f caf "$out/ima4-mono.caf"
ff -i "$out/ima4-mono.caf" -f s16le -c:a pcm_s16le "$out/ima4-mono.s16le"
ff -i "$src" -af "pan=stereo|c0=c0|c1=-0.5*c0" -map_metadata -1 -fflags +bitexact -c:a adpcm_ima_qt -f caf "$out/ima4-stereo.caf"
ff -i "$out/ima4-stereo.caf" -f s16le -c:a pcm_s16le "$out/ima4-stereo.s16le"
ls -l "$out"
