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
        options: [
            .option("--rate", value: "HZ", help: "target sample rate (8000-48000)"),
            .choice("--codec", value: "CODEC", [AudioFileWriter.Encoding.pcm16, .ulaw, .alaw, .ima4], default: .pcm16),
            .choice("--container", value: "C", [Container.caf, .wav, .aiff], default: .caf),
            .option("--loudness", value: "LUFS", help: "momentary-max loudness target, e.g. -18"),
            .flag("--trim-silence", help: "cut leading and trailing silence, keeping 10 ms"),
            .flag("--mono", help: "mix every clip to one channel"),
            .flag("--force", help: "replace an existing DEST"),
            .choice("--format", value: "FORMAT", default: OutputFormat.text),
        ])

    static func run(_ arguments: ParsedArguments, _ context: CLIContext) throws(SoundpackError) -> ExitCode {
        guard arguments.positionals.count == 2 else {
            throw .usage("convert needs SRC and DEST folders", hint: "soundpack convert raw/wechat packs/wechat --rate 22050 --loudness -18")
        }
        let format: OutputFormat = try arguments.choice("--format")
        var options = ConvertOptions()
        if let rate = arguments.value("--rate") {
            guard let hz = Int(rate) else { throw .usage("--rate must be a whole number of Hz") }
            options.sampleRate = hz
        }
        options.encoding = try arguments.choice("--codec")
        options.container = try arguments.choice("--container")
        if let loudness = arguments.value("--loudness") {
            guard let lufs = Double(loudness), (-70.0...0).contains(lufs) else { throw .usage("--loudness must be LUFS between -70 and 0, e.g. -18") }
            options.loudness = lufs
        }
        options.trimSilence = arguments.has("--trim-silence")
        options.mono = arguments.has("--mono")
        options.force = arguments.has("--force")

        let (source, destination) = (arguments.positionals[0], arguments.positionals[1])
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
