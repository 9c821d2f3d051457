// Reading the key files `keygen` writes: the secret key (publish --sign-key) and FILE.pub
// (verify --public-key), each one line of base64, read with a size cap.

import Foundation
import SoundpackKit

enum KeyFiles {
    /// A key file is one line of base64 (an Ed25519 secret key is 64 bytes, 88 characters).
    static let maxBytes = 1_024

    /// A key file that cannot be read is an I/O failure (exit 3) whose hint names the keygen
    /// command that writes it; one that is not a key is refused (exit 1).
    static func lines(_ file: String, what: String, writtenBy keygen: String, _ context: CLIContext) throws(SoundpackError) -> [UInt8] {
        let data: [UInt8]
        let path = context.absolute(file)
        do { data = try CappedFile.read(path, cap: maxBytes, what: what) } catch {
            // keygen writes the file that is not there; a file that is there but is not a key (a
            // folder, 2 MB) is not keygen's, and is refused as such.
            var info = stat()
            guard lstat(path, &info) == 0 else { throw error.cause(of: .environment, "cannot read the \(what) \(file.visible)", hint: keygen) }
            throw error.cause(of: .refused, "\(file.visible) is not a \(what) written by soundpack keygen")
        }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let bytes = Data(base64Encoded: text) else { throw .refused("\(file.visible) is not a \(what) written by soundpack keygen") }
        return Array(bytes)
    }

    static func secretKey(_ file: String, _ context: CLIContext) throws(SoundpackError) -> SigningKey {
        guard let key = SigningKey(secretKey: try lines(file, what: "signing key", writtenBy: "soundpack keygen -o \(file) writes one", context)) else {
            throw .refused("\(file.visible) is not an Ed25519 secret key written by soundpack keygen")
        }
        return key
    }

    static func publicKey(_ file: String, _ context: CLIContext) throws(SoundpackError) -> [UInt8] {
        let secret = file.hasSuffix(".pub") ? String(file.dropLast(4)) : file
        let key = try lines(file, what: "public key", writtenBy: "soundpack keygen -o \(secret) writes \(secret).pub beside the secret key \(secret)", context)
        guard key.count == 32 else { throw .refused("\(file.visible) is not an Ed25519 public key (FILE.pub from soundpack keygen)") }
        return key
    }
}
