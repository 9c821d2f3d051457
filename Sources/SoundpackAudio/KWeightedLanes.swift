// The momentary meter: K-weighted loudness of one clip, mono or stereo, or of up to four mono
// clips of one sample rate side by side, each to the same bit as alone.

/// Momentary-max loudness (EBU R 128): BS.1770 K-weighting with weight 1 per channel, windows of
/// 400 ms taken every 100 ms, with 400 ms of silence before and after each clip — the figures
/// libebur128 gives in EBUR128_MODE_M for the same feed. Needs a sample rate divisible by 10, so
/// that four 100 ms blocks are exactly one window.
///
/// Each channel is a lane of a `KWeightingBank`: one clip of one or two channels, or up to four
/// mono clips, which take about the time of one. A clip's energy is summed over the same
/// stretches (up to its chunk's end or its block's) and its filter flushed at the same points
/// whatever its neighbours do, so every figure is the one the clip gets alone, to the last bit.
/// The trailing silence is filtered while the filter still rings; after that its blocks only
/// take their means.
package struct KWeightedLanes {
    package static let width = KWeightingBank.width

    /// What a clip reads next: interleaved samples, the clip's end, or nothing yet (`add`).
    enum Feed { case samples(UnsafeBufferPointer<Float>), end, later }

    /// Where a clip is: in its samples, in the trailing silence after them, or finished.
    private enum Phase { case clip, tail(remaining: Int), done }

    private struct Clip {
        var blocks: GatingBlocks
        var phase = Phase.clip
        /// The chunk being read and the frames of it read so far.
        var chunk = UnsafeBufferPointer<Float>(start: nil, count: 0)
        var offset = 0
        /// The stretch being filtered in one go: its length and what is left of it.
        var length = 0
        var left = 0
        /// The stretch is trailing silence after the filter rang out: counted, not filtered.
        var skipping = false
        var isDone: Bool { if case .done = phase { true } else { false } }
        var filtering: Bool { !skipping && !isDone }
    }

    private var clips: [Clip]
    private var bank: KWeightingBank
    /// Channels of each clip: 1, or 2 for one stereo clip. Clip i's channel c is lane i × channels + c.
    private let channels: Int
    /// What a clip in its trailing silence reads: zeros for a step of either layout, allocated
    /// once and never freed.
    private nonisolated(unsafe) static let silence: UnsafePointer<Float> = {
        let zeros = UnsafeMutablePointer<Float>.allocate(capacity: 2 * GatingBlocks.tailStep)
        zeros.initialize(repeating: 0, count: 2 * GatingBlocks.tailStep)
        return UnsafePointer(zeros)
    }()

    /// Each clip's loudest window (LUFS), or -infinity when it has none above silence.
    var momentaryMax: [Double] { clips.map(\.blocks.momentaryMax) }

    /// `clips` (1…4) mono clips at one sample rate, which must be divisible by 10; `wide`: the
    /// AVX2 loop where the processor has it (tests turn it off to check the Swift one).
    init(clips: Int, sampleRate: Int, wide: Bool = WideLoops.available) {
        self.init(clips: clips, channels: 1, sampleRate: sampleRate, wide: wide)
    }

    /// One clip of `channels` (1 or 2) channels, fed by `add` and `finish`.
    init(channels: Int, sampleRate: Int, wide: Bool = WideLoops.available) {
        self.init(clips: 1, channels: channels, sampleRate: sampleRate, wide: wide)
    }

    private init(clips: Int, channels: Int, sampleRate: Int, wide: Bool) {
        precondition((1...2).contains(channels) && (1...Self.width / channels).contains(clips), "one to four lanes")
        precondition(sampleRate % 10 == 0, "100 ms blocks of whole frames")
        self.channels = channels
        bank = KWeightingBank(sampleRate: sampleRate, wide: wide)
        self.clips = Array(repeating: Clip(blocks: GatingBlocks(sampleRate: sampleRate)), count: clips)
    }

    /// Measures every clip and its trailing silence. `next(clip)` hands over that clip's next
    /// chunk (read until the next call for the clip), nil at the clip's end.
    mutating func measure<E: Error>(_ next: (Int) throws(E) -> UnsafeBufferPointer<Float>?) throws(E) {
        try advance { (clip: Int) throws(E) -> Feed in try next(clip).map(Feed.samples) ?? .end }
    }

    /// Measures the next interleaved samples of the one clip (read only during the call).
    mutating func add(_ samples: UnsafeBufferPointer<Float>) {
        var given = false
        advance { (_: Int) -> Feed in
            defer { given = true }
            return given ? .later : .samples(samples)
        }
    }

    /// Ends the one clip: its trailing silence is measured.
    mutating func finish() {
        advance { (_: Int) -> Feed in .end }
    }

    /// Runs every clip in steps that end where the first of their stretches ends, until each is
    /// done or the one clip waits for samples.
    private mutating func advance<E: Error>(_ next: (Int) throws(E) -> Feed) throws(E) {
        while true {
            for i in clips.indices where clips[i].left == 0 && !clips[i].isDone {
                guard try begin(i, next) else { return }
            }
            var step = Int.max
            for clip in clips where !clip.isDone { step = min(step, clip.left) }
            if step == .max { return }
            if clips.contains(where: \.filtering) { filter(step) }
            for i in clips.indices where !clips[i].isDone {
                clips[i].left -= step
                if case .clip = clips[i].phase { clips[i].offset += step }
                if clips[i].left == 0 { end(i) }
            }
        }
    }

    /// Starts clip `i`'s next stretch: the rest of its chunk up to the block boundary, or the next
    /// step of its trailing silence; or marks it done. False when the clip waits for samples.
    private mutating func begin<E: Error>(_ i: Int, _ next: (Int) throws(E) -> Feed) throws(E) -> Bool {
        if case .clip = clips[i].phase {
            reading: while clips[i].offset == clips[i].chunk.count / channels {
                switch try next(i) {
                case .samples(let chunk): (clips[i].chunk, clips[i].offset) = (chunk, 0)
                case .end: break reading
                case .later: return false
                }
            }
            let frames = clips[i].chunk.count / channels
            if clips[i].offset < frames {
                clips[i].length = min(frames - clips[i].offset, clips[i].blocks.framesToBoundary)
                clips[i].left = clips[i].length
                return true
            }
            clips[i].phase = .tail(remaining: clips[i].blocks.tailFrames)
        }
        guard case .tail(let remaining) = clips[i].phase, remaining > 0 else {
            clips[i].phase = .done
            return true
        }
        // A quiet filter stays quiet until a block closes (nothing else moves what it is measured
        // against), so the steps of `GatingBlocks.tailStep` frames it would skip up to there are skipped in one.
        let first = i * channels
        clips[i].skipping = (first..<first + channels).allSatisfy { clips[i].blocks.isQuiet(bank.state($0)) }
        clips[i].length = min(clips[i].skipping ? remaining : GatingBlocks.tailStep, remaining, clips[i].blocks.framesToBoundary)
        clips[i].left = clips[i].length
        return true
    }

    /// Ends clip `i`'s stretch: its channels' energy into the block, their filters flushed.
    private mutating func end(_ i: Int) {
        let keep = clips[i].filtering, first = i * channels
        let energy = channels == 2
            ? bank.takeEnergy(first, keep: keep) + bank.takeEnergy(first + 1, keep: keep)
            : bank.takeEnergy(first, keep: keep)
        if keep { clips[i].blocks.current += energy }
        if case .tail(let remaining) = clips[i].phase { clips[i].phase = .tail(remaining: remaining - clips[i].length) }
        clips[i].skipping = false
        clips[i].blocks.advance(clips[i].length)
    }

    /// Filters `frames` frames in every lane of a filtering clip. A clip in its trailing silence
    /// reads zeros (such a stretch, and so every step while it lasts, is at most `GatingBlocks.tailStep` frames).
    private mutating func filter(_ frames: Int) {
        var filtering = 0
        for i in clips.indices where clips[i].filtering {
            for channel in 0..<channels {
                let lane = i * channels + channel
                filtering |= 1 << lane
                if case .clip = clips[i].phase {
                    bank.inputs[lane] = clips[i].chunk.baseAddress! + clips[i].offset * channels + channel
                } else {
                    precondition(frames <= GatingBlocks.tailStep, "a step of trailing silence longer than its zeros")
                    bank.inputs[lane] = Self.silence + channel
                }
            }
        }
        bank.run(frames, filtering: filtering, stride: channels)
    }
}
