#!/usr/bin/env bash
# Regenerates the demo packs under packs/ from espeak-ng: with its Mandarin voice wechat (one phrase)
# and merchant (four phrases: 微信到账, 支付宝到账, 退款 before the amount; 您有一笔新订单 alone); with
# its en-us voice en-us, and with its hi voice hi-in (a clip for each of 0…99: Hindi has a word for each).
# Usage: scripts/make-demo-packs.sh [wechat|merchant|en-us|hi-in|all]   (default all)
# Each clip is synthesised, trimmed at -45 dBFS with 15 ms of padding and peak-normalised with sox;
# then `soundpack convert` levels every clip to -19 LUFS momentary max, trims to the voice plus
# 10 ms, and writes CAF with 16-bit PCM, mono, 22050 Hz.
# pack.json is the committed packs/NAME/pack.json, kept as it is (convert writes it back unchanged):
# maxAmount, texts, phrases and checks are decisions, not audio. Each demo pack reads amounts up to
# 99,999,999.99 and sets checks.bannerCutSeconds just above its longest announcement, with its reason
# in checks.reasons; a regenerated pack must pass `validate --strict`, or this script fails.
# Needs espeak-ng and sox (scripts/bootstrap.sh --dev installs them) and builds soundpack.
# Regenerate the test fixtures afterwards (scripts/make-test-fixtures.sh): they are made from it.
set -euo pipefail
cd "$(dirname "$0")/.."

for tool in espeak-ng sox; do
  command -v "$tool" >/dev/null || { echo "error: $tool is not installed (run scripts/bootstrap.sh --dev)" >&2; exit 3; }
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# clip <raw pack dir> <file stem> <words> [voice]
clip() {
  local pack=$1 stem=$2 words=$3 voice=${4:-cmn}
  espeak-ng -v "$voice" -s 185 -p 45 -w "$work/raw.wav" "$words"
  sox -R "$work/raw.wav" -r 22050 -c 1 -b 16 "$pack/clips/$stem.wav" \
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
  scripts/soundpack validate --no-record --strict "packs/$2"
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

# word <grammar> <clip key>: the words soundpack writes for a clip of a grammar, read back from
# `say` (Hindi's from ICU's spelling): 21 → इक्कीस, hundred → सौ, units → dollars.
word() {
  local grammar=$1 key=$2
  say() { "$bin" say --grammar "$grammar" "$1"; }
  case $key in
    unit) say 1 | awk '{print $NF}' ;;
    units) say 2 | awk '{print $NF}' ;;
    subunit) say 0.01 | awk '{print $NF}' ;;
    subunits) say 0.02 | awk '{print $NF}' ;;
    hundred) say 100 | awk '{print $2}' ;;
    thousand) say 1000 | awk '{print $2}' ;;
    lakh) say 100000 | awk '{print $2}' ;;
    million) say 1000000 | awk '{print $2}' ;;
    crore) say 10000000 | awk '{print $2}' ;;
    [0-9] | [0-9][0-9]) say "$key" | awk '{print $1}' ;;
    *) echo "$key" ;;
  esac
}

# make_spoken <name> <grammar> <voice>: every clip of packs/<name>/pack.json, each its words in the voice.
make_spoken() {
  local name=$1 grammar=$2 voice=$3 pack=$work/$1
  mkdir -p "$pack/clips"
  sed 's/\.caf"/.wav"/g' "packs/$name/pack.json" > "$pack/pack.json"
  python3 -c 'import json, sys; [print(k) for k in json.load(open(sys.argv[1]))["clips"]]' "$pack/pack.json" | while read -r key; do
    if [ "$key" = prefix ]; then
      clip "$pack" prefix "$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["texts"]["prefix"])' "$pack/pack.json")" "$voice"
    else
      clip "$pack" "$key" "$(word "$grammar" "$key")" "$voice"
    fi
  done
  convert_into "$pack" "$name"
}

scripts/soundpack --version >/dev/null  # builds it
bin=.build/release/soundpack
case ${1:-all} in
  wechat) make_wechat ;;
  merchant) make_merchant ;;
  en-us) make_spoken en-us en-US en-us ;;
  hi-in) make_spoken hi-in hi-IN hi ;;
  all) make_wechat; make_merchant; make_spoken en-us en-US en-us; make_spoken hi-in hi-IN hi ;;
  *) echo "usage: scripts/make-demo-packs.sh [wechat|merchant|en-us|hi-in|all]" >&2; exit 2 ;;
esac
