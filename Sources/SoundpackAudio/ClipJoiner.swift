// Joins clip files end to end into one sound file: what the extension does with AVFoundation on
// iOS, done here with the same decoder and writer `render` uses, for the Linux simulator.

import SoundpackCore

/// Joins clip files into one sound file, as the iOS extension does when a payment arrives.
public enum ClipJoiner {
    /// Decodes each file (all must share a sample rate and channel count) and writes them joined.
    public static func join(_ paths: [String], to output: String, container: Container = .caf,
                            encoding: AudioFileWriter.Encoding = .pcm16) throws(AudioError) {
        var samples: [Float] = []
        var format: (rate: Int, channels: Int)?
        let probe = AudioProbe()
        for path in paths {
            let audio = try probe.decode(path: path)
            if let format, format != (audio.sampleRate, audio.channels) {
                throw AudioError("\(path) is \(audio.sampleRate) Hz with \(audio.channels) channel(s); the clips before it are \(format.rate) Hz with \(format.channels)")
            }
            format = (audio.sampleRate, audio.channels)
            samples += audio.samples
        }
        guard let format else { throw AudioError("nothing to join") }
        try AudioFileWriter.write(samples, sampleRate: format.rate, channels: format.channels, container: container, encoding: encoding, to: output)
    }
}
