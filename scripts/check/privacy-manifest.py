#!/usr/bin/env python3
"""Checks the privacy manifests App Review reads against the code that ships to phones: every
required-reason API that Sources/SoundpackCore (linked by an app's extension) or the example's
sources call is declared, with a reason Apple lists for it, in that code's PrivacyInfo.xcprivacy
(read with plistlib), and SoundpackCore's manifest is a resource of its target in Package.swift.

Apple: "you must declare the reasons for using these APIs in your app's privacy manifest"
(Describing use of required reason API). The categories and reasons are Apple's.

Usage: scripts/check/privacy-manifest.py
"""
import os, plistlib, re, sys

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# category: (patterns that use it, the reasons Apple accepts for it)
CATEGORIES = {
    "NSPrivacyAccessedAPICategoryFileTimestamp": (
        [r"\.creationDate\b", r"\.modificationDate\b", r"\bcontentModificationDate", r"\bcreationDateKey\b", r"\bfileModificationDate\b",
         r"\bgetattrlist(?:bulk|at)?\(", r"\bf?stat(?:at)?\(", r"\blstat\("],
        {"DDA9.1", "C617.1", "3B52.1", "0A2A.1"}),
    "NSPrivacyAccessedAPICategorySystemBootTime": ([r"\bsystemUptime\b", r"\bmach_absolute_time\("], {"35F9.1", "8FFB.1", "3D61.1"}),
    "NSPrivacyAccessedAPICategoryDiskSpace": (
        [r"\bvolumeAvailableCapacity", r"\bvolumeTotalCapacity", r"\bsystemFreeSize\b", r"\bsystemSize\b", r"\bstatv?fs\("],
        {"85F4.1", "E174.1", "7D9E.1", "B728.1"}),
    "NSPrivacyAccessedAPICategoryActiveKeyboards": ([r"\bactiveInputModes\b"], {"3EC4.1", "54BD.1"}),
    "NSPrivacyAccessedAPICategoryUserDefaults": ([r"\bUserDefaults\b", r"\bNSUserDefaults\b"], {"CA92.1", "1C8F.1", "C56D.1", "AC6B.1"}),
}

# (the code, its privacy manifest)
SCOPES = [
    ("Sources/SoundpackCore", "Sources/SoundpackCore/PrivacyInfo.xcprivacy"),
    ("Examples/NotificationServiceExtension", "Examples/NotificationServiceExtension/PrivacyInfo.xcprivacy"),
]


def code_of(path):
    text = open(path, encoding="utf-8").read()
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def main():
    problems, used_total = [], 0
    for folder, manifest_path in SCOPES:
        used = {}
        for base, _, names in sorted(os.walk(os.path.join(root, folder))):
            for name in sorted(names):
                if name.endswith(".swift"):
                    path = os.path.join(base, name)
                    code = code_of(path)
                    for category, (patterns, _) in CATEGORIES.items():
                        for pattern in patterns:
                            m = re.search(pattern, code)
                            if m:
                                used.setdefault(category, f"{os.path.relpath(path, root)}:{code[:m.start()].count(chr(10)) + 1}")
        used_total += len(used)
        path = os.path.join(root, manifest_path)
        if not os.path.exists(path):
            if used:
                problems.append(f"{manifest_path}: error: missing, but {folder} uses " + ", ".join(f"{c} ({w})" for c, w in sorted(used.items())))
            continue
        with open(path, "rb") as handle:
            manifest = plistlib.load(handle)
        declared = {}
        for entry in manifest.get("NSPrivacyAccessedAPITypes", []):
            declared[entry.get("NSPrivacyAccessedAPIType")] = set(entry.get("NSPrivacyAccessedAPITypeReasons", []))
        for key in ("NSPrivacyTracking", "NSPrivacyTrackingDomains", "NSPrivacyCollectedDataTypes"):
            if key not in manifest:
                problems.append(f"{manifest_path}: error: no {key}")
        for category, where in sorted(used.items()):
            reasons = declared.get(category)
            if not reasons:
                problems.append(f"{manifest_path}: error: {category} is used ({where}) but not declared")
            elif not reasons & CATEGORIES[category][1]:
                problems.append(f"{manifest_path}: error: {category} declares {sorted(reasons)}, none of Apple's reasons {sorted(CATEGORIES[category][1])}")
        for category, reasons in declared.items():
            if category not in CATEGORIES:
                problems.append(f"{manifest_path}: error: unknown category {category}")
            elif category not in used:
                problems.append(f"{manifest_path}: error: {category} is declared but {folder} does not use it")
    package = open(os.path.join(root, "Package.swift")).read()
    if not re.search(r'name:\s*"SoundpackCore"[^)]*resources:\s*\[\s*\.copy\("PrivacyInfo\.xcprivacy"\)', package):
        problems.append('Package.swift: error: SoundpackCore does not ship PrivacyInfo.xcprivacy as a resource (resources: [.copy("PrivacyInfo.xcprivacy")])')
    if problems:
        sys.exit("\n".join(problems))
    print(f"privacy manifests: {used_total} required-reason API categories used by SoundpackCore and the example, each declared with one of Apple's reasons")


if __name__ == "__main__":
    main()
