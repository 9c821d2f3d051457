// The one error a request ends with, from the engine up to the command line.

/// A request that could not be carried out: its kind (which picks the exit code of DESIGN §5, in
/// one place: the CLI's dispatch), what failed, why, and what to do. Printed as
/// `<what> — <why> (<hint>)`. The domain names (`CatalogError`, `StoreError`, …) are this type;
/// errors whose code a caller branches on (SQLite's result codes, audio decoding, POSIX errno)
/// keep their own types and are wrapped into this one where they leave their module.
public struct SoundpackError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The input or the request is at fault, or a check refused it (exit 1).
        case refused
        /// The command line is malformed (exit 2).
        case usage
        /// The environment failed: the catalog, the store, the disk, the network (exit 3).
        case environment
    }

    public var kind: Kind
    public var what: String
    public var why: String?
    public var hint: String?

    public init(_ kind: Kind, _ what: String, why: String? = nil, hint: String? = nil) {
        self.kind = kind
        self.what = what
        self.why = why
        self.hint = hint
    }

    /// An environment failure: the kind most engine errors are (a catalog, a store, a file).
    public init(_ message: String) {
        self.init(.environment, message)
    }

    public static func refused(_ what: String, _ why: String? = nil, hint: String? = nil) -> SoundpackError {
        SoundpackError(.refused, what, why: why, hint: hint)
    }

    public static func usage(_ what: String, hint: String? = nil) -> SoundpackError {
        SoundpackError(.usage, what, hint: hint)
    }

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

    public var message: String { description }

    public var description: String {
        var text = what
        if let why { text += " — \(why)" }
        if let hint { text += " (\(hint))" }
        return text
    }
}

public typealias CatalogError = SoundpackError
public typealias StoreError = SoundpackError
package typealias ArchiveError = SoundpackError
public typealias ExportError = SoundpackError
public typealias RenderError = SoundpackError
package typealias ReportError = SoundpackError
package typealias CappedFileError = SoundpackError
public typealias JSONWriteError = SoundpackError
