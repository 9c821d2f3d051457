#!/usr/bin/env python3
"""Tests scripts/check/ios-availability.py by planting each API it knows into a copy of the sources,
unguarded (the check must fail and name the API) and under each guard Swift knows (it must pass),
and into the branches that run on the old iOS (it must fail).

Usage: scripts/check/ios-availability-selftest.py
"""
import importlib.util, os, shutil, sys, tempfile

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
spec = importlib.util.spec_from_file_location("availability", os.path.join(root, "scripts/check/ios-availability.py"))
availability = importlib.util.module_from_spec(spec)
spec.loader.exec_module(availability)

# (the API's statement, its iOS version, what the check calls it)
APIS = [
    ('let u = URL(fileURLWithPath: "/").appending(path: "a")', 16, "URL.appending"),
    ("let r = /[0-9]+/", 16, "regex literal"),
    ("let r = #/[0-9]+/#", 16, "regex literal"),
    ('let r = try Regex("[0-9]+")', 16, "Regex"),
    ('let m = "a1".firstMatch(of: /[0-9]/)', 16, "regex literal"),
    ('let x = "abc".ranges(of: "b")', 16, "ranges(of:)"),
    ('let x = "abc".replacing("b", with: "c")', 16, "replacing"),
    ("let d: Duration = .seconds(1)", 16, "Duration"),
    ("let c = ContinuousClock()", 16, "Clock"),
    ("try await Task.sleep(for: .seconds(1))", 16, "Task.sleep(for:)"),
    ("let t = Date().formatted()", 15, ".formatted()"),
    ('let s = String(localized: "hello")', 15, "String(localized:)"),
    ('let (d, r) = try await URLSession.shared.data(from: URL(fileURLWithPath: "/"))', 15, "URLSession.data"),
    ('let (d, r) = try await URLSession.shared.data(for: URLRequest(url: URL(fileURLWithPath: "/")))', 15, "URLSession.data"),
    ('let (b, r) = try await URLSession.shared.bytes(from: URL(fileURLWithPath: "/"))', 15, "URLSession.bytes"),
    ("let m = Mutex(0)", 18, "Mutex"),
    ("let a = Atomic<Int>(0)", 18, "Atomic"),
    ('let file = try AVAudioFile(forReading: URL(fileURLWithPath: "/a.caf")); file.close()', 18, "AVAudioFile.close()"),
    ("content.interruptionLevel = .timeSensitive", 15, "interruptionLevel"),
]

# (how the statement is wrapped; {v} is the API's version, {v1} one above it; whether it may pass)
WRAPPERS = [
    ("func planted() async throws {{\n    {api}\n}}", False),
    ("func planted() async throws {{\n    if #available(iOS {v}, *) {{\n        {api}\n    }}\n}}", True),
    ("func planted() async throws {{\n    if #available(iOS {v}.0, *) {{\n        print(1)\n    }} else {{\n        {api}\n    }}\n}}", False),
    ("func planted() async throws {{\n    guard #available(iOS {v}, *) else {{\n        {api}\n        return\n    }}\n}}", False),
    ("func planted() async throws {{\n    guard #available(iOS {v}, *) else {{ return }}\n    {api}\n}}", True),
    ("func planted() async throws {{\n    if #unavailable(iOS {v}) {{\n        {api}\n    }}\n}}", False),
    ("func planted() async throws {{\n    if #unavailable(iOS {v}) {{\n        print(1)\n    }} else {{\n        {api}\n    }}\n}}", True),
    ("func planted() async throws {{\n    guard #unavailable(iOS {v}) else {{\n        {api}\n        return\n    }}\n}}", True),
    ("@available(iOS {v}, *)\nfunc planted() async throws {{\n    {api}\n}}", True),
    ("@available(iOS, introduced: {v})\nfunc planted() async throws {{\n    {api}\n}}", True),
    ("@available(macOS 12, iOS {v}, *)\nfunc planted() async throws {{\n    {api}\n}}", True),
    ("func planted() async throws {{\n    if #available(macOS 12, iOS {v}, *) {{\n        {api}\n    }}\n}}", True),
    ("func planted() async throws {{\n    if #available(macOS 13, *) {{\n        {api}\n    }}\n}}", False),
    ("func planted() async throws {{\n    if #available(iOS 14, *) {{\n        {api}\n    }}\n}}", False),
    ("@available(iOS, unavailable)\nfunc planted() async throws {{\n    {api}\n}}", True),
]


def judge(path, relative, floor):
    """What the check says of one planted file: (passed, its error lines)."""
    _, problems = availability.check_file(path, relative, floor)
    return not problems, "\n".join(problems)


def main():
    failures, cases = [], 0
    with tempfile.TemporaryDirectory() as temporary:
        copy = os.path.join(temporary, "tree")
        os.makedirs(copy)
        shutil.copy(os.path.join(root, "Package.swift"), copy)
        shutil.copytree(os.path.join(root, "Sources/SoundpackCore"), os.path.join(copy, "Sources/SoundpackCore"))
        shutil.copytree(os.path.join(root, "Examples"), os.path.join(copy, "Examples"))
        seen, problems, files = availability.check_tree(copy)
        if problems:
            sys.exit("ios-availability self-test: the unplanted sources already fail:\n" + "\n".join(problems))
        # The whole tree once with a planted call, as the test command runs it: the file is found.
        planted = os.path.join(copy, "Examples/NotificationServiceExtension/Planted.swift")
        with open(planted, "w") as out:
            out.write("import Foundation\nfunc planted() { let t = Date().formatted() }\n")
        if not any("Planted.swift" in line for line in availability.check_tree(copy)[1]):
            failures.append("a call planted in Examples/ was not found by the whole-tree check")
        os.remove(planted)
        floor = availability.floor_of(copy)
        for place in ("Sources/SoundpackCore/Planted.swift", "Examples/NotificationServiceExtension/Planted.swift"):
            target = os.path.join(copy, place)
            for api, version, name in APIS:
                for wrapper, passes in WRAPPERS:
                    cases += 1
                    source = wrapper.format(api=api, v=version)
                    with open(target, "w") as out:
                        out.write("import Foundation\n\n" + source + "\n")
                    passed, errors = judge(target, place, floor)
                    if passes and not passed:
                        failures.append(f"{place}: '{api}' in\n{source}\nshould pass but failed:\n{errors}")
                    elif not passes and (passed or name not in errors):
                        failures.append(f"{place}: '{api}' in\n{source}\nshould fail naming {name}, but: {errors or 'passed'}")
            os.remove(target)
    if failures:
        sys.exit(f"ios-availability self-test: {len(failures)} of {cases} cases wrong\n\n" + "\n\n".join(failures))
    print(f"ios-availability self-test: {cases} planted cases ({len(APIS)} APIs x {len(WRAPPERS)} guards x 2 places) all judged right")


if __name__ == "__main__":
    main()
