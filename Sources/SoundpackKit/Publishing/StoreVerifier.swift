// `verify`: recomputes every hash in the store and compares it with the manifests and the catalog.

import Foundation

/// One difference between the store and what the catalog and manifests say it holds.
public struct Drift: Sendable, Codable, Equatable {
    public enum Kind: String, Sendable, Codable { case missing, changed, unexpected, index, signature }
    public var kind: Kind
    public var path: String
    public var detail: String
}

public struct StoreVerifier {
    public let catalog: Catalog
    public let store: String
    /// Public keys by key id, to check manifest signatures.
    public var publicKeys: [String: [UInt8]] = [:]

    public init(catalog: Catalog, store: String) {
        self.catalog = catalog
        self.store = store
    }

    /// Every drift found, and how many files were checked.
    public func verify() throws(CatalogError) -> (drifts: [Drift], filesChecked: Int) {
        var drifts: [Drift] = []
        var expected: Set<String> = ["index.json", ".soundpack.lock"]
        var checked = 0
        func file(_ relative: String) -> [UInt8]? {
            FileManager.default.contents(atPath: store + "/" + relative).map(Array.init)
        }
        func check(_ relative: String, sha256: String?, against source: String) {
            expected.insert(relative)
            guard let bytes = file(relative) else {
                drifts.append(Drift(kind: .missing, path: relative, detail: "listed in the \(source) but not in the store"))
                return
            }
            checked += 1
            let actual = Digest.sha256Hex(bytes)
            if let sha256, actual != sha256 {
                drifts.append(Drift(kind: .changed, path: relative, detail: "SHA-256 is \(actual.prefix(16))…, the \(source) says \(sha256.prefix(16))…"))
            }
        }

        for version in try catalog.publishedVersions() {
            let base = "\(version.id)/\(version.version)"
            check("\(base)/manifest.json", sha256: version.manifestSha256, against: "catalog")
            guard let bytes = file("\(base)/manifest.json"),
                  let manifest = try? JSONDecoder().decode(StoreManifest.self, from: Data(bytes)) else { continue }
            if manifest.digest != version.digest {
                drifts.append(Drift(kind: .changed, path: "\(base)/manifest.json", detail: "digest differs from the catalog's"))
            }
            for (token, clip) in manifest.clips {
                check("\(base)/\(clip.file)", sha256: clip.sha256, against: "manifest")
                if let recorded = version.clips[token], recorded.sha256 != clip.sha256 || recorded.file != clip.file {
                    drifts.append(Drift(kind: .changed, path: "\(base)/\(clip.file)", detail: "the manifest and the catalog disagree on token '\(token)'"))
                }
            }
            if Set(manifest.clips.keys) != Set(version.clips.keys) {
                drifts.append(Drift(kind: .changed, path: "\(base)/manifest.json", detail: "its tokens differ from the catalog's"))
            }
            check("\(base)/\(manifest.packJSON.file)", sha256: manifest.packJSON.sha256, against: "manifest")
            for (kind, archive) in manifest.archives {
                let recorded = kind == ArchiveKind.tarGzip.rawValue ? version.tarSha256 : version.zipSha256
                check("\(base)/\(archive.file)", sha256: archive.sha256, against: "manifest")
                if let recorded, recorded != archive.sha256 {
                    drifts.append(Drift(kind: .changed, path: "\(base)/\(archive.file)", detail: "the manifest and the catalog disagree"))
                }
            }
            if let keyID = manifest.signingKey {
                expected.insert("\(base)/manifest.json.sig")
                let text = file("\(base)/manifest.json.sig").map { String(decoding: $0, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) }
                if let text, let signature = Data(base64Encoded: text) {
                    if let key = publicKeys[keyID], !SigningKey.verify(Array(signature), of: bytes, publicKey: key) {
                        drifts.append(Drift(kind: .signature, path: "\(base)/manifest.json.sig", detail: "the signature by key \(keyID) does not match manifest.json"))
                    }
                } else {
                    drifts.append(Drift(kind: .missing, path: "\(base)/manifest.json.sig", detail: "the manifest is signed by key \(keyID) but the signature is missing or unreadable"))
                }
            }
        }

        let index = try catalog.storeIndex()
        if let bytes = file("index.json") {
            checked += 1
            let stored = try? JSONDecoder().decode(StoreIndex.self, from: Data(bytes))
            if stored != index {
                drifts.append(Drift(kind: .index, path: "index.json", detail: "does not match the catalog (soundpack publish rewrites it)"))
            }
        } else if !index.packs.isEmpty {
            drifts.append(Drift(kind: .missing, path: "index.json", detail: "the store has no index"))
        }

        if let walker = FileManager.default.enumerator(atPath: store) {
            for case let relative as String in walker {
                var isFolder: ObjCBool = false
                guard FileManager.default.fileExists(atPath: store + "/" + relative, isDirectory: &isFolder), !isFolder.boolValue else { continue }
                if !expected.contains(relative) {
                    drifts.append(Drift(kind: .unexpected, path: relative, detail: "in the store but in no manifest"))
                }
            }
        }
        return (drifts.sorted { ($0.path, $0.kind.rawValue) < ($1.path, $1.kind.rawValue) }, checked)
    }
}
