// Speech from libespeak-ng (the only file that imports it). The library keeps one global
// synthesiser: every call here takes one lock, sets the voice and speaks synchronously into a
// buffer through the synth callback.

import CEspeakNG
import SoundpackCore
import SoundpackSupport
import Synchronization

/// libespeak-ng's voices, spoken into 16-bit mono samples.
enum Espeak {
    /// What a speech request gives: samples at the engine's rate.
    struct Speech: Sendable {
        var samples: [Int16]
        var sampleRate: Int
    }

    /// The engine's rate once initialised; nil before.
    private static let engine = Mutex<Int?>(nil)

    /// The voice soundpack speaks `grammar`'s language with: cmn (Mandarin), en-us, hi.
    static func defaultVoice(for grammar: GrammarID) -> String {
        switch grammar {
        case .zhHans, .zhHant: return "cmn"
        case .enUS, .enIN: return "en-us"
        case .hiIN: return "hi"
        // Only the grammars pack.json accepts reach synthesis; another is named by its language.
        default: return grammar.rawValue.lowercased()
        }
    }

    /// libespeak-ng's version, or nil when it cannot be loaded.
    static var version: String? {
        guard soundpack_espeak_load_error() == nil, let info = soundpack_espeak_Info() else { return nil }
        return String(cString: info)
    }

    /// Speaks `text` with `voice`, at `wordsPerMinute` and `pitch` (0-100); at most `maxSeconds` of it.
    static func speak(_ text: String, voice: String, wordsPerMinute: Int = 185, pitch: Int = 45,
                             maxSeconds: Int = 30) throws(SoundpackError) -> Speech {
        try engine.withLock { (rate: inout Int?) throws(SoundpackError) -> Speech in
            let sampleRate = try initialised(&rate)
            try check(voice.withCString { soundpack_espeak_SetVoiceByName($0) }, "cannot use the espeak-ng voice '\(voice.quoted(limit: 40))'",
                      hint: "espeak-ng --voices lists them; soundpack uses cmn, en-us and hi by default")
            try check(soundpack_espeak_SetParameter(espeakRATE, Int32(wordsPerMinute), 0), "cannot set the speaking rate")
            try check(soundpack_espeak_SetParameter(espeakPITCH, Int32(pitch), 0), "cannot set the pitch")
            let buffer = SpeechBuffer(cap: maxSeconds * sampleRate)
            let context = Unmanaged.passRetained(buffer)
            defer { context.release() }
            let status = text.withCString { characters in
                soundpack_espeak_Synth(characters, text.utf8.count + 1, UInt32(espeakCHARS_UTF8), context.toOpaque())
            }
            try check(status, "espeak-ng cannot speak '\(text.quoted(limit: 60))'")
            try check(soundpack_espeak_Synchronize(), "espeak-ng did not finish '\(text.quoted(limit: 60))'")
            guard !buffer.overflowed else {
                throw .refused("espeak-ng spoke '\(text.quoted(limit: 60))' for more than \(maxSeconds) s", hint: "shorten the text")
            }
            return Speech(samples: buffer.samples, sampleRate: sampleRate)
        }
    }

    #if os(macOS)
    /// What to do when libespeak-ng cannot be opened (CEspeakNG/shim.h names where it is looked for).
    private static let installHint = "install it with Homebrew (brew install espeak-ng), or speak with another engine"
    #else
    private static let installHint = "install libespeak-ng1 (scripts/bootstrap.sh), or speak with another engine"
    #endif

    private static func initialised(_ rate: inout Int?) throws(SoundpackError) -> Int {
        if let rate { return rate }
        if let problem = soundpack_espeak_load_error() {
            throw SoundpackError.environment("cannot load libespeak-ng", String(cString: problem), hint: installHint).about(input: "engine")
        }
        // DONT_EXIT: a missing data folder is an error returned, not the process ended.
        let sampleRate = soundpack_espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 0, nil, Int32(espeakINITIALIZE_DONT_EXIT))
        guard sampleRate > 0 else {
            throw .environment("cannot start espeak-ng", "its voice data was not found", hint: "install espeak-ng-data (scripts/bootstrap.sh)")
        }
        soundpack_espeak_SetSynthCallback(collect)
        rate = Int(sampleRate)
        return Int(sampleRate)
    }

    private static func check(_ status: espeak_ERROR, _ what: String, hint: String? = nil) throws(SoundpackError) {
        switch status {
        case EE_OK: return
        case EE_NOT_FOUND: throw .refused(what, "not found", hint: hint)
        case EE_BUFFER_FULL: throw .environment(what, "its buffer is full", hint: hint)
        default: throw .environment(what, "espeak-ng error \(status.rawValue)", hint: hint)
        }
    }
}

/// Samples the synth callback hands over, up to a cap.
private final class SpeechBuffer {
    var samples: [Int16] = []
    let cap: Int
    var overflowed = false
    init(cap: Int) { self.cap = cap }
}

/// libespeak-ng's synth callback: appends the chunk to the request's buffer (its user data);
/// returning 1 stops the synthesis once the cap is passed.
private let collect: @convention(c) (UnsafeMutablePointer<Int16>?, Int32, UnsafeMutablePointer<espeak_EVENT>?) -> Int32 = { wav, count, events in
    guard let events, let context = events.pointee.user_data else { return 0 }
    let buffer = Unmanaged<SpeechBuffer>.fromOpaque(context).takeUnretainedValue()
    guard let wav, count > 0 else { return 0 }
    guard buffer.samples.count + Int(count) <= buffer.cap else {
        buffer.overflowed = true
        return 1
    }
    buffer.samples.append(contentsOf: UnsafeBufferPointer(start: wav, count: Int(count)))
    return 0
}
