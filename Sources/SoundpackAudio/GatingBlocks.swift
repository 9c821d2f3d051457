// EBU R 128 momentary loudness from K-weighted energy: 100 ms blocks, and the loudest 400 ms
// window over them.

import Foundation

/// The energy of 100 ms blocks and the loudest 400 ms window over them, with 400 ms of silence
/// before the clip (the first three blocks zero): libebur128's EBUR128_MODE_M bookkeeping.
struct GatingBlocks {
    /// The trailing silence is filtered in steps of at most this many frames, the filter looked at
    /// after each (`isQuiet`): longer steps filter a little past the point where it rang out, shorter
    /// ones cost a call each (at 64, the calls of the tails were most of the K-weighting's calls).
    static let tailStep = 256

    let blockFrames: Int
    /// Energy (sum over channels of squared filtered samples) of the last four blocks.
    private var blocks: (Double, Double, Double, Double) = (0, 0, 0, 0)
    /// The energy so far of the block being filled.
    var current: Double = 0
    private var framesInBlock = 0
    private(set) var momentaryMax = -Double.infinity

    init(sampleRate: Int) { blockFrames = sampleRate / 10 }

    /// Frames until the block being filled is complete.
    var framesToBoundary: Int { blockFrames - framesInBlock }
    /// The 400 ms of silence after the clip.
    var tailFrames: Int { 4 * blockFrames }

    /// Counts `frames` more frames, whose energy is already in `current`, closing the block when
    /// it is full.
    mutating func advance(_ frames: Int) {
        framesInBlock += frames
        guard framesInBlock == blockFrames else { return }
        blocks = (blocks.1, blocks.2, blocks.3, current)
        current = 0
        framesInBlock = 0
        let mean = (blocks.0 + blocks.1 + blocks.2 + blocks.3) / Double(4 * blockFrames)
        if mean > 0 {
            let loudness = -0.691 + 10 * log10(mean)
            if loudness.isFinite { momentaryMax = max(momentaryMax, loudness) }
        }
    }

    /// Whether a filter with this state has rung out: what is left adds less than a millionth of
    /// the loudest block's energy (with a quiet signal that takes a few milliseconds). A quiet
    /// filter is not fed; the blocks left only take their means.
    func isQuiet(_ v: (Double, Double, Double, Double)) -> Bool {
        let limit = 1e-12 * max(blocks.0, blocks.1, blocks.2, blocks.3, current) / Double(blockFrames)
        return v.0 * v.0 <= limit && v.1 * v.1 <= limit && v.2 * v.2 <= limit && v.3 * v.3 <= limit
    }
}
