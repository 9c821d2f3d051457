// The one error a request ends with, from the engine up to the command line.

/// A request that could not be carried out: its kind (which picks the exit code of DESIGN §5, in
/// one place: the CLI's dispatch), what failed, why, and what to do. Printed as
/// `<what> — <why> (<hint>)`. Every layer throws this one type, under this one name;
/// errors whose code a caller branches on (SQLite's result codes, audio decoding, POSIX errno)
/// keep their own types and are wrapped into this one where they leave their module.
public struct SoundpackError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Which kind of failure this is; it picks the exit code.
    public enum Kind: Sendable, Equatable {
        /// The input or the request is at fault, or a check refused it (exit 1).
        case refused
        /// The command line is malformed (exit 2).
        case usage
        /// The environment failed: the catalog, the store, the disk, the network (exit 3).
        case environment
    }

    /// Whose fault the failure is, and so which exit code it ends with.
    public var kind: Kind
    /// What failed, as the message begins (`cannot read pack.json`).
    public var what: String
    /// Why it failed, printed after the dash; nil when `what` says it all.
    public var why: String?
    /// What to do about it, printed in parentheses; nil when there is nothing to suggest.
    public var hint: String?

    /// An error of `kind`: `what` failed, `why`, and the `hint` of what to do.
    public init(_ kind: Kind, _ what: String, why: String? = nil, hint: String? = nil) {
        self.kind = kind
        self.what = what
        self.why = why
        self.hint = hint
    }

    /// The input or the request is at fault, or a check refused it (exit 1).
    public static func refused(_ what: String, _ why: String? = nil, hint: String? = nil) -> SoundpackError {
        SoundpackError(.refused, what, why: why, hint: hint)
    }

    /// The command line is malformed (exit 2); `hint` names the right usage.
    public static func usage(_ what: String, hint: String? = nil) -> SoundpackError {
        SoundpackError(.usage, what, hint: hint)
    }

    /// The environment failed: the catalog, the store, the disk, the network (exit 3).
    public static func environment(_ what: String, _ why: String? = nil, hint: String? = nil) -> SoundpackError {
        SoundpackError(.environment, what, why: why, hint: hint)
    }

    /// This error as the reason `what` failed, of the same kind: `cannot publish — <this>`.
    public func context(_ what: String, hint: String? = nil) -> SoundpackError {
        SoundpackError(kind, what, why: description, hint: hint)
    }

    /// The same error, of another kind (for the code that knows better what failed).
    public func of(_ kind: Kind) -> SoundpackError {
        SoundpackError(kind, what, why: why, hint: hint)
    }

    /// The same error with `hint` as what to do (where the caller knows better, e.g. the flag).
    public func with(hint: String) -> SoundpackError {
        SoundpackError(kind, what, why: why, hint: hint)
    }

    /// The whole message, `<what> — <why> (<hint>)`, as `description` gives it.
    public var message: String { description }

    /// `<what> — <why> (<hint>)`, each part only when present.
    public var description: String {
        var text = what
        if let why { text += " — \(why)" }
        if let hint { text += " (\(hint))" }
        return text
    }
}
