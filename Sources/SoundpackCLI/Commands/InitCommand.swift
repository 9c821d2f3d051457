// `soundpack init DIR --id ID`: a pack.json listing every clip the grammar needs; with `--from`, a
// folder of recordings adopted as the pack's clips.

import Foundation
import SoundpackCore
import SoundpackKit

enum InitCommand: Command {
    static let spec = CommandSpec(
        name: "init",
        synopsis: "init DIR --id ID [--grammar zh-Hans|zh-Hant|en-US|en-IN|hi-IN] [--two STYLE] [--money STYLE] [--ten-start STYLE] [--max-amount AMOUNT] [--prefix TEXT] [--phrase-text ID=TEXT ...] [--from RECORDINGS [--map TOKEN=NAME ...]] [--format text|json]",
        summary: "Scaffold a pack: DIR/pack.json listing a clip for every token the grammar needs; with --from, adopt a folder of recordings.",
        discussion: """
            Clip paths are clips/<token>.caf with ASCII names (十 → clips/shi.caf). An existing pack.json is never
            overwritten. --phrase-text ID=TEXT (repeatable) gives the words of the announcements as synth takes
            them: prefix=TEXT and suffix=TEXT the words around the amount, any other ID a phrase whose TEXT marks
            the amount with {amount}.
            --from RECORDINGS adopts a folder of recordings (a sound designer's delivery, a TTS website's
            download) as a new pack in DIR, which must not exist. Each file directly in RECORDINGS is matched to a
            token by its stem, whatever its audio extension (wav, aiff, caf, flac, ogg, mp3, m4a, ...): the token's key
            (5, 十, prefix), its ASCII stem (shi, bai, wan, rupees), or the NAME of --map TOKEN=NAME (a file's
            stem or whole name: --map prefix=wechat_prefix, --map 5=5.wav), which replaces the token's own names.
            Each match is copied byte for byte as clips/<stem>.<its extension> (at most 16 MiB a file); pack.json
            lists them, ready for `soundpack convert DIR PACK --mono --trim-silence`. One table shows each token's
            recording, the recordings no token claims (with the nearest token) and the tokens no recording gives
            (with the smallest amount that says each); neither is an error here, validate reports missing
            clips. Two recordings for one token are refused. Symbolic links are never followed, and folders,
            FIFOs and other files are listed as skipped; hidden names are ignored. pack.json gets "$schema" when
            DIR lies in a folder that holds schemas/pack.schema.json (this repository). DIR is assembled beside
            itself and renamed into place: a failure leaves nothing.
            """,
        options: Options.specs)

    struct Options: ParsableArguments {
        var new = NewPackOptions()
        var prefix: String?
        var phraseTexts: [KeyValuePair] = []
        var recordings: String?
        var maps: [KeyValuePair] = []
        var format = OutputFormat.text

        static let declarations: [Declaration<Self>] = .group(\.new) + [
            .option("--prefix", to: \.prefix, value: "TEXT", help: "the words of the prefix clip, e.g. 微信到账"),
            .phraseTexts(to: \.phraseTexts),
            .option("--from", to: \.recordings, value: "RECORDINGS", help: "a folder of recordings to adopt as the clips"),
            .option("--map", to: \.maps, value: "TOKEN=NAME", help: "with --from: the recording for TOKEN, e.g. prefix=wechat_prefix",
                    convert: KeyValuePair.converting("--map", form: "TOKEN=NAME", example: "--map prefix=wechat_prefix")),
            .choice("--format", to: \.format, value: "FORMAT"),
        ]
    }

    static func run(_ options: Options, _ context: CLIContext) throws(SoundpackError) -> ExitCode {
        let new = try options.new.resolved(command: "init", example: "soundpack init packs/mypack --id mypack")
        let format = options.format
        let directory = new.directory
        var file = PackFile(id: new.id, name: new.id, version: SemanticVersion("0.1.0")!, grammar: new.grammar, maxAmount: new.maximum, clips: [:])
        let phraseTexts = try PhraseTexts.reading(options.phraseTexts)
        if let prefix = options.prefix {
            guard phraseTexts.isEmpty else {
                throw .usage("--prefix and --phrase-text cannot be given together", hint: "write the prefix as --phrase-text prefix=TEXT")
            }
            file.texts = ["prefix": prefix]
        }
        phraseTexts.apply(to: &file)
        let maps = options.maps.map { (token: $0.key, name: $0.value) }
        if let recordings = options.recordings {
            return try adopt(recordings, maps: maps, into: file, directory, context, format)
        }
        guard maps.isEmpty else { throw .usage("--map applies to --from only", hint: "soundpack init DIR --id ID --from RECORDINGS --map prefix=wechat_prefix") }

        // A new pack has no suffix clip unless --phrase-text gives its words; one can be added later.
        let book = PhraseTexts.phrasebook(of: file)
        let tokens = book.requiredTokens(upTo: file.maxAmount).map(\.rawValue)
        let stems = file.grammar.fileStems(for: tokens)
        for token in tokens { file.clips[token] = "clips/\(stems[token] ?? token).caf" }

        let folder = context.absolute(directory)
        let target = URL(fileURLWithPath: folder).appendingPathComponent(PackFolder.packFile)
        guard !FileManager.default.fileExists(atPath: target.path) else {
            throw .refused("\(directory)/pack.json already exists", hint: "init never overwrites a pack; edit it or choose another folder")
        }
        let data = try checked(file)
        do {
            try Folders.create(folder + "/clips")
            try AtomicFile.write(data, to: target.path)
        } catch {
            throw .environment("cannot write \(directory)/pack.json", error.localizedDescription)
        }
        try context.emit(Initialized(pack: directory, clips: file.clips), format)
        return .success
    }

    /// `--from`: the recordings matched, DIR written whole, the table printed.
    static func adopt(_ recordings: String, maps: [(token: String, name: String)], into file: PackFile, _ directory: String,
                      _ context: CLIContext, _ format: OutputFormat) throws(SoundpackError) -> ExitCode {
        let destination = context.packFolder(directory)
        if FileKind.at(destination.path) != nil {
            throw .refused("\(directory.visible) already exists", hint: "init --from writes a new folder; choose another or remove it")
        }
        var adoption: RecordingAdoption
        do { adoption = try RecordingAdoption.plan(file, recordings: context.absolute(recordings), shown: recordings, maps: maps) } catch {
            throw phrased(error)
        }
        adoption.pack.schema = RecordingAdoption.schemaReference(for: destination.path)
        _ = try checked(adoption.pack)
        try adoption.write(from: context.absolute(recordings), into: destination)
        try context.emit(Initialized(pack: directory, clips: adoption.pack.clips, from: recordings, adoption: adoption), format)
        return .success
    }

    /// Why the recordings cannot be adopted, in the words of `--from` and `--map`.
    static func phrased(_ problem: RecordingAdoption.Problem) -> SoundpackError {
        func didYouMean(_ nearest: String?) -> String { (nearest.map { "; did you mean '\($0)'?" } ?? "").visible }
        switch problem {
        case .unknownToken(let given, let name, let unneeded, let maxAmount, let nearest, let needed):
            let why = unneeded.map { "the pack never says '\($0)' up to maxAmount \(maxAmount)" } ?? "the pack has no token '\(given.quoted(limit: 40))'"
            return .usage("--map \(given.quoted(limit: 40))=\(name.quoted(limit: 60)): \(why)\(didYouMean(nearest))",
                          hint: "TOKEN is a token's key or file stem: \(needed.joined(separator: " ").visible)")
        case .tokenMappedTwice(let token):
            return .usage("--map: token '\(token.visible)' is mapped twice", hint: "map each token once")
        case .recordingMappedTwice(let recording, let first, let second):
            return .usage("--map: '\(recording.quoted(limit: 60))' is mapped to both '\(first.visible)' and '\(second.visible)'", hint: "a recording is one token's clip")
        case .noSuchRecording(let given, let name, let folder, let skipped, let nearest):
            let reason = skipped.map { " (\($0.name.quoted(limit: 60)): \($0.reason))" } ?? ""
            return .usage("--map \(given.quoted(limit: 40))=\(name.quoted(limit: 60)): \(folder.visible) has no recording '\(name.quoted(limit: 60))'\(reason)\(didYouMean(nearest))",
                          hint: "NAME is a file's stem or its whole name, e.g. --map prefix=wechat_prefix")
        case .ambiguousRecording(let given, let name, let files):
            return .usage("--map \(given.quoted(limit: 40))=\(name.quoted(limit: 60)) names \(files.count) files: \(files.map { $0.quoted(limit: 60) }.joined(separator: ", "))",
                          hint: "name one with its extension, e.g. --map \(given)=\(files[0])")
        case .severalRecordings(let token, let files, let folder):
            return .refused("\(folder.visible) has \(files.count) recordings for token '\(token.visible)': \(files.map { $0.quoted(limit: 60) }.joined(separator: ", "))",
                            hint: "keep one, or choose one with --map \(token)=\(files[0])")
        case .failed(let error):
            return error
        }
    }

    /// pack.json's bytes, through the reader validate uses: a value it would refuse (a control
    /// character in --prefix, a --max-amount beyond the grammar) is refused here, naming the option.
    static func checked(_ file: PackFile) throws(SoundpackError) -> Data {
        let data: Data
        do { data = try StoreJSON.encode(file) } catch { throw error.cause(of: .usage, "cannot write these values as JSON", joint: .colon) }
        do { _ = try PackFile(json: data) } catch {
            let field = error.field ?? ""
            let option = ["maxAmount": "--max-amount", "texts.prefix": "--prefix", "texts": "--prefix", "id": "--id", "name": "--id"][field]
                ?? (field.hasPrefix("texts") || field.hasPrefix("phrases") ? "--phrase-text" : "a value")
            throw .usage("\(option): \(error.message)", hint: "init writes only a pack.json that validate accepts")
        }
        return data
    }
}
