// Number formatting shared by messages and text reports.

import Foundation

package enum Format {
    /// `12`, `12.5`, `-50`: at most one decimal, no trailing zero.
    package static func number(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(format: "%.1f", rounded)
    }

    /// `2.350 s`.
    package static func seconds(_ value: Double) -> String { String(format: "%.3f s", value) }

    /// `1,612,800 bytes (1.54 MiB)`, `432,000 bytes (422 KiB)`: exact, and readable at a glance.
    package static func bytes(_ count: Int64) -> String {
        var grouped = "", digits = Array(String(count))
        while digits.count > 3 {
            grouped = "," + String(digits.suffix(3)) + grouped
            digits.removeLast(3)
        }
        grouped = String(digits) + grouped
        let kib = Double(count) / 1024
        let readable = kib >= 1024 ? String(format: "%.2f MiB", kib / 1024) : String(format: "%.0f KiB", kib)
        return "\(grouped) bytes (\(readable))"
    }
}
