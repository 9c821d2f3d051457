// `soundpack synth`: a complete pack spoken by a text-to-speech engine. Every option is checked
// first, before the engine speaks; then every clip the grammar, its options and the phrases need is
// spoken from its written text into a raw pack in a temporary folder (each clip its own file);
// `convert`'s own code then gives it one format, trims and levels it, validates it and renames it
// into place. A failure, an engine crash or an interruption leaves nothing at the destination and
// removes the temporary folder.

import Foundation
import SoundpackAudio
import SoundpackCore
import SoundpackPack
import SoundpackRendering
import SoundpackSupport

/// Who speaks the clips.
public enum SpeechEngine: Sendable, Equatable {
    /// libespeak-ng, where `SynthRequest.espeakHost` says.
    case espeak
    /// A team's own program, run once per clip.
    case command(EngineCommand)
}

/// What to synthesise.
public struct SynthRequest: Sendable {
    /// The new pack's id.
    public var id: String
    /// The grammar its amounts are read in.
    public var grammar: Grammar
    /// The largest amount it announces; the tokens spoken are those up to it.
    public var maxAmount: Amount
    /// Who speaks the clips: libespeak-ng, or a team's own program.
    public var engine: SpeechEngine = .espeak
    /// The engine's voice; nil: espeak-ng's voice for the grammar's language (cmn, en-us, hi).
    public var voice: String?
    /// `--phrase-text ID=TEXT` in order: `prefix`/`suffix` set the words around the amount of a pack
    /// without phrases; any other id declares a phrase, its text split at `{amount}` (the first
    /// given is the default phrase). Empty: the one phrase with the language's default prefix.
    public var phraseTexts = PhraseTexts()
    /// Rate, codec and container of the clips; trimmed and levelled to -19 LUFS momentary max.
    public var convert: ConvertOptions
    /// Where libespeak-ng speaks: in this process unless a soundpack binary is named to run it in a
    /// worker process per clip (the soundpack command line names itself).
    public var espeakHost: EspeakHost = .inProcess
    /// The folder the raw pack is spoken into (in a new folder of its own, removed afterwards): TMPDIR.
    public var temporaryFolder: String = NSTemporaryDirectory()

    /// A request for pack `id` in `grammar` up to `maxAmount`, spoken by espeak-ng and converted to
    /// 22.05 kHz mono, trimmed and levelled to -19 LUFS.
    public init(id: String, grammar: Grammar, maxAmount: Amount) {
        self.id = id
        self.grammar = grammar
        self.maxAmount = maxAmount
        var convert = ConvertOptions()
        convert.sampleRate = 22_050
        convert.mono = true
        convert.trimSilence = true
        convert.loudness = -19
        self.convert = convert
    }

    /// The prefix a pack without `--phrase-text` says: 收款到账, Payment received, भुगतान प्राप्त हुआ.
    static func defaultPrefix(for grammar: GrammarID) -> String {
        switch grammar {
        case .zhHans: return "收款到账"
        case .zhHant: return "收款到賬"
        case .enUS, .enIN: return "Payment received"
        case .hiIN: return "भुगतान प्राप्त हुआ"
        // Only the grammars pack.json accepts reach synthesis.
        default: return "Payment received"
        }
    }
}

/// What a synthesis made.
public struct SynthSummary: Sendable {
    /// The pack.json written, with its clips and their source.
    public var pack: PackFile
    /// The engine and voice that spoke the clips, as pack.json records them.
    public var source: VoiceSource
    /// What converting the spoken clips did: each clip's length, the rate, the channels and the validation report.
    public var converted: ConvertSummary
}

/// Speaks every clip a new pack needs and writes the pack (`soundpack synth`).
public struct PackSynthesizer: Sendable {
    /// A synthesizer; each `synthesize` call is independent.
    public init() {}

    /// A synthesis decided and checked whole before the engine speaks.
    struct Plan {
        var pack: PackFile
        var source: VoiceSource
        /// Every clip to speak, in listing order: its key, its text and its file in the raw pack.
        var clips: [(key: String, text: String, file: String)]
    }

    /// Speaks the clips `request` needs into a temporary raw pack, converts them into `destination` with
    /// its pack.json; throws when the engine fails, is interrupted, or the pack cannot be written.
    public func synthesize(_ request: SynthRequest, into destination: PackFolder) throws(SoundpackError) -> SynthSummary {
        let plan = try Self.plan(request, into: destination)
        var pack = plan.pack

        let raw = URL(fileURLWithPath: request.temporaryFolder, isDirectory: true)
            .appendingPathComponent("soundpack-synth-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        do { try Folders.create(raw.appendingPathComponent("clips").path) } catch {
            throw .environment("cannot create a working folder in \(request.temporaryFolder)", error.localizedDescription)
        }
        defer { try? FileManager.default.removeItem(at: raw) }

        for clip in plan.clips {
            if let signal = Interruption.caught { throw Interruption.error(signal) }
            let path = raw.appendingPathComponent(clip.file).path
            do throws(SoundpackError) {
                switch request.engine {
                case .espeak:
                    try EspeakWorker.speak(clip.text, voice: plan.source.voice ?? "en-us", to: path, host: request.espeakHost)
                case .command(let command):
                    try command.run(text: clip.text, out: path, voice: plan.source.voice)
                    do { _ = try AudioProbe().decode(path: path) } catch {
                        throw SoundpackError.refused("the engine command wrote no audio soundpack can read", error.message)
                    }
                }
            } catch {
                throw error.context("cannot speak clip '\(clip.key.quoted(limit: 40))' ('\(clip.text.quoted(limit: 60))')")
            }
            pack.clips[clip.key] = clip.file
        }
        if let signal = Interruption.caught { throw Interruption.error(signal) }
        do {
            try AtomicFile.write(try StoreJSON.encode(pack), to: raw.appendingPathComponent(PackFolder.packFile).path)
        } catch {
            throw .environment("cannot write the working pack.json", error.localizedDescription)
        }
        let converted = try PackConverter().convert(source: PackFolder(path: raw.path, shown: destination.shown + " (spoken)"),
                                                    destination: destination, options: request.convert)
        var written = pack
        written.clips = Dictionary(uniqueKeysWithValues: converted.clips.map { ($0.token, $0.destination) })
        return SynthSummary(pack: written, source: plan.source, converted: converted)
    }

    /// Every decision of a synthesis, and every check of its request that does not need the engine:
    /// a request the converter or pack.json's reader would refuse once everything is spoken is
    /// refused here, before the first clip, naming the input at fault (`SoundpackError.input`).
    static func plan(_ request: SynthRequest, into destination: PackFolder) throws(SoundpackError) -> Plan {
        let source: VoiceSource
        switch request.engine {
        case .espeak: source = VoiceSource(engine: "espeak-ng", voice: request.voice ?? Espeak.defaultVoice(for: request.grammar.id))
        case .command(let command): source = VoiceSource(engine: command.programName, voice: request.voice)
        }
        var pack = try packFile(for: request)
        pack.source = source
        try checkWritable(pack, probe: Self.phrasebook(of: pack).requiredTokens(upTo: pack.maxAmount).map(\.rawValue))

        let limits = PackConverter().limits
        if let rate = request.convert.sampleRate, !limits.sampleRates.contains(rate) {
            throw SoundpackError.refused("the sample rate \(rate) is outside \(limits.sampleRates.lowerBound)–\(limits.sampleRates.upperBound) Hz").about(input: "sampleRate")
        }
        if FileManager.default.fileExists(atPath: destination.path) && !request.convert.force {
            throw .refused("\(destination.shown) already exists")
        }
        // The raw pack is spoken into the temporary folder and the pack assembled beside DIR: a DIR
        // that is that folder or holds it would be refused by the converter once everything is spoken.
        let (temporary, target) = (Folders.realPath(request.temporaryFolder), Folders.realPath(destination.path))
        if temporary == target || temporary.hasBytePrefix(target + "/") {
            throw SoundpackError.refused("\(destination.shown) holds the temporary folder \(request.temporaryFolder), where the clips are spoken",
                         hint: "choose another folder, or point TMPDIR elsewhere").about(input: "destination")
        }

        let book = Self.phrasebook(of: pack)
        let tokens = book.requiredTokens(upTo: pack.maxAmount).sorted { book.grammar.precedes($0.rawValue, $1.rawValue) }
        let stems = book.grammar.fileStems(for: tokens.map(\.rawValue))
        let clips = tokens.map { token in
            (key: token.rawValue, text: book.grammar.text(of: token, texts: pack.texts), file: "clips/\(stems[token.rawValue] ?? token.rawValue).wav")
        }
        return Plan(pack: pack, source: source, clips: clips)
    }

    /// The phrases of a pack about to be spoken (`PhraseTexts.phrasebook`).
    static func phrasebook(of pack: PackFile) -> Phrasebook { PhraseTexts.phrasebook(of: pack) }

    /// The pack.json a request asks for, clips not yet listed: the `--phrase-text` words, and the
    /// language's default prefix for a pack without phrases that was given none.
    static func packFile(for request: SynthRequest) throws(SoundpackError) -> PackFile {
        var pack = PackFile(id: request.id, name: request.id, version: SemanticVersion("0.1.0")!, grammar: request.grammar,
                            maxAmount: request.maxAmount, clips: [:])
        request.phraseTexts.apply(to: &pack)
        if pack.phrases == nil && pack.texts[Token.prefix.rawValue] == nil {
            pack.texts[Token.prefix.rawValue] = SynthRequest.defaultPrefix(for: request.grammar.id)
        }
        return pack
    }

    /// `pack` with `keys` listed as clips, through the reader validate uses: what it would refuse once
    /// everything is spoken is refused now, the error naming the pack.json field at fault as its
    /// `input` (the caller knows which of its settings set it).
    static func checkWritable(_ pack: PackFile, probe keys: [String]) throws(SoundpackError) {
        var probe = pack
        for key in keys { probe.clips[key] = "clips/x.wav" }
        do {
            _ = try PackFile(json: try StoreJSON.encode(probe))
        } catch let error as PackFileError {
            guard let field = error.field else { throw .refused("these phrase texts make no valid pack.json: \(error.description)") }
            throw SoundpackError.refused(error.message).about(input: field)
        } catch {
            throw .refused("these values cannot be written as JSON: \(error)")
        }
    }
}
