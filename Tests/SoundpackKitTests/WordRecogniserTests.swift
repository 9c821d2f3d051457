// The recogniser audio.wrong-word asks keeps what it holds bounded across many packs.

import Testing
@testable import SoundpackAudio

@Suite struct WordRecogniserTests {
    /// Grammars of more different word sets than a decoder keeps: the searches stay at most
    /// `searchesKept`, and the decoder still hears after they were dropped.
    @Test(.enabled(if: WordRecogniser.unavailable == nil, "pocketsphinx or its US English model is not installed (scripts/bootstrap.sh installs both)"))
    func searchesStayBounded() throws {
        let words = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"]
        let pairs = words.indices.flatMap { a in words.indices.filter { $0 > a }.map { (words[a], words[$0]) } }
        let silence = [Int16](repeating: 0, count: 3_200)
        let counts = WordRecogniser.with { recogniser in
            pairs.map { a, b in
                _ = recogniser.heard(silence, expected: a, among: [a, b])
                return recogniser.searchCount
            }
        }
        let seen = try counts.get()
        #expect(pairs.count > WordRecogniser.searchesKept)
        #expect(seen.allSatisfy { $0 <= WordRecogniser.searchesKept }, "\(seen.max() ?? 0) searches held")
        #expect(seen.last ?? 0 > 0)
    }
}
