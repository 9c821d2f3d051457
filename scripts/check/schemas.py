#!/usr/bin/env python3
"""Checks that what soundpack reads and writes matches schemas/.

- every packs/*/pack.json validates against schemas/pack.schema.json;
- pack.json files the tool refuses as manifest.invalid are refused by the schema too;
- `soundpack validate --format json` output validates against schemas/report.schema.json, for the
  demo pack and for broken copies that exercise findings, unreadable clips and a missing manifest;
- `export --platform android` of every demo pack and of a published version: soundpack.json against
  schemas/android-export.schema.json, each clip's size, SHA-256 and WAV format (Python's wave module);
- `init --format json` (with and without --from) validates against schemas/init.schema.json, and the pack.json it
  writes against schemas/pack.schema.json;
- a published store's manifest.json and index.json, `export --format json` and `show --format json`, validate against
  their schemas.

Usage: scripts/check/schemas.py [path/to/soundpack]   (default .build/debug/soundpack)
Needs the jsonschema package (scripts/bootstrap.sh --dev installs it).
"""
import glob, json, os, shutil, subprocess, sys, tempfile

import jsonschema

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
binary = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, ".build/debug/soundpack"))
pack_schema = json.load(open(os.path.join(root, "schemas/pack.schema.json")))
report_schema = json.load(open(os.path.join(root, "schemas/report.schema.json")))
checked = 0

# Schemas refer to each other by $id (export and android-export to reading.schema.json): all of
# schemas/ in one registry, so a $ref resolves to the file beside it and never to the network.
from referencing import Registry, Resource
registry = Registry().with_resources(
    (document["$id"], Resource.from_contents(document))
    for document in (json.load(open(path)) for path in sorted(glob.glob(os.path.join(root, "schemas/*.schema.json")))))

def validator(schema):
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema, format_checker=cls.FORMAT_CHECKER, registry=registry)

packs_v, report_v = validator(pack_schema), validator(report_schema)

for path in sorted(glob.glob(os.path.join(root, "packs/*/pack.json"))):
    packs_v.validate(json.load(open(path)))
    checked += 1

work = tempfile.mkdtemp(prefix="soundpack-schemas-")
try:
    demo = os.path.join(root, "packs/wechat")

    def copy(name):
        target = os.path.join(work, name)
        shutil.copytree(demo, target)
        return target

    def edit(pack, change):
        path = os.path.join(pack, "pack.json")
        data = json.load(open(path))
        change(data)
        json.dump(data, open(path, "w"), ensure_ascii=False)

    def run(*packs):
        out = subprocess.run([binary, "validate", "--format", "json", "--no-record", *packs],
                             capture_output=True, text=True, cwd=work)
        if out.returncode not in (0, 1):
            sys.exit(f"validate exited {out.returncode}: {out.stderr}")
        return json.loads(out.stdout)

    broken = copy("broken")
    open(os.path.join(broken, "clips/5.caf"), "w").write("not audio " * 2000)
    edit(broken, lambda d: (d["clips"].pop("百"), d["clips"].update({"11": "clips/1.caf", "0": "../../etc/passwd"})))
    invalid = copy("invalid")
    edit(invalid, lambda d: d.update({"maxAmount": 12.5}))

    # Every reading option chosen (DESIGN §4a), with the clips they need.
    options = copy("options")
    # Stand-in takes of the words the demo pack lacks: other clips backwards (sox), since a copy of
    # another word's clip is audio.duplicate.
    for source, stem in (("5", "kuai"), ("6", "mao"), ("7", "fen"), ("8", "liang")):
        subprocess.run(["sox", "-D", os.path.join(options, f"clips/{source}.caf"), os.path.join(options, f"clips/{stem}.caf"), "reverse"], check=True)
    edit(options, lambda d: (d.update({"id": "options", "grammarOptions": {"two": "liang-large", "money": "kuai-mao", "tenStart": "yi-shi"}}),
                             d["clips"].update({"块": "clips/kuai.caf", "毛": "clips/mao.caf", "分": "clips/fen.caf", "两": "clips/liang.caf"})))
    packs_v.validate(json.load(open(os.path.join(options, "pack.json"))))
    checked += 1

    # A pack synth wrote (pack.json "source"), with phrases and IMA4 clips, and its report.
    def succeed(*arguments):
        out = subprocess.run([binary, *arguments], capture_output=True, text=True, cwd=work)
        if out.returncode != 0:
            sys.exit(f"soundpack {arguments[0]} exited {out.returncode}: {out.stderr}")

    spoken = os.path.join(work, "spoken")
    succeed("synth", spoken, "--id", "spoken", "--codec", "ima4", "--max-amount", "999.99",
            "--phrase-text", "wechat=微信到账{amount}", "--phrase-text", "order=您有一笔新订单")
    spoken_pack = json.load(open(os.path.join(spoken, "pack.json")))
    if spoken_pack.get("source") != {"engine": "espeak-ng", "voice": "cmn"}:
        sys.exit(f"synth wrote no source: {spoken_pack.get('source')}")
    packs_v.validate(spoken_pack)
    report_v.validate(run(spoken))
    checked += 2
    # Published: its store manifest carries the source.
    succeed("publish", spoken, "--store", os.path.join(work, "spoken-store"), "--catalog", os.path.join(work, "spoken.sqlite"))
    spoken_manifest = json.load(open(os.path.join(work, "spoken-store/spoken/0.1.0/manifest.json")))
    if spoken_manifest.get("source") != {"engine": "espeak-ng", "voice": "cmn"}:
        sys.exit(f"the store manifest has no source: {spoken_manifest.get('source')}")
    validator(json.load(open(os.path.join(root, "schemas/manifest.schema.json")))).validate(spoken_manifest)
    checked += 1
    optioned = run(options)
    if optioned["packs"][0]["errors"] or optioned["packs"][0].get("money") != "kuai-mao":
        sys.exit(f"the pack with every option does not validate as such: {optioned['packs'][0]['findings']}")

    for document in (run(demo), optioned, run(broken, invalid, os.path.join(work, "missing"))):
        report_v.validate(document)
        checked += 1
    rules = {f["rule"] for p in document["packs"] for f in p["findings"]}
    expected = {"file.unreadable", "coverage.missing-token", "coverage.unknown-token", "manifest.unsafe-path", "manifest.invalid"}
    if not expected <= rules:
        sys.exit(f"broken packs did not produce {sorted(expected - rules)}")

    # pack.json files the tool refuses must not validate against the schema either.
    refusals = [
        lambda d: d.update({"maxAmount": 12.5}),
        lambda d: d.update({"id": "Bad Id"}),
        lambda d: d.update({"version": "1.0"}),
        lambda d: d.update({"chekcs": {}}),
        lambda d: d.update({"checks": {"maxClipSeconds": -1}}),
        lambda d: d.update({"grammarOptions": {"two": "san"}}),
        lambda d: d.update({"grammarOptions": {"money": "pounds"}}),
        lambda d: d.update({"grammarOptions": {"tens": "yi-shi"}}),
        lambda d: d.pop("clips"),
        lambda d: d.update({"phrases": {"a": ["wechat", "{amount}"]}, "texts": {"wechat": "微信到账"}}),
        lambda d: d.update({"phrases": {"a": ["wechat", "{amount}", "{amount}"]}, "defaultPhrase": "a", "texts": {"wechat": "微信到账"}}),
        lambda d: d.update({"phrases": {"A": ["wechat"]}, "defaultPhrase": "A", "texts": {"wechat": "微信到账"}}),
        lambda d: d.update({"phrases": {"a": ["WeChat"]}, "defaultPhrase": "a"}),
        lambda d: d.update({"phrases": {"a": []}, "defaultPhrase": "a"}),
        lambda d: d.update({"grammar": "en-US", "grammarOptions": {"two": "er"}}),
    ]
    for i, change in enumerate(refusals):
        pack = copy(f"refused-{i}")
        edit(pack, change)
        data = json.load(open(os.path.join(pack, "pack.json")))
        if packs_v.is_valid(data):
            sys.exit(f"schema accepts a pack.json the tool refuses: {data}")
        rules = {f["rule"] for f in run(pack)["packs"][0]["findings"]}
        if "manifest.invalid" not in rules:
            sys.exit(f"tool accepts a pack.json the schema refuses: {data}")
        checked += 1
    # init, with and without --from: its JSON, and the pack.json it writes. The delivery holds the demo
    # pack's clips under designer names, one missing (百), one that matches nothing, a link and a folder.
    init_v = validator(json.load(open(os.path.join(root, "schemas/init.schema.json"))))
    delivery = os.path.join(work, "delivery")
    os.makedirs(os.path.join(delivery, "old"))
    for name in os.listdir(os.path.join(demo, "clips")):
        stem = name[:-len(".caf")]
        if stem != "bai":
            shutil.copy(os.path.join(demo, "clips", name), os.path.join(delivery, ("wechat_prefix" if stem == "prefix" else stem) + ".caf"))
    shutil.copy(os.path.join(demo, "clips/5.caf"), os.path.join(delivery, "outtake.caf"))
    os.symlink("/etc/passwd", os.path.join(delivery, "yuan2.wav"))
    def init_json(*arguments):
        out = subprocess.run([binary, "init", *arguments, "--format", "json"], capture_output=True, text=True, cwd=work)
        if out.returncode != 0:
            sys.exit(f"soundpack init exited {out.returncode}: {out.stderr}")
        return json.loads(out.stdout)
    adopted = init_json("adopted", "--id", "adopted", "--from", "delivery", "--map", "prefix=wechat_prefix")
    init_v.validate(adopted)
    if [m["token"] for m in adopted["missing"]] != ["百"] or adopted["missing"][0].get("amount") != "100" or not adopted["unmatched"] or not adopted["skipped"]:
        sys.exit(f"init --from did not list what it could not match: {adopted}")
    packs_v.validate(json.load(open(os.path.join(work, "adopted/pack.json"))))
    init_v.validate(init_json("scaffold", "--id", "scaffold", "--phrase-text", "order=您有一笔新订单"))
    packs_v.validate(json.load(open(os.path.join(work, "scaffold/pack.json"))))
    checked += 4

    # publish the demo pack into a fresh store, then check manifest.json, index.json and the export.
    project = os.path.join(work, "project")
    shutil.copytree(demo, os.path.join(project, "packs", "wechat"))
    shutil.copytree(options, os.path.join(project, "packs", "options"))
    shutil.copytree(os.path.join(root, "packs/merchant"), os.path.join(project, "packs", "merchant"))
    shutil.copytree(os.path.join(root, "packs/en-us"), os.path.join(project, "packs", "en-us"))
    env = dict(os.environ, SOUNDPACK_CATALOG=os.path.join(project, "catalog.sqlite"))
    def tool(*args):
        out = subprocess.run([binary, *args], capture_output=True, text=True, cwd=project, env=env)
        if out.returncode != 0:
            sys.exit(f"soundpack {' '.join(args)} exited {out.returncode}: {out.stderr}")
        return out.stdout
    tool("publish")
    # A payload is written for a version that is not yanked; the index and export then carry a yank.
    payload = json.loads(tool("payload", "15.40", "--pack", "wechat@1.0.0", "--base-url", "https://cdn.example.com"))
    # A pack with phrases: a phrase with an amount and one without.
    refund = json.loads(tool("payload", "15.40", "--pack", "merchant", "--phrase", "refund"))
    order = json.loads(tool("payload", "--pack", "merchant", "--phrase", "order"))
    tool("yank", "wechat@1.0.0", "--reason", "schema check")
    for name, document in (("manifest", json.load(open(os.path.join(project, "dist/wechat/1.0.0/manifest.json")))),
                           ("index", json.load(open(os.path.join(project, "dist/index.json")))),
                           ("export", json.loads(tool("export", "wechat@1.0.0", "--format", "json", "--base-url", "https://cdn.example.com"))),
                           ("payload", payload),
                           ("manifest", json.load(open(os.path.join(project, "dist/options/1.0.0/manifest.json")))),
                           ("export", json.loads(tool("export", "options@1.0.0", "--format", "json"))),
                           ("manifest", json.load(open(os.path.join(project, "dist/merchant/1.0.0/manifest.json")))),
                           ("export", json.loads(tool("export", "merchant", "--format", "json"))),
                           ("report", json.loads(tool("validate", "packs/merchant", "--no-record", "--format", "json"))),
                           ("payload", refund), ("payload", order),
                           # A grammar without options: no "two" in its manifest or export.
                           ("manifest", json.load(open(os.path.join(project, "dist/en-us/1.0.0/manifest.json")))),
                           ("export", json.loads(tool("export", "en-us", "--format", "json"))),
                           ("report", json.loads(tool("validate", "packs/en-us", "--no-record", "--format", "json"))),
                           ("payload", json.loads(tool("payload", "15.40", "--pack", "en-us"))),
                           # show: reading options and phrases (merchant declares phrases, options sets two/money/tenStart;
                           # en-us takes no options).
                           ("show", json.loads(tool("show", "merchant", "--format", "json"))),
                           ("show", json.loads(tool("show", "options", "--format", "json"))),
                           ("show", json.loads(tool("show", "en-us", "--format", "json"))),
                           ("show", json.loads(tool("show", "wechat@1.0.0", "--format", "json")))):
        validator(json.load(open(os.path.join(root, f"schemas/{name}.schema.json")))).validate(document)
        checked += 1
    # The Android export of every demo pack (and of a published version): soundpack.json against its
    # schema, every clip the size and SHA-256 it lists, a 16-bit PCM WAV (Python's wave module reads
    # it) in the pack's one format with the frames it lists.
    import hashlib, wave
    android_v = validator(json.load(open(os.path.join(root, "schemas/android-export.schema.json"))))
    sources = [(name, os.path.join(root, "packs", name)) for name in sorted(os.listdir(os.path.join(root, "packs")))] + [("wechat-published", "wechat@1.0.0")]
    for name, source in sources:
        folder = os.path.join(work, "android", name)
        tool("export", source, "--platform", "android", "-o", folder)
        document = json.load(open(os.path.join(folder, "soundpack.json")))
        android_v.validate(document)
        pcm = document["pcm"]
        for key, clip in document["clips"].items():
            data = open(os.path.join(folder, clip["file"]), "rb").read()
            if len(data) != clip["bytes"] or hashlib.sha256(data).hexdigest() != clip["sha256"]:
                sys.exit(f"android export {name}: {clip['file']} is not the size and SHA-256 soundpack.json lists")
            with wave.open(os.path.join(folder, clip["file"])) as w:
                if (w.getframerate(), w.getnchannels(), w.getsampwidth(), w.getnframes()) != (pcm["sampleRate"], pcm["channels"], 2, clip["frames"]):
                    sys.exit(f"android export {name}: {clip['file']} is not {pcm} with {clip['frames']} frames")
        if sorted(os.listdir(os.path.join(folder, "clips"))) != sorted(os.path.basename(c["file"]) for c in document["clips"].values()):
            sys.exit(f"android export {name}: clips/ holds files soundpack.json does not list, or lacks some")
        checked += 1
    # The default export is an XML property list; Python's plistlib must read it to the same document.
    import plistlib
    exported = plistlib.loads(tool("export", "wechat@1.0.0", "--base-url", "https://cdn.example.com").encode())
    if exported != json.loads(tool("export", "wechat@1.0.0", "--format", "json", "--base-url", "https://cdn.example.com")):
        sys.exit("the plist export differs from the JSON export")
    checked += 1
finally:
    shutil.rmtree(work)

print(f"schemas: {checked} documents checked against schemas/{{pack,report,manifest,index,export,android-export,reading,payload,show,init}}.schema.json")
