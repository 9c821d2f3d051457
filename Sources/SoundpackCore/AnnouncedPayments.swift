// The payments a phone has announced, so that one payment is never spoken twice: not when APNs
// delivers a push again, not when the server sends it twice, not when the app's foreground handler
// sees it too. Cloud speakers keep such an id for the same reason.

import Foundation

/// A payment's identifier as a push carries it (`"paymentId"`, written by `soundpack payload`),
/// checked once where it is read: a value of this type is valid.
public struct PaymentID: Sendable, Hashable, CustomStringConvertible {
    /// The id as the push carries it.
    public let text: String

    /// `text` as a payment id; nil unless `isValid(text)`.
    public init?(_ text: String) {
        guard Self.isValid(text) else { return nil }
        self.text = text
    }

    /// A fresh id: a lowercase UUID.
    public static func random() -> PaymentID {
        PaymentID(checked: UUID().uuidString.lowercased())
    }

    private init(checked text: String) { self.text = text }

    /// The id as the push carries it.
    public var description: String { text }

    /// 1–128 characters of `[A-Za-z0-9._:-]`, starting with a letter or digit: a UUID, an order
    /// number, a provider's transaction id. Anything else is refused by `payload lint` and ignored
    /// by the phone (which then falls back to the push's own identifier).
    public static func isValid(_ text: String) -> Bool {
        let scalars = text.unicodeScalars
        guard let first = scalars.first, scalars.count <= 128, first.isASCII, first.properties.isAlphabetic || ("0"..."9").contains(first) else { return false }
        return scalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || ".:_-".unicodeScalars.contains($0)) }
    }
}

/// A small bounded record of announced payments in a folder of the App Group container: one empty
/// marker file per payment, named by the SHA-256 of its id and created exclusively (`O_EXCL`), so
/// two processes (the extension handling a retry, the app in the foreground) claiming the same id
/// at the same moment cannot both win. Beyond `limit` markers the oldest are removed.
public struct AnnouncedPayments: Sendable {
    public let folder: URL
    public let limit: Int
    private let hasher: any SHA256Hashing

    public init(folder: URL, limit: Int = 256, hasher: any SHA256Hashing = PortableSHA256()) {
        self.folder = folder
        self.limit = max(1, limit)
        self.hasher = hasher
    }

    /// Records `paymentID` as announced and returns true, or returns false when it already was.
    /// When the record cannot be written at all (no container, a full disk) it returns true: a
    /// payment spoken once more is better than a payment never spoken.
    public func claim(_ paymentID: String) -> Bool {
        do { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) } catch { return true }
        let descriptor = open(marker(paymentID).path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        if descriptor < 0 { return errno != EEXIST }
        close(descriptor)
        prune()
        return true
    }

    /// Whether `paymentID` was announced (for the app's foreground handler, which should not speak it again).
    public func wasAnnounced(_ paymentID: String) -> Bool {
        FileManager.default.fileExists(atPath: marker(paymentID).path)
    }

    private func marker(_ paymentID: String) -> URL {
        folder.appendingPathComponent("payment-\(hasher.sha256Hex(Data(paymentID.utf8)).prefix(32))")
    }

    /// Removes the oldest markers beyond the limit.
    private func prune() {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path), names.count > limit else { return }
        let markers = names.filter { $0.hasPrefix("payment-") }.map { name -> (String, Date) in
            let path = folder.appendingPathComponent(name).path
            return (path, ((try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date) ?? .distantPast)
        }
        for (path, _) in markers.sorted(by: { $0.1 < $1.1 }).prefix(max(0, markers.count - limit)) {
            try? FileManager.default.removeItem(atPath: path)
        }
    }
}
