// `soundpack convert SRC DEST`: a copy of a pack in one format, trimmed and levelled on request.

import Foundation
import SoundpackCore
import SoundpackKit

enum ConvertCommand: Command {
    static let spec = CommandSpec(
        name: "convert",
        synopsis: "convert SRC DEST [--rate HZ] [--codec pcm16|ulaw|alaw|ima4] [--container caf|wav|aiff] [--loudness LUFS] [--trim-silence] [--mono] [--force] [--format text|json]",
        summary: "Write a converted copy of a pack: one format for every clip, trimmed and levelled on request.",
        discussion: """
            Every clip is decoded (WAV, AIFF, CAF, FLAC, Ogg and MP3 through libsndfile; AAC and ALAC in M4A/MP4
            through FFmpeg's libavformat, libavcodec and libavutil, opened only when such a clip is read: without
            them, exit 3 names the package to install), mixed to the common channel count (--mono: one
            channel), resampled with libsamplerate's best sinc converter to --rate (default: the most common rate), trimmed to the voice
            plus 10 ms with --trim-silence, gained so its momentary-max loudness meets --loudness (never past
            -1 dBFS peak), and written as clips/<token>.<container> in DEST with a pack.json whose clip paths
            follow. SRC is only read. DEST is assembled in a temporary folder beside it, validated, and renamed
            into place, so a failure leaves no DEST; an existing DEST is refused unless --force.
            """,
        options: Options.specs)

    struct Options: ParsableArguments {
        var source: String?
        var destination: String?
        var convert = ConvertOptions()
        var format = OutputFormat.text

        static let declarations: [Declaration<Self>] = [
            .argument(to: \.source),
            .argument(to: \.destination),
            .option("--rate", to: \.convert.sampleRate, value: "HZ", help: "target sample rate (8000-48000)", convert: WholeNumber.converting("--rate must be a whole number of Hz")),
            .choice("--codec", to: \.convert.encoding, value: "CODEC", [.pcm16, .ulaw, .alaw, .ima4]),
            .choice("--container", to: \.convert.container, value: "C", [.caf, .wav, .aiff]),
            .option("--loudness", to: \.convert.loudness, value: "LUFS", help: "momentary-max loudness target, e.g. -18") { text throws(SoundpackError) in
                guard let lufs = Double(text), (-70.0...0).contains(lufs) else { throw .usage("--loudness must be LUFS between -70 and 0, e.g. -18") }
                return lufs
            },
            .flag("--trim-silence", to: \.convert.trimSilence, help: "cut leading and trailing silence, keeping 10 ms"),
            .flag("--mono", to: \.convert.mono, help: "mix every clip to one channel"),
            .flag("--force", to: \.convert.force, help: "replace an existing DEST"),
            .choice("--format", to: \.format, value: "FORMAT"),
        ]
    }

    static func run(_ arguments: Options, _ context: CLIContext) throws(SoundpackError) -> ExitCode {
        guard let source = arguments.source, let destination = arguments.destination else {
            throw .usage("convert needs SRC and DEST folders", hint: "soundpack convert raw/wechat packs/wechat --rate 22050 --loudness -18")
        }
        let (format, options) = (arguments.format, arguments.convert)
        let summary: ConvertSummary
        do {
            summary = try PackConverter().convert(source: context.packFolder(source), destination: context.packFolder(destination), options: options)
        } catch {
            // The engine says DEST exists; the command line knows the flag that replaces it.
            let replaceable = !options.force && FileManager.default.fileExists(atPath: context.absolute(destination))
            throw error.context("cannot convert \(source) into \(destination)", hint: replaceable ? "pass --force to replace it" : nil)
        }
        try context.emit(Validated(summary, into: destination, options), format)
        return .success
    }
}
