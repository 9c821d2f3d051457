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

    /// Which input of the request is at fault, when one is, as the engine names it (a pack.json
    /// field such as `maxAmount` or `source.voice`): the caller that knows where the input came
    /// from (a command-line flag) phrases the error with it.
    public var input: String?

    /// The same error, naming `input` as the one at fault.
    public func about(input: String) -> SoundpackError {
        var copy = self
        copy.input = input
        return copy
    }

    /// The error this one adds context to, kept as a value (not flattened to text), and how
    /// the message joins it: `cannot publish — <cause>` or `catalog: <cause>`.
    public var cause: SoundpackError? { causes.first }
    /// How `description` joins `what` and the cause.
    public private(set) var joint = Joint.dash
    /// Zero or one element: the indirection a struct needs to hold a value of its own type.
    private var causes: [SoundpackError] = []

    /// How a message joins what failed and the error that caused it.
    public enum Joint: Sendable, Equatable {
        /// `<what> — <cause>`, as `why` is joined.
        case dash
        /// `<what>: <cause>`, where the cause reads as the rest of one sentence.
        case colon
    }

    /// An error of `kind`: `what` failed, `why`, and the `hint` of what to do.
    public init(_ kind: Kind, _ what: String, why: String? = nil, hint: String? = nil) {
        self.kind = kind
        self.what = what
        self.why = why
        self.hint = hint
    }

    /// An error of `kind`: `what` failed because of `cause` (kept as it is), and the `hint`. The
    /// input at fault is the cause's.
    public init(_ kind: Kind, _ what: String, cause: SoundpackError, joint: Joint = .dash, hint: String? = nil) {
        self.init(kind, what, hint: hint)
        causes = [cause]
        self.joint = joint
        input = cause.input
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
        SoundpackError(kind, what, cause: self, hint: hint)
    }

    /// This error as the cause of a failure of `kind` (the caller knows better whose fault it is):
    /// `<what> — <this>`, or `<what>: <this>` with the `.colon` joint.
    public func cause(of kind: Kind, _ what: String, joint: Joint = .dash, hint: String? = nil) -> SoundpackError {
        SoundpackError(kind, what, cause: self, joint: joint, hint: hint)
    }

    /// The same error, of another kind (for the code that knows better what failed).
    public func of(_ kind: Kind) -> SoundpackError {
        var copy = self
        copy.kind = kind
        return copy
    }

    /// The same error with `hint` as what to do (where the caller knows better, e.g. the flag).
    public func with(hint: String) -> SoundpackError {
        var copy = self
        copy.hint = hint
        return copy
    }

    /// The same error with `hint` added after any it has (`<its hint>; <hint>`).
    public func adding(hint: String) -> SoundpackError {
        with(hint: self.hint.map { "\($0); \(hint)" } ?? hint)
    }

    /// `<what> — <why> (<hint>)`, each part only when present; a cause in place of `why`, joined
    /// as `joint` says.
    public var description: String {
        var text = what
        if let cause { text += joint == .dash ? " — \(cause.description)" : ": \(cause.description)" }
        if let why { text += " — \(why)" }
        if let hint { text += " (\(hint))" }
        return text
    }
}
