#!/usr/bin/env python3
"""Runs every command of docs/ci.md for real, from a team's repository, so the document cannot
drift from the tool.

- Every workflow: valid against SchemaStore's github-workflow schema (the copy check-jsonschema
  ships) and with no default permissions. The voice-pack workflows (those that use the soundpack
  action) must not run anything of soundpack's own checkout (`scripts/…`, `swift build`, `.build/`):
  the team's repository holds only its packs. A self-check proves that this refusal fires.
- The voice-pack workflows run as GitHub would run them, in a fresh git repository outside this
  checkout that holds only packs/ (and the pre-commit hook the document tells the team to copy):
  `actions/checkout` is that clone, the soundpack action runs through scripts/check/action.py (as
  GitHub's runner runs a composite action), `run:` steps in bash with the PATH the action set,
  `upload-sarif` and `upload-artifact` check that their file exists, `if:` conditions are evaluated,
  and `vars`/`secrets` are the test store's settings (an expression naming any other is an error).
  The gate on a passing pull request and on one with a broken clip (it fails, and the SARIF and
  JUnit files are written); publish on main twice, from fresh clones, for two releases into one
  store (the test command's S3 server, else a shared folder); a third clone finds both and verify
  is clean.
- README.md shows the same gate and publish workflows, word for word.
- The sh blocks: every line, in order, in the passing project.
- The pre-commit hook: refuses a commit with a broken clip, accepts one that validates.

Usage: scripts/check/docs.py   (the action builds the release binary in this checkout)
"""
import json, os, re, shutil, subprocess, sys, tempfile
import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import action as runner  # noqa: E402

root = runner.root
doc = open(os.path.join(root, "docs/ci.md")).read()
blocks = re.findall(r"^```(\w*)\n(.*?)^```", doc, re.S | re.M)
workflows = [body for lang, body in blocks if lang == "yaml"]
sh_lines = [line for lang, body in blocks if lang == "sh" for line in body.splitlines()
            if line.strip() and not line.strip().startswith("#") and line.strip() != "set -e"]
work = tempfile.mkdtemp(prefix="soundpack-docs-")
ran = 0

# A `run:` step of a team's workflow that needs soundpack's own checkout: its scripts, its sources,
# its build folder.
PROJECT_FILE = re.compile(r"(^|[\s;&|(`'\"=/])(\./)?(scripts/|Sources/|Package\.swift|\.build/)|\bswift\s+(build|test|run)\b")
SOUNDPACK_ACTION = re.compile(r"^[\w.-]+/soundpack@[\w.-]+$")


def fail(message):
    print(f"docs/ci.md: {message}")
    sys.exit(1)


def project_steps(workflow, name):
    """The `run:` steps of a voice-pack workflow that use a file of soundpack's checkout."""
    found = []
    for job_name, job in workflow["jobs"].items():
        for step in job.get("steps", []):
            if "run" in step and PROJECT_FILE.search(step["run"]):
                found.append(f"{name}, job {job_name}: '{step['run'].strip()}'")
    return found


def project(name, broken=False):
    """A team's repository: its packs and the hook the document says to copy, with a bare origin."""
    path = os.path.join(work, name)
    os.makedirs(os.path.join(path, "packs"))
    os.makedirs(os.path.join(path, "scripts"))
    shutil.copytree(os.path.join(root, "packs/wechat"), os.path.join(path, "packs/wechat"))
    shutil.copy(os.path.join(root, "scripts/pre-commit-hook.sh"), os.path.join(path, "scripts/"))
    if broken:
        open(os.path.join(path, "packs/wechat/clips/5.caf"), "w").write("not audio " * 500)
    remote = os.path.join(work, name + ".git")
    subprocess.run(["git", "init", "-q", "--bare", remote], check=True, capture_output=True)
    for command in (["git", "init", "-q", "-b", "main"], ["git", "config", "user.email", "ci@example.invalid"],
                    ["git", "config", "user.name", "ci"], ["git", "add", "-A"], ["git", "commit", "-qm", "packs"],
                    ["git", "remote", "add", "origin", remote], ["git", "push", "-q", "-u", "origin", "main"]):
        subprocess.run(command, cwd=path, check=True, capture_output=True)
    return path


class Job:
    """One job of a workflow, run on a fresh clone: its steps in order, as GitHub runs them."""

    def __init__(self, workflow, name, clone, event, settings):
        self.spec, self.name, self.workspace, self.event = workflow["jobs"][name], name, clone, event
        self.vars, self.secrets = settings
        self.temp = tempfile.mkdtemp(prefix="runner-temp-", dir=work)
        self.paths, self.steps, self.failed, self.log = [], {}, False, []

    def contexts(self):
        return {"vars": self.vars, "secrets": self.secrets, "steps": self.steps,
                "github": {"event_name": self.event, "workspace": self.workspace, "repository": "team/app"},
                "runner": {"os": "Linux", "temp": self.temp}}

    def status(self):
        return {"always": True, "success": not self.failed, "failure": self.failed, "cancelled": False}

    def text(self, value):
        return runner.substitute(value, self.contexts(), self.status())

    def run(self):
        global ran
        if "if" in self.spec and not runner.condition(self.spec["if"], self.contexts(), self.status()):
            return None
        job_env = {key: self.text(value) for key, value in (self.spec.get("env") or {}).items()}
        for step in self.spec["steps"]:
            if not runner.condition(step.get("if", "success()"), self.contexts(), self.status()):
                continue
            env = {**job_env, **{key: self.text(value) for key, value in (step.get("env") or {}).items()}}
            outputs, code = {}, 0
            uses = step.get("uses", "")
            if "run" in step:
                path = ":".join(list(reversed(self.paths)) + [os.environ["PATH"]])
                result = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", self.text(step["run"])], cwd=self.workspace,
                                        env={"HOME": os.environ.get("HOME", "/root"), "LANG": "C.UTF-8", "CI": "true", "GITHUB_ACTIONS": "true",
                                             "GITHUB_WORKSPACE": self.workspace, **env, "PATH": path, "RUNNER_TEMP": self.temp}, stdin=subprocess.DEVNULL,
                                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
                code, output = result.returncode, result.stdout
                ran += 1
            elif uses.startswith("actions/checkout@"):
                output = "(the job's workspace is a fresh clone)"
            elif SOUNDPACK_ACTION.match(uses):
                inputs = {key: self.text(value) for key, value in (step.get("with") or {}).items()}
                done = runner.run_action(root, self.workspace, inputs, step_env=env, temp=self.temp, event=self.event)
                code, output, outputs = done.returncode, done.log, done.outputs
                self.paths += done.paths
                ran += 1
            elif uses.startswith("github/codeql-action/upload-sarif@"):
                file = self.text(step["with"]["sarif_file"])
                sarif = json.load(open(os.path.join(self.workspace, file)))
                code, output = (0, f"uploaded {file}") if sarif.get("version") == "2.1.0" else (1, f"{file} is not SARIF 2.1.0")
            elif uses.startswith("actions/upload-artifact@"):
                file = self.text(step["with"]["path"])
                present = os.path.isfile(os.path.join(self.workspace, file)) and os.path.getsize(os.path.join(self.workspace, file)) > 0
                code, output = (0, f"uploaded {file}") if present else (1, f"no file {file} to upload")
            else:
                fail(f"job {self.name}: a step uses {uses!r}, which this check cannot run")
            self.log.append(f"## {uses or step['run'].strip()} (exit {code})\n{output}")
            if "id" in step:
                self.steps[step["id"]] = {"outputs": outputs, "outcome": "failure" if code else "success"}
            if code:
                self.failed = True
        return not self.failed


try:
    # Every workflow is one GitHub accepts, and grants nothing by default.
    voice = []
    for number, text in enumerate(workflows):
        workflow_file = os.path.join(work, f"workflow-{number}.yml")
        open(workflow_file, "w").write(text)
        checked = subprocess.run(["check-jsonschema", "--builtin-schema", "vendor.github-workflows", workflow_file], capture_output=True, text=True)
        if checked.returncode != 0:
            fail(f"workflow {number + 1} is not valid against the GitHub workflow schema:\n{checked.stdout}{checked.stderr}")
        workflow = yaml.safe_load(text)
        if workflow.get("permissions") != {}:
            fail(f"workflow {number + 1} must default to no permissions")
        if any(SOUNDPACK_ACTION.match(step.get("uses", "")) for job in workflow["jobs"].values() for step in job.get("steps", [])):
            voice.append(workflow)
    gates = [w for w in voice if set(w.get(True, w.get("on", {}))) == {"pull_request"}]
    publishes = [w for w in voice if set(w.get(True, w.get("on", {}))) == {"push"}]
    if len(gates) != 1 or len(publishes) != 1:
        fail("expected one workflow using the soundpack action on pull requests (the gate) and one on pushes (publish)")
    gate_workflow, publish_workflow = gates[0], publishes[0]
    for workflow in voice:
        if "concurrency" not in next(iter(workflow["jobs"].values())) and workflow is publish_workflow:
            fail("the publish workflow must serialize publishers with a concurrency group")
    gate_permissions = next(iter(gate_workflow["jobs"].values())).get("permissions", {})
    if gate_permissions != {"contents": "read", "security-events": "write", "actions": "read"}:
        fail(f"the gate job should ask for contents: read, security-events: write and actions: read (private repositories need it): {gate_permissions}")

    # The README shows the same pair of workflows, word for word.
    readme_workflows = [body for body in re.findall(r"^```yaml\n(.*?)^```", open(os.path.join(root, "README.md")).read(), re.S | re.M)
                        if SOUNDPACK_ACTION.search(body) or "soundpack@" in body]
    if sorted(readme_workflows) != sorted(text for text in workflows if yaml.safe_load(text) in voice):
        fail("README.md's workflows using the soundpack action differ from docs/ci.md's gate and publish workflows: copy them across")

    # A team's repository holds only its packs: no step may run soundpack's scripts or build it there.
    used = project_steps(gate_workflow, "the gate workflow") + project_steps(publish_workflow, "the publish workflow")
    if used:
        fail("a workflow runs a file of soundpack's own checkout from the team's workspace, which holds only its packs "
             "(install soundpack with the action instead):\n  " + "\n  ".join(used))
    probe = yaml.safe_load("jobs:\n  gate:\n    steps:\n      - run: scripts/bootstrap.sh\n      - run: swift build -c release\n      - run: echo \"$PWD/.build/release\" >> \"$GITHUB_PATH\"\n")
    if len(project_steps(probe, "probe")) != 3:
        fail("the check for project scripts in a team's workflow does not fire on the steps it exists to refuse")

    # The test store, and the variables and secrets the document tells a team to set.
    store, credentials, reader, store_kind = runner.store_settings(work)
    keys = os.path.join(work, "keys")
    os.makedirs(keys)
    made = subprocess.run([os.path.join(root, ".build/release/soundpack"), "keygen", "-o", os.path.join(keys, "release.key")],
                          capture_output=True, text=True, cwd=keys)
    if made.returncode != 0:
        fail(f"keygen failed (build the release binary first):\n{made.stdout}{made.stderr}")
    variables = {"SOUNDPACK_STORE": store["store"], "AWS_ENDPOINT_URL_S3": store.get("s3-endpoint", ""),
                 "AWS_REGION": credentials.get("AWS_REGION", "us-east-1"),
                 "SOUNDPACK_PUBLIC_KEY": open(os.path.join(keys, "release.key.pub")).read().strip()}
    secrets = {"SOUNDPACK_SIGN_KEY": open(os.path.join(keys, "release.key")).read().strip(),
               "AWS_ACCESS_KEY_ID": credentials.get("AWS_ACCESS_KEY_ID", ""), "AWS_SECRET_ACCESS_KEY": credentials.get("AWS_SECRET_ACCESS_KEY", ""),
               "SOUNDPACK_READ_ACCESS_KEY_ID": reader.get("AWS_ACCESS_KEY_ID", ""), "SOUNDPACK_READ_SECRET_ACCESS_KEY": reader.get("AWS_SECRET_ACCESS_KEY", "")}

    def run_workflow(workflow, origin, label, event, branch="main"):
        clone = os.path.join(work, label)
        subprocess.run(["git", "clone", "-q", "-b", branch, origin, clone], check=True, capture_output=True)
        results = []
        for name in workflow["jobs"]:
            job = Job(workflow, name, clone, event, (variables, secrets))
            passed = job.run()
            if passed is not None:
                results.append((passed, job))
        if not results:
            fail(f"{label}: no job of the workflow ran on a {event} event")
        return clone, results

    good = project("good")
    origin = os.path.join(work, "good.git")
    clone, results = run_workflow(gate_workflow, origin, "gate-good", "pull_request")
    for passed, job in results:
        if not passed:
            fail(f"the gate failed a passing pack:\n" + "\n".join(job.log))

    # Publish, release after release: each from a fresh clone, into a store that outlives runners.
    for release, version in enumerate(["1.0.0", "1.0.1"]):
        if version != "1.0.0":
            manifest = os.path.join(good, "packs/wechat/pack.json")
            text = open(manifest).read()
            open(manifest, "w").write(text.replace('"version" : "1.0.0"', f'"version" : "{version}"'))
            for command in (["git", "commit", "-qam", f"wechat {version}"], ["git", "push", "-q", "origin", "main"]):
                subprocess.run(command, cwd=good, check=True, capture_output=True)
        clone, results = run_workflow(publish_workflow, origin, f"publish-{release}", "push")
        for passed, job in results:
            if not passed:
                fail(f"publish of {version} failed:\n" + "\n".join(job.log))
        if not os.path.getsize(os.path.join(clone, "SoundpackManifest.plist")):
            fail("promised SoundpackManifest.plist")
        soundpack_path = results[-1][1].paths
    # The store holds both releases, and a third fresh clone finds it whole.
    last = os.path.join(work, "runner-check")
    subprocess.run(["git", "clone", "-q", "-b", "main", origin, last], check=True, capture_output=True)
    tool_env = {**os.environ, **credentials, "SOUNDPACK_STORE": store["store"], "PATH": ":".join(soundpack_path + [os.environ["PATH"]])}
    if "s3-endpoint" in store:
        tool_env["AWS_ENDPOINT_URL_S3"] = store["s3-endpoint"]
    for command in ("soundpack catalog rebuild --from-store", "soundpack list --format json",
                    f"soundpack verify --public-key {os.path.join(keys, 'release.key.pub')}"):
        done = subprocess.run(["bash", "-c", command], cwd=last, capture_output=True, text=True, env=tool_env, stdin=subprocess.DEVNULL)
        ran += 1
        if done.returncode != 0 or ("list" in command and '"publishedVersions" : 2' not in done.stdout):
            fail(f"after two releases, '{command}' in a fresh clone:\n{done.stdout}{done.stderr}")

    # The sh blocks, in the passing project, with soundpack on the PATH.
    for line in sh_lines:
        done = subprocess.run(["bash", "-o", "pipefail", "-c", line], cwd=good, capture_output=True, text=True,
                              env={**tool_env, "SOUNDPACK_STORE": os.path.join(work, "sh-store")}, stdin=subprocess.DEVNULL)
        ran += 1
        allowed = (0, 1) if "--format json --output soundpack-baseline.json" in line else (0,)
        if done.returncode not in allowed:
            fail(f"'{line}' exited {done.returncode}:\n{done.stdout}{done.stderr}")
    for file in ("soundpack-junit.xml", "soundpack-baseline.json"):
        if not os.path.getsize(os.path.join(good, file)):
            fail(f"promised {file}")

    # A pull request with a broken clip: the gate fails, and still leaves its reports.
    bad = project("bad", broken=True)
    clone, results = run_workflow(gate_workflow, os.path.join(work, "bad.git"), "gate-bad", "pull_request")
    for passed, job in results:
        if passed:
            fail("the gate passed a pack with a broken clip:\n" + "\n".join(job.log))
        outputs = job.steps.get("soundpack", {}).get("outputs", {})
        if not outputs.get("sarif") or not json.load(open(outputs["sarif"]))["runs"][0]["results"] or not os.path.getsize(outputs.get("junit", "")):
            fail("a failing gate did not leave its SARIF and JUnit reports")
        if sum(1 for entry in job.log if "\nuploaded " in entry) != 2:
            fail("the SARIF and JUnit upload steps did not both run after a failing gate:\n" + "\n".join(job.log))

    # The pre-commit hook refuses a broken clip and accepts a good change. git runs it by its
    # `#!/bin/sh` line: dash on Debian, so it is POSIX sh, not bash, that is tested.
    if os.path.basename(os.path.realpath("/bin/sh")) != "dash" or open(os.path.join(root, "scripts/pre-commit-hook.sh")).readline().strip() != "#!/bin/sh":
        fail("the pre-commit hook is tested under dash: it must start with #!/bin/sh, and /bin/sh must be dash here")
    hook_env = tool_env
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
except runner.ActionError as error:
    fail(str(error))
finally:
    shutil.rmtree(work, ignore_errors=True)
print(f"docs/ci.md: {len(workflows)} workflows valid against the GitHub workflow schema, none running soundpack's own scripts in the team's "
      f"repository; {ran} steps and commands ran from a repository holding only packs/: the gate on a passing pull request and on a broken clip "
      f"(reports written either way), 2 releases from fresh clones into {store_kind}, then verify with the public key; "
      "the pre-commit hook refused a broken clip and passed a good commit, in a folder named with a space and CJK too")
