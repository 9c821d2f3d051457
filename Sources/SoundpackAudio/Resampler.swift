// Sample-rate conversion through libsamplerate; the only file that imports CSampleRate.

import CSampleRate

package enum Resampler {
    /// libsamplerate's converters used here.
    package enum Quality: Sendable {
        /// The best sinc converter: what `convert` and `synth` write.
        case best
        /// The fastest sinc converter: for a recogniser's ears only.
        case fastest

        var converter: Int32 { Int32(self == .best ? SRC_SINC_BEST_QUALITY : SRC_SINC_FASTEST) }
    }

    /// Converts interleaved `samples` from `source` Hz to `target` Hz with libsamplerate's sinc
    /// converter of `quality`. Returns the input unchanged when the rates match.
    package static func resample(_ samples: [Float], channels: Int, from source: Int, to target: Int, quality: Quality = .best) throws(AudioError) -> [Float] {
        guard source != target, !samples.isEmpty else { return samples }
        let ratio = Double(target) / Double(source)
        let inputFrames = samples.count / channels
        let capacity = Int((Double(inputFrames) * ratio).rounded(.up)) + 16
        var output = [Float](repeating: 0, count: capacity * channels)
        var status: Int32 = 0
        var generated = 0
        samples.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                var data = SRC_DATA()
                data.data_in = input.baseAddress
                data.input_frames = inputFrames
                data.data_out = out.baseAddress
                data.output_frames = capacity
                data.src_ratio = ratio
                data.end_of_input = 1
                status = src_simple(&data, quality.converter, Int32(channels))
                generated = data.output_frames_gen
            }
        }
        guard status == 0 else {
            throw AudioError("resampling \(source) Hz to \(target) Hz failed: \(String(cString: src_strerror(status)))")
        }
        output.removeSubrange((generated * channels)...)
        return output
    }
}
