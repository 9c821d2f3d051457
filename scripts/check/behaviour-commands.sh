# The command lines scripts/check/same-behaviour.py runs with each of two soundpack binaries.
# Sourced by bash in a fresh sandbox holding a copy of packs/ and the shared fixtures ($FIXTURES:
# a signing key pair, made once for both sides); `$SP` is the binary under test. Each `run` is one
# recorded case: its stdout, stderr and exit code are compared, and so is every file the sandbox
# holds at the end (catalog rows dumped, times masked).

export SOUNDPACK_CATALOG=$PWD/catalog.sqlite SOUNDPACK_STORE=$PWD/store SOURCE_DATE_EPOCH=1700000000 NO_COLOR=1

# Help, version, manual and completions.
run "help" $SP --help
run "version" $SP --version
for command in init validate say render convert synth publish report list show diff yank verify export import payload keygen catalog completions man; do
  run "help $command" $SP "$command" --help
done
run "man" $SP man
for shell in bash zsh fish; do run "completions $shell" $SP completions "$shell"; done

# Usage errors.
run "no command" $SP
run "unknown command" $SP valdate packs/wechat
run "unknown option" $SP validate packs/wechat --strcit
run "bad format" $SP validate packs/wechat --format yaml
run "missing pack" $SP validate packs/nowhere

# A broken pack: a clip missing, an orphan file, a pack.json option misspelt.
cp -R packs/wechat packs/broken
rm packs/broken/clips/5.*
cp packs/broken/clips/6.* packs/broken/orphan.caf 2>/dev/null || true
python3 - packs/broken/pack.json <<'PY'
import json, sys
path = sys.argv[1]
pack = json.load(open(path, encoding="utf-8"))
pack["id"] = "broken"
open(path, "w", encoding="utf-8").write(json.dumps(pack, ensure_ascii=False, indent=2))
PY

# validate, every format, demo packs and the broken one.
for format in text json junit github sarif; do
  run "validate demo $format" $SP validate packs/wechat packs/en-us packs/hi-in packs/merchant --format "$format" --no-record
  run "validate broken $format" $SP validate packs/broken --format "$format" --no-record
done
run "validate strict" $SP validate packs/wechat --strict --no-record
run "validate group-by clip" $SP validate packs/broken --group-by clip --no-record
run "validate ignore" $SP validate packs/broken --ignore coverage.missing-token --ignore coverage.orphan-file --no-record
run "validate recorded" $SP validate packs/wechat packs/en-us

# Readings.
run "say wechat" $SP say --pack packs/wechat 0.01 0.1 10 15.4 100 1000.05 20000 100000000 99999999.99
run "say en-us tokens" $SP say --pack packs/en-us 0.01 15.4 1234567.89 --format tokens
run "say hi-in json" $SP say --pack packs/hi-in 15.4 100000 --format json
run "say grammar options" $SP say --grammar zh-Hans --two liang --money kuai-mao --ten-start yi-shi 12 2.2 210
run "say bad amount" $SP say --pack packs/wechat 12.345

# Render, convert, report.
mkdir -p out
run "render caf" $SP render --pack packs/wechat 15.4 1000.05 -o out/render
run "render wav" $SP render --pack packs/en-us 15.4 -o out/en.wav --container wav
run "convert" $SP convert packs/wechat out/converted --rate 16000 --codec ima4 --loudness -16 --trim-silence
run "convert json" $SP convert packs/en-us out/converted-en --format json
run "report" $SP report packs/wechat packs/broken -o out/report.html

# init, from recordings too.
run "init" $SP init out/new --id new --grammar zh-Hans --max-amount 9999
mkdir -p recordings && cp packs/wechat/clips/* recordings/
run "init from" $SP init out/adopted --id adopted --from recordings --format json

# Publish, the catalog, the store.
cp "$FIXTURES"/key "$FIXTURES"/key.pub .
run "publish dry run" $SP publish packs/wechat --dry-run
run "publish" $SP publish packs/wechat packs/en-us --sign-key key
run "publish again" $SP publish packs/wechat --sign-key key
run "publish broken" $SP publish packs/broken
python3 - packs/wechat/pack.json <<'PY'
import json, sys
path = sys.argv[1]
pack = json.load(open(path, encoding="utf-8"))
pack["version"] = "1.1.0" if pack.get("version") else pack.get("version")
open(path, "w", encoding="utf-8").write(json.dumps(pack, ensure_ascii=False, indent=2))
PY
cp packs/en-us/clips/* packs/wechat/clips/ 2>/dev/null || true
run "publish json" $SP publish packs/wechat --sign-key key --format json
run "list" $SP list
run "list json" $SP list --format json
run "show" $SP show wechat
run "show json" $SP show wechat --format json
run "diff" $SP diff wechat@1.0.0 wechat@1.1.0
run "diff other pack" $SP diff packs/wechat packs/broken
run "verify" $SP verify --public-key key.pub
run "verify sarif" $SP verify --public-key key.pub --format sarif
run "export plist" $SP export wechat en-us -o out/manifest.plist
run "export namespaced" $SP export wechat en-us --namespace -o out/namespaced.plist
run "yank" $SP yank en-us@1.0.0 --reason "a clip says the wrong word"
run "export yanked" $SP export en-us@1.0.0 --format json
run "export json" $SP export wechat --format json --base-url https://cdn.example.com/packs --namespace
run "payload" $SP payload 15.4 --pack wechat --payment-id p-1 --base-url https://cdn.example.com/packs
printf '{"aps":{"alert":"x"}}' > bad-payload.json
run "payload lint" $SP payload lint bad-payload.json --format json
run "catalog rebuild" $SP catalog rebuild --from-store
run "catalog migrate" $SP catalog migrate --from catalog.sqlite --to out/copy.sqlite

# Import of an archive the store holds.
archive=$(find store -name '*.tar.gz' | sort | head -1)
run "import" $SP import "$archive" out/imported
run "import missing" $SP import nowhere.tar.gz out/imported2

# A catalog lost: publish recovers the versions the store holds (reading each back), then adds one.
rm -f catalog.sqlite
python3 - packs/wechat/pack.json <<'PY'
import json, sys
path = sys.argv[1]
pack = json.load(open(path, encoding="utf-8"))
pack["version"] = "1.2.0"
open(path, "w", encoding="utf-8").write(json.dumps(pack, ensure_ascii=False, indent=2))
PY
run "publish with the catalog lost" $SP publish packs/wechat --sign-key key
run "list after recovery" $SP list

# payload lint against the store: each rule's cases, one payload each.
mkdir -p payloads
python3 - payloads <<'PY'
import json, os, sys
folder = sys.argv[1]
good = {"aps": {"alert": {"title": "Payment", "body": "Received 15.40"}, "mutable-content": 1, "interruption-level": "time-sensitive"},
        "pack": "wechat@1.0.0", "amount": "15.40", "paymentId": "p-1"}
def variant(name, change):
    payload = json.loads(json.dumps(good))
    change(payload)
    open(os.path.join(folder, name + ".json"), "w").write(json.dumps(payload, ensure_ascii=False))
variant("good", lambda p: None)
variant("no-body", lambda p: p["aps"]["alert"].pop("body"))
variant("alert-string", lambda p: p["aps"].__setitem__("alert", "   "))
variant("mutable-true", lambda p: p["aps"].__setitem__("mutable-content", True))
variant("mutable-missing", lambda p: p["aps"].pop("mutable-content"))
variant("level-missing", lambda p: p["aps"].pop("interruption-level"))
variant("level-critical", lambda p: p["aps"].__setitem__("interruption-level", "critical"))
variant("level-bogus", lambda p: p["aps"].__setitem__("interruption-level", "loud\u001b[2J"))
variant("pack-yanked", lambda p: p.__setitem__("pack", "en-us@1.0.0"))
variant("pack-unknown", lambda p: p.__setitem__("pack", "nowhere@9.9.9"))
variant("pack-missing", lambda p: p.pop("pack"))
variant("id-missing", lambda p: p.pop("paymentId"))
variant("id-bad", lambda p: p.__setitem__("paymentId", "-x y"))
variant("phrase-unknown", lambda p: p.__setitem__("phrase", "refund"))
variant("phrase-number", lambda p: p.__setitem__("phrase", 3))
variant("amount-number", lambda p: p.__setitem__("amount", 15.4))
variant("amount-missing", lambda p: p.pop("amount"))
variant("amount-bad", lambda p: p.__setitem__("amount", "15.401"))
variant("amount-large", lambda p: p.__setitem__("amount", "100000000"))
variant("everything-wrong", lambda p: (p.pop("paymentId"), p["aps"].pop("mutable-content"), p.__setitem__("pack", "en-us@1.0.0"), p.__setitem__("amount", "x")))
open(os.path.join(folder, "array.json"), "w").write("[1, 2]")
open(os.path.join(folder, "not-json.json"), "w").write("{\"aps\": ")
open(os.path.join(folder, "duplicate.json"), "w").write('{"aps": {"alert": "a"}, "aps": {"alert": "b"}}')
open(os.path.join(folder, "large.json"), "w").write(json.dumps({**good, "padding": "x" * 5000}))
open(os.path.join(folder, "huge.json"), "w").write(json.dumps({**good, "padding": "x" * (1 << 21)}))
PY
for payload in payloads/*.json; do
  run "payload lint $(basename "$payload" .json)" $SP payload lint "$payload" --format json
done
run "payload lint text" $SP payload lint payloads/everything-wrong.json
run "payload lint sarif" $SP payload lint payloads/everything-wrong.json --format sarif

# verify: an unsigned version among signed ones, drift where --public-key asks for signatures, a
# note before --unsigned-before; a key that is not the signer's.
run "publish unsigned" $SP publish packs/merchant
run "verify unsigned" $SP verify --public-key key.pub
run "verify unsigned before" $SP verify --public-key key.pub --unsigned-before merchant@2.0.0 --format json
python3 -c 'import base64; print(base64.b64encode(bytes(range(1, 33))).decode())' > other.pub
run "verify other key" $SP verify --public-key other.pub

# verify over drifted copies of the store: every store rule fires, in text, JSON and SARIF.
cp -R store drifted
python3 - drifted <<'PY'
import base64, glob, json, os, shutil, sys
root = sys.argv[1]
def path(*parts): return os.path.join(root, *parts)
clips = sorted(glob.glob(path("wechat", "1.0.0", "clips", "*")))
open(clips[0], "ab").write(b"tampered")                    # store.changed: bytes
os.remove(clips[1]); os.mkdir(clips[1])                     # store.changed: a folder where a file was
os.remove(sorted(glob.glob(path("wechat", "1.1.0", "clips", "*")))[0])  # store.missing: a clip,
os.remove(path("wechat", "1.1.0", "wechat-1.1.0.zip"))      # an archive
open(path("wechat", "1.0.0", "manifest.json.sig"), "w").write("A" * 5000)  # store.changed, store.missing: a signature too large
open(path("wechat", "1.0.0", "stray.txt"), "w").write("stray")  # store.unexpected
open(path("stray.txt"), "w").write("stray")
index = json.load(open(path("index.json"), encoding="utf-8"))  # store.index: a version dropped
index["packs"]["wechat"]["versions"].pop("1.1.0")
open(path("index.json"), "w", encoding="utf-8").write(json.dumps(index, ensure_ascii=False, indent=2))
open(path("wechat", "1.1.0", "manifest.json.sig"), "w").write(base64.b64encode(bytes(64)).decode())  # store.signature
open(path("wechat", "1.2.0", "manifest.json.sig"), "w").write("not base64!")  # store.missing: unreadable signature
os.makedirs(path(".staging", "wechat@9.0.0-4194305-1", "clips"))  # store.leftover: staging, a temporary file,
open(path(".index.json.4194305.1.tmp"), "w").write("{")
shutil.copytree(path("wechat", "1.0.0"), path("wechat", "9.0.0"))  # a whole version never recorded,
os.makedirs(path("wechat", "9.1.0", "clips"))                # and one whose manifest never went up
open(path("wechat", "9.1.0", "clips", "1.caf"), "w").write("x")
PY
for format in text json sarif; do
  run "verify drifted $format" $SP verify --store drifted --public-key key.pub --format "$format"
done

# Manifests and index.json broken: not a manifest, another version's, edited behind publish's back;
# pack.json a folder; index.json not an index.
cp -R store drifted-manifests
python3 - drifted-manifests <<'PY'
import json, os, shutil, sys
root = sys.argv[1]
def path(*parts): return os.path.join(root, *parts)
open(path("wechat", "1.0.0", "manifest.json"), "w").write('{"not": "a manifest"}')
shutil.copyfile(path("en-us", "1.0.0", "manifest.json"), path("wechat", "1.1.0", "manifest.json"))
manifest = json.load(open(path("wechat", "1.2.0", "manifest.json"), encoding="utf-8"))
manifest["name"] = manifest.get("name", "") + " edited"
manifest["digest"] = "0" * 64
token = sorted(manifest["clips"])[0]
manifest["clips"][token]["sha256"] = "f" * 64
kind = sorted(manifest["archives"])[0]
manifest["archives"][kind]["sha256"] = "e" * 64
open(path("wechat", "1.2.0", "manifest.json"), "w", encoding="utf-8").write(json.dumps(manifest, ensure_ascii=False, indent=2))
os.remove(path("merchant", "1.0.0", "pack.json")); os.mkdir(path("merchant", "1.0.0", "pack.json"))
open(path("index.json"), "w").write('{"packs": ')
PY
for format in text json sarif; do
  run "verify drifted manifests $format" $SP verify --store drifted-manifests --public-key key.pub --format "$format"
done

# No index.json, a manifest missing, one larger than any soundpack writes.
cp -R store drifted-bare
rm drifted-bare/index.json drifted-bare/merchant/1.0.0/manifest.json
python3 -c 'import sys; open(sys.argv[1], "a").write(" " * (1 << 20))' drifted-bare/wechat/1.0.0/manifest.json
for format in text json sarif; do
  run "verify drifted bare $format" $SP verify --store drifted-bare --public-key key.pub --format "$format"
done

# A drifted store: every rule of verify fires, in every format, with and without keys.
printf 'x' >> store/wechat/1.1.0/clips/5.caf                       # store.changed (hash)
rm store/wechat/1.1.0/clips/6.caf                                   # store.missing
rm store/wechat/1.1.0/clips/7.caf && mkdir store/wechat/1.1.0/clips/7.caf   # store.changed (no file)
printf 'stray' > store/wechat/1.1.0/stray.txt                       # store.unexpected
printf 'AAAA' > store/wechat/1.2.0/manifest.json.sig                # store.signature
python3 - store/index.json <<'PY'
import json, sys
path = sys.argv[1]
index = json.load(open(path, encoding="utf-8"))
index["packs"]["wechat"]["latest"] = "1.0.0"
open(path, "w", encoding="utf-8").write(json.dumps(index, ensure_ascii=False, indent=2))
PY
mkdir -p store/wechat/9.9.9/clips && printf 'half' > store/wechat/9.9.9/clips/1.caf   # store.leftover (no manifest)
printf 'tmp' > store/.index.json.tmp                               # store.leftover (temporary file)
python3 - store/en-us/1.0.0/manifest.json <<'PY'
import json, sys
path = sys.argv[1]
manifest = json.load(open(path, encoding="utf-8"))
manifest["digest"] = "0" * 64
open(path, "w", encoding="utf-8").write(json.dumps(manifest, ensure_ascii=False, indent=2))
PY
for format in text json sarif junit github; do
  run "verify drifted $format" $SP verify --format "$format"
  run "verify drifted keys $format" $SP verify --public-key key.pub --unsigned-before wechat@1.1.0 --format "$format"
done
printf '{"not": "a manifest"}' > store/wechat/1.0.0/manifest.json
rm store/index.json
run "verify drifted further" $SP verify --public-key key.pub
