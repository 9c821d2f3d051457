// The file names of a pack's clips, decided for all of its keys at once: two clips never share a
// file, whatever their keys (a phrase clip `dian` and the grammar's 点, whose stem is also `dian`).

extension Grammar {
    /// A file name stem for every key in `keys`, distinct even where file systems ignore case: a
    /// grammar token keeps its ASCII stem (十 → shi), any other key its own name reduced to
    /// `[A-Za-z0-9_-]`. Keys claim their stem in listing order (the grammar's tokens first), and a key
    /// whose stem is already claimed gets the first free `stem-2`, `stem-3`…; the same keys always
    /// get the same names.
    public func fileStems<Keys: Sequence<String>>(for keys: Keys) -> [String: String] {
        // `precedes`, with the grammar's tokens looked up once rather than at every comparison.
        let known = Dictionary(inventory.map { ($0.rawValue, $0) }, uniquingKeysWith: { first, _ in first })
        let ordered = Set(keys).sorted { a, b in
            switch (known[a], known[b]) {
            case let (x?, y?): return x < y
            case (.some, nil): return true
            case (nil, .some): return false
            case (nil, nil): return a < b
            }
        }
        let natural = ordered.enumerated().map { index, key in known[key].map(fileStem) ?? Self.safeStem(key, index: index) }
        var taken = Set<String>()
        var stems: [String: String] = [:]
        var clashing: [(key: String, stem: String)] = []
        for (key, stem) in zip(ordered, natural) {
            if taken.insert(stem.lowercased()).inserted { stems[key] = stem } else { clashing.append((key, stem)) }
        }
        // After every natural name is claimed, so a key named `dian-2` keeps its own name.
        for (key, stem) in clashing {
            var number = 2
            while taken.contains("\(stem)-\(number)".lowercased()) { number += 1 }
            taken.insert("\(stem)-\(number)".lowercased())
            stems[key] = "\(stem)-\(number)"
        }
        return stems
    }

    /// `key` reduced to ASCII letters, digits, `-` and `_`; `clip-INDEX` when nothing is left.
    static func safeStem(_ key: String, index: Int) -> String {
        let safe = String(key.unicodeScalars.filter { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_") })
        return safe.isEmpty ? "clip-\(index)" : safe
    }
}
