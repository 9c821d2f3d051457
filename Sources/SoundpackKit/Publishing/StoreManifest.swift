// Writing the store's files: the one JSON encoding (sorted keys, indented, final newline) applied to
// SoundpackCore's StoreManifest and StoreIndex.

import Foundation
import SoundpackCore

extension StoreManifest {
    public func encoded() throws(JSONWriteError) -> Data { try StoreJSON.encode(self) }
}

extension StoreIndex {
    public func encoded() throws(JSONWriteError) -> Data { try StoreJSON.encode(self) }
}
