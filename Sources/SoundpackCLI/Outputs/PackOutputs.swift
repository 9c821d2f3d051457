// What the commands that write packs print (convert, import): what was written, then the new
// pack's validation, as validate prints it.

import Foundation
import SoundpackCore
import SoundpackKit

/// A pack's validation as `validate` prints it as text; its JSON is the report.
struct Validated: CommandOutput {
    var report: PackReport
    /// Lines before the report (what was written).
    var header = ""

    func encode(to encoder: any Encoder) throws { try report.encode(to: encoder) }

    func text(colour: Bool) -> String {
        header + FindingRenderer.text(ValidationRun(reports: [report], strict: false, toolVersion: SoundpackCommand.version), colour: colour)
    }
}

extension Validated {
    /// `convert`: the clips converted, a note for each that stayed below the loudness target to
    /// keep its peak, and the new pack's report.
    init(_ summary: ConvertSummary, into destination: String, _ options: ConvertOptions) {
        var header = "\(destination.visible): \(summary.clips.count) clips converted to \(summary.sampleRate) Hz \(summary.channels == 1 ? "mono" : "\(summary.channels) channels") \(options.encoding.rawValue) \(options.container.rawValue)\n"
        for clip in summary.clips where clip.limitedByPeak {
            header += "\(destination.visible)/\(clip.destination.visible): note: the loudness target was not reached without passing -1 dBFS peak (gain \(String(format: "%+.1f", clip.gainDb)) dB)\n"
        }
        self.init(report: summary.report, header: header)
    }
}

/// `render` of one amount into a file: what it says and how long it is.
struct RenderedFile: CommandOutput {
    var output: String
    /// The phrase, when one was named (`--phrase`).
    var phrase: String?
    /// The amount; nil for a phrase that says none.
    var amount: String?
    var text: String
    var frames: Int64
    var seconds: Double

    init(output: String, _ rendered: RenderedAmount, phraseNamed: Bool) {
        (self.output, amount, text, frames, seconds) = (output, rendered.amount?.description, rendered.text, rendered.frames, rendered.seconds)
        phrase = phraseNamed ? rendered.phrase : nil
    }

    func text(colour: Bool) -> String {
        let said = [phrase.map { "phrase \($0)" }, amount].compactMap { $0 }.joined(separator: ", ")
        return "\(output.visible): \(said) as \(text.visible), \(frames) frames, \(String(format: "%.3f", seconds)) s\n"
    }
}

/// `render` into a folder: how many files, in which format.
struct RenderedFolder: CommandOutput {
    var output: String
    var count: Int
    var container: Container
    var sampleRate: Int
    var channels: Int
    var encoding: AudioFileWriter.Encoding

    private enum CodingKeys: String, CodingKey { case output, count, sampleRate, channels }

    init(output: String, count: Int, container: Container, renderer: PackRenderer) {
        (self.output, self.count, self.container) = (output, count, container)
        (sampleRate, channels, encoding) = (renderer.sampleRate, renderer.channels, renderer.options.encoding)
    }

    func text(colour: Bool) -> String {
        "\(output.visible): \(count) file\(count == 1 ? "" : "s") written (\(container.rawValue), \(sampleRate) Hz, \(channels == 1 ? "mono" : "\(channels) channels"), \(encoding.rawValue))\n"
    }
}

extension RenderDestination.Problem {
    /// The problem as a usage error, phrased with the flags that cause it (`-o OUTPUT`, `--container`).
    func usage(output: String) -> SoundpackError {
        switch self {
        case .containerConflict(let asked, let named):
            return .usage("--container \(asked.rawValue) conflicts with -o \(output.visible), whose extension asks for \(named.rawValue)",
                          hint: "name the file .\(asked.rawValue), or leave --container out")
        case .unknownContainer:
            return .usage("cannot tell the container of '\(output)'", hint: "end the file name in .caf, .wav or .aiff, or give a folder")
        case .severalAmountsNeedAFolder(let stream):
            return .usage("several amounts need a folder for -o, not \(stream ? "'\(output)'" : "the file name '\(output)'")",
                          hint: stream ? "render --pack DIR 5 6 -o out/" : "render --pack DIR 5 6 -o out/, or one amount per file")
        }
    }
}

/// `init`: the pack.json written and, with `--from`, how the recordings were matched: one table of
/// each token's recording, the recordings no token claims, the tokens no recording gives, and the
/// entries not read.
struct Initialized: CommandOutput {
    var pack: String
    /// Token → clip path, as pack.json lists them.
    var clips: [String: String]
    /// The recordings folder, as given (`--from`).
    var from: String?
    var adoption: RecordingAdoption?

    private enum Keys: String, CodingKey { case pack, clips, from, matched, unmatched, missing, skipped }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(pack, forKey: .pack)
        try c.encode(clips, forKey: .clips)
        guard let adoption else { return }
        try c.encode(from, forKey: .from)
        try c.encode(adoption.matched, forKey: .matched)
        try c.encode(adoption.unmatched, forKey: .unmatched)
        try c.encode(adoption.missing, forKey: .missing)
        try c.encode(adoption.skipped, forKey: .skipped)
    }

    func text(colour: Bool) -> String {
        let shown = pack.visible
        guard let adoption, let from else {
            return "created \(shown)/pack.json with \(clips.count) clips; record them as \(shown)/clips/<token>.caf, then run soundpack validate \(pack)\n"
        }
        // Every name is made visible (`Table` escapes its cells): a file name cannot move the cursor or forge a line.
        var out = "created \(shown)/pack.json: \(adoption.matched.count) recordings of \(from.visible) adopted as clips, "
            + "\(adoption.unmatched.count) not matched, \(adoption.missing.count) tokens without a recording\n"
        var rows: [[String]] = [["token", "recording", "clip"]]
        for match in adoption.matched { rows.append([match.token, match.recording, match.clip]) }
        for missing in adoption.missing {
            let needed = missing.amount.map { "missing: first said in \($0)" }
                ?? missing.phrases.map { "missing: said by phrase \($0.joined(separator: ", "))" } ?? "missing: said in every announcement"
            rows.append([missing.token, "-", needed])
        }
        for recording in adoption.unmatched {
            let status = recording.note.map { "not matched: \($0)" } ?? recording.nearest.map { "not matched (nearest token: \($0))" } ?? "not matched"
            rows.append(["-", recording.recording, status])
        }
        for entry in adoption.skipped { rows.append(["-", entry.name, "skipped: \(entry.reason)"]) }
        out += Table.render(rows)
        if adoption.missing.isEmpty {
            out += "next: soundpack convert \(shown) PACK --mono --trim-silence, then soundpack validate PACK\n"
        } else {
            out += "next: add a recording for each missing token under \"clips\" in \(shown)/pack.json (soundpack validate \(shown) --no-record lists them), then soundpack convert \(shown) PACK --mono --trim-silence\n"
        }
        return out
    }
}
