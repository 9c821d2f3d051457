#!/usr/bin/env python3
"""Runs action.yml as GitHub's runner runs a composite action, from a team's repository.

The runner's part, as GitHub documents it for composite actions and `run` steps:
- `${{ … }}` expressions in `env`, `run` and `if` evaluated against the `inputs` (with their
  defaults), `github.action_path`, `github.action_repository`, `github.workspace`, `runner.os`,
  `runner.temp` and earlier steps' `steps.ID.outputs`; an `if` without a status function means
  `success() && (…)`; `==` compares strings ignoring case; an expression or context this runner does
  not know is an error, never an empty string;
- each `run` step in `bash --noprofile --norc -eo pipefail FILE` (the `shell: bash` template), in
  GITHUB_WORKSPACE, with only the runner's variables and the step's `env`; GITHUB_PATH and
  GITHUB_ENV read after each step (paths prepended), GITHUB_OUTPUT per step (`name=value` and
  `name<<DELIMITER` blocks), GITHUB_STEP_SUMMARY kept;
- once a step fails, later steps run only if their `if` asks for `always()` or `failure()`.

The team's repository is a fresh git repository outside soundpack's checkout holding only packs/;
each run is a fresh clone of it (a fresh runner) with a fresh RUNNER_TEMP. The store is a bucket on
the test command's S3 server when one runs, else a folder shared by the runs.

Scenarios: the gate passes on a good pack; publish signs and verify with the public key is clean
(the secret key is gone from RUNNER_TEMP after); a pull request that changes a clip without a
version bump fails the gate (and still leaves its SARIF); with the bump it passes, and publishes;
verify with another public key fails; hostile and missing inputs fail with a message, running
nothing they carry; with `version`, a release made by scripts/release.sh is installed (its
signature and checksum checked) and gates, and one signed by another key or tampered with is
refused. action.yml is checked against the GitHub action metadata schema first.

Usage: scripts/check/action.py   (docs.py imports it to run the workflows of docs/ci.md)
"""
import json, os, re, shutil, subprocess, sys, tempfile
import yaml

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class ActionError(Exception):
    pass


# ---- expressions -----------------------------------------------------------------------------

TOKEN = re.compile(r"\s*(?:(?P<string>'(?:[^']|'')*')|(?P<number>-?\d+(?:\.\d+)?)|(?P<op>==|!=|&&|\|\||!|\(|\)|,|\.)|(?P<name>[A-Za-z_][A-Za-z0-9_-]*))")


def tokens(text):
    position, found = 0, []
    while position < len(text):
        if text[position:].strip() == "":
            break
        match = TOKEN.match(text, position)
        if not match:
            raise ActionError(f"cannot read the expression '{text}' at '{text[position:]}'")
        kind = match.lastgroup
        found.append((kind, match.group(kind)))
        position = match.end()
    return found


class Expression:
    """GitHub's expression syntax, the part an action uses: literals, contexts with dotted
    properties, ==, !=, !, &&, || (which return an operand, as GitHub's do), parentheses, and the
    status functions."""

    def __init__(self, text, contexts, status):
        self.text, self.items, self.at = text, tokens(text), 0
        self.contexts, self.status = contexts, status

    def value(self):
        result = self.disjunction()
        if self.at != len(self.items):
            raise ActionError(f"unexpected '{self.items[self.at][1]}' in '{self.text}'")
        return result

    def peek(self):
        return self.items[self.at] if self.at < len(self.items) else (None, None)

    def take(self, op):
        if self.peek() == ("op", op):
            self.at += 1
            return True
        return False

    def disjunction(self):
        left = self.conjunction()
        while self.take("||"):
            right = self.conjunction()
            left = left if truthy(left) else right
        return left

    def conjunction(self):
        left = self.comparison()
        while self.take("&&"):
            right = self.comparison()
            left = right if truthy(left) else left
        return left

    def comparison(self):
        left = self.unary()
        while True:
            if self.take("=="):
                left = equal(left, self.unary())
            elif self.take("!="):
                left = not equal(left, self.unary())
            else:
                return left

    def unary(self):
        if self.take("!"):
            return not truthy(self.unary())
        return self.primary()

    def primary(self):
        kind, text = self.peek()
        if kind is None:
            raise ActionError(f"the expression '{self.text}' ends early")
        self.at += 1
        if kind == "string":
            return text[1:-1].replace("''", "'")
        if kind == "number":
            return float(text)
        if (kind, text) == ("op", "("):
            result = self.disjunction()
            if not self.take(")"):
                raise ActionError(f"a '(' is not closed in '{self.text}'")
            return result
        if kind != "name":
            raise ActionError(f"unexpected '{text}' in '{self.text}'")
        if text in ("true", "false"):
            return text == "true"
        if text == "null":
            return None
        if self.take("("):
            if not self.take(")"):
                raise ActionError(f"{text}() takes no arguments here: '{self.text}'")
            if text not in self.status:
                raise ActionError(f"unknown function {text}() in '{self.text}'")
            return self.status[text]
        if text not in self.contexts:
            raise ActionError(f"unknown context '{text}' in '{self.text}'")
        value, path = self.contexts[text], text
        while self.take("."):
            kind, name = self.peek()
            if kind != "name":
                raise ActionError(f"expected a property after '{path}.' in '{self.text}'")
            self.at += 1
            path += "." + name
            if not isinstance(value, dict):
                raise ActionError(f"'{path}' is not an object in '{self.text}'")
            if name not in value:
                if path.startswith("steps.") and path.count(".") == 3:
                    value = ""  # an output a step did not set is empty, as on GitHub
                    continue
                raise ActionError(f"'{path}' is not known to this runner ('{self.text}')")
            value = value[name]
        return value


def truthy(value):
    return value not in (None, False, 0, 0.0, "")


def as_string(value):
    if value is None:
        return ""
    if value is True or value is False:
        return "true" if value else "false"
    if isinstance(value, float):
        return str(int(value)) if value == int(value) else str(value)
    if isinstance(value, dict):
        raise ActionError("an object cannot be pasted into a string")
    return str(value)


def equal(left, right):
    if isinstance(left, str) and isinstance(right, str):
        return left.lower() == right.lower()  # GitHub compares strings ignoring case
    return left == right


def substitute(text, contexts, status):
    return re.sub(r"\$\{\{(.*?)\}\}", lambda m: as_string(Expression(m.group(1), contexts, status).value()), str(text))


def condition(text, contexts, status):
    text = str(text).strip()
    if text.startswith("${{") and text.endswith("}}"):
        text = text[3:-2]
    if not re.search(r"\b(always|success|failure|cancelled)\s*\(", text):
        text = f"success() && ({text})"
    return truthy(Expression(text, contexts, status).value())


# ---- the runner --------------------------------------------------------------------------------

def read_commands(path):
    """A GITHUB_OUTPUT or GITHUB_ENV file: name=value lines and name<<DELIMITER blocks."""
    values, lines = {}, open(path, encoding="utf-8").read().split("\n")
    index = 0
    while index < len(lines):
        line = lines[index]
        index += 1
        if not line:
            continue
        if "<<" in line and ("=" not in line or line.index("<<") < line.index("=")):
            name, delimiter = line.split("<<", 1)
            block = []
            while index < len(lines) and lines[index] != delimiter:
                block.append(lines[index])
                index += 1
            if index == len(lines):
                raise ActionError(f"{os.path.basename(path)}: the block for '{name}' is not closed by '{delimiter}'")
            index += 1
            values[name] = "\n".join(block)
        elif "=" in line:
            name, value = line.split("=", 1)
            values[name] = value
        else:
            raise ActionError(f"{os.path.basename(path)}: cannot read the line '{line}'")
    return values


class Run:
    def __init__(self, returncode, log, outputs, summary, temp, paths):
        self.returncode, self.log, self.outputs, self.summary, self.temp = returncode, log, outputs, summary, temp
        self.paths = paths  # what the action added to GITHUB_PATH, for the job's later steps


def run_action(action_path, workspace, inputs, step_env=None, temp=None, repository="", event="push"):
    """Runs the composite action at action_path in workspace with the `with:` inputs, as GitHub's
    runner does (see the module's comment). Returns a Run: exit code, log, outputs, summary.
    `github.action_repository` is empty by default: inside a composite action's steps it is
    (actions/runner#2473), so the action must not rely on it."""
    action = yaml.safe_load(open(os.path.join(action_path, "action.yml"), encoding="utf-8"))
    declared = action.get("inputs", {}) or {}
    unknown = set(inputs) - set(declared)
    if unknown:
        raise ActionError(f"inputs the action does not declare: {sorted(unknown)}")
    values = {}
    for name, spec in declared.items():
        if name in inputs:
            values[name] = as_string(inputs[name])
        elif spec.get("required") and "default" not in spec:
            raise ActionError(f"the required input '{name}' is missing")
        else:
            values[name] = as_string(spec.get("default", ""))
    temp = temp or tempfile.mkdtemp(prefix="runner-temp-")
    files = {name: os.path.join(temp, f"_runner_{name}_{os.urandom(4).hex()}") for name in ("path", "env", "summary")}
    for path in files.values():
        open(path, "w").close()
    contexts = {
        "inputs": values,
        "github": {"action_path": action_path, "action_repository": repository, "workspace": workspace, "event_name": event},
        "runner": {"os": "Linux", "temp": temp, "arch": "X64"},
        # A step that has not run reads as empty, as on GitHub; an id no step declares is an error.
        "steps": {step["id"]: {"outputs": {}, "outcome": "", "conclusion": ""} for step in (action.get("runs", {}).get("steps") or []) if "id" in step},
    }
    base = {"HOME": os.environ.get("HOME", "/root"), "LANG": "C.UTF-8", "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "CI": "true", "GITHUB_ACTIONS": "true", "GITHUB_WORKSPACE": workspace, "GITHUB_REPOSITORY": "team/app",
            "GITHUB_EVENT_NAME": event, "GITHUB_ACTION_PATH": action_path, "GITHUB_ACTION_REPOSITORY": repository,
            "RUNNER_OS": "Linux", "RUNNER_TEMP": temp, "GITHUB_PATH": files["path"], "GITHUB_ENV": files["env"],
            "GITHUB_STEP_SUMMARY": files["summary"], **(step_env or {})}
    log, failed = [], False
    runs = action.get("runs", {})
    if runs.get("using") != "composite":
        raise ActionError("this runner runs composite actions only")
    for number, step in enumerate(runs.get("steps", [])):
        status = {"always": True, "success": not failed, "failure": failed, "cancelled": False}
        if not condition(step.get("if", "success()"), contexts, status):
            continue
        if "run" not in step:
            raise ActionError(f"step {number + 1}: only run steps are run here")
        if step.get("shell") != "bash":
            raise ActionError(f"step {number + 1}: a composite run step needs `shell: bash` here (GitHub requires a shell)")
        script = substitute(step["run"], contexts, status)
        env = {name: substitute(value, contexts, status) for name, value in (step.get("env") or {}).items()}
        output = os.path.join(temp, f"_runner_output_{number}")
        open(output, "w").close()
        paths = [line for line in open(files["path"]).read().splitlines() if line]
        environment = {**base, **read_commands(files["env"]), **env, "GITHUB_OUTPUT": output}
        environment["PATH"] = ":".join(list(reversed(paths)) + [base["PATH"]])
        script_file = os.path.join(temp, f"_runner_step_{number}.sh")
        open(script_file, "w").write(script)
        result = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", script_file], cwd=workspace, env=environment,
                                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        log.append(f"## step {number + 1}: {step.get('name', '')} (exit {result.returncode})\n{result.stdout}")
        if "id" in step:
            contexts["steps"][step["id"]] = {"outputs": read_commands(output), "outcome": "failure" if result.returncode else "success"}
        if result.returncode != 0:
            failed = True
    status = {"always": True, "success": not failed, "failure": failed, "cancelled": False}
    outputs = {name: substitute(spec.get("value", ""), contexts, status) for name, spec in (action.get("outputs") or {}).items()}
    paths = [line for line in open(files["path"]).read().splitlines() if line]
    return Run(1 if failed else 0, "\n".join(log), outputs, open(files["summary"]).read(), temp, paths)


# ---- the scenarios -----------------------------------------------------------------------------

def git(cwd, *arguments):
    subprocess.run(["git", *arguments], cwd=cwd, check=True, capture_output=True)


def team_repository(work):
    """A team's repository: packs/wechat and nothing of soundpack's, with a bare origin."""
    source = os.path.join(work, "team")
    os.makedirs(os.path.join(source, "packs"))
    shutil.copytree(os.path.join(root, "packs/wechat"), os.path.join(source, "packs/wechat"))
    git(source, "init", "-q", "-b", "main")
    git(source, "config", "user.email", "team@example.invalid")
    git(source, "config", "user.name", "team")
    git(source, "add", "-A")
    git(source, "commit", "-qm", "packs")
    origin = os.path.join(work, "team.git")
    subprocess.run(["git", "clone", "-q", "--bare", source, origin], check=True, capture_output=True)
    git(source, "remote", "add", "origin", origin)
    return source, origin


def store_settings(work):
    endpoint = os.environ.get("SOUNDPACK_TEST_S3_ENDPOINT")
    if not endpoint:
        return {"store": os.path.join(work, "store")}, {}, {}, "a folder"
    bucket = "action-" + os.urandom(6).hex()
    created = subprocess.run([sys.executable, os.path.join(root, "scripts/check/reliability/check-s3-store.py"), "--create-bucket", endpoint, bucket],
                             capture_output=True, text=True)
    if created.returncode != 0:
        raise ActionError(f"cannot create the test bucket: {created.stdout}{created.stderr}")
    credentials = {name: os.environ[name] for name in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_REGION") if name in os.environ}
    # The gate reads the store only: the server's read-only user (scripts/servers/swift.sh).
    reader = {**credentials, "AWS_ACCESS_KEY_ID": os.environ["SOUNDPACK_TEST_S3_READER"],
              "AWS_SECRET_ACCESS_KEY": os.environ["SOUNDPACK_TEST_S3_READER_SECRET"]}
    return {"store": f"s3://{bucket}/voice", "s3-endpoint": endpoint}, credentials, reader, "an S3 bucket (the gate with read-only credentials)"


def check_schema(path):
    checked = subprocess.run(["check-jsonschema", "--builtin-schema", "vendor.github-actions", path], capture_output=True, text=True)
    if checked.returncode != 0:
        raise ActionError(f"{os.path.relpath(path, root)} is not valid against the GitHub action metadata schema:\n{checked.stdout}{checked.stderr}")


def main():
    check_schema(os.path.join(root, "action.yml"))
    # In a job with `container:`, `${{ github.action_path }}` is the host's path, not the container's
    # (actions/runner#2185); GITHUB_ACTION_PATH is translated. The runner here runs no container, so
    # the rule is checked on the text: no step finds its files through the expression.
    for step in yaml.safe_load(open(os.path.join(root, "action.yml")))["runs"]["steps"]:
        text = json.dumps(step)
        if "github.action_path" in text.replace(" ", ""):
            print(f"action.yml: step '{step.get('name')}' uses ${{{{ github.action_path }}}}, the host's path in a container job: use $GITHUB_ACTION_PATH")
            sys.exit(1)
    work = tempfile.mkdtemp(prefix="soundpack-action-")
    runs = 0
    try:
        source, origin = team_repository(work)
        store, credentials, reader, store_kind = store_settings(work)
        keys = os.path.join(work, "keys")
        os.makedirs(keys)
        binary = os.path.join(root, ".build/release/soundpack")
        for name in ("release", "other"):
            made = subprocess.run([binary, "keygen", "-o", os.path.join(keys, name + ".key")], capture_output=True, text=True, cwd=keys)
            if made.returncode != 0:
                raise ActionError(f"keygen failed (build the release binary first):\n{made.stdout}{made.stderr}")
        secret = open(os.path.join(keys, "release.key")).read().strip()
        public = open(os.path.join(keys, "release.key.pub")).read().strip()
        other_public = open(os.path.join(keys, "other.key.pub")).read().strip()

        def runner(name, inputs, expect, mentions=(), event="push"):
            nonlocal runs
            workspace = os.path.join(work, f"runner-{runs}-{name}")
            subprocess.run(["git", "clone", "-q", origin, workspace], check=True, capture_output=True)
            result = run_action(root, workspace, inputs, step_env=reader if inputs.get("command") == "gate" else credentials, event=event)
            runs += 1
            if (result.returncode == 0) != (expect == "pass"):
                raise ActionError(f"{name}: the action {'failed' if result.returncode else 'passed'}, expected it to {expect}:\n{result.log}")
            for text in mentions:
                if text not in result.log:
                    raise ActionError(f"{name}: the log does not say '{text}':\n{result.log}")
            leftovers = [entry for entry in os.listdir(os.path.join(result.temp, "soundpack")) if entry.startswith("keys")] \
                if os.path.isdir(os.path.join(result.temp, "soundpack")) else []
            if leftovers:
                raise ActionError(f"{name}: key files left in RUNNER_TEMP: {leftovers}")
            return result, workspace

        def commit(message, change):
            change(source)
            git(source, "commit", "-qam", message)
            git(source, "push", "-q", "origin", "main")

        # The gate on a good pack, before anything is published.
        gate, _ = runner("gate-good", {"command": "gate", **store}, "pass", event="pull_request")
        sarif = json.load(open(gate.outputs["sarif"]))
        if sarif["version"] != "2.1.0" or any(not result.get("suppressions") for result in sarif["runs"][0]["results"]):
            raise ActionError(f"gate-good: the SARIF should be 2.1.0 with no finding that counts: {gate.outputs['sarif']}")
        if not os.path.getsize(gate.outputs["junit"]) or "soundpack validate: passed" not in gate.summary or "would publish wechat@1.0.0" not in gate.summary:
            raise ActionError(f"gate-good: the JUnit file or the job summary is missing:\n{gate.summary}")

        if not store["store"].startswith("s3://") and os.path.exists(store["store"]):
            raise ActionError("gate-good: the gate wrote into the store")

        # Publish on main: signed, then verified with the public key.
        published, _ = runner("publish", {"command": "publish", **store, "sign-key": secret, "public-key": public}, "pass",
                              mentions=("published wechat@1.0.0", "signed"))

        # A pull request that re-records a clip and forgets the version: refused on the pull request.
        def rerecord(path):
            # A new take (the old one 5 % faster, by sox): a copy of another clip would be audio.duplicate.
            clip = os.path.join(path, "packs/wechat/clips/5.caf")
            subprocess.run(["sox", "-D", clip, clip + ".take.caf", "tempo", "1.05"], check=True)
            os.replace(clip + ".take.caf", clip)
        git(source, "checkout", "-q", "-b", "rerecord")
        rerecord(source)
        git(source, "commit", "-qam", "re-record 5")
        git(source, "push", "-q", "origin", "rerecord")

        def pull_request(name, expect, mentions=()):
            nonlocal runs
            workspace = os.path.join(work, f"runner-{runs}-{name}")
            subprocess.run(["git", "clone", "-q", "-b", "rerecord", origin, workspace], check=True, capture_output=True)
            result = run_action(root, workspace, {"command": "gate", **store}, step_env=reader, event="pull_request")
            runs += 1
            if (result.returncode == 0) != (expect == "pass"):
                raise ActionError(f"{name}: the gate {'failed' if result.returncode else 'passed'}, expected it to {expect}:\n{result.log}")
            for text in mentions:
                if text not in result.log:
                    raise ActionError(f"{name}: the log does not say '{text}':\n{result.log}")
            return result

        refused = pull_request("gate-no-bump", "fail", mentions=("catalog.version-conflict", "bump the version"))
        if not refused.outputs["sarif"] or not os.path.getsize(refused.outputs["sarif"]):
            raise ActionError("gate-no-bump: the failing gate left no SARIF file")
        manifest = os.path.join(source, "packs/wechat/pack.json")
        text = open(manifest).read()
        open(manifest, "w").write(text.replace('"version" : "1.0.0"', '"version" : "1.0.1"'))
        git(source, "commit", "-qam", "wechat 1.0.1")
        git(source, "push", "-q", "origin", "rerecord")
        pull_request("gate-bumped", "pass", mentions=("would publish wechat@1.0.1",))

        # Merged: publish 1.0.1 from a fresh runner, then verify (every version signed).
        git(source, "checkout", "-q", "main")
        git(source, "merge", "-q", "--ff-only", "rerecord")
        git(source, "push", "-q", "origin", "main")
        runner("publish-bumped", {"command": "publish", **store, "sign-key": secret, "public-key": public}, "pass",
               mentions=("published wechat@1.0.1",))
        # verify checks the signatures: with a key the app does not trust, it fails.
        runner("verify-other-key", {"command": "publish", **store, "public-key": other_public}, "fail", mentions=("store.signature",))

        # Inputs are data: a packs value carrying a command substitution names a missing folder
        # and runs nothing.
        runner("hostile-packs", {"command": "gate", "packs": "packs$(touch pwned)`touch pwned`"}, "fail", mentions=("no folder",))
        if any("pwned" in files for _, _, files in os.walk(work)):
            raise ActionError("hostile-packs: a command in an input ran")
        runner("unknown-command", {"command": "deploy"}, "fail", mentions=("must be gate or publish",))
        runner("no-public-key", {"command": "publish", **store, "sign-key": secret}, "fail", mentions=("public-key input",))
        runner("no-packs", {"command": "gate", "packs": "packs/wechat/clips"}, "fail", mentions=("no pack folder",))
        # A publish that fails after the key file is written: the key is gone all the same (the
        # leftover check of runner()), and the step keeps the failing code and writes its summary.
        failed, _ = runner("publish-verify-fails", {"command": "publish", **store, "sign-key": secret, "public-key": other_public}, "fail",
                           mentions=("store.signature", "(exit 1)"))
        if "soundpack publish" not in failed.summary:
            raise ActionError("publish-verify-fails: a failed publish wrote no job summary")
        blocked = os.path.join(work, "not-a-store")
        open(blocked, "w").write("a file where the store should be")
        failed, _ = runner("publish-store-broken", {"command": "publish", "store": blocked, "sign-key": secret, "public-key": public}, "fail",
                           mentions=("cannot publish",))
        if "soundpack publish" not in failed.summary:
            raise ActionError("publish-store-broken: a failed publish wrote no job summary")

        # version: the action installs a release (scripts/release.sh, signed with a throw-away key)
        # instead of building, after checking its signature and checksum; a tampered tarball or a
        # signature by another key is refused before anything is unpacked.
        releases = os.path.join(work, "releases")
        made = subprocess.run([os.path.join(root, "scripts/release.sh"), "--sign-key", os.path.join(keys, "release.key"), "-o", releases],
                              capture_output=True, text=True, stdin=subprocess.DEVNULL)
        if made.returncode != 0:
            raise ActionError(f"scripts/release.sh failed:\n{made.stdout}{made.stderr}")
        version = os.listdir(releases)[0]
        release_inputs = {"version": version, "release-url": "file://" + os.path.join(releases, version), "release-public-key": public}
        installed, _ = runner("release-gate", {"command": "gate", **store, **release_inputs}, "pass", event="pull_request",
                              mentions=(f"soundpack {version}",))
        if not installed.paths or not installed.paths[0].startswith(installed.temp) or "/.build/" in installed.paths[0]:
            raise ActionError(f"release-gate: soundpack was not installed from the release: PATH gets {installed.paths}")
        runner("release-other-key", {"command": "gate", **store, **release_inputs, "release-public-key": other_public}, "fail",
               mentions=("does not verify with the release public key",))
        tarball = os.path.join(releases, version, f"soundpack-{version}-linux-x86_64.tar.gz")
        data = bytearray(open(tarball, "rb").read())
        data[len(data) // 2] ^= 1
        open(tarball, "wb").write(bytes(data))
        runner("release-tampered", {"command": "gate", **store, **release_inputs}, "fail", mentions=("does not match the signed SHA256SUMS",))
    except ActionError as error:
        print(f"action.yml: {error}")
        sys.exit(1)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"action.yml: valid against the GitHub action metadata schema; {runs} runs from a team's repository holding only packs/, "
          f"into {store_kind}: the gate passed a good pack, failed a re-recorded clip without a version bump and passed it bumped; "
          "publish signed both versions and verify with the public key was clean (with another key it failed); "
          "hostile, unknown and missing inputs failed with their message; a signed release installed and gated, "
          "a release signed by another key or with a changed tarball was refused")


if __name__ == "__main__":
    main()
