// libespeak-ng speaking in a process of its own. The library runs in-process and has memory bugs no
// caller can fix (a voice name past its 40-byte buffer aborts; some Hindi texts crash the hi voice):
// a synth run starts a worker per clip (the soundpack binary again, with a hidden subcommand), so a
// crash ends the worker and becomes an error naming the clip, never the end of soundpack.

import Foundation
import SoundpackAudio
import SoundpackCore
import SoundpackSupport

/// Where libespeak-ng speaks for `synth`.
public enum EspeakHost: Sendable, Equatable {
    /// In a child process: `program` started with `EspeakWorker.subcommand`, which must be a
    /// soundpack binary (the soundpack command line passes its own executable). A crash of
    /// libespeak-ng ends that process only, and is reported for the clip it was speaking.
    case worker(program: String)
    /// In this process, under Espeak's lock: a crash of libespeak-ng ends the caller. SynthRequest's
    /// default, for SoundpackKit in a program that is not soundpack; such a program isolates the
    /// engine by naming an installed soundpack binary with `.worker(program:)`.
    case inProcess
}

package enum EspeakWorker {
    /// The hidden subcommand of the soundpack binary that speaks one text: `SUBCOMMAND VOICE OUT TEXT`.
    package static let subcommand = "__espeak-worker"
    /// The longest one clip may take in a worker.
    package static let timeoutSeconds = 60.0

    /// Speaks `text` with `voice` into a 16-bit mono WAV at `path`, where `host` says.
    package static func speak(_ text: String, voice: String, to path: String, host: EspeakHost) throws(SoundpackError) {
        switch host {
        case .inProcess:
            try write(text, voice: voice, to: path)
        case .worker(let program):
            try speakInWorker(text, voice: voice, to: path, program: program)
        }
    }

    /// The worker's side: speaks `TEXT` with `VOICE` into `OUT`, as `speak(… host: .inProcess)` does.
    package static func serve(_ arguments: [String]) throws(SoundpackError) {
        guard arguments.count == 3 else { throw .usage("\(subcommand) needs VOICE OUT TEXT", hint: "it is started by soundpack synth, not by hand") }
        try write(arguments[2], voice: arguments[0], to: arguments[1])
    }

    private static func write(_ text: String, voice: String, to path: String) throws(SoundpackError) {
        let speech = try Espeak.speak(text, voice: voice)
        guard !speech.samples.isEmpty else { throw .refused("espeak-ng said nothing") }
        do {
            try AudioFileWriter.write(.int16(speech.samples), sampleRate: speech.sampleRate, channels: 1, container: .wav, to: path)
        } catch {
            throw .environment("cannot write \((path as NSString).lastPathComponent)", error.message)
        }
    }

    private static func speakInWorker(_ text: String, voice: String, to path: String, program: String) throws(SoundpackError) {
        let outcome: ChildProcess.Outcome
        // Without Swift's crash backtracer: a crash of the engine is expected here, and reported for its clip.
        do {
            outcome = try ChildProcess.run([program, subcommand, voice, path, text], environment: ["SWIFT_BACKTRACE": "enable=no"],
                                           timeoutSeconds: timeoutSeconds)
        } catch {
            throw .environment("cannot start soundpack's espeak-ng worker '\(program.quoted(limit: 80))'", error.message)
        }
        // The worker ends as the command line does: `error: <what> — <why> (<hint>)` and the exit code of its kind.
        var said = outcome.lastLine
        if said.hasPrefix("error: ") { said.removeFirst("error: ".count) }
        switch outcome.ending {
        case .exited(0):
            var file = stat()
            guard lstat(path, &file) == 0, file.st_mode & S_IFMT == S_IFREG, file.st_size > 0 else {
                throw .environment("soundpack's espeak-ng worker wrote no audio file", said.isEmpty ? nil : "it said: \(said)")
            }
        case .exited(let code):
            let kind: SoundpackError.Kind = code == 1 ? .refused : code == 2 ? .usage : .environment
            throw SoundpackError(kind, said.isEmpty ? "soundpack's espeak-ng worker exited with status \(code)" : said)
        case .signalled(let signal):
            throw .refused("libespeak-ng crashed (\(ChildProcess.name(ofSignal: signal))) speaking it with voice '\(voice.quoted(limit: 60))'",
                           said.isEmpty ? nil : "it said: \(said)",
                           hint: "a bug of espeak-ng, not of the pack: try another voice, or other words")
        case .timedOut:
            throw .refused("espeak-ng took longer than \(Int(timeoutSeconds)) s and was stopped")
        case .interrupted(let signal):
            throw Interruption.error(signal)
        }
    }
}
