// "Did you mean …?" for mistyped commands, options and pack.json fields, as cargo and git suggest them.

public enum Suggestions {
    /// The candidate nearest to `word` by edit distance, when it is near enough to be what was
    /// meant (at most a third of its length, and at least one edit allowed).
    public static func nearest(_ word: String, among candidates: [String]) -> String? {
        let scored = candidates.map { ($0, distance(word, $0)) }
        guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
        return best.1 <= max(1, word.count / 3) ? best.0 : nil
    }

    /// Levenshtein distance over characters, in two rows.
    public static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }

    /// "; did you mean 'x'?" for `word` among `candidates`, or "" when none is near.
    public static func didYouMean(_ word: String, among candidates: [String]) -> String {
        nearest(word, among: candidates).map { "; did you mean '\($0)'?" } ?? ""
    }
}
