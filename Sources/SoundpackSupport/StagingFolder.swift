// Hidden folders a command builds its result in before renaming it into place
// (`.DEST.converting-PID-N`, `.DEST.importing-PID-N`). A killed run leaves one behind; the next run
// for the same destination removes those whose process is gone.

import Foundation

package enum StagingFolder {
    /// `.NAME.PURPOSE-`: every staging folder for `destinationName` starts so. Hidden, so `publish`
    /// never takes one for a pack.
    package static func prefix(_ destinationName: String, _ purpose: String) -> String { ".\(destinationName).\(purpose)-" }

    /// A new staging name for this process.
    package static func name(_ destinationName: String, _ purpose: String) -> String {
        "\(prefix(destinationName, purpose))\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    }

    /// Removes staging folders for `destinationName` in `parent` whose owning process is gone.
    package static func removeAbandoned(in parent: URL, for destinationName: String, _ purpose: String) {
        let prefix = prefix(destinationName, purpose)
        for name in (try? FileManager.default.contentsOfDirectory(atPath: parent.path)) ?? [] where name.hasPrefix(prefix) {
            let owner = name.dropFirst(prefix.count).split(separator: "-").first.flatMap { Int32($0) }
            guard let owner, owner != getpid(), kill(owner, 0) != 0, errno == ESRCH else { continue }
            try? FileManager.default.removeItem(at: parent.appendingPathComponent(name))
        }
    }
}
