// A clip's momentary-max loudness (EBU R 128) while its chunks stream past: the own meter
// (`KWeightedLanes`, one lane per channel), or libebur128 at rates it cannot take.

/// Measures a clip's momentary-max loudness while its chunks stream past.
///
/// Mono and stereo at a rate divisible by 10 are one clip in `KWeightedLanes`. Every other rate
/// the probe accepts (8–48 kHz, so 11,025 Hz and its like) goes to libebur128 (`EBUR128Meter`):
/// its 100 ms there is a rounded number of frames, and the figures it gives are ones our blocks
/// would not reproduce to the last bit; channel counts other than one or two never reach a meter.
package final class LoudnessMeter {
    private var own: KWeightedLanes?
    private let reference: EBUR128Meter?

    package init(channels: Int, sampleRate: Int) throws(AudioError) {
        if (1...2).contains(channels), sampleRate % 10 == 0 {
            own = KWeightedLanes(channels: channels, sampleRate: sampleRate)
            reference = nil
        } else {
            own = nil
            reference = try EBUR128Meter(channels: channels, sampleRate: sampleRate)
        }
    }

    /// The loudest window (LUFS), or -infinity when none is above silence.
    package var momentaryMax: Double { own?.momentaryMax[0] ?? reference?.momentaryMax ?? -.infinity }

    /// Adds interleaved samples (read only during the call).
    package func add(_ samples: UnsafeBufferPointer<Float>) {
        if own != nil { own!.add(samples) } else { reference?.add(samples) }
    }

    /// Measures the 400 ms of silence after the clip; call once, after the last `add`.
    package func finish() {
        if own != nil { own!.finish() } else { reference?.finish() }
    }
}
