// What a probe learns about a clip's encoding, the limits a clip must respect before it is decoded,
// and the errors decoding can raise. (Container and Codec are SoundpackCore's: store manifests
// name them, and phones read those.)

import SoundpackCore

/// The encoding facts of a clip.
package struct AudioFormat: Sendable, Equatable, Codable {
    package var container: Container
    package var codec: Codec
    /// Bits per stored sample for PCM (8, 16, 24, 32, 64 float), else nil.
    package var bitsPerSample: Int?
    package var sampleRate: Int
    package var channels: Int
    /// Frames the header declares (decoding counts the real number).
    package var frames: Int64
}

/// Caps checked before and while decoding, so a hostile file cannot exhaust memory or time.
public struct AudioLimits: Sendable {
    package var maxFileBytes = 16 * 1024 * 1024
    /// All clip files of one pack together: beyond this, files are not read (`file.unreadable`).
    package var maxPackBytes = 128 * 1024 * 1024
    package var channels = 1...2
    package var sampleRates = 8_000...48_000
    /// Clips must hold less than this much audio.
    package var maxSeconds = 30
    /// Frames decoded per read.
    var chunkFrames = 4_096
    /// Float samples beyond this magnitude (+24 dBFS) are not audio, whatever headroom a float
    /// format allows; they count with NaN and infinities as `audio.non-finite`.
    var maxSampleMagnitude: Float = 16

    /// The default caps: 16 MiB a clip, 128 MiB a pack, mono or stereo, 8–48 kHz, under 30 seconds.
    public init() {}

    func maxFrames(sampleRate: Int) -> Int64 { Int64(maxSeconds) * Int64(sampleRate) }
}

/// Why a clip could not be read. Each becomes a `file.unreadable` finding, but for a format the
/// probe knows and does not decode (`format.unsupported`).
public struct AudioError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, which decides the finding and the exit code.
    public enum Kind: Sendable, Equatable {
        /// Missing, empty, truncated, not audio, over a cap, or failed to decode.
        case unreadable
        /// Known (`format`, e.g. `AAC in MP4 (.m4a)`) but in a format iOS does not play, and not
        /// decoded by this probe: validation reports `format.unsupported`, `convert` reads it.
        case unsupportedFormat(String)
        /// A library that decodes it cannot be loaded: an environment failure; `hint` says what to install.
        case missingLibrary(hint: String)
    }

    /// What failed, for the finding's message (names the file and the cap or the decoder's error).
    public let message: String
    /// Unreadable, an unsupported format, or a missing library.
    public let kind: Kind
    package init(_ message: String, kind: Kind = .unreadable) {
        self.message = message
        self.kind = kind
    }
    /// The message, as a finding shows it.
    public var description: String { message }
}

/// A source of interleaved float samples in [-1, 1].
protocol AudioDecoder: AnyObject {
    var format: AudioFormat { get }
    /// Fills `buffer` with up to `buffer.count / channels` frames; returns the frames read, 0 at the end.
    func read(into buffer: UnsafeMutableBufferPointer<Float>) throws(AudioError) -> Int
}

/// What clips must share to be joined into one sound (`format.mismatch`), and what a version may
/// change only with a major bump: sample rate, channels and codec.
public struct ClipFormat: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Frames per second (44100, 48000…).
    public var sampleRate: Int
    /// 1 for mono, 2 for stereo.
    public var channels: Int
    /// How the samples are encoded (linear PCM, IMA4, MP3, AAC…).
    public var codec: Codec

    package init(sampleRate: Int, channels: Int, codec: Codec) {
        self.sampleRate = sampleRate
        self.channels = channels
        self.codec = codec
    }

    /// `22050 Hz, mono, lpcm`.
    public var description: String {
        "\(sampleRate) Hz, \(channels == 1 ? "mono" : "\(channels) channels"), \(codec.rawValue)"
    }
}

/// Samples that are not numbers a meter can use: NaN, ±infinity, or beyond the float headroom.
package struct NonFiniteSamples: Sendable, Equatable, Codable {
    /// How many samples (over all channels).
    package var count: Int
    /// The frame of the first one.
    package var firstFrame: Int64
}
