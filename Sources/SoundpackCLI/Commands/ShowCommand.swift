// `soundpack show ID[@VER]`: one version's clips, digest and validation history.

import Foundation
import SoundpackCore
import SoundpackKit

enum ShowCommand: Command {
    static let usesCatalogOrStore = true
    static let spec = CommandSpec(
        name: "show",
        synopsis: "show ID[@VERSION] [--format text|json]",
        summary: "Show a pack version from the catalog: clips, sizes, hashes, durations, digest, validation history.",
        discussion: "Without @VERSION the newest version is shown.",
        options: [.choice("--format", value: "FORMAT", default: OutputFormat.text)])

    static func run(_ arguments: ParsedArguments, _ context: CLIContext) throws(SoundpackError) -> ExitCode {
        let format: OutputFormat = try arguments.choice("--format")
        guard arguments.positionals.count == 1, let reference = arguments.positionals.first else {
            throw .usage("show needs one pack id, optionally with @VERSION", hint: "soundpack show wechat@1.0.0")
        }
        let (id, version) = try parseReference(reference, requireVersion: false)
        let catalog = try context.openCatalog(arguments, readOnly: true)
        let found: CatalogVersion?
        do { found = try catalog.version(of: id, version) } catch {
            throw error.context("cannot read the catalog")
        }
        guard let found else {
            throw .refused("no \(reference) in the catalog at \(catalog.location.visible)",
                           hint: "soundpack list shows what it holds; soundpack validate DIR records a pack")
        }
        if format == .json {
            context.stdout.write(try context.json(found))
            return .success
        }
        let out = context.stdout
        out.write("\(found.id.visible) \(found.version)\(found.name.map { " — \($0.visible)" } ?? "")\n")
        out.write("grammar     \(found.grammar.rawValue)\nmaxAmount   \(found.maxAmount)\ndigest      \(found.digest)\n")
        out.write("published   \(found.publishedAt ?? "no")\(found.yanked ? " (yanked)" : "")\n\n")
        var rows = [["TOKEN", "FILE", "BYTES", "FORMAT", "DURATION", "PEAK", "LOUDNESS", "SHA-256"]]
        for clip in found.clips {
            let format = [clip.container?.rawValue, clip.codec?.rawValue, clip.sampleRate.map { "\($0) Hz" }, clip.channels.map { $0 == 1 ? "mono" : "\($0) ch" }]
                .compactMap { $0 }.joined(separator: " ")
            rows.append([clip.token, clip.file, clip.bytes.map(String.init) ?? "-", format.isEmpty ? "unreadable" : format,
                         clip.durationSeconds.map { String(format: "%.3f s", $0) } ?? "-",
                         clip.truePeakDbtp.map { String(format: "%.1f dBTP", $0) } ?? "-",
                         clip.momentaryMaxLufs.map { String(format: "%.1f LUFS", $0) } ?? "-",
                         clip.sha256.map { String($0.prefix(16)) } ?? "-"])
        }
        out.write(Table.render(rows))
        // The runs of this content; runs of other content recorded under the same version number
        // (edits before it was published) are counted, not mixed in.
        let same = found.runs.filter { $0.digest == found.digest }
        let other = found.runs.count - same.count
        out.write("\nvalidation history of digest \(found.digest.prefix(12)) (\(same.count) run\(same.count == 1 ? "" : "s")\(other > 0 ? "; \(other) of other content under this version" : "")):\n")
        var history = [["RAN AT", "RESULT", "ERRORS", "WARNINGS", "LONGEST", "PATH"]]
        for run in same.suffix(10) {
            history.append([run.ranAt, run.passed ? "passed" : "failed", String(run.errors), String(run.warnings),
                            run.worstSeconds.map { String(format: "%.2f s", $0) + " (\(run.worstAmount ?? "?"))" } ?? "-", run.path])
        }
        out.write(Table.render(history))
        return .success
    }
}
