// Which word a clip says, asked of pocketsphinx (libpocketsphinx with its US English model), opened
// on first use; the only file that imports CPocketSphinx.

import CPocketSphinx
import Foundation
import Synchronization

/// What the recogniser heard in a clip that it did not hear as the clip's own words.
package struct HeardWords: Sendable, Equatable {
    /// The words heard, as the pack writes them (`forty`).
    package var words: String
    /// How much better the words heard fit the clip than its own: the difference of the two
    /// forced alignments' scores per 10 ms frame (pocketsphinx's log units). A retake of the
    /// right word heard as a word alike stays low; another word recorded in its place is high.
    /// Nil when the clip's own words cannot be aligned with it at all.
    package var margin: Double?
}

/// Why a pack's words cannot be checked on this machine.
package struct RecogniserUnavailable: Error, Sendable, Equatable {
    package var reason: String
}

/// A pocketsphinx decoder with the US English acoustic model and dictionary: asked which of a
/// pack's words each clip says, over a closed grammar of those words only. Not safe to share:
/// `WordRecogniser.with` lends one to one caller at a time.
package final class WordRecogniser: @unchecked Sendable {
    /// The grammars whose words the US English model can hear.
    package static let languages: Set<String> = ["en-US", "en-IN"]
    /// The rate the model was trained at.
    package static let sampleRate = 16_000

    /// Where the model is installed: Debian's pocketsphinx-en-us, then Homebrew's.
    static let modelFolders = ["/usr/share/pocketsphinx/model/en-us", "/opt/homebrew/share/pocketsphinx/model/en-us",
                               "/usr/local/share/pocketsphinx/model/en-us"]

    private let decoder: OpaquePointer
    /// Search names by the grammar they hold (`a|b|c` or one word sequence).
    private var searches: [String: String] = [:]
    private var known: [String: Bool] = [:]

    private init(decoder: OpaquePointer) { self.decoder = decoder }
    deinit { soundpack_ps_free(decoder) }

    /// Idle decoders, kept for the next pack (loading the model costs far more than a pack's decoding).
    private static let idle = Mutex<[WordRecogniser]>([])
    /// Why no decoder can be made, once found.
    private static let failure = Mutex<RecogniserUnavailable?>(nil)

    /// Runs `body` with a decoder of its own; the reason none can be made otherwise.
    package static func with<T>(_ body: (WordRecogniser) -> T) -> Result<T, RecogniserUnavailable> {
        if let known = failure.withLock({ $0 }) { return .failure(known) }
        let recogniser: WordRecogniser
        if let taken = idle.withLock({ $0.popLast() }) {
            recogniser = taken
        } else {
            switch make() {
            case .success(let made): recogniser = made
            case .failure(let reason):
                failure.withLock { $0 = reason }
                return .failure(reason)
            }
        }
        let result = body(recogniser)
        // At most one idle decoder per core the process may use (as many as run at once); any more is freed.
        let cores = ProcessInfo.activeCores
        idle.withLock { if $0.count < cores { $0.append(recogniser) } }
        return .success(result)
    }

    /// Why no decoder can be made here, told without making one (the library loads, the model is
    /// installed); nil when one can be.
    package static var unavailable: RecogniserUnavailable? {
        if let known = failure.withLock({ $0 }) { return known }
        switch modelFolder() {
        case .success: return nil
        case .failure(let reason): return reason
        }
    }

    private static func modelFolder() -> Result<String, RecogniserUnavailable> {
        if let error = soundpack_pocketsphinx_load_error() {
            return .failure(RecogniserUnavailable(reason: "libpocketsphinx cannot be loaded (\(String(cString: error)))"))
        }
        guard let folder = modelFolders.first(where: { FileManager.default.fileExists(atPath: $0 + "/en-us/mdef") }) else {
            return .failure(RecogniserUnavailable(reason: "no US English model for pocketsphinx (Debian: pocketsphinx-en-us)"))
        }
        return .success(folder)
    }

    private static func make() -> Result<WordRecogniser, RecogniserUnavailable> {
        let folder: String
        switch modelFolder() {
        case .success(let found): folder = found
        case .failure(let reason): return .failure(reason)
        }
        // Beams far wider than the defaults (1e-48, 7e-29, 1e-48): a clip's own words must align
        // with it, however badly, for the margin to be a number; the grammars are a pack's words only.
        let arguments = ["-hmm", folder + "/en-us", "-dict", folder + "/cmudict-en-us.dict", "-beam", "1e-100", "-wbeam", "1e-80", "-pbeam", "1e-100"]
        var pointers = arguments.map { strdup($0) }
        defer { for pointer in pointers { free(pointer) } }
        guard let decoder = soundpack_ps_init(Int32(pointers.count), &pointers) else {
            return .failure(RecogniserUnavailable(reason: "pocketsphinx refused its model in \(folder)"))
        }
        return .success(WordRecogniser(decoder: decoder))
    }

    /// The words of `text` as the dictionary spells them (lowercase letters), or nil when one of
    /// them is not a plain word or not in the dictionary: such a clip cannot be checked.
    package func words(of text: String) -> String? {
        let parts = text.lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" }).map { $0.trimmingCharacters(in: CharacterSet(charactersIn: ".,!?;:")) }
        guard !parts.isEmpty, parts.count <= 8 else { return nil }
        for part in parts {
            guard !part.isEmpty, part.utf8.count <= 32, part.utf8.allSatisfy({ (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) }) else { return nil }
            if known[part] == nil { known[part] = soundpack_ps_knows(decoder, part) != 0 }
            guard known[part] == true else { return nil }
        }
        return parts.joined(separator: " ")
    }

    /// What `samples` (mono, 16 kHz) say when they do not say `expected`, over the closed grammar of
    /// `choices` (each from `words(of:)`, `expected` among them); nil when they are heard as
    /// `expected`, or nothing can be told.
    package func heard(_ samples: [Int16], expected: String, among choices: [String]) -> HeardWords? {
        guard choices.count > 1, let all = search(choices), let heard = decode(samples, all) else { return nil }
        guard heard.words != expected, choices.contains(heard.words) else { return nil }
        // Both alignments forced the same way, so their scores compare.
        guard let own = search([expected]), let other = search([heard.words]), let theirs = decode(samples, other), theirs.frames > 0 else { return nil }
        guard let ours = decode(samples, own) else { return HeardWords(words: heard.words, margin: nil) }
        return HeardWords(words: heard.words, margin: Double(theirs.score - ours.score) / Double(theirs.frames))
    }

    /// How many searches a decoder keeps: past it they are all removed before the next is added,
    /// so a run over many packs of different words does not grow without bound.
    static let searchesKept = 64
    /// How many searches this decoder holds now.
    var searchCount: Int { searches.count }

    /// The search of a closed grammar of `choices`, added on first use.
    private func search(_ choices: [String]) -> String? {
        let key = choices.joined(separator: "|")
        if let name = searches[key] { return name }
        if searches.count >= Self.searchesKept {
            for name in searches.values { _ = soundpack_ps_unset_search(decoder, name) }
            searches = [:]
        }
        let name = "s\(searches.count)"
        let grammar = "#JSGF V1.0;\ngrammar soundpack;\npublic <said> = \(choices.joined(separator: " | ")) ;\n"
        guard soundpack_ps_set_grammar(decoder, name, grammar) >= 0 else { return nil }
        searches[key] = name
        return name
    }

    private func decode(_ samples: [Int16], _ search: String) -> (words: String, score: Int32, frames: Int32)? {
        var heard = [CChar](repeating: 0, count: 512)
        var score: Int32 = 0, frames: Int32 = 0
        let status = samples.withUnsafeBufferPointer { buffer in
            soundpack_ps_decode(decoder, search, buffer.baseAddress, buffer.count, &heard, heard.count, &score, &frames)
        }
        guard status == 0 else { return nil }
        let words = String(decoding: heard.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return (words, score, frames)
    }

    /// A clip's samples (interleaved floats at `rate`) as the model hears them: mono, 16 kHz, 16-bit.
    package static func speech(_ samples: [Float], channels: Int, rate: Int) -> [Int16] {
        let mono: [Float]
        if channels == 1 {
            mono = samples
        } else {
            mono = stride(from: 0, to: samples.count - channels + 1, by: channels).map { start in
                (0..<channels).reduce(Float(0)) { $0 + samples[start + $1] } / Float(channels)
            }
        }
        let resampled = (try? Resampler.resample(mono, channels: 1, from: rate, to: sampleRate, quality: .fastest)) ?? []
        return resampled.map { Int16(max(-32_768, min(32_767, ($0 * 32_768).rounded()))) }
    }
}
