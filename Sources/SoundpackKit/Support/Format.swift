// Number formatting shared by messages and text reports.

import Foundation

public enum Format {
    /// `12`, `12.5`, `-50`: at most one decimal, no trailing zero.
    public static func number(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(format: "%.1f", rounded)
    }

    /// `2.350 s`.
    public static func seconds(_ value: Double) -> String { String(format: "%.3f s", value) }
}
