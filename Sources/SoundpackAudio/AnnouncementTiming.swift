// The length of an announcement in frames: its clips end to end, with an optional gap between
// clips. compose.too-long and render both count with this, so they agree to the frame.

import SoundpackCore
import Synchronization

package struct AnnouncementTiming: Sendable {
    /// Frames of each token's clip, by `Token.ordinal`; nil where the pack has no usable clip.
    package var clipFrames: [Int64?]
    /// Frames of silence between consecutive clips (none before the first or after the last).
    package var gapFrames: Int64

    package init(clipFrames: [Token: Int64], gapFrames: Int64 = 0) {
        var frames = [Int64?](repeating: nil, count: (clipFrames.keys.map(\.ordinal).max() ?? -1) + 1)
        for (token, count) in clipFrames { frames[token.ordinal] = count }
        self.clipFrames = frames
        self.gapFrames = gapFrames
    }

    package func frames(of token: Token) -> Int64? { token.ordinal < clipFrames.count ? clipFrames[token.ordinal] : nil }

    /// Total frames of the clips of `tokens` played in order with gaps between them.
    package func frames(of tokens: [Token]) -> Int64 {
        guard !tokens.isEmpty else { return 0 }
        var total = gapFrames * Int64(tokens.count - 1)
        for token in tokens { total += frames(of: token) ?? 0 }
        return total
    }

    /// The phrase and amount up to `maximum` whose announcement lasts longest (the amount nil for
    /// a phrase that says none); nil when a clip one may need is missing.
    package func longest(_ phrasebook: Phrasebook, upTo maximum: Amount) -> (phrase: Phrase, amount: Amount?, tokens: [Token], frames: Int64)? {
        for token in phrasebook.memoizedRequiredTokens(upTo: maximum) where frames(of: token) == nil { return nil }
        let best = phrasebook.costliest(upTo: maximum, cost: { self.frames(of: $0) ?? 0 }, gap: gapFrames)
        return (best.phrase, best.amount, best.tokens, best.cost)
    }
}

extension Phrasebook {
    private struct RequiredKey: Hashable { var phrasebook: Phrasebook, maximum: Amount }
    private static let requiredMemo = Mutex<[RequiredKey: Set<Token>]>([:])

    /// `requiredTokens(upTo:)`, searched once per phrasebook and maximum in a process: every
    /// pack of one grammar and maximum needs the same tokens, and a run over many packs would
    /// otherwise repeat the search for each.
    package func memoizedRequiredTokens(upTo maximum: Amount) -> Set<Token> {
        let key = RequiredKey(phrasebook: self, maximum: maximum)
        if let known = Self.requiredMemo.withLock({ $0[key] }) { return known }
        let tokens = requiredTokens(upTo: maximum)
        Self.requiredMemo.withLock { memo in
            if memo.count >= 64 { memo.removeAll() }  // packs are of a handful of kinds; stay bounded anyway
            memo[key] = tokens
        }
        return tokens
    }
}
