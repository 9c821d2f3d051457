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


# MP3 as sound designers and TTS websites deliver them (init --from tests): libmp3lame, 48 kb/s mono.
mkdir -p "$out/delivery-mp3"
for stem in prefix 0 1 2 3 4 6 7 9 shi; do
  ff -i "packs/wechat/clips/$stem.caf" -map_metadata -1 -fflags +bitexact -c:a libmp3lame -b:a 48k "$out/delivery-mp3/$stem.mp3"
done

# M4A as iPhone Voice Memos and TTS websites deliver them (convert and init --from tests): AAC at
# 48 kHz stereo, and ALAC (Apple Lossless) at the demo pack's rate, both in the M4A (ipod) muxer.
# m4a-ffmpeg.json keeps what ffprobe says of each (rate, channels, the track's frames) and the
# frames the ffmpeg CLI decodes (AAC: whole 1,024-frame packets after the encoder's priming).
mkdir -p "$out/delivery-m4a"
ff -i packs/wechat/clips/dian.caf -af "aresample=48000,pan=stereo|c0=c0|c1=c0" -map_metadata -1 -fflags +bitexact \
  -c:a aac -b:a 64k -f ipod "$out/delivery-m4a/dian.m4a"
ff -i packs/wechat/clips/yuan.caf -map_metadata -1 -fflags +bitexact -c:a alac -f ipod "$out/delivery-m4a/yuan.m4a"
{
  echo "["
  first=1
  for file in "$out"/delivery-m4a/*.m4a; do
    read -r codec rate channels frames < <(ffprobe -v error -select_streams a:0 \
      -show_entries stream=codec_name,sample_rate,channels,duration_ts -of csv=p=0 "$file" | tr ',' ' ')
    decoded=$(( $(ffmpeg -nostdin -loglevel error -i "$file" -f f32le -c:a pcm_f32le - | wc -c) / 4 / channels ))
    [ $first -eq 1 ] || echo ","
    first=0
    printf '  {"file": "%s", "codec": "%s", "sampleRate": %s, "channels": %s, "trackFrames": %s, "decodedFrames": %s}' \
      "$(basename "$file")" "$codec" "$rate" "$channels" "$frames" "$decoded"
  done
  echo
  echo "]"
} > "$out/m4a-ffmpeg.json"

# Loudness reference: ffmpeg's ebur128 filter on each file padded with 400 ms of silence on both
# sides (the windows soundpack measures), momentary max (LUFS) and true peak (dBTP).
sox -R -n -r 48000 -c 2 -b 16 "$out/tone-48k-stereo.wav" synth 0.5 sine 1000 gain -12
sox -R -n -r 16000 -c 1 -b 16 "$out/noise-16k.wav" synth 0.3 pinknoise gain -20 fade 0.01 0.3 0.01
{
  echo "["
  first=1
  for file in packs/wechat/clips/*.caf "$out/tone-48k-stereo.wav" "$out/noise-16k.wav" "$out/ima4-stereo.caf"; do
    log=$(ffmpeg -nostdin -hide_banner -loglevel verbose -i "$file" \
      -af "adelay=400:all=1,apad=pad_dur=0.4,ebur128=framelog=verbose:peak=true" -f null - 2>&1)
    m=$(grep -oE 'M: *-?[0-9.]+' <<<"$log" | awk '{print $2}' | sort -g | tail -1)
    tp=$(grep -A2 'True peak' <<<"$log" | grep -oE 'Peak: *-?[0-9.]+' | awk '{print $2}')
    [ $first -eq 1 ] || echo ","
    first=0
    printf '  {"file": "%s", "momentaryMaxLufs": %s, "truePeakDbtp": %s}' "$file" "$m" "$tp"
  done
  echo
  echo "]"
} > "$out/loudness-ffmpeg.json"
