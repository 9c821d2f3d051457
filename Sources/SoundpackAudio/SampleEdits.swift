// Edits on interleaved float samples shared by render and convert.

package enum SampleEdits {
    /// The frames from `padFrames` before the first to `padFrames` after the last frame with a
    /// sample above `threshold` (the same test the silence rules use); nil when none is.
    package static func trimmed(_ samples: [Float], channels: Int, threshold: Float, padFrames: Int = 0) -> [Float]? {
        let frames = samples.count / channels
        func audible(_ frame: Int) -> Bool { (0..<channels).contains { abs(samples[frame * channels + $0]) > threshold } }
        guard let first = (0..<frames).first(where: audible), let last = (0..<frames).last(where: audible) else { return nil }
        let start = max(0, first - padFrames), end = min(frames, last + 1 + padFrames)
        return Array(samples[(start * channels)..<(end * channels)])
    }

    /// Mixes interleaved samples between channel counts: averaging down, copying up.
    package static func remix(_ samples: [Float], from source: Int, to target: Int) -> [Float] {
        guard source != target else { return samples }
        let frames = samples.count / source
        var out = [Float](repeating: 0, count: frames * target)
        for frame in 0..<frames {
            if target == 1 {
                var sum: Float = 0
                for c in 0..<source { sum += samples[frame * source + c] }
                out[frame] = sum / Float(source)
            } else {
                for c in 0..<target { out[frame * target + c] = samples[frame * source + min(c, source - 1)] }
            }
        }
        return out
    }
}
