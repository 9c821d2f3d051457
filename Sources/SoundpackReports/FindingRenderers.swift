// Every rendering of validation results: text, JSON, JUnit XML, GitHub annotations and SARIF.
// One findings model, several printers; none of them decides anything the others do not.

import Foundation
import SoundpackCore
import SoundpackPack
import SoundpackSupport
import SoundpackValidation

/// Renders validation runs and check reports: text, JSON, JUnit XML, GitHub annotations, Markdown and SARIF.
public enum FindingRenderer {
    // MARK: text

    /// Compiler-style lines, a summary per pack, and a total for several packs.
    public static func text(_ run: ValidationRun, colour: Bool, groupedBy grouping: FindingGrouping = .file) -> String {
        var out = ""
        for report in run.reports {
            func finding(_ finding: Finding) -> String {
                let label: String
                if finding.suppressed != nil {
                    label = paint("note:", "1;36", colour) + " suppressed"
                } else {
                    label = Self.label(finding.severity, colour: colour)
                }
                let reason = finding.suppressed.map { " (\($0))" } ?? ""
                return line(at: ValidationRun.placedLocation(report, finding), label: label, rule: finding.rule.rawValue, finding.message + reason)
            }
            switch grouping {
            case .file:
                for f in report.findings { out += finding(f) }
            case .clip:
                for group in clipGroups(report) {
                    out += group.heading + "\n"
                    for f in group.findings { out += finding(f) }
                    out += "\n"
                }
            }
            out += summary(report, strict: run.strict, colour: colour) + "\n"
        }
        if run.reports.count > 1 {
            let failed = run.reports.filter { !run.verdict.passes($0.findings) }.count
            let errors = run.reports.reduce(0) { $0 + $1.errors }, warnings = run.reports.reduce(0) { $0 + $1.warnings }
            let suppressed = run.reports.reduce(0) { $0 + $1.suppressed }
            out += "\(run.reports.count) packs: \(run.reports.count - failed) passed, \(failed) failed (\(count(errors, "error")), \(count(warnings, "warning"))\(suppressed > 0 ? ", \(suppressed) suppressed" : ""))\n"
        }
        return out
    }

    /// A pack's findings by the file they concern, for `--group-by clip`: pack.json first (and
    /// findings about no file), then each clip file in the order of its tokens, then other files
    /// (orphans) as they come; findings keep their rule order within a file. The heading names the
    /// file, the keys that use it and its counts; it starts with `==`, so it never reads as a finding.
    static func clipGroups(_ report: PackReport) -> [(heading: String, findings: [Finding])] {
        var order: [String] = [PackFolder.packFile]
        var keys: [String: [String]] = [:]
        for clip in report.clips {
            if keys[clip.file] == nil && !order.contains(clip.file) { order.append(clip.file) }
            keys[clip.file, default: []].append(clip.key)
        }
        var byFile: [String: [Finding]] = [:]
        for finding in report.findings {
            let file = finding.file ?? PackFolder.packFile
            if !order.contains(file) { order.append(file) }
            byFile[file, default: []].append(finding)
        }
        return order.compactMap { file in
            guard let findings = byFile[file] else { return nil }
            let counted = findings.filter { $0.suppressed == nil }
            var counts = [count(counted.filter { $0.severity == .error }.count, "error"), count(counted.filter { $0.severity == .warning }.count, "warning")]
            if counted.count < findings.count { counts.append("\(findings.count - counted.count) suppressed") }
            let used = keys[file].map { " (" + $0.map { "'\($0)'" }.joined(separator: ", ") + ")" } ?? ""
            return ("== \(report.folder.shown(file).visible)\(used.visible): \(counts.joined(separator: ", "))", findings)
        }
    }

    /// One compiler-style line, `location: error: [rule] message`: how every command prints a
    /// finding (validate, payload lint, a publish refusal, verify's drift), escaped for a terminal.
    /// The location is a raw path (made visible here); the message may quote inputs it has made
    /// visible already, so it is only made terminal-safe, never escaped twice.
    package static func line(at location: String, label: String, rule: String?, _ message: String) -> String {
        "\(location.visible): \(label) \(rule.map { "[\($0)] " } ?? "")\(message.terminalSafe)\n"
    }

    /// `error:`, `warning:` or `note:`, painted when `colour`.
    package static func label(_ severity: Severity, colour: Bool) -> String {
        switch severity {
        case .error: return paint("error:", "1;31", colour)
        case .warning: return paint("warning:", "1;33", colour)
        case .note: return paint("note:", "1;36", colour)
        }
    }

    /// One pack's closing line: its folder, passed or failed, its clips and longest announcement, and its counts.
    public static func summary(_ report: PackReport, strict: Bool, colour: Bool) -> String {
        let verdict = report.passed(strict: strict) ? paint("passed", "1;32", colour) : paint("failed", "1;31", colour)
        var parts: [String] = []
        if report.packFile != nil { parts.append(report.title) }
        if !report.clips.isEmpty {
            var clips = "\(report.clips.count) clips"
            let formats = Set(report.clips.compactMap { $0.facts.map { "\($0.sampleRate) Hz \($0.channels == 1 ? "mono" : "stereo") \($0.codec.rawValue) \($0.container.rawValue)" } })
            if formats.count == 1, let only = formats.first { clips += " (\(only))" }
            parts.append(clips)
        }
        if let source = report.packFile?.source { parts.append("spoken by \(source.description)") }
        if let worst = report.worstCase {
            parts.append("longest announcement \(String(format: "%.2f", worst.seconds)) s for \(worst.phrase == nil ? worst.amount?.description ?? "" : worst.said)")
        }
        parts += report.notes
        let details = parts.isEmpty ? "" : parts.joined(separator: ", ") + "; "
        let suppressed = report.suppressed > 0 ? ", \(report.suppressed) suppressed" : ""
        return "\(report.folder.shown.visible): \(verdict) — \(details.visible)\(count(report.errors, "error")), \(count(report.warnings, "warning"))\(suppressed)"
    }

    static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
    package static func paint(_ text: String, _ code: String, _ colour: Bool) -> String { colour ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }

    // MARK: JSON

    struct Document: Encodable {
        var tool = "soundpack"
        var version: String
        var strict: Bool
        var passed: Bool
        var packs: [PackReport]
    }

    /// The run as `validate --format json` prints it: version, strictness, verdict and every pack's report.
    public static func json(_ run: ValidationRun) throws(SoundpackError) -> String {
        String(decoding: try StoreJSON.encode(Document(version: run.toolVersion, strict: run.strict, passed: run.passed, packs: run.reports)), as: UTF8.self)
    }

    // MARK: JUnit

    /// JUnit XML as pytest's junit-10.xsd (the Jenkins xunit schema) defines it: one testsuite per
    /// pack folder, named by the folder as typed (two folders with one id@version stay apart), its
    /// id@version as a property; per rule, one testcase per file it concerns (a failure for each
    /// failing finding), or one passing testcase when the rule found nothing. Times in seconds of
    /// work: a testcase about a clip takes that clip's probe time, a suite its pack's, the whole the
    /// run's wall time or the sum of its suites, whichever is larger (clips are probed in parallel).
    public static func junit(_ run: ValidationRun) -> String {
        junit(FindingGroup.of(run), name: "soundpack validate", seconds: max(run.seconds, run.reports.reduce(0) { $0 + $1.seconds }))
    }

    /// The same layout for a check (`verify`, `payload lint`): one testsuite named by its subject.
    public static func junit(_ check: CheckReport) -> String {
        junit([FindingGroup(check)], name: "soundpack \(check.command)", seconds: 0)
    }

    static func junit(_ groups: [FindingGroup], name: String, seconds: Double) -> String {
        func time(_ seconds: Double) -> String { String(format: "%.3f", max(seconds, 0)) }
        var suites = ""
        var totalTests = 0, totalFailures = 0
        for group in groups {
            var cases = ""
            var tests = 0, failures = 0, skipped = 0
            for rule in group.rules {
                let found = group.findings.filter { $0.rule == rule }
                let classname = xml("soundpack.\(group.className).\(rule.rawValue)")
                if found.isEmpty {
                    tests += 1
                    // A rule that could not run is skipped, never a pass on nothing.
                    if let reason = group.unchecked[rule] {
                        skipped += 1
                        cases += "    <testcase classname=\"\(classname)\" name=\"\(xml("[\(rule.rawValue)] \(group.name)"))\" time=\"0.000\">\n      <skipped message=\"\(xml(reason.visible))\"/>\n    </testcase>\n"
                    } else {
                        cases += "    <testcase classname=\"\(classname)\" name=\"\(xml("[\(rule.rawValue)] \(group.name)"))\" time=\"0.000\"/>\n"
                    }
                    continue
                }
                var byLocation: [(String, [Finding])] = []
                for finding in found {
                    let location = group.location(finding)
                    if let i = byLocation.firstIndex(where: { $0.0 == location }) { byLocation[i].1.append(finding) } else { byLocation.append((location, [finding])) }
                }
                for (location, findings) in byLocation {
                    tests += 1
                    cases += "    <testcase classname=\"\(classname)\" name=\"\(xml("[\(rule.rawValue)] \(location)"))\" time=\"\(time(group.seconds(location)))\">\n"
                    if let failing = findings.first(where: group.verdict.fails) {
                        failures += 1
                        let lines = findings.map { "\(group.placed($0).visible): \($0.severity.rawValue): [\(rule.rawValue)] \($0.message.visible)" }
                        cases += "      <failure type=\"\(failing.severity.rawValue)\" message=\"\(xml("[\(rule.rawValue)] \(failing.message.visible)"))\">\(xml(lines.joined(separator: "\n")))</failure>\n"
                    } else if let quiet = findings.first(where: { $0.suppressed != nil }) {
                        skipped += 1
                        cases += "      <skipped message=\"\(xml("suppressed: \(quiet.suppressed ?? "")"))\"/>\n"
                    } else {
                        cases += "      <system-out>\(xml(findings.map { "\(group.placed($0).visible): \($0.severity.rawValue): [\(rule.rawValue)] \($0.message.visible)" }.joined(separator: "\n")))</system-out>\n"
                    }
                    cases += "    </testcase>\n"
                }
            }
            totalTests += tests; totalFailures += failures
            let properties = group.properties.isEmpty ? "" : "    <properties>\n" + group.properties.map { "      <property name=\"\(xml($0.0))\" value=\"\(xml($0.1))\"/>\n" }.joined() + "    </properties>\n"
            suites += "  <testsuite name=\"\(xml(group.name))\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"0\" skipped=\"\(skipped)\" time=\"\(time(group.time))\">\n\(properties)\(cases)  </testsuite>\n"
        }
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"\(xml(name))\" tests=\"\(totalTests)\" failures=\"\(totalFailures)\" errors=\"0\" time=\"\(time(seconds))\">\n\(suites)</testsuites>\n"
    }

    /// Text as XML 1.0 character data. Line breaks we put between findings stay (as `&#10;`);
    /// every other control character, which XML cannot hold, is written as a visible escape.
    static func xml(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\n": out += "&#10;"
            case "\t": out += "\t"
            default:
                let single = String(scalar)
                out += single.visible
            }
        }
        return out
    }

    // MARK: GitHub Actions

    /// Workflow commands: `::error file=…,title=rule::[rule] message`; warnings as `::warning`,
    /// suppressed findings as `::notice`, so the gate's exceptions are visible on the pull request.
    public static func github(_ run: ValidationRun) -> String { github(FindingGroup.of(run)) }

    /// The same commands for a check (`verify`, `payload lint`); notes are `::notice` too.
    public static func github(_ check: CheckReport) -> String { github([FindingGroup(check)]) }

    package static func github(_ groups: [FindingGroup]) -> String {
        var out = ""
        for group in groups {
            for finding in group.findings {
                let command = finding.suppressed != nil || finding.severity == .note ? "notice" : (group.verdict.fails(finding) ? "error" : "warning")
                let suffix = finding.suppressed.map { " (suppressed: \($0))" } ?? ""
                let place = (finding.line.map { ",line=\($0)" } ?? "") + (finding.column.map { ",col=\($0)" } ?? "")
                out += "::\(command) file=\(property(group.location(finding)))\(place),title=\(property(finding.rule.rawValue))::\(data("[\(finding.rule.rawValue)] \(finding.message)\(suffix)"))\n"
            }
            // A summary per group, so a passing pack says so on the run page too.
            out += "::notice title=\(property("soundpack \(group.passed ? "passed" : "failed")"))::\(data(group.summary))\n"
        }
        return out
    }

    /// A Markdown table of the packs, verdicts and counts, for `$GITHUB_STEP_SUMMARY`.
    public static func markdownSummary(_ run: ValidationRun) -> String {
        func cell(_ text: String) -> String { text.visible.replacingOccurrences(of: "|", with: "\\|") }
        var out = "### soundpack validate: \(run.passed ? "passed" : "failed")\n\n| pack | version | verdict | errors | warnings | suppressed |\n|---|---|---|---:|---:|---:|\n"
        for report in run.reports {
            out += "| \(cell(report.folder.shown)) | \(cell(report.packFile.map { PackRef.name($0.id, $0.version) } ?? "—")) | \(run.verdict.passes(report.findings) ? "passed" : "**failed**") | \(report.errors) | \(report.warnings) | \(report.suppressed) |\n"
        }
        return out + "\n"
    }

    /// A workflow command's message: control characters made visible, then GitHub's own escapes.
    static func data(_ text: String) -> String {
        text.visible.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D").replacingOccurrences(of: "\n", with: "%0A")
    }

    static func property(_ text: String) -> String {
        data(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }

    // MARK: SARIF 2.1.0

    /// A SARIF physical location: a relative path as a percent-encoded URI reference against
    /// `%SRCROOT%` (the checkout, where code scanning resolves it), an absolute one as a `file:` URI;
    /// the line and column of the key when the finding is about pack.json.
    static func physicalLocation(_ path: String, _ finding: Finding) -> JSONValue {
        let artifact: JSONValue
        if path.hasBytePrefix("/") {
            artifact = ["uri": .string("file://" + percentEncodedPath(path))]
        } else if let scheme = path.range(of: "://"), path[..<scheme.lowerBound].allSatisfy({ $0.isASCII && $0.isLetter }) {
            // A store URL (s3://bucket/prefix/…): absolute already; its path is encoded as a file's.
            artifact = ["uri": .string(String(path[..<scheme.upperBound]) + percentEncodedPath(String(path[scheme.upperBound...])))]
        } else {
            artifact = ["uri": .string(percentEncodedPath(path)), "uriBaseId": "%SRCROOT%"]
        }
        var location: [String: JSONValue] = ["artifactLocation": artifact]
        if let line = finding.line {
            var region: [String: JSONValue] = ["startLine": .integer(line)]
            if let column = finding.column { region["startColumn"] = .integer(column) }
            location["region"] = .object(region)
        }
        return .object(location)
    }

    /// A path as an RFC 3986 URI path: unreserved characters and `/` as they are, every other byte
    /// of its UTF-8 as `%XX` (so `,` `:` `%` spaces and CJK names stay one unambiguous reference).
    static func percentEncodedPath(_ path: String) -> String {
        var out = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                out += String(format: "%%%02X", byte)
            }
        }
        return out
    }

    /// SARIF 2.1.0 of a validation run, every reportable rule listed.
    public static func sarif(_ run: ValidationRun) throws(SoundpackError) -> String {
        try sarif(FindingGroup.of(run), rules: RuleID.reportable, toolVersion: run.toolVersion)
    }

    /// A check's findings (`verify`, `payload lint`) with the rules of its scope.
    public static func sarif(_ check: CheckReport) throws(SoundpackError) -> String {
        try sarif([FindingGroup(check)], rules: RuleID.rules(of: check.scope), toolVersion: check.toolVersion)
    }

    static func sarif(_ groups: [FindingGroup], rules: [RuleID], toolVersion: String) throws(SoundpackError) -> String {
        let ruleObjects: [JSONValue] = rules.map { rule in
            var help: JSONValue = ["text": .string(rule.summary)]
            if rule.scope == .pack || rule.scope == .publication {
                help = ["text": "\(rule.summary) Tune or suppress it by id in pack.json \"checks\" (\"ignore\": [\"\(rule.rawValue)\"]) or with --ignore \(rule.rawValue).",
                        "markdown": "\(rule.summary)\n\nSuppress with `--ignore \(rule.rawValue)` or `\"checks\": {\"ignore\": [\"\(rule.rawValue)\"]}` in pack.json."]
            }
            return [
                "id": .string(rule.rawValue),
                "name": .string(rule.rawValue),
                "shortDescription": ["text": .string(rule.summary)],
                "fullDescription": ["text": .string(rule.summary)],
                "help": help,
                "defaultConfiguration": ["level": .string(rule.defaultSeverity.rawValue)],
            ]
        }
        var results: [JSONValue] = []
        for group in groups {
            for finding in group.findings {
                var result: [String: JSONValue] = [
                    "ruleId": .string(finding.rule.rawValue),
                    "ruleIndex": .integer(rules.firstIndex(of: finding.rule) ?? 0),
                    "level": .string(group.verdict.level(finding).rawValue),
                    "message": ["text": .string(finding.message)],
                    "locations": [["physicalLocation": physicalLocation(group.location(finding), finding)]],
                ]
                if let token = finding.token { result["properties"] = ["token": .string(token), "pack": .string(group.id)] }
                if let reason = finding.suppressed { result["suppressions"] = [["kind": "external", "justification": .string(reason)]] }
                results.append(.object(result))
            }
        }
        var run: [String: JSONValue] = [
            "tool": ["driver": ["name": "soundpack", "version": .string(toolVersion), "semanticVersion": .string(toolVersion), "rules": .array(ruleObjects)]],
            "results": .array(results),
        ]
        // What a pack's run could not check ("words not checked …") is no result: SARIF's place
        // for it is the invocation's notifications.
        let notifications: [JSONValue] = groups.flatMap { group in
            group.notes.map { note -> JSONValue in ["level": "note", "message": ["text": .string("\(group.name): \(note)")]] }
        }
        if !notifications.isEmpty {
            run["invocations"] = [["executionSuccessful": true, "toolExecutionNotifications": .array(notifications)]]
        }
        let document: JSONValue = [
            "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
            "version": "2.1.0",
            "runs": [.object(run)],
        ]
        return String(decoding: try StoreJSON.encode(document), as: UTF8.self)
    }
}
