// Runs every rule over an inspected pack and assembles the report all output formats render.

import SoundpackAudio
import SoundpackCore
import SoundpackPack
import SoundpackSupport

/// Validates pack folders against the rules of DESIGN §6.
public struct Validator: Sendable {
    /// Every pack rule, in the order findings are reported: `RuleBook.rules`' pack rules.
    static let rules: [any PackRule] = RuleBook.rules.compactMap { $0 as? any PackRule }

    /// Reads each pack into the facts the rules check.
    public var inspector: PackInspector

    /// A validator with iOS's limits by default.
    public init(inspector: PackInspector = PackInspector()) { self.inspector = inspector }

    /// Validates one pack folder.
    public func validate(folder: PackFolder) -> PackReport {
        validate(folders: [folder])[0]
    }

    /// Validates each pack independently; clips of all packs are probed in one worker pool.
    public func validate(folders: [PackFolder], progress: (@Sendable (_ done: Int, _ total: Int) -> Void)? = nil) -> [PackReport] {
        validate(folders: folders, earlier: nil, progress: progress)
    }

    /// Validates each pack, comparing its clips with those of the version `earlier` finds for it
    /// once its clips are probed (the store's newest below it; `audio.swapped`): nil when there is
    /// none, an error when it cannot be read, which a note then says.
    public func validate(folders: [PackFolder], earlier: (@Sendable (InspectedPack) -> Result<EarlierVoices?, SoundpackError>)?,
                         progress: (@Sendable (_ done: Int, _ total: Int) -> Void)? = nil) -> [PackReport] {
        let packs = inspector.inspect(folders: folders, progress: progress)
        return WorkerPool.map(packs.count) { index in
            var pack = packs[index]
            if let earlier, pack.packFile != nil {
                Self.compare(&pack, with: earlier(pack))
            } else {
                pack.unchecked[.audioSwapped] = "no store configured: nothing to compare the clips with"
            }
            var findings = PhaseTimes.measure("rules") { Self.rules.flatMap { $0.check(pack) } }
            // The pack under review may quiet its own warnings, never its errors: waiving an error
            // is the repository's decision (--ignore or a baseline in its CI configuration).
            for id in pack.packFile?.checks.ignore ?? [] {
                guard let rule = RuleID(rawValue: id) else {
                    findings.insert(Finding(.manifestInvalid, .error, file: PackFolder.packFile, at: "checks.ignore",
                                            "field 'checks.ignore': '\(id.quoted())' is not a rule id (see soundpack validate --help)"), at: 0)
                    continue
                }
                if rule.defaultSeverity == .error {
                    findings.insert(Finding(.manifestInvalid, .error, file: PackFolder.packFile, at: "checks.ignore",
                                            "field 'checks.ignore': \(id) is an error rule, and a pack cannot waive its own errors; suppress it in CI with --ignore \(id) or a --baseline"), at: 0)
                }
            }
            // Findings about pack.json point at the line and column of their key.
            for index in findings.indices where findings[index].isAboutManifest {
                guard let path = findings[index].keyPath, let location = Self.locate(path, in: pack.packFileKeyLocations) else { continue }
                findings[index].line = location.line
                findings[index].column = location.column
            }
            return PhaseTimes.measure("reports built") { PackReport(pack: pack, findings: findings) }
        }
    }
}

extension Validator {
    /// Sets `pack`'s comparison with its earlier version, and the note when it could not be made
    /// or the voice changed as a whole.
    static func compare(_ pack: inout InspectedPack, with earlier: Result<EarlierVoices?, SoundpackError>) {
        switch earlier {
        case .success(nil):
            pack.unchecked[.audioSwapped] = "the store holds no earlier version of the pack"
        case .failure(let error):
            pack.notes.append("clips not compared with the store's earlier version: \(error.description)")
            pack.unchecked[.audioSwapped] = "the store's earlier version cannot be read"
        case .success(let voices?):
            pack.earlier = voices
            pack.comparison = VoiceComparison.of(pack, with: voices)
            if let comparison = pack.comparison, comparison.voiceChanged {
                pack.unchecked[.audioSwapped] = "the voice changed since \(voices.version): clips not compared one by one"
                pack.notes.append("the voice changed since \(voices.version): \(comparison.changed) changed clips resemble none of \(voices.version)'s, so they are not compared one by one (audio.swapped)")
            }
        }
    }

    /// The location of `path`, or of its nearest written parent (`clips.百` missing → `clips`).
    static func locate(_ path: String, in locations: [String: JSONKeyLocation]) -> JSONKeyLocation? {
        var path = Substring(path)
        while true {
            if let found = locations[String(path)] { return found }
            guard let dot = path.lastIndex(of: ".") else { return nil }
            path = path[..<dot]
        }
    }
}

/// The result of validating one pack: the parsed pack.json, findings, each clip's facts, and the
/// worst-case announcement. Typed throughout; `encode(to:)` writes schemas/report.schema.json.
public struct PackReport: Sendable, Encodable, Equatable {
    /// One clip key of pack.json, its file and what reading it found.
    public struct Clip: Sendable, Encodable, Equatable {
        /// The key as written in pack.json (a token, or a key the grammar does not know).
        public var key: String
        /// The path as written in pack.json.
        public var file: String
        /// What reading and measuring the file found; nil when it could not be read.
        public var facts: ClipFacts?
        /// Why the file could not be read or is unsafe.
        public var error: String?
        /// How long reading and measuring the file took; not in the JSON report (it varies run to run).
        public var seconds: Double = 0

        /// The grammar's token for the key, nil when the grammar has no such token.
        public var token: Token?

        private enum CodingKeys: String, CodingKey { case token, file, facts, error }
        /// The clip as the JSON report writes it (its key as `token`).
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(key, forKey: .token)
            try c.encode(file, forKey: .file)
            try c.encodeIfPresent(facts, forKey: .facts)
            try c.encodeIfPresent(error, forKey: .error)
        }
    }

    /// The pack folder, as named.
    public private(set) var folder: PackFolder
    /// pack.json as parsed; nil when it could not be read (a `manifest.invalid` finding says why).
    public let packFile: PackFile?
    /// Every finding, suppressed ones included (each says why it does not count).
    public private(set) var findings: [Finding]
    /// Every clip key of pack.json, in its order.
    public let clips: [Clip]
    /// The longest announcement the pack can make; nil when it cannot be planned.
    public let worstCase: WorstCase?
    /// What validation could not check, or found of the pack as a whole (`InspectedPack.notes`).
    public let notes: [String]
    /// The rules that could not run on this pack, and why (`InspectedPack.unchecked`).
    public let unchecked: [RuleID: String]
    /// SHA-256 over the pack's canonical manifest (identity, grammar and every clip's hash).
    public let digest: String?
    /// Findings that count: unsuppressed errors and warnings.
    public private(set) var errors = 0
    /// Warnings that count.
    public private(set) var warnings = 0
    /// Findings reported but not counted (ignored or in the baseline).
    public private(set) var suppressed = 0
    /// Time spent reading and measuring the pack's files (each file once).
    public var seconds: Double {
        var byFile: [[UInt8]: Double] = [:]
        for clip in clips { byFile[PackPaths.normalized(clip.file).pathKey] = clip.seconds }
        return byFile.values.reduce(0, +)
    }

    init(pack: InspectedPack, findings: [Finding]) {
        folder = pack.folder
        packFile = pack.packFile
        clips = pack.clips.map { clip in
            var error: String?
            if let reason = clip.unsafePath { error = reason }
            if case .failure(let failure)? = clip.probe { error = failure.message }
            return Clip(key: clip.key, file: clip.path, facts: clip.facts, error: error, seconds: clip.probeSeconds, token: clip.token)
        }
        worstCase = pack.worstCase
        notes = pack.notes
        unchecked = pack.unchecked
        digest = pack.packFile.map { PackDigest.digest(of: $0, clipHashes: pack.clipHashes) }
        self.findings = Suppressions(packIgnores: Set(pack.packFile?.checks.ignore ?? [])).apply(to: findings)
        recount()
    }

    /// The pack id, when pack.json could be read.
    public var id: String? { packFile?.id }
    /// The pack version, when pack.json could be read.
    public var version: SemanticVersion? { packFile?.version }
    /// `id version`, or the folder when pack.json could not be read: how a pack is named in reports.
    public var title: String { packFile.map { "\($0.id) \($0.version)" } ?? folder.shown }

    /// The pack folder after it was moved (an import or a conversion renamed its staging folder).
    public func moved(to folder: PackFolder) -> PackReport {
        var report = self
        report.folder = folder
        return report
    }

    /// Marks the findings `suppressions` say do not count (`--ignore` rules, a baseline) and recounts.
    public mutating func suppress(_ suppressions: Suppressions) {
        findings = suppressions.apply(to: findings)
        recount()
    }

    private mutating func recount() {
        let counted = findings.filter { $0.suppressed == nil }
        errors = counted.filter { $0.severity == .error }.count
        warnings = counted.filter { $0.severity == .warning }.count
        suppressed = findings.count - counted.count
    }

    /// Whether the pack passes: no errors, and under `strict` no warnings either.
    public func passed(strict: Bool) -> Bool { Verdict(strict: strict).passes(findings) }

    private enum CodingKeys: String, CodingKey {
        case directory, id, name, version, grammar, two, money, tenStart, maxAmount, profile, texts, phrases, defaultPhrase, source, findings, clips, worstCase, checks, digest
        case notes
        case errors, warnings, suppressed, ignoredByPack, checkReasons
    }

    /// The report as `validate --format json` writes it (schemas/report.schema.json).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(folder.shown, forKey: .directory)
        if let pack = packFile {
            try c.encode(pack.id, forKey: .id)
            try c.encodeIfPresent(pack.name, forKey: .name)
            try c.encode(pack.version.description, forKey: .version)
            try c.encode(pack.grammar.id.rawValue, forKey: .grammar)
            for (name, value) in pack.grammar.chosenOptions { try c.encode(value, forKey: CodingKeys(rawValue: name)!) }
            try c.encode(pack.maxAmount.description, forKey: .maxAmount)
            try c.encode(pack.profile.rawValue, forKey: .profile)
            try c.encode(pack.texts, forKey: .texts)
            let book = pack.phrasebook
            if book.isDeclared {
                try c.encode(book.written, forKey: .phrases)
                try c.encode(book.defaultID, forKey: .defaultPhrase)
            }
            try c.encodeIfPresent(pack.source, forKey: .source)
            try c.encode(Dictionary(uniqueKeysWithValues: pack.checks.values.map { ($0.name, $0.value) }), forKey: .checks)
            if !pack.checks.ignore.isEmpty { try c.encode(pack.checks.ignore, forKey: .ignoredByPack) }
            if !pack.checks.reasons.isEmpty { try c.encode(pack.checks.reasons, forKey: .checkReasons) }
        }
        try c.encode(findings, forKey: .findings)
        try c.encode(notes, forKey: .notes)
        try c.encode(clips, forKey: .clips)
        try c.encodeIfPresent(worstCase, forKey: .worstCase)
        try c.encodeIfPresent(digest, forKey: .digest)
        try c.encode(errors, forKey: .errors)
        try c.encode(warnings, forKey: .warnings)
        try c.encode(suppressed, forKey: .suppressed)
    }
}
