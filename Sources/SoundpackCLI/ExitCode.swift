// Exit codes of DESIGN §5, and the one place an error's kind picks one.

import SoundpackKit

/// Exit codes of DESIGN §5.
public enum ExitCode: Int32, Sendable {
    case success = 0
    /// A check failed or a request was refused.
    case failure = 1
    case usage = 2
    /// Environment or I/O failure (catalog, store, disk).
    case environment = 3
}

extension SoundpackError {
    /// The exit code a command that ends with this error returns.
    var code: ExitCode {
        switch kind {
        case .refused: return .failure
        case .usage: return .usage
        case .environment: return .environment
        }
    }
}
