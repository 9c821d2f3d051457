// The renderings a validation run can be asked for.

/// How a validation run is rendered (`validate --format`).
public enum ReportFormat: String, Sendable, CaseIterable {
    case text, json, junit, github, sarif
}

/// How the text rendering orders findings: as the rules found them, pack by pack (`file`), or
/// under a heading per file they concern (`clip`), so a raw delivery's many findings read clip by clip.
public enum FindingGrouping: String, Sendable, CaseIterable {
    case file, clip
}
