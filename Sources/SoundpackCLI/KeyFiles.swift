// Reading the key files `keygen` writes: the secret key (publish --sign-key) and FILE.pub
// (verify --public-key), each one line of base64, read with a size cap.

import Foundation
import SoundpackKit

enum KeyFiles {
    /// A key file is one line of base64 (an Ed25519 secret key is 64 bytes, 88 characters).
    static let maxBytes = 1_024

    static func lines(_ file: String, what: String, _ context: CLIContext) throws(SoundpackError) -> [UInt8] {
        let data: [UInt8]
        do { data = try CappedFile.read(context.absolute(file), cap: maxBytes, what: what) } catch {
            throw .refused("cannot read the \(what) \(file.visible)", error.message, hint: "create one with soundpack keygen -o \(file)")
        }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let bytes = Data(base64Encoded: text) else { throw .refused("\(file.visible) is not a \(what) written by soundpack keygen") }
        return Array(bytes)
    }

    static func secretKey(_ file: String, _ context: CLIContext) throws(SoundpackError) -> SigningKey {
        guard let key = SigningKey(secretKey: try lines(file, what: "signing key", context)) else {
            throw .refused("\(file.visible) is not an Ed25519 secret key written by soundpack keygen")
        }
        return key
    }

    static func publicKey(_ file: String, _ context: CLIContext) throws(SoundpackError) -> [UInt8] {
        let key = try lines(file, what: "public key", context)
        guard key.count == 32 else { throw .refused("\(file.visible) is not an Ed25519 public key (FILE.pub from soundpack keygen)") }
        return key
    }
}
