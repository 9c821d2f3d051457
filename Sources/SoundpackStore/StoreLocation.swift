// Where the store is: a folder, or an S3 bucket and prefix. The one way a command names a store.

import Foundation
import SoundpackCore
import SoundpackSupport

/// Where the store is: a folder, or an S3 bucket and prefix.
public enum StoreLocation: Sendable, Equatable, CustomStringConvertible {
    /// A folder: read at `path` (absolute), shown as written.
    case directory(path: String, shown: String)
    /// `s3://bucket/prefix`, at `endpoint` (nil: the environment's or AWS's).
    case s3(url: String, endpoint: String?)

    /// `named` as a user writes it: `s3://…`, or a folder relative to `workingDirectory`.
    package init(_ named: String, endpoint: String? = nil, workingDirectory: String) {
        if named.hasBytePrefix("s3://") {
            self = .s3(url: named, endpoint: endpoint)
        } else {
            let path = named.hasPrefix("/") ? named : URL(fileURLWithPath: workingDirectory).appendingPathComponent(named).path
            self = .directory(path: path, shown: named)
        }
    }

    /// The location as the user wrote it: the folder, or the `s3://` URL.
    public var description: String {
        switch self {
        case .directory(_, let shown): return shown
        case .s3(let url, _): return url
        }
    }

    /// The store, with S3 credentials and region from `environment` (`AWS_*`).
    public func open(environment: [String: String]) throws(SoundpackError) -> Store {
        switch self {
        case .directory(let path, let shown): return Store.directory(path, shown: shown)
        case .s3(let url, let endpoint):
            return Store(backend: try S3Store(S3Location(url: url, endpoint: endpoint, environment: environment)))
        }
    }
}
