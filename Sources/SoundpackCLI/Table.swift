// The aligned tables `list` and `show` print.

/// Left-aligned columns separated by two spaces; cells come from the catalog, so each is made
/// visible (no control character reaches the terminal, one row is one line).
enum Table {
    static func render(_ rows: [[String]]) -> String {
        let rows = rows.map { $0.map(\.visible) }
        var widths: [Int] = []
        for row in rows {
            for (i, cell) in row.enumerated() {
                if widths.count <= i { widths.append(0) }
                widths[i] = max(widths[i], displayWidth(cell))
            }
        }
        return rows.map { row in
            row.enumerated().map { i, cell in
                i == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[i] - displayWidth(cell) + 2)
            }.joined().trimmingTrailingSpaces()
        }.joined(separator: "\n") + "\n"
    }

    /// CJK characters take two terminal columns.
    static func displayWidth(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { $0 + ($1.value >= 0x1100 && $1.properties.isIdeographic || (0xFF00...0xFFEF).contains($1.value) ? 2 : 1) }
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var s = Substring(self)
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
