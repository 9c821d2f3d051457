// `soundpack render`: the sound file an extension would build for each amount.

import Foundation
import SoundpackCore
import SoundpackKit

enum RenderCommand: Command {
    static let spec = CommandSpec(
        name: "render",
        synopsis: "render --pack DIR (AMOUNT... | --amounts FILE|-) -o FILE|DIR|- [--container caf|wav|aiff] [--codec pcm16|ulaw|alaw] [--gap-ms N] [--trim-silence] [--allow-long]",
        summary: "Join a pack's clips into one iOS-playable sound file per amount.",
        discussion: """
            One amount with -o FILE writes that file; its extension (.caf, .wav, .aiff) picks the container.
            Several amounts, or --amounts FILE (one per line; - for standard input), write one file per
            amount into the folder -o DIR, named from the amount (15.40.caf); equal amounts share one file.
            The output has the pack's sample rate and channels, 16-bit PCM unless --codec says otherwise.
            Each clip is decoded once per run. A bad amount is reported with its line number and the
            others are still rendered; the exit code is then 1. An announcement at or above the pack's
            checks.composeMaxSeconds (30 s, iOS's limit) is refused as [compose.too-long] unless --allow-long.
            """,
        options: [
            .option("--pack", value: "DIR", help: "the pack folder"),
            .option("-o", "--output", value: "PATH", help: "output file (one amount) or folder"),
            .option("--amounts", value: "FILE", help: "read amounts from FILE, one per line (- for stdin)"),
            .choice("--container", value: "C", [Container.caf, .wav, .aiff], default: .caf, help: "the container of files written into a folder or to stdout"),
            .choice("--codec", value: "CODEC", [AudioFileWriter.Encoding.pcm16, .ulaw, .alaw], default: .pcm16),
            .option("--gap-ms", value: "MS", help: "silence between clips (default 0)"),
            .flag("--trim-silence", help: "cut each clip's leading and trailing silence before joining"),
            .flag("--allow-long", help: "write announcements at or above the pack's composeMaxSeconds (iOS plays the default sound instead)"),
        ])

    static func run(_ arguments: ParsedArguments, _ context: CLIContext) throws(SoundpackError) -> ExitCode {
        guard let packPath = arguments.value("--pack") else { throw .usage("render needs --pack DIR") }
        guard let output = arguments.value("--output") else { throw .usage("render needs -o FILE or -o DIR") }
        let codec: AudioFileWriter.Encoding = try arguments.choice("--codec")
        var options = RenderOptions(trimSilence: arguments.has("--trim-silence"), encoding: codec)
        if let gap = arguments.value("--gap-ms") {
            guard let ms = Double(gap), ms >= 0, ms <= 5_000 else { throw .usage("--gap-ms must be a number of milliseconds from 0 to 5000") }
            options.gapMs = ms
        }
        let amountsFile = arguments.value("--amounts")
        guard !arguments.positionals.isEmpty || amountsFile != nil else {
            throw .usage("render needs amounts: AMOUNT... or --amounts FILE", hint: "soundpack render --pack packs/wechat 15.40 -o /tmp/a.caf")
        }

        let outputPath = context.absolute(output)
        var isFolder: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: outputPath, isDirectory: &isFolder)
        let single = amountsFile == nil && arguments.positionals.count == 1 && !(exists && isFolder.boolValue)
        let folderContainer: Container = try arguments.choice("--container")
        // `-o -` (standard output) and an existing device or FIFO get the bytes of a file rendered
        // aside; they are written into, never replaced. Their container comes from --container.
        var info = stat()
        let special = output == "-" || (stat(outputPath, &info) == 0 && ![S_IFREG, S_IFDIR].contains(info.st_mode & S_IFMT))
        let singleContainer = special ? folderContainer
            : AudioFileWriter.container(forExtension: (output as NSString).pathExtension)
        if single, !special, arguments.value("--container") != nil, let fromName = singleContainer, folderContainer != fromName {
            throw .usage("--container \(folderContainer.rawValue) conflicts with -o \(output.visible), whose extension asks for \(fromName.rawValue)",
                         hint: "name the file .\(folderContainer.rawValue), or leave --container out")
        }
        if single && singleContainer == nil {
            throw .usage("cannot tell the container of '\(output)'", hint: "end the file name in .caf, .wav or .aiff, or give a folder")
        }
        if !single && !(exists && isFolder.boolValue) && AudioFileWriter.container(forExtension: (output as NSString).pathExtension) != nil {
            throw .usage("several amounts need a folder for -o, not the file name '\(output)'", hint: "render --pack DIR 5 6 -o out/, or one amount per file")
        }
        if !single && special {
            throw .usage("several amounts need a folder for -o, not '\(output)'", hint: "render --pack DIR 5 6 -o out/")
        }

        let renderer: PackRenderer
        do { renderer = try PackRenderer(directory: context.absolute(packPath), options: options) } catch {
            throw error.context("cannot render with \(packPath)")
        }

        // iOS plays the default sound instead of a file of 30 s or more: such a file is refused.
        let allowLong = arguments.has("--allow-long")
        func tooLong(_ amount: Amount) -> String? {
            guard !allowLong, let finding = renderer.tooLong(amount) else { return nil }
            return "[\(finding.rule.rawValue)] \(finding.message) (shorten the clips, or pass --allow-long)"
        }

        if single, let amountText = arguments.positionals.first, let container = singleContainer {
            let amount: Amount
            do { amount = try Amount(parsing: amountText, maximum: renderer.packFile.maxAmount) } catch { throw .refused(error.description) }
            if let refusal = tooLong(amount) { throw .refused("\(output) not written", refusal) }
            if special {
                let aside = FileManager.default.temporaryDirectory.appendingPathComponent("soundpack-render-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).\(folderContainer.rawValue)").path
                defer { unlink(aside) }
                do { try renderer.write(amount, to: aside, container: container) } catch {
                    throw .environment("cannot render \(amount)", error.message)
                }
                guard let bytes = FileManager.default.contents(atPath: aside) else { throw .environment("cannot read back the rendered \(amount)") }
                try context.writeOutput(bytes, to: output)
                return .success
            }
            do { try renderer.write(amount, to: outputPath, container: container) } catch {
                throw .environment("cannot write \(output)", error.message)
            }
            let frames = renderer.timing.frames(of: renderer.tokens(for: amount))
            context.stdout.write("\(output.visible): \(amount) as \(renderer.packFile.grammar.text(of: renderer.tokens(for: amount), texts: renderer.packFile.texts).visible), \(frames) frames, \(String(format: "%.3f", Double(frames) / Double(renderer.sampleRate))) s\n")
            return .success
        }

        // The output folder is made, but not the folders above it: a typo there is an error.
        let parent = (outputPath as NSString).deletingLastPathComponent
        var parentIsFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: parent, isDirectory: &parentIsFolder), parentIsFolder.boolValue else {
            throw .environment("cannot create the output folder \(output)", "the folder \(parent) does not exist (create it first)")
        }
        do { try Folders.create(outputPath) } catch {
            throw .environment("cannot create the output folder \(output)", error.message)
        }
        let container = folderContainer
        var inputs: [(text: LineSource.Line, line: Int?)] = arguments.positionals.map { (.text($0), nil) }
        if let amountsFile {
            var handle: FileHandle?
            if amountsFile != "-" {
                handle = FileHandle(forReadingAtPath: context.absolute(amountsFile))
                guard handle != nil else { throw .environment("cannot read the amounts file \(amountsFile.visible)", "no such file or no permission") }
            }
            let source = handle.map { LineSource(fileDescriptor: $0.fileDescriptor) } ?? context.stdin
            var number = 0
            while let line = source.nextLine(maxBytes: SayCommand.maxLineBytes) {
                number += 1
                inputs.append((line, number))
            }
            try? handle?.close()
        }

        // Parse everything first (bad lines reported in order), then render on every core.
        var amounts: [Amount] = []
        var seen = Set<Amount>()
        var failed = false
        let errorLabel = Style.error(context.colours(context.stderr))
        for input in inputs {
            guard case .text(let text) = input.text else {
                if case .tooLong(let start, let bytes) = input.text {
                    failed = true
                    context.stderr.write("\(errorLabel) \(input.line.map { "line \($0): " } ?? "")'\(start.quoted())' is not an amount — the line is \(bytes) bytes, above \(SayCommand.maxLineBytes)\n")
                }
                continue
            }
            do {
                let amount = try Amount(parsing: text, maximum: renderer.packFile.maxAmount)
                if let refusal = tooLong(amount) {
                    failed = true
                    context.stderr.write("\(errorLabel) \(input.line.map { "line \($0): " } ?? "")\(refusal)\n")
                    continue
                }
                if seen.insert(amount).inserted { amounts.append(amount) }
            } catch {
                failed = true
                context.stderr.write("\(errorLabel) \(input.line.map { "line \($0): " } ?? "")\(error.description)\n")
            }
        }
        let progress = Progress("rendering", total: amounts.count, sink: context.stderr, environment: context.environment)
        do { try renderer.write(amounts, into: outputPath, fileExtension: folderContainer.rawValue, container: container) { progress.advance() } } catch {
            progress.finish()
            throw .environment("cannot write \(error.path)", error.error.message)
        }
        progress.finish()
        let written = amounts
        context.stdout.write("\(output.visible): \(written.count) file\(written.count == 1 ? "" : "s") written (\(folderContainer.rawValue), \(renderer.sampleRate) Hz, \(renderer.channels == 1 ? "mono" : "\(renderer.channels) channels"), \(codec.rawValue))\n")
        return failed ? .failure : .success
    }
}
