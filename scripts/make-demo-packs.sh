#!/usr/bin/env bash
# Regenerates the demo packs under packs/ from espeak-ng's Mandarin voice: wechat (one phrase) and
# merchant (four phrases: 微信到账, 支付宝到账, 退款 before the amount; 您有一笔新订单 alone).
# Usage: scripts/make-demo-packs.sh [wechat|merchant|all]   (default all)
# Each clip is synthesised, trimmed at -45 dBFS with 15 ms of padding and peak-normalised with sox;
# then `soundpack convert` levels every clip to -19 LUFS momentary max, trims to the voice plus
# 10 ms, and writes CAF with 16-bit PCM, mono, 22050 Hz.
# Needs espeak-ng and sox (scripts/bootstrap.sh --dev installs them) and builds soundpack.
# Regenerate the test fixtures afterwards (scripts/make-test-fixtures.sh): they are made from it.
set -euo pipefail
cd "$(dirname "$0")/.."

for tool in espeak-ng sox; do
  command -v "$tool" >/dev/null || { echo "error: $tool is not installed (run scripts/bootstrap.sh --dev)" >&2; exit 3; }
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# clip <raw pack dir> <file stem> <words>
clip() {
  local pack=$1 stem=$2 words=$3
  espeak-ng -v cmn -s 185 -p 45 -w "$work/raw.wav" "$words"
  sox "$work/raw.wav" -r 22050 -c 1 -b 16 "$pack/clips/$stem.wav" \
    silence 1 0.005 -45d reverse silence 1 0.005 -45d reverse \
    pad 0.015 0.015 gain -n -3
}

# reading_clips <raw pack dir>: the digits and units every zh pack here reads amounts with.
reading_clips() {
  local pack=$1
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

# convert_into <raw pack dir> <name>: one format, levelled and trimmed, into packs/<name>.
convert_into() {
  scripts/soundpack convert "$1" "packs/$2" --rate 22050 --mono --codec pcm16 --container caf \
    --loudness -19 --trim-silence --force >/dev/null
  echo "regenerated packs/$2 ($(ls "packs/$2/clips" | wc -l) clips)"
  scripts/soundpack validate --no-record "packs/$2"
}

make_wechat() {
  local pack=$work/wechat
  mkdir -p "$pack/clips"
  sed 's/\.caf"/.wav"/g' packs/wechat/pack.json > "$pack/pack.json"
  clip "$pack" prefix "微信到账"
  reading_clips "$pack"
  convert_into "$pack" wechat
}

make_merchant() {
  local pack=$work/merchant
  mkdir -p "$pack/clips"
  sed 's/\.caf"/.wav"/g' packs/merchant/pack.json > "$pack/pack.json"
  clip "$pack" wechat "微信到账"
  clip "$pack" alipay "支付宝到账"
  clip "$pack" refund "退款"
  clip "$pack" order "您有一笔新订单"
  reading_clips "$pack"
  convert_into "$pack" merchant
}

case ${1:-all} in
  wechat) make_wechat ;;
  merchant) make_merchant ;;
  all) make_wechat; make_merchant ;;
  *) echo "usage: scripts/make-demo-packs.sh [wechat|merchant|all]" >&2; exit 2 ;;
esac
