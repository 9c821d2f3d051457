// Fuzz target: synth's planning from bytes. The first line is an --engine-command template, the
// others `--phrase-text ID=TEXT` values, planned as synth plans them (no engine runs): every clip
// gets a file of its own (every line is also a clip key to name), and a clip's text is what its
// phrase said. The lines after the first, joined, are a text to speak: placeholders are filled in
// the template's words only, once each, never inside the text.
import Foundation
import SoundpackCore
@testable import SoundpackKit
@testable import SoundpackSynthesis

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSynth(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)

    // Clip files: distinct for distinct keys, even ignoring case, whatever the keys (zh: tokens with
    // ASCII stems of their own; en-US: tokens named as words a phrase could be named).
    for grammar in [Grammar(.zhHans, options: GrammarOptions(money: .jiaoFen)), Grammar(.enUS)] {
        let keys = lines + grammar.inventory.map(\.rawValue)
        let stems = grammar.fileStems(for: keys)
        precondition(stems.count == Set(keys).count, "every key has a file")
        precondition(Set(stems.values.map { $0.lowercased() }).count == stems.count, "no two keys share a file")
        precondition(grammar.fileStems(for: keys.reversed()) == stems, "the names do not depend on the keys' order")
    }

    // A synth plan from the lines as phrase texts.
    var request = SynthRequest(id: "fuzz", grammar: Grammar(.zhHans), maxAmount: Amount(minorUnits: 9_999))
    let given = lines.dropFirst().map { line in
        let parts = line.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        return (id: String(parts[0]), text: parts.count > 1 ? String(parts[1]) : "")
    }
    request.temporaryFolder = "/nonexistent-fuzz-tmp"
    if let texts = try? PhraseTexts(given) { request.phraseTexts = texts }
    if let plan = try? PackSynthesizer.plan(request, into: PackFolder(path: "/nonexistent-fuzz-pack", shown: "pack")) {
        precondition(Set(plan.clips.map(\.file)).count == plan.clips.count, "two clips, one file")
        precondition(Set(plan.clips.map(\.key)).count == plan.clips.count, "a clip is spoken once")
        for clip in plan.clips where clip.key != "prefix" {
            // A phrase clip's text is a piece of exactly one phrase text given.
            guard plan.pack.grammar.token(forKey: clip.key) == nil else { continue }
            precondition(given.contains { $0.text.contains(clip.text) }, "a phrase clip says words its phrase was given")
        }
    }

    // The engine command: the words with sentinels, then the sentinels replaced, equal the words
    // filled with the real values; so a value is never searched for placeholders.
    guard let template = lines.first, let command = try? EngineCommand(template) else { return 0 }
    let spoken = lines.dropFirst().joined(separator: "\n")
    let (out, voice) = ("/tmp/out-{text}.wav", "{out}")
    let sentinels = ["\u{1}", "\u{2}", "\u{3}"]
    guard !sentinels.contains(where: { template.contains($0) || spoken.contains($0) }) else { return 0 }
    let filled = command.arguments(text: spoken, out: out, voice: voice)
    let marked = command.arguments(text: sentinels[0], out: sentinels[1], voice: sentinels[2])
    precondition(filled.count == command.words.count && marked.count == command.words.count, "one argument per word")
    for (word, mark) in zip(filled, marked) {
        let expected = mark.replacingOccurrences(of: sentinels[0], with: spoken)
            .replacingOccurrences(of: sentinels[1], with: out).replacingOccurrences(of: sentinels[2], with: voice)
        precondition(word == expected, "each placeholder of the word is filled once, and nothing inside a value")
    }
    return 0
}
