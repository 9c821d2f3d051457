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
    public var channels = 1...2
    package var sampleRates = 8_000...48_000
    /// Clips must hold less than this much audio.
    package var maxSeconds = 30
    /// Frames decoded per read.
    var chunkFrames = 4_096
    /// Float samples beyond this magnitude (+24 dBFS) are not audio, whatever headroom a float
    /// format allows; they count with NaN and infinities as `audio.non-finite`.
    var maxSampleMagnitude: Float = 16

    public init() {}

    func maxFrames(sampleRate: Int) -> Int64 { Int64(maxSeconds) * Int64(sampleRate) }
}

/// Why a clip could not be read. Each becomes a `file.unreadable` finding, but for a format the
/// probe knows and does not decode (`format.unsupported`).
public struct AudioError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// Missing, empty, truncated, not audio, over a cap, or failed to decode.
        case unreadable
        /// Known (`format`, e.g. `AAC in MP4 (.m4a)`) but in a format iOS does not play, and not
        /// decoded by this probe: validation reports `format.unsupported`, `convert` reads it.
        case unsupportedFormat(String)
        /// A library that decodes it cannot be loaded: an environment failure; `hint` says what to install.
        case missingLibrary(hint: String)
    }

    public let message: String
    public let kind: Kind
    package init(_ message: String, kind: Kind = .unreadable) {
        self.message = message
        self.kind = kind
    }
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
    public var sampleRate: Int
    public var channels: Int
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
