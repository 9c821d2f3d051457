#!/usr/bin/env bash
# Regenerates the demo packs under packs/ from espeak-ng's Mandarin voice.
# Each clip: synthesised, silence trimmed at -45 dBFS, 15 ms of padding each side, peak-normalised
# to -3 dBFS, written as CAF with 16-bit little-endian PCM, mono, 22050 Hz.
# Needs espeak-ng, sox and ffmpeg (scripts/bootstrap.sh --dev installs them).
set -euo pipefail
cd "$(dirname "$0")/.."

for tool in espeak-ng sox ffmpeg; do
  command -v "$tool" >/dev/null || { echo "error: $tool is not installed (run scripts/bootstrap.sh --dev)" >&2; exit 3; }
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# clip <pack dir> <file stem> <words>
clip() {
  local pack=$1 stem=$2 words=$3
  espeak-ng -v cmn -s 185 -p 45 -w "$work/raw.wav" "$words"
  sox "$work/raw.wav" "$work/trim.wav" \
    silence 1 0.005 -45d reverse silence 1 0.005 -45d reverse \
    pad 0.015 0.015 gain -n -3
  ffmpeg -nostdin -loglevel error -y -i "$work/trim.wav" -map_metadata -1 -fflags +bitexact -flags:a +bitexact \
    -ar 22050 -ac 1 -c:a pcm_s16le -f caf "$pack/clips/$stem.caf"
}

make_wechat() {
  local pack=packs/wechat
  rm -rf "$pack/clips"
  mkdir -p "$pack/clips"
  clip "$pack" prefix "微信到账"
  local digits=(零 一 二 三 四 五 六 七 八 九)
  for d in 0 1 2 3 4 5 6 7 8 9; do clip "$pack" "$d" "${digits[$d]}"; done
  clip "$pack" shi "十"
  clip "$pack" bai "百"
  clip "$pack" qian "千"
  clip "$pack" wan "万"
  clip "$pack" yi "亿"
  clip "$pack" dian "点"
  clip "$pack" yuan "元"
}

make_wechat
echo "regenerated packs/wechat ($(ls packs/wechat/clips | wc -l) clips)"
