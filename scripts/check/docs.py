#!/usr/bin/env python3
"""Runs every command of docs/ci.md for real, so the document cannot drift from the tool.

- The GitHub Actions workflow: checked against SchemaStore's github-workflow schema (the copy
  check-jsonschema ships); then every `run:` step, in order, in a fresh git project with a bare
  remote: once with packs that pass (gate, then publish, every step must succeed and the catalog
  must be pushed), once with a broken clip (the gate's validate steps exit 1, the others still
  run, and the SARIF and JUnit files must exist, the SARIF with results).
- The sh blocks: every line, in order, in the passing project.
- The pre-commit hook: refuses a commit with a broken clip, accepts one that validates.

Usage: scripts/check/docs.py   (builds the release binary through the workflow's own steps)
"""
import json, os, re, shutil, subprocess, sys, tempfile
import yaml

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
doc = open(os.path.join(root, "docs/ci.md")).read()
blocks = re.findall(r"^```(\w*)\n(.*?)^```", doc, re.S | re.M)
workflows = [body for lang, body in blocks if lang == "yaml"]
workflow_text = workflows[0]  # the voice-pack workflow, run here; the others (macOS) are schema-checked only
sh_lines = [line for lang, body in blocks if lang == "sh" for line in body.splitlines()
            if line.strip() and not line.strip().startswith("#") and line.strip() != "set -e"]
work = tempfile.mkdtemp(prefix="soundpack-docs-")
ran = 0


def fail(message):
    print(f"docs/ci.md: {message}")
    sys.exit(1)


def project(name, broken=False):
    path = os.path.join(work, name)
    os.makedirs(os.path.join(path, "packs"))
    os.makedirs(os.path.join(path, "scripts"))
    shutil.copytree(os.path.join(root, "packs/wechat"), os.path.join(path, "packs/wechat"))
    shutil.copy(os.path.join(root, "scripts/pre-commit-hook.sh"), os.path.join(path, "scripts/"))
    shutil.copy(os.path.join(root, "scripts/bootstrap.sh"), os.path.join(path, "scripts/"))
    if broken:
        open(os.path.join(path, "packs/wechat/clips/5.caf"), "w").write("not audio " * 500)
    remote = os.path.join(work, name + ".git")
    for command in (["git", "init", "-q", "--bare", remote], ["git", "init", "-q", "-b", "main"], ["git", "config", "user.email", "ci@example.invalid"],
                    ["git", "config", "user.name", "ci"], ["git", "add", "-A"], ["git", "commit", "-qm", "packs"],
                    ["git", "remote", "add", "origin", remote], ["git", "push", "-q", "-u", "origin", "main"]):
        subprocess.run(command, cwd=path if command[:3] != ["git", "init", "-q"] or "--bare" not in command else work, check=True,
                       capture_output=True)
    return path


# The binary the workflow builds: its own build steps, run once at the repository root.
github_path = os.path.join(work, "github-path")
open(github_path, "w").close()
env = {**os.environ, "GITHUB_PATH": github_path, "HOME": os.environ.get("HOME", "/root")}


def run(command, cwd, may_fail=False, extra_env=None):
    global ran
    if command.startswith("scripts/bootstrap.sh") or command.startswith("swift build") or "GITHUB_PATH" in command:
        cwd = root  # build steps run in the checkout that has the sources
    extra = [line for line in open(github_path).read().splitlines() if line]
    result = subprocess.run(["bash", "-o", "pipefail", "-c", command], cwd=cwd, capture_output=True, text=True,
                            env={**env, **(extra_env or {}), "PATH": ":".join(extra + [env["PATH"]])}, stdin=subprocess.DEVNULL)
    ran += 1
    if result.returncode != 0 and not (may_fail and result.returncode == 1):
        fail(f"'{command}' exited {result.returncode} in {cwd}:\n{result.stdout}{result.stderr}")
    return result.returncode


try:
    # The workflow is a workflow GitHub accepts.
    for number, text in enumerate(workflows):
        workflow_file = os.path.join(work, f"workflow-{number}.yml")
        open(workflow_file, "w").write(text)
        checked = subprocess.run(["check-jsonschema", "--builtin-schema", "vendor.github-workflows", workflow_file], capture_output=True, text=True)
        if checked.returncode != 0:
            fail(f"workflow {number + 1} is not valid against the GitHub workflow schema:\n{checked.stdout}{checked.stderr}")
        if yaml.safe_load(text).get("permissions") != {}:
            fail(f"workflow {number + 1} must default to no permissions")
    workflow = yaml.safe_load(workflow_text)
    if workflow.get("permissions") != {} or "concurrency" not in workflow["jobs"]["publish"]:
        fail("the workflow must default to no permissions and serialize publish with a concurrency group")
    steps = {job: [step for step in spec["steps"] if "run" in step] for job, spec in workflow["jobs"].items()}

    good = project("good")
    for step in steps["gate"]:
        run(step["run"], good)

    # The publish job, release after release: each from a fresh clone of the repository, against a
    # store that outlives the runners: a bucket on the test command's S3 server, or a shared folder.
    job_env = workflow["jobs"]["publish"].get("env", {})
    endpoint = os.environ.get("SOUNDPACK_TEST_S3_ENDPOINT")
    if endpoint:
        bucket = "docs-" + os.urandom(6).hex()
        created = subprocess.run([sys.executable, os.path.join(root, "scripts/check/reliability/check-s3-store.py"), "--create-bucket", endpoint, bucket],
                                 capture_output=True, text=True)
        if created.returncode != 0:
            fail(f"cannot create the test bucket: {created.stdout}{created.stderr}")
        supplied = {"SOUNDPACK_STORE": f"s3://{bucket}/voice", "AWS_ENDPOINT_URL_S3": endpoint, "AWS_REGION": os.environ.get("AWS_REGION", "us-east-1"),
                    "AWS_ACCESS_KEY_ID": os.environ.get("AWS_ACCESS_KEY_ID", ""), "AWS_SECRET_ACCESS_KEY": os.environ.get("AWS_SECRET_ACCESS_KEY", "")}
    else:
        supplied = {"SOUNDPACK_STORE": os.path.join(work, "shared-store")}
    unknown = set(job_env) - set(supplied) - {"AWS_ENDPOINT_URL_S3", "AWS_REGION", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"}
    if unknown or "SOUNDPACK_STORE" not in job_env:
        fail(f"the publish job's env should name the store (SOUNDPACK_STORE) and its credentials only: {sorted(job_env)}")
    publish_env = {key: supplied[key] for key in job_env if key in supplied}
    origin = os.path.join(work, "good.git")
    for release, version in enumerate(["1.0.0", "1.0.1"]):
        if version != "1.0.0":
            manifest = os.path.join(good, "packs/wechat/pack.json")
            text = open(manifest).read()
            open(manifest, "w").write(text.replace('"version" : "1.0.0"', f'"version" : "{version}"'))
            for command in (["git", "commit", "-qam", f"wechat {version}"], ["git", "push", "-q", "origin", "main"]):
                subprocess.run(command, cwd=good, check=True, capture_output=True)
        runner = os.path.join(work, f"runner-{release}")
        subprocess.run(["git", "clone", "-q", "-b", "main", origin, runner], check=True, capture_output=True)
        for step in steps["publish"]:
            run(step["run"], runner, extra_env=publish_env)
        if not os.path.getsize(os.path.join(runner, "SoundpackManifest.plist")):
            fail("promised SoundpackManifest.plist")
    # The store holds both releases, and a third fresh runner finds it whole.
    last = os.path.join(work, "runner-check")
    subprocess.run(["git", "clone", "-q", "-b", "main", origin, last], check=True, capture_output=True)
    run("soundpack catalog rebuild --from-store", last, extra_env=publish_env)
    listed = subprocess.run(["bash", "-c", "soundpack list --format json"], cwd=last, capture_output=True, text=True,
                            env={**env, **publish_env, "PATH": ":".join([l for l in open(github_path).read().splitlines() if l] + [env["PATH"]])})
    if '"publishedVersions" : 2' not in listed.stdout:
        fail(f"after two releases the store should hold two versions:\n{listed.stdout}{listed.stderr}")
    run("soundpack verify", last, extra_env=publish_env)
    releases = 2

    for line in sh_lines:
        run(line, good, may_fail="--format json --output soundpack-baseline.json" in line)
    for file in ("soundpack.sarif", "soundpack-junit.xml", "dist/index.json", "soundpack-baseline.json"):
        if not os.path.getsize(os.path.join(good, file)):
            fail(f"promised {file}")

    bad = project("bad", broken=True)
    codes = {}
    for step in steps["gate"]:
        codes[step["run"]] = run(step["run"], bad, may_fail=step["run"].startswith("soundpack validate"))
    if not any(code == 1 for code in codes.values()):
        fail("the gate passed a pack with a broken clip")
    sarif = json.load(open(os.path.join(bad, "soundpack.sarif")))
    if not sarif["runs"][0]["results"] or not os.path.getsize(os.path.join(bad, "soundpack-junit.xml")):
        fail("a failing gate did not leave its SARIF and JUnit reports")

    # The pre-commit hook refuses a broken clip and accepts a good change.
    hook_env = {**env, "PATH": ":".join([l for l in open(github_path).read().splitlines() if l] + [env["PATH"]])}
    # (The sh block of the document installed the hook in this project.)
    if not os.path.islink(os.path.join(good, ".git/hooks/pre-commit")):
        fail("the document's hook installation did not install it")
    open(os.path.join(good, "packs/wechat/clips/5.caf"), "w").write("not audio " * 500)
    subprocess.run(["git", "add", "packs/wechat/clips/5.caf"], cwd=good, check=True)
    if subprocess.run(["git", "commit", "-qm", "broken clip"], cwd=good, env=hook_env, capture_output=True).returncode == 0:
        fail("the pre-commit hook let a broken clip through")
    subprocess.run(["git", "checkout", "-q", "HEAD", "--", "packs/wechat/clips/5.caf"], cwd=good, check=True)
    manifest = os.path.join(good, "packs/wechat/pack.json")
    text = open(manifest).read()
    open(manifest, "w").write(text.replace('"maxLeadingSilenceMs" : 60', '"maxLeadingSilenceMs" : 70'))
    subprocess.run(["git", "add", "packs/wechat/pack.json"], cwd=good, check=True)
    committed = subprocess.run(["git", "commit", "-qm", "tune a threshold"], cwd=good, env=hook_env, capture_output=True, text=True)
    if committed.returncode != 0:
        fail(f"the pre-commit hook refused a good commit:\n{committed.stdout}{committed.stderr}")
    # A pack folder whose name has a space and is not ASCII: still validated.
    odd = os.path.join(good, "packs/支付 宝")
    shutil.copytree(os.path.join(root, "packs/wechat"), odd)
    open(os.path.join(odd, "clips/5.caf"), "w").write("not audio " * 500)
    subprocess.run(["git", "add", "packs/支付 宝"], cwd=good, check=True)
    refused = subprocess.run(["git", "commit", "-qm", "odd name, broken clip"], cwd=good, env=hook_env, capture_output=True, text=True)
    if refused.returncode == 0 or "packs/支付 宝 does not validate" not in refused.stderr:
        fail(f"the pre-commit hook let a broken clip through in a folder named with a space and CJK:\n{refused.stdout}{refused.stderr}")
    shutil.copy(os.path.join(root, "packs/wechat/clips/5.caf"), os.path.join(odd, "clips/5.caf"))
    subprocess.run(["git", "add", "packs/支付 宝"], cwd=good, check=True)
    accepted = subprocess.run(["git", "commit", "-qm", "odd name, good pack"], cwd=good, env=hook_env, capture_output=True, text=True)
    if accepted.returncode != 0:
        fail(f"the pre-commit hook refused a good pack in a folder named with a space and CJK:\n{accepted.stdout}{accepted.stderr}")
finally:
    shutil.rmtree(work)
print(f"docs/ci.md: {len(workflows)} workflows valid against the GitHub workflow schema; {ran} commands of the first ran: the gate with passing packs and "
      f"with a broken clip (reports written either way), {releases} releases from fresh clones into one {'S3 bucket' if endpoint else 'shared folder'} "
      "then verify; the pre-commit hook refused a broken clip and passed a good commit, in a folder named with a space and CJK too")
