import SoundpackCore
import SoundpackSupport

/// `file.unsafe-name` (warning): a clip path with characters outside `[A-Za-z0-9._-]`. Such names
/// need escaping in URLs, can differ between NFC and NFD file systems, and make poor sound names.
struct FileUnsafeName: PackRule {
    static let id = RuleID.fileUnsafeName
    static let severity = Severity.warning
    static let summary = "A clip path uses characters outside A-Z a-z 0-9 . _ -, which need URL escaping and differ between NFC and NFD."

    func check(_ pack: InspectedPack) -> [Finding] {
        pack.clips.filter { $0.unsafePath == nil && !Self.isSafe($0.path) }.map { clip in
            finding(token: clip.key, file: clip.path,
                    "file name uses characters outside A-Z a-z 0-9 . _ -; rename it (for example clips/shi.caf)")
        }
    }

    static func isSafe(_ path: String) -> Bool {
        path.slashSeparated.allSatisfy { component in
            !component.isEmpty && component.unicodeScalars.allSatisfy { s in
                (s >= "a" && s <= "z") || (s >= "A" && s <= "Z") || (s >= "0" && s <= "9") || s == "." || s == "_" || s == "-"
            }
        }
    }
}

extension RuleID {
    /// `file.unsafe-name`, declared by `FileUnsafeName`.
    public static let fileUnsafeName = RuleID(declaring: "file.unsafe-name")
}
