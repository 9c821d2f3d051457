// The pack.json model (DESIGN §3, schemas/pack.schema.json) and its field-by-field checks.

import Foundation

/// The limits a pack is checked against (`profile` in pack.json).
public enum Profile: String, CaseIterable, Sendable, Codable {
    /// iOS notification sounds: aiff/wav/caf × linear PCM/IMA4/µLaw/aLaw, under 30 s.
    case iosNotification = "ios-notification"

    /// The profile a pack has when pack.json names none.
    public static let `default` = Profile.iosNotification
}

/// A voice pack's pack.json: identity, grammar, amount limit and the clip for each token.
public struct PackFile: Sendable, Equatable {
    public var id: String
    public var name: String?
    public var version: SemanticVersion
    public var grammar: Grammar
    public var maxAmount: Amount
    public var profile: Profile
    /// Clip key (token raw value, possibly unknown to the grammar) → path relative to the pack.
    public var clips: [String: String]
    public var texts: [String: String]
    /// `phrases` as written (phrase id → clip keys and `{amount}`); nil when pack.json declares none.
    public var phrases: [String: [String]]?
    /// `defaultPhrase` as written; nil when pack.json says none.
    public var defaultPhrase: String?
    public var checks: Checks
    /// `source` as written (by `synth`): the engine and voice that spoke the clips; nil for recorded ones.
    public var source: VoiceSource?
    /// `$schema` as written: where an editor finds the schema (kept when the file is rewritten).
    public var schema: String?

    /// Clip keys a pack.json may list: about 20 tokens, with room for unknown keys (warnings).
    public static let maxClips = 256
    static let knownFields: Set<String> = [
        "$schema", "id", "name", "version", "grammar", "grammarOptions", "maxAmount", "profile", "clips", "texts", "phrases", "defaultPhrase", "source", "checks",
    ]

    public init(
        id: String, name: String? = nil, version: SemanticVersion, grammar: Grammar, maxAmount: Amount,
        profile: Profile = .default, clips: [String: String], texts: [String: String] = [:], checks: Checks = Checks()
    ) {
        self.id = id
        self.name = name
        self.version = version
        self.grammar = grammar
        self.maxAmount = maxAmount
        self.profile = profile
        self.clips = clips
        self.texts = texts
        self.checks = checks
    }

    /// What this pack can announce: the phrases pack.json declares, or the one phrase `default`
    /// (prefix, the amount, the suffix when the pack has a clip for one).
    public var phrasebook: Phrasebook {
        Phrasebook.orImplicit(grammar: grammar, declared: phrases, defaultPhrase: defaultPhrase, hasSuffix: clips[Token.suffix.rawValue] != nil)
    }

    /// How this pack frames a reading by default: its default phrase.
    public var announcement: Announcement { phrasebook.announcement(phrasebook.defaultPhrase) }

    /// Whether `id` is a valid pack id: `[a-z0-9][a-z0-9-]{0,62}`.
    /// Why `text` (a name, token, text or path) may not be passed on, or nil: they are printed,
    /// exported to a property list and used as file names, so a control character in any of them
    /// is refused, and so is a noncharacter XML cannot carry. pack.json and the store's manifest
    /// (as a phone reads it) are held to this alike.
    public static func unprintable(_ text: String) -> String? {
        if text.containsControlCharacter() { return "'\(text.quoted())' holds a control character; use printable text" }
        if let scalar = text.xmlForbiddenScalar {
            return "'\(text.quoted())' holds U+\(String(scalar.value, radix: 16, uppercase: true)), a noncharacter that the exported property list (XML) cannot carry"
        }
        return nil
    }

    public static func isValidID(_ id: String) -> Bool {
        let bytes = Array(id.utf8)
        guard (1...63).contains(bytes.count) else { return false }
        func ok(_ b: UInt8) -> Bool { (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39) }
        return ok(bytes[0]) && bytes.dropFirst().allSatisfy { ok($0) || $0 == 0x2D }
    }

    /// Parses pack.json bytes; the error names the field that is wrong and what it should be.
    /// The most pack.json may hold (a pack names a few dozen clips in a few KiB).
    public static let maxBytes = 1 << 20

    public init(json data: Data) throws(PackFileError) {
        try self.init(json: data, strictProblem: { JSONDuplicateKeys.first(in: data) })
    }

    /// `init(json:)`, handing back where each key is written (`JSONDuplicateKeys.locations(in:)`,
    /// for findings that point into the file) from the one scan that looks for repeated keys; the
    /// locations are handed back when the text is refused too.
    public init(json data: Data, keyLocations: inout [String: JSONKeyLocation]) throws(PackFileError) {
        let scanned = JSONDuplicateKeys.firstAndLocations(in: data)
        keyLocations = scanned.locations
        try self.init(json: data, strictProblem: { scanned.problem })
    }

    private init(json data: Data, strictProblem: () -> StrictJSONProblem?) throws(PackFileError) {
        let root = try Self.checkedRoot(data, strictProblem: strictProblem)
        let fields = PackJSONFields(root: root)
        let id = try fields.string("id") ?? ""
        guard Self.isValidID(id) else {
            throw PackFileError(field: "id", message: "'\(id)' is not a pack id — use 1-63 of a-z, 0-9 and '-', starting with a letter or digit")
        }
        let versionText = try fields.string("version") ?? ""
        guard let version = SemanticVersion(versionText) else {
            throw PackFileError(field: "version", message: "'\(versionText)' is not a semantic version like 1.0.0")
        }
        let grammarText = try fields.string("grammar") ?? ""
        guard let grammarID = GrammarID(rawValue: grammarText) else {
            throw PackFileError(field: "grammar", message: "'\(grammarText)' is not a known grammar (known: \(GrammarID.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        let grammar = Grammar(grammarID, options: try fields.grammarOptions(for: grammarID))
        let maxAmount = try fields.maxAmount(grouping: grammar.grouping)
        let profile = try fields.profile()
        let (clips, texts) = try fields.clipsAndTexts()
        let phrases = try fields.phrases()
        let defaultPhrase = try fields.string("defaultPhrase", required: false)
        try Self.checkPhrases(phrases, defaultPhrase: defaultPhrase, grammar: grammar, texts: texts)
        var source: VoiceSource?
        if let value = root["source"] {
            source = try VoiceSource(value)
        }
        let checks = try fields.checks()
        self.init(
            id: id, name: try fields.string("name", required: false), version: version, grammar: grammar,
            maxAmount: maxAmount, profile: profile, clips: clips, texts: texts, checks: checks)
        self.phrases = phrases
        self.defaultPhrase = defaultPhrase
        self.source = source
        schema = root["$schema"] as? String  // read as before: any value is accepted, a string is kept
    }

    /// The top-level object of pack.json: within the size cap, valid JSON, an object, no key
    /// written twice and no field pack.json does not know.
    private static func checkedRoot(_ data: Data, strictProblem: () -> StrictJSONProblem?) throws(PackFileError) -> [String: Any] {
        guard data.count <= Self.maxBytes else {
            throw PackFileError(field: nil, message: "pack.json is \(data.count) bytes, above the \(Self.maxBytes >> 10) KiB cap")
        }
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data, options: [])
        } catch {
            // Foundation says "around character 28": find the line and column an editor jumps to.
            if let syntax = JSONSyntax.firstError(in: Array(data)) {
                throw PackFileError(field: nil, message: "not valid JSON \(syntax.description)", line: syntax.line, column: syntax.column)
            }
            throw PackFileError(field: nil, message: "not valid JSON (\(Self.describe(error)))")
        }
        guard let root = object as? [String: Any] else {
            throw PackFileError(field: nil, message: "the top level must be a JSON object")
        }
        // A parser keeps one of two equal keys silently: the file would say two things.
        if let problem = strictProblem() {
            if case .trailingComma(let line, let column) = problem {
                throw PackFileError(field: nil, message: problem.description, line: line, column: column)
            }
            throw PackFileError(field: problem.field, message: problem.description)
        }
        if let unknown = root.keys.lazy.filter({ !Self.knownFields.contains($0) }).min() {
            let known = Self.knownFields.subtracting(["$schema"]).sorted()
            throw PackFileError(field: unknown, message: "unknown field\(Suggestions.didYouMean(unknown, among: known)) (known: \(known.joined(separator: ", ")))")
        }
        return root
    }

    /// With `phrases`, a default phrase is required and every clip a phrase says needs its words
    /// in texts; without them, the only default phrase is the implicit one.
    private static func checkPhrases(
        _ phrases: [String: [String]]?, defaultPhrase: String?, grammar: Grammar, texts: [String: String]
    ) throws(PackFileError) {
        if let phrases {
            guard let defaultPhrase else {
                throw PackFileError(field: "defaultPhrase", message: "required with phrases: the phrase said when a push or a command names none")
            }
            let book = try Phrasebook(grammar: grammar, declared: phrases, defaultPhrase: defaultPhrase)
            for phrase in book.phrases {
                for clip in phrase.clips where texts[clip.rawValue] == nil {
                    throw PackFileError(field: "texts.\(clip.rawValue)", message: "is missing: phrase '\(phrase.id)' says clip '\(clip.rawValue)', and its words are needed for alerts and say (add \"\(clip.rawValue)\": \"…\" to texts)")
                }
            }
        } else if let defaultPhrase, defaultPhrase != Phrasebook.implicitID {
            throw PackFileError(field: "defaultPhrase", message: "'\(defaultPhrase.quoted(limit: 40))' is not a phrase: without phrases a pack has the one phrase '\(Phrasebook.implicitID)'")
        }
    }

    private static func describe(_ error: Error) -> String {
        let ns = error as NSError
        if let detail = ns.userInfo[NSDebugDescriptionErrorKey] as? String { return detail }
        return ns.localizedDescription
    }
}

/// Rule thresholds a pack may override in pack.json `checks` (DESIGN §6).
public struct Checks: Sendable, Equatable {
    /// Longest allowed silence before the voice starts, in ms (`audio.leading-silence`).
    public var maxLeadingSilenceMs: Double = 80
    /// Longest allowed silence after the voice ends, in ms (`audio.trailing-silence`).
    public var maxTrailingSilenceMs: Double = 80
    /// Longest allowed clip other than the prefix, in seconds (`audio.too-long`).
    public var maxClipSeconds: Double = 3
    /// Longest allowed prefix and suffix clip, in seconds (`audio.too-long`).
    public var maxPrefixSeconds: Double = 5
    /// A sample quieter than this (dBFS) counts as silence for the silence and `audio.empty` rules.
    public var silenceThresholdDbfs: Double = -50
    /// This many consecutive full-scale samples in one channel make a clipped run (`audio.clipping`).
    public var clippingRunSamples: Double = 3
    /// Largest allowed DC offset, in percent of full scale (`audio.dc-offset`).
    public var maxDcOffsetPercent: Double = 0.5
    /// Largest allowed distance of a clip's momentary-max loudness from the pack median, in LU
    /// (`audio.loudness-outlier`).
    public var maxLoudnessDeviationLU: Double = 2
    /// Two clips of different words whose voice prints correlate at least this much, and differ
    /// by at most `maxDuplicateDifferenceDb` in every loud frame, are one recording (`audio.duplicate`).
    public var minDuplicateSimilarity: Double = 0.99
    public var maxDuplicateDifferenceDb: Double = 5
    /// A clip whose median pitch is more than this many semitones from the pack's median is a
    /// `audio.voice-outlier` warning: another speaker or voice.
    public var maxVoicePitchSemitones: Double = 7
    /// A clip whose print is at least `minSwapSimilarity` alike another word's clip of the earlier
    /// version, and `minSwapMargin` more alike than its own earlier clip, is `audio.swapped`.
    public var minSwapSimilarity: Double = 0.8
    public var minSwapMargin: Double = 0.15
    /// A clip the recogniser hears as another word of the pack, fitting it better than its own words
    /// by at least this much per 10 ms frame, is `audio.wrong-word`.
    public var minWrongWordMargin: Double = 25
    /// A worst-case announcement above this many seconds is a `compose.banner-cut` warning: temporary
    /// banners are reported to cut a custom sound after about 5–7 s.
    public var bannerCutSeconds: Double = 5
    /// A worst-case announcement at or above this many seconds is a `compose.too-long` warning.
    public var composeWarnSeconds: Double = 10
    /// A worst-case announcement at or above this many seconds is a `compose.too-long` error (iOS: 30).
    public var composeMaxSeconds: Double = 30
    /// The distinct clip files of the heaviest announcement weighing more than this many bytes are a
    /// `compose.download-size` warning: a phone lacking them downloads them in the extension's time budget.
    public var maxAnnouncementBytes: Double = 1_048_576
    /// Rule ids this pack suppresses (`checks.ignore`); their findings are reported as suppressed.
    public var ignore: [String] = []
    /// Why this pack departs from a default (`checks.reasons`): a threshold it sets, or a rule id it
    /// ignores → the team's reason, kept beside the value so a reviewer, and the JSON report, see it.
    public var reasons: [String: String] = [:]

    /// The longest reason pack.json may give: a sentence or two, not a document.
    public static let maxReasonLength = 500

    public init() {}

    nonisolated(unsafe) static let fields: [(name: String, range: ClosedRange<Double>, path: WritableKeyPath<Checks, Double>)] = [
        ("maxLeadingSilenceMs", 0...10_000, \.maxLeadingSilenceMs),
        ("maxTrailingSilenceMs", 0...10_000, \.maxTrailingSilenceMs),
        ("maxClipSeconds", 0.01...30, \.maxClipSeconds),
        ("maxPrefixSeconds", 0.01...30, \.maxPrefixSeconds),
        ("silenceThresholdDbfs", -120...0, \.silenceThresholdDbfs),
        ("clippingRunSamples", 1...1_000, \.clippingRunSamples),
        ("maxDcOffsetPercent", 0...100, \.maxDcOffsetPercent),
        ("maxLoudnessDeviationLU", 0...60, \.maxLoudnessDeviationLU),
        ("minDuplicateSimilarity", 0...1, \.minDuplicateSimilarity),
        ("maxDuplicateDifferenceDb", 0...60, \.maxDuplicateDifferenceDb),
        ("maxVoicePitchSemitones", 0...48, \.maxVoicePitchSemitones),
        ("minSwapSimilarity", 0...1, \.minSwapSimilarity),
        ("minSwapMargin", 0...2, \.minSwapMargin),
        ("minWrongWordMargin", 0...1_000, \.minWrongWordMargin),
        ("bannerCutSeconds", 0.1...30, \.bannerCutSeconds),
        ("composeWarnSeconds", 0.1...30, \.composeWarnSeconds),
        ("composeMaxSeconds", 0.1...30, \.composeMaxSeconds),
        ("maxAnnouncementBytes", 1_024...1_073_741_824, \.maxAnnouncementBytes),
    ]

    /// The names and values of every threshold, for reports.
    public var values: [(name: String, value: Double)] { Self.fields.map { ($0.name, self[keyPath: $0.path]) } }

    /// Whether a number JSONSerialization read was `true` or `false` (Foundation's booleans are
    /// NSNumbers of C type `char`; JSON's numbers never are).
    static func isBoolean(_ number: NSNumber) -> Bool { String(cString: number.objCType) == "c" }

    mutating func apply(_ map: [String: Any]) throws(PackFileError) {
        for (key, value) in map {
            if key == "reasons" { continue }  // after the rest: a reason names a check set here
            if key == "ignore" {
                guard let rules = value as? [String] else {
                    throw PackFileError(field: "checks.ignore", message: "must be an array of rule ids, like [\"audio.dc-offset\"]")
                }
                ignore = rules
                continue
            }
            guard let field = Self.fields.first(where: { $0.name == key }) else {
                let known = Self.fields.map(\.name) + ["ignore", "reasons"]
                throw PackFileError(field: "checks.\(key)", message: "unknown check\(Suggestions.didYouMean(key, among: known)) (known: \(known.joined(separator: ", ")))")
            }
            // `true` is not a number, though Foundation bridges it to one.
            guard let number = value as? NSNumber, !Self.isBoolean(number), field.range.contains(number.doubleValue) else {
                throw PackFileError(field: "checks.\(key)", message: "must be a number in \(field.range.lowerBound)...\(field.range.upperBound)")
            }
            self[keyPath: field.path] = number.doubleValue
        }
        if let value = map["reasons"] { try applyReasons(value, setHere: Set(map.keys).subtracting(["ignore", "reasons"])) }
    }

    /// `checks.reasons`: each key a threshold set in the same `checks` or a rule id in its `ignore`,
    /// each value a printable sentence saying why.
    private mutating func applyReasons(_ value: Any, setHere: Set<String>) throws(PackFileError) {
        guard let map = value as? [String: Any] else {
            throw PackFileError(field: "checks.reasons", message: "must be an object: a threshold set in checks, or a rule id in checks.ignore → why, like {\"bannerCutSeconds\": \"…\"}")
        }
        let decided = setHere.union(ignore)
        for (key, value) in map {
            var field: String { "checks.reasons.\(key.quoted(limit: 40))" }
            guard decided.contains(key) else {
                let hint = decided.isEmpty ? "this pack sets none" : "it sets \(decided.sorted().joined(separator: ", "))"
                throw PackFileError(field: field, message: "is a reason for a check this pack does not set or ignore\(Suggestions.didYouMean(key, among: Array(decided))) (\(hint))")
            }
            guard let text = value as? String, !text.unicodeScalars.allSatisfy(CharacterSet.whitespaces.contains) else {
                throw PackFileError(field: field, message: "must be a sentence saying why this pack departs from the default")
            }
            guard text.count <= Self.maxReasonLength else {
                throw PackFileError(field: field, message: "is \(text.count) characters; a reason has at most \(Self.maxReasonLength)")
            }
            if let problem = PackFile.unprintable(text) { throw PackFileError(field: field, message: problem) }
            reasons[key] = text
        }
    }
}

/// What is wrong with a pack.json, and in which field.
public struct PackFileError: Error, Equatable, Sendable, CustomStringConvertible {
    public let field: String?
    public let message: String
    /// Where in the text the error is, when it is not a field's (a JSON syntax error): 1-based
    /// line, and column in UTF-16 code units.
    public let line: Int?
    public let column: Int?
    public init(field: String?, message: String, line: Int? = nil, column: Int? = nil) {
        self.field = field
        self.message = message
        self.line = line
        self.column = column
    }
    public var description: String { field.map { "field '\($0.quoted(limit: 60))': \(message)" } ?? message }
}

/// pack.json as soundpack writes it (`init`, `convert`): every field the reader takes, with the
/// grammar's options and the profile explicit, and only the checks that differ from their
/// defaults (the same meaning as the file read). Encode with sorted keys for stable bytes.
extension PackFile: Encodable {
    private enum CodingKeys: String, CodingKey {
        case schema = "$schema", id, name, version, grammar, grammarOptions, maxAmount, profile, clips, texts, phrases, defaultPhrase, source, checks
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(schema, forKey: .schema)
        try c.encode(id, forKey: .id)
        try c.encodeIfPresent(name, forKey: .name)
        try c.encode(version, forKey: .version)
        try c.encode(grammar.id, forKey: .grammar)
        if grammar.id.hasOptions {
            try c.encode(Dictionary(uniqueKeysWithValues: grammar.chosenOptions.map { ($0.name, $0.value) }), forKey: .grammarOptions)
        }
        try c.encode(maxAmount, forKey: .maxAmount)
        try c.encode(profile, forKey: .profile)
        try c.encode(clips, forKey: .clips)
        if !texts.isEmpty { try c.encode(texts, forKey: .texts) }
        try c.encodeIfPresent(phrases, forKey: .phrases)
        try c.encodeIfPresent(defaultPhrase, forKey: .defaultPhrase)
        try c.encodeIfPresent(source, forKey: .source)
        let defaults = Checks()
        // A threshold with a reason is written even at its default value, so the reason reads back.
        let changed = Checks.fields.filter { self.checks[keyPath: $0.path] != defaults[keyPath: $0.path] || checks.reasons[$0.name] != nil }
        if !changed.isEmpty || !checks.ignore.isEmpty {
            var nested = c.nestedContainer(keyedBy: StringKey.self, forKey: .checks)
            for field in changed { try nested.encode(checks[keyPath: field.path], forKey: StringKey(field.name)) }
            if !checks.ignore.isEmpty { try nested.encode(checks.ignore, forKey: StringKey("ignore")) }
            if !checks.reasons.isEmpty { try nested.encode(checks.reasons, forKey: StringKey("reasons")) }
        }
    }
}

/// Where a pack's clips came from when a text-to-speech engine spoke them (pack.json `source`,
/// written by `synth`): shown wherever the pack is, so a placeholder voice is never taken for a
/// recorded one.
public struct VoiceSource: Sendable, Equatable, Codable {
    /// `espeak-ng`, or the program a team's own engine command runs.
    public var engine: String
    /// The engine's voice, when it has one.
    public var voice: String?

    public init(engine: String, voice: String? = nil) {
        self.engine = engine
        self.voice = voice
    }

    /// `espeak-ng (voice cmn)`.
    public var description: String { voice.map { "\(engine) (voice \($0))" } ?? engine }

    init(_ value: Any) throws(PackFileError) {
        guard let map = value as? [String: Any] else {
            throw PackFileError(field: "source", message: "must be an object like {\"engine\": \"espeak-ng\", \"voice\": \"cmn\"}")
        }
        if let unknown = map.keys.filter({ $0 != "engine" && $0 != "voice" }).sorted().first {
            throw PackFileError(field: "source.\(unknown.quoted(limit: 40))", message: "unknown field (known: engine, voice)")
        }
        func text(_ key: String) throws(PackFileError) -> String? {
            guard let value = map[key] else { return nil }
            guard let text = value as? String, (1...200).contains(text.count),
                  !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                throw PackFileError(field: "source.\(key)", message: "must be 1-200 characters with no control characters")
            }
            return text
        }
        guard let engine = try text("engine") else {
            throw PackFileError(field: "source.engine", message: "required field is missing: the engine that spoke the clips")
        }
        self.init(engine: engine, voice: try text("voice"))
    }
}

/// pack.json's top-level object, read field by field; each error names the field that is wrong.
private struct PackJSONFields {
    let root: [String: Any]

    func string(_ key: String, required: Bool = true) throws(PackFileError) -> String? {
        guard let value = root[key] else {
            if required { throw PackFileError(field: key, message: "required field is missing") }
            return nil
        }
        guard let text = value as? String else { throw PackFileError(field: key, message: "must be a string") }
        return text
    }

    func stringMap(_ key: String) throws(PackFileError) -> [String: String] {
        guard let value = root[key] else { return [:] }
        guard let map = value as? [String: Any] else { throw PackFileError(field: key, message: "must be an object") }
        var result: [String: String] = [:]
        for (k, v) in map {
            guard let s = v as? String else { throw PackFileError(field: "\(key).\(k)", message: "must be a string") }
            result[k] = s
        }
        return result
    }

    func grammarOptions(for grammarID: GrammarID) throws(PackFileError) -> GrammarOptions {
        var options = GrammarOptions()
        guard let given = root["grammarOptions"] else { return options }
        guard let map = given as? [String: Any] else { throw PackFileError(field: "grammarOptions", message: "must be an object") }
        for (key, value) in map.sorted(by: { $0.key < $1.key }) {
            guard grammarID.hasOptions else {
                throw PackFileError(field: "grammarOptions.\(key.quoted(limit: 40))", message: "grammar \(grammarID.rawValue) takes no reading options (they are zh-Hans and zh-Hant's); leave grammarOptions out")
            }
            guard GrammarOptions.names.contains(key) else {
                throw PackFileError(field: "grammarOptions.\(key)", message: "unknown option\(Suggestions.didYouMean(key, among: GrammarOptions.names)) (known: \(GrammarOptions.names.joined(separator: ", ")))")
            }
            guard let text = value as? String, options.set(key, text) else {
                let values = GrammarOptions.values(of: key).map { "\"\($0)\"" }
                throw PackFileError(field: "grammarOptions.\(key)", message: "must be \(values.dropLast().joined(separator: ", ")) or \(values.last ?? "")")
            }
        }
        return options
    }

    /// `maxAmount`, grouped as the grammar groups every other amount (10,00,000 for en-IN and hi-IN).
    func maxAmount(grouping: DigitGrouping) throws(PackFileError) -> Amount {
        if root["maxAmount"] is NSNumber {
            throw PackFileError(field: "maxAmount", message: "must be a string such as \"99999999.99\" (a JSON number is not exact)")
        }
        let maxText = try string("maxAmount") ?? ""
        do { return try Amount(parsing: maxText, grouping: grouping) } catch {
            throw PackFileError(field: "maxAmount", message: error.description)
        }
    }

    func profile() throws(PackFileError) -> Profile {
        guard let text = try string("profile", required: false) else { return .default }
        guard let known = Profile(rawValue: text) else {
            throw PackFileError(field: "profile", message: "'\(text)' is not a known profile (known: \(Profile.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        return known
    }

    /// `clips` (required, capped) and `texts`, with no control character in a key or value (nor in `name`).
    func clipsAndTexts() throws(PackFileError) -> (clips: [String: String], texts: [String: String]) {
        guard root["clips"] != nil else { throw PackFileError(field: "clips", message: "required field is missing") }
        let clips = try stringMap("clips")
        guard clips.count <= PackFile.maxClips else {
            throw PackFileError(field: "clips", message: "\(clips.count) clips; a pack has at most \(PackFile.maxClips) (a grammar needs about 20)")
        }
        let texts = try stringMap("texts")
        func refuseControls(_ text: String, field: String) throws(PackFileError) {
            if let problem = PackFile.unprintable(text) { throw PackFileError(field: field, message: problem) }
        }
        if let name = root["name"] as? String { try refuseControls(name, field: "name") }
        for (key, path) in clips {
            try refuseControls(key, field: "clips")
            try refuseControls(path, field: "clips.\(key)")
        }
        for (key, text) in texts {
            try refuseControls(key, field: "texts")
            try refuseControls(text, field: "texts.\(key)")
        }
        return (clips, texts)
    }

    /// `phrases` as written, or nil when pack.json declares none.
    func phrases() throws(PackFileError) -> [String: [String]]? {
        guard let value = root["phrases"] else { return nil }
        guard let map = value as? [String: Any] else { throw PackFileError(field: "phrases", message: "must be an object: phrase id → its pieces") }
        var declared: [String: [String]] = [:]
        for (id, pieces) in map {
            guard let list = pieces as? [String] else {
                throw PackFileError(field: "phrases.\(id.quoted(limit: 40))", message: "must be an array of clip keys and \"\(Phrasebook.amountPiece)\", like [\"wechat\", \"\(Phrasebook.amountPiece)\"]")
            }
            declared[id] = list
        }
        return declared
    }

    func checks() throws(PackFileError) -> Checks {
        var checks = Checks()
        if let value = root["checks"] {
            guard let map = value as? [String: Any] else { throw PackFileError(field: "checks", message: "must be an object") }
            try checks.apply(map)
        }
        return checks
    }
}
