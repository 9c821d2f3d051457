// The facts rules look at: the parsed pack.json, each clip's path safety and probe result, the
// audio files on disk, and the worst-case announcement. Gathered once; rules only read them.

import Foundation
import SoundpackAudio
import SoundpackCore
import SoundpackPack
import SoundpackSupport

/// One `clips` entry of pack.json and what was learned about its file.
public struct InspectedClip: Sendable {
    /// The key as written in pack.json (`prefix`, `0`, `十`, …).
    public var key: String
    /// The pack's token for the key (the grammar's, or a phrase's own clip), nil when neither has it.
    public var token: Token?
    /// The path as written in pack.json, relative to the pack folder.
    public var path: String
    /// Why the path may not be opened (absolute, `..`, symlink); nil when it is safe.
    public var unsafePath: String?
    /// The probe's result; nil when the path was unsafe and so never opened.
    public var probe: Result<ClipFacts, AudioError>?
    /// How long reading and measuring the file took (shared by keys naming one file).
    public var probeSeconds: Double = 0
    /// The file's size when its path was checked (0 when missing or unsafe).
    var bytesOnDisk = 0
    /// What the recogniser heard instead of the clip's own words; nil when it heard them, or did not check.
    package var heard: HeardWords?

    /// What reading and measuring the clip found; nil when it could not be read.
    public var facts: ClipFacts? {
        if case .success(let facts)? = probe { return facts }
        return nil
    }
}

/// A pack as the rules see it.
public struct InspectedPack: Sendable {
    /// The pack folder, as named.
    public var folder: PackFolder
    /// pack.json as parsed; nil when it could not be read.
    public var packFile: PackFile?
    /// Why pack.json could not be read.
    public var packFileError: PackFileError?
    /// Where each key of pack.json is written, for findings to point at.
    public var packFileKeyLocations: [String: JSONKeyLocation] = [:]
    /// In pack.json key order (sorted by token order, unknown keys last).
    public var clips: [InspectedClip]
    /// Audio files under the folder, relative paths, not following symlinks.
    public var audioFiles: [String]
    /// The longest announcement the pack can make; nil when it cannot be planned.
    public var worstCase: WorstCase?
    /// What validation could not check, or found of the pack as a whole, said once (`words not
    /// checked (no recogniser for zh-Hans)`); never a finding, and never failing the run.
    public var notes: [String] = []
    /// The rules that could not run on this pack, and why (`audio.wrong-word` without a
    /// recogniser, `audio.swapped` without an earlier version): JUnit skips them, never passes them.
    public var unchecked: [RuleID: String] = [:]
    /// The clips of the version a store holds below this one, when a store was asked (`audio.swapped`).
    public var earlier: EarlierVoices?
    /// The clips compared with `earlier` (the validator does it once, for `audio.swapped`).
    package var comparison: VoiceComparison?

    /// The tokens the pack's announcements need for every amount up to `maxAmount`.
    public var requiredTokens: [Token] {
        guard let packFile else { return [] }
        return packFile.phrasebook.memoizedRequiredTokens(upTo: packFile.maxAmount).sorted()
    }

    /// The SHA-256 of each clip key's file, where it was read.
    var clipHashes: [String: String] {
        var hashes: [String: String] = [:]
        for clip in clips { if let facts = clip.facts { hashes[clip.key] = facts.sha256 } }
        return hashes
    }
}

/// The longest announcement any phrase and amount up to `maxAmount` make with this pack's clips.
public struct WorstCase: Sendable, Equatable, Encodable {
    /// The phrase said; written only for a pack that declares phrases.
    public var phrase: String?
    /// Encoded as its decimal text and the tokens' clip keys, as before they were typed; nil when
    /// the longest is a phrase that says no amount.
    public var amount: Amount?
    /// The tokens said, in order.
    public var tokens: [Token]
    /// What is said, as text.
    public var text: String
    /// Its length in frames at `sampleRate`.
    public var frames: Int64
    /// The clips' sample rate, in Hz.
    public var sampleRate: Int
    /// Its length in seconds.
    public var seconds: Double

    /// What is said, for messages: `amount 15.40`; with phrases `phrase 'refund' with amount 15.40`
    /// or `phrase 'order'`.
    public var said: String {
        let amount = self.amount.map { "amount \($0)" }
        guard let phrase else { return amount ?? "no amount" }
        return (["phrase '\(phrase)'"] + [amount].compactMap { $0 }).joined(separator: " with ")
    }

    /// Searches the reading's structure for the longest announcement, costing each token at its
    /// clip's frames (converted to the highest sample rate when rates differ, rounding up). Nil
    /// when a needed clip has no readable audio.
    static func search(_ manifest: PackFile, clips: [InspectedClip]) -> WorstCase? {
        var facts: [Token: ClipFacts] = [:]
        for clip in clips { if let token = clip.token, let f = clip.facts { facts[token] = f } }
        guard let rate = facts.values.map(\.sampleRate).max() else { return nil }
        let timing = AnnouncementTiming(clipFrames: facts.mapValues { f in
            f.sampleRate == rate ? f.frames : (f.frames * Int64(rate) + Int64(f.sampleRate) - 1) / Int64(f.sampleRate)
        })
        let book = manifest.phrasebook
        guard let longest = timing.longest(book, upTo: manifest.maxAmount) else { return nil }
        return WorstCase(
            phrase: book.isDeclared ? longest.phrase.id : nil, amount: longest.amount, tokens: longest.tokens,
            text: manifest.grammar.text(of: longest.tokens, texts: manifest.texts), frames: longest.frames,
            sampleRate: rate, seconds: Double(longest.frames) / Double(rate))
    }
}
