// Putting a finished file in place on the phone: written under a temporary name in the same
// folder, then renamed over the target, so a reader (or a killed extension) sees the old file or
// the new one, never part of either.

import Foundation

enum FileReplacement {
    /// Renames `temporary` to `target` in one step, replacing `target` if it exists (rename(2)).
    /// On failure the temporary file is removed.
    static func move(_ temporary: URL, over target: URL) throws {
        guard rename(temporary.path, target.path) == 0 else {
            let code = POSIXErrorCode(rawValue: errno) ?? .EIO
            try? FileManager.default.removeItem(at: temporary)
            throw POSIXError(code)
        }
    }

    /// Writes `data` to a temporary file in `target`'s folder and renames it over `target`.
    static func write(_ data: Data, to target: URL, temporaryName: String) throws {
        let temporary = target.deletingLastPathComponent().appendingPathComponent(temporaryName)
        do { try data.write(to: temporary) } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
        try move(temporary, over: target)
    }
}
