// libebur128's momentary meter, for the rates our own meter does not take (see `LoudnessMeter`);
// the only file that imports CEBUR128. The tests also hold our meter against it.

import CEBUR128

/// libebur128's momentary meter, fed block by block.
///
/// Momentary loudness is the K-weighted level of a 400 ms window, taken every 100 ms. Clips are
/// shorter than that, so the clip is measured as if 400 ms of silence stood before and after it:
/// every window that overlaps the clip counts, and a 300 ms clip still gets a finite figure.
/// `ffmpeg -af "adelay=400:all=1,apad=pad_dur=0.4,ebur128"` measures the same windows.
final class EBUR128Meter {
    private let state: UnsafeMutablePointer<ebur128_state>
    private let channels: Int
    private let stepFrames: Int
    private var framesUntilStep: Int
    private(set) var momentaryMax = -Double.infinity

    init(channels: Int, sampleRate: Int) throws(AudioError) {
        let mode = Int32(EBUR128_MODE_M.rawValue)
        guard let state = ebur128_init(UInt32(channels), UInt(sampleRate), mode) else {
            throw AudioError("cannot measure loudness of \(channels) channels at \(sampleRate) Hz")
        }
        self.state = state
        self.channels = channels
        stepFrames = max(1, Int((Double(sampleRate) / 10).rounded()))
        framesUntilStep = stepFrames
    }

    deinit {
        var pointer: UnsafeMutablePointer<ebur128_state>? = state
        ebur128_destroy(&pointer)
    }

    /// Adds interleaved samples, evaluating the momentary window at every 100 ms boundary.
    func add(_ samples: UnsafeBufferPointer<Float>) {
        guard let base = samples.baseAddress else { return }
        var offset = 0
        var frames = samples.count / channels
        while frames > 0 {
            let n = min(frames, framesUntilStep)
            ebur128_add_frames_float(state, base + offset * channels, n)
            offset += n
            frames -= n
            framesUntilStep -= n
            if framesUntilStep == 0 {
                var value = -Double.infinity
                if ebur128_loudness_momentary(state, &value) == EBUR128_SUCCESS.rawValue, value.isFinite {
                    momentaryMax = max(momentaryMax, value)
                }
                framesUntilStep = stepFrames
            }
        }
    }

    /// Feeds the trailing 400 ms of silence so the last windows over the clip are measured.
    func finish() {
        let silence = [Float](repeating: 0, count: stepFrames * 4 * channels)
        silence.withUnsafeBufferPointer { add($0) }
    }
}
