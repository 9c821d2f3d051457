// What a Notification Service Extension needs for one amount: the clips in order, which it
// already has, which to download, and the name of the joined sound.

import Foundation

/// Where a planned clip comes from.
public enum ClipSource: Sendable, Equatable {
    /// In the app bundle (listed under the manifest key by the main app).
    case bundled
    /// Already in the App Group's `Library/Sounds`, with the manifest's size and hash.
    case librarySounds(URL)
    /// To download from this URL, then verify.
    case download(URL)
}

public struct PlannedClip: Sendable, Equatable {
    public var token: Token
    public var file: String
    public var bytes: Int
    public var sha256: String
    public var source: ClipSource
}

/// The clips of one announcement, in order, and the name to give the joined sound.
public struct ClipPlan: Sendable, Equatable {
    /// The phrase said (the pack's default phrase when the push named none, or one it does not have).
    public var phrase: String
    /// The amount said; nil for the phrase's clips alone (`ClipPlanner.framingPlan()`, or a phrase
    /// that says no amount).
    public var amount: Amount?
    public var clips: [PlannedClip]
    /// A deterministic file name for the joined sound: the same pack, version, phrase and amount
    /// always give the same name, and different ones never collide.
    public var soundName: String

    /// Clips that must be downloaded, each once (a clip can appear several times in a reading).
    public var downloads: [PlannedClip] {
        var seen = Set<String>()
        return clips.filter { if case .download = $0.source { return seen.insert($0.file).inserted }; return false }
    }
}

/// Plans announcements from an exported manifest, as the extension and `soundpack` both read amounts.
public struct ClipPlanner: Sendable {
    public let manifest: SharedManifest
    public let pack: SharedPack
    public let bundledFiles: Set<String>
    public let soundsFolder: URL?
    public let hasher: any SHA256Hashing

    /// - Parameters:
    ///   - bundledFiles: the list the main app wrote under the manifest key (defaults to the manifest's own list).
    ///   - soundsFolder: the App Group's `Library/Sounds`, checked for clips downloaded earlier.
    /// A yanked pack is refused: its publisher withdrew it (plan with the newest version instead).
    public init(manifest: SharedManifest, packID: String, bundledFiles: [String]? = nil, soundsFolder: URL? = nil,
                hasher: any SHA256Hashing = PortableSHA256()) throws(PlanError) {
        guard let pack = manifest.packs[packID] else { throw .unknownPack(packID) }
        guard !pack.yanked else { throw .yankedPack(PackRef.name(packID, versionText: pack.version)) }
        self.manifest = manifest
        self.pack = pack
        self.bundledFiles = Set(bundledFiles ?? manifest.bundledFiles)
        self.soundsFolder = soundsFolder
        self.hasher = hasher
    }

    /// The phrase the push names, or the pack's default phrase when it names none or one the pack
    /// does not have (a push written for a newer version, say): a phrase is never refused.
    public func phrase(_ id: String?) -> Phrase {
        id.flatMap(pack.phrasebook.phrase) ?? pack.phrasebook.defaultPhrase
    }

    /// The plan for a phrase (the default one when nil) and an amount written as the push carries
    /// it ("15.40"). A phrase that says no amount ignores one; one that says an amount needs it.
    public func plan(amount text: String?, phrase id: String? = nil) throws(PlanError) -> ClipPlan {
        let phrase = phrase(id)
        let announcement = pack.phrasebook.announcement(phrase)
        var amount: Amount?
        if phrase.saysAmount {
            guard let text else { throw .noAmount(phrase: phrase.id) }
            do { amount = try Amount(parsing: text, maximum: pack.maxAmount, grouping: pack.grammar.grouping) } catch { throw .amountUnreadable(error) }
        }
        let tokens = amount.map(announcement.tokens) ?? phrase.before
        var clips: [PlannedClip] = []
        var known: [String: ClipSource] = [:]
        for token in tokens {
            guard let clip = pack.clips[token] else { throw .missingClip(token: token.rawValue, amount: amount?.description ?? "phrase '\(phrase.id)'") }
            let source: ClipSource
            if let cached = known[clip.file] {
                source = cached
            } else {
                source = try locate(clip)
                known[clip.file] = source
            }
            clips.append(PlannedClip(token: token, file: clip.file, bytes: clip.bytes, sha256: clip.sha256, source: source))
        }
        return ClipPlan(phrase: phrase.id, amount: amount, clips: clips, soundName: Self.soundName(pack: pack, phrase: phrase.id, amount: amount))
    }

    /// The phrase's own clips (the default phrase's when nil: the pack's prefix, and suffix when it
    /// has one) without the amount, from clips already on the phone: what an extension plays when
    /// the amount's clips cannot all be had in time, rather than the default chime. Throws
    /// `.missingClip` when one would have to be downloaded.
    public func framingPlan(phrase id: String? = nil) throws(PlanError) -> ClipPlan {
        let phrase = phrase(id)
        var clips: [PlannedClip] = []
        for token in phrase.clips {
            guard let clip = pack.clips[token] else { throw .missingClip(token: token.rawValue, amount: "the framing") }
            let source = try locate(clip)
            if case .download = source { throw .missingClip(token: token.rawValue, amount: "the framing (not on the phone)") }
            clips.append(PlannedClip(token: token, file: clip.file, bytes: clip.bytes, sha256: clip.sha256, source: source))
        }
        let name = phrase.saysAmount ? Self.soundName(pack: pack, phrase: phrase.id, spoken: "framing") : Self.soundName(pack: pack, phrase: phrase.id, amount: nil)
        return ClipPlan(phrase: phrase.id, amount: nil, clips: clips, soundName: name)
    }

    private func locate(_ clip: SharedPack.Clip) throws(PlanError) -> ClipSource {
        if bundledFiles.contains(clip.file) { return .bundled }
        if let soundsFolder {
            let url = soundsFolder.appendingPathComponent(clip.file)
            if let data = try? Data(contentsOf: url), (try? ClipVerifier(hasher: hasher).verify(data, against: clip)) != nil {
                return .librarySounds(url)
            }
        }
        guard let url = clip.url else { throw .noDownloadURL(file: clip.file) }
        return .download(url)
    }

    /// `soundpack-<pack>-<version>-<amount>.caf` for a pack without phrases;
    /// `soundpack-<pack>-<version>-<phrase>.<amount>.caf` (`…-<phrase>.caf` for a phrase that says no
    /// amount) for one with them, so the sounds of two phrases never mix. Only `[A-Za-z0-9._-]`.
    public static func soundName(pack: SharedPack, phrase: String? = nil, amount: Amount?) -> String {
        soundName(pack: pack, phrase: phrase, spoken: amount?.description)
    }

    private static func soundName(pack: SharedPack, phrase: String?, spoken: String?) -> String {
        let said = pack.phrasebook.isDeclared ? [phrase ?? pack.phrasebook.defaultID, spoken].compactMap { $0 }.joined(separator: ".") : spoken ?? "framing"
        return soundName(pack: pack, spoken: said)
    }

    private static func soundName(pack: SharedPack, spoken: String) -> String {
        func safe(_ text: String) -> String {
            String(text.unicodeScalars.map { s in
                (s.isASCII && (s.properties.isAlphabetic || ("0"..."9").contains(s) || s == "." || s == "-")) ? Character(s) : "_"
            })
        }
        return "soundpack-\(safe(pack.id))-\(safe(pack.version))-\(spoken).caf"
    }
}

/// Checks downloaded bytes against the manifest before they are used.
public struct ClipVerifier: Sendable {
    public let hasher: any SHA256Hashing
    public init(hasher: any SHA256Hashing = PortableSHA256()) { self.hasher = hasher }

    public func verify(_ data: Data, against clip: SharedPack.Clip) throws(PlanError) {
        guard data.count == clip.bytes else { throw .sizeMismatch(file: clip.file, expected: clip.bytes, actual: data.count) }
        let actual = hasher.sha256Hex(data)
        guard actual == clip.sha256 else { throw .hashMismatch(file: clip.file, expected: clip.sha256, actual: actual) }
    }

    public func verify(_ data: Data, against clip: PlannedClip) throws(PlanError) {
        try verify(data, against: SharedPack.Clip(file: clip.file, bytes: clip.bytes, sha256: clip.sha256, durationSeconds: 0))
    }
}
