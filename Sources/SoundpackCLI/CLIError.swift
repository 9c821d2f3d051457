// Errors a command ends with, each mapped to an exit code of DESIGN §5.

/// Exit codes of DESIGN §5.
public enum ExitCode: Int32, Sendable {
    case success = 0
    /// A check failed or a request was refused.
    case failure = 1
    case usage = 2
    /// Environment or I/O failure (catalog, store, disk).
    case environment = 3
}

/// A failure printed as `error: <what> — <why> (<hint>)`.
struct CLIError: Error, CustomStringConvertible {
    var code: ExitCode
    var what: String
    var why: String?
    var hint: String?

    static func usage(_ what: String, hint: String? = nil) -> CLIError { CLIError(code: .usage, what: what, why: nil, hint: hint) }
    static func failure(_ what: String, _ why: String? = nil, hint: String? = nil) -> CLIError {
        CLIError(code: .failure, what: what, why: why, hint: hint)
    }
    static func environment(_ what: String, _ why: String? = nil, hint: String? = nil) -> CLIError {
        CLIError(code: .environment, what: what, why: why, hint: hint)
    }

    var description: String {
        var text = what
        if let why { text += " — \(why)" }
        if let hint { text += " (\(hint))" }
        return text
    }
}
