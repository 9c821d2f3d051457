// `export --platform android` (DESIGN §3c): a folder an Android app ships as assets or downloads —
// soundpack.json (the pack, its clips' sizes and hashes, and the portable reading of §3b) and every
// clip as 16-bit PCM WAV in one format, named as Android resources may be named. A player joins the
// clips' samples as they are; they are the samples `render` joins, converted to 16 bits as it does.

import Foundation
import SoundpackCatalog
import SoundpackCore
import SoundpackPack
import SoundpackRendering
import SoundpackStore
import SoundpackSupport
import SoundpackValidation

/// The Android export of one pack.
public enum AndroidExport {
    /// The `format` of soundpack.json this soundpack writes.
    public static let format = 1
    /// The oldest player that reads what this soundpack writes (`minPlayerVersion`).
    public static let minPlayerVersion = 1

    /// soundpack.json, as `schemas/android-export.schema.json` describes it.
    public struct Document: Sendable, Encodable {
        /// One clip: its file under the export folder, its length in frames, and its bytes and SHA-256.
        public struct Clip: Sendable, Encodable {
            /// The file, relative to the export folder (`clips/sp_wechat_shi.wav`).
            public var file: String
            /// Its length in sample frames.
            public var frames: Int
            /// The file's size.
            public var bytes: Int
            /// The file's SHA-256, lowercase hex.
            public var sha256: String
        }

        /// The PCM format every clip has.
        public struct PCM: Sendable, Encodable {
            /// Frames per second.
            public var sampleRate: Int
            /// Channels per frame.
            public var channels: Int
            /// Always 16: signed little-endian samples.
            public var bitsPerSample = 16
        }

        /// This document's format (`AndroidExport.format`).
        public var format = AndroidExport.format
        /// The oldest player that reads it.
        public var minPlayerVersion = AndroidExport.minPlayerVersion
        /// The pack's id.
        public var id: String
        /// The pack's version.
        public var version: String
        /// The pack digest (pack.json fields and every clip's SHA-256).
        public var digest: String
        /// The largest amount the pack announces, an exact decimal.
        public var maxAmount: String
        /// The clips' one format.
        public var pcm: PCM
        /// Each phrase's pieces: clip keys, and `{amount}` where the reading goes.
        public var phrases: [String: [String]]
        /// The phrase said when a payment names none.
        public var defaultPhrase: String
        /// The written words of the pack's clips, as pack.json gives them.
        public var texts: [String: String]
        /// Every clip, by clip key.
        public var clips: [String: Clip]
        /// The reading as a table (DESIGN §3b).
        public var reading: ReadingTable
    }

    /// What was written.
    public struct Summary: Sendable {
        /// soundpack.json's content.
        public var document: Document
        /// The clip files, in listing order, with their sizes.
        public var files: [(name: String, bytes: Int)]
    }

    /// Writes the export of the pack in `folder` (which validates, every clip present) into the new
    /// folder `destination`: assembled beside it and renamed into place, so a failure leaves none.
    /// `digest` is the published version's (nil: the folder's own, as validate computes it).
    public static func write(_ folder: PackFolder, digest: String? = nil, into destination: String) throws(SoundpackError) -> Summary {
        let report = Validator().validate(folder: folder)
        guard report.errors == 0, let pack = report.packFile, let packDigest = digest ?? report.digest else {
            throw .refused("\(folder.shown) does not validate (\(report.errors) errors)", hint: "soundpack validate \(folder.shown)")
        }
        let renderer: PackRenderer
        do { renderer = try PackRenderer(directory: folder.path) } catch { throw error.context("cannot export \(folder.shown) for Android") }
        let names = clipNames(pack.id, keys: renderer.pcm16Clips.map(\.token.rawValue), grammar: pack.grammar)
        var files: [(name: String, data: Data)] = []
        var clips: [String: Document.Clip] = [:]
        for (token, samples) in renderer.pcm16Clips {
            let name = names[token.rawValue]!
            let data = wav(samples, sampleRate: renderer.sampleRate, channels: renderer.channels)
            files.append((name, data))
            clips[token.rawValue] = Document.Clip(file: "clips/\(name)", frames: samples.count / renderer.channels, bytes: data.count,
                                                  sha256: Digest.sha256Hex(data))
        }
        let phrases = VersionPhrases(pack.phrasebook, texts: pack.texts)
        let document = Document(id: pack.id, version: pack.version.description, digest: packDigest, maxAmount: pack.maxAmount.description,
                                pcm: .init(sampleRate: renderer.sampleRate, channels: renderer.channels), phrases: phrases.phrases,
                                defaultPhrase: phrases.defaultPhrase, texts: phrases.texts, clips: clips, reading: pack.grammar.readingTable)
        let json: Data
        do { json = try StoreJSON.encode(document, compact: true) } catch { throw error.context("cannot write soundpack.json") }
        try place(files, json: json, into: destination)
        return Summary(document: document, files: files.map { ($0.name, $0.data.count) })
    }

    /// Writes the export of a published version: its pack.json and clips read from `store`, each
    /// checked against the version's manifest, into a private folder under `temporaryFolder`, then
    /// exported as a folder is, with the published digest.
    public static func write(_ manifest: StoreManifest, from store: Store, temporaryFolder: String, into destination: String) throws(SoundpackError) -> Summary {
        let name = PackRef.name(manifest.id, manifest.version)
        let work = URL(fileURLWithPath: temporaryFolder).appendingPathComponent(StagingFolder.name("soundpack-export", "reading"))
        defer { try? FileManager.default.removeItem(at: work) }
        func verified(_ file: String, bytes: Int, sha256: String) throws(SoundpackError) -> Data {
            let key = StoreLayout.versionFile(manifest.id, manifest.version, file)
            guard let data = try store.backend.read(key) else { throw .environment("\(store.location)/\(key) is missing (soundpack verify checks the store)") }
            guard data.count == bytes, Digest.sha256Hex(data) == sha256 else {
                throw .environment("\(store.location)/\(key) does not match its manifest (soundpack verify checks the store)")
            }
            return data
        }
        let packJSON = try verified(manifest.packJSON.file, bytes: manifest.packJSON.bytes, sha256: manifest.packJSON.sha256)
        let pack: PackFile
        do { pack = try manifest.pack(describedBy: Array(packJSON)) } catch {
            throw .environment("\(name) in \(store.location) is not the version its manifest describes: \(error.description) (soundpack verify checks the store)")
        }
        do {
            try Folders.create(work.path)
            try FileBytes.write(packJSON, to: work.appendingPathComponent(PackFolder.packFile).path)
            for (key, clip) in manifest.clips {
                guard let path = pack.clips[key], PackPaths.unsafeReason(path, root: work) == nil else { continue }
                let data = try verified(clip.file, bytes: clip.bytes, sha256: clip.sha256)
                let target = work.appendingPathComponent(path)
                try Folders.create(target.deletingLastPathComponent().path)
                try FileBytes.write(data, to: target.path)
            }
        } catch let error as SoundpackError {
            throw error
        } catch {
            throw .environment("cannot read \(name) into \(temporaryFolder.visible)", "\(error)")
        }
        return try write(PackFolder(path: work.path, shown: name), digest: manifest.digest, into: destination)
    }

    /// Each clip key's file name, `sp_<id>_<stem>.wav`: the id's and stem's characters outside
    /// `[a-z0-9]` as `_`, so every name is `[a-z][a-z0-9_]*` (an Android resource name) and unique
    /// across packs; a stem that collides once folded gets `_2`, `_3` …
    package static func clipNames(_ id: String, keys: [String], grammar: Grammar) -> [String: String] {
        func folded(_ text: String) -> String {
            String(text.lowercased().unicodeScalars.map { ("a"..."z").contains($0) || ("0"..."9").contains($0) ? Character($0) : "_" })
        }
        let stems = grammar.fileStems(for: keys)
        var taken = Set<String>()
        var names: [String: String] = [:]
        for key in keys.sorted(by: grammar.precedes) {
            let base = "sp_\(folded(id))_\(folded(stems[key] ?? key))"
            var name = base, suffix = 2
            while !taken.insert(name).inserted {
                name = "\(base)_\(suffix)"
                suffix += 1
            }
            names[key] = name + ".wav"
        }
        return names
    }

    /// 16-bit PCM samples as a canonical WAV file: RIFF/WAVE, a 16-byte `fmt ` chunk (format 1),
    /// then `data`, little-endian.
    package static func wav(_ samples: [Int16], sampleRate: Int, channels: Int) -> Data {
        var out = Data()
        out.reserveCapacity(44 + samples.count * 2)
        func append<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { out.append(contentsOf: $0) } }
        let dataBytes = UInt32(samples.count * 2)
        out.append(contentsOf: Array("RIFF".utf8)); append(UInt32(36) + dataBytes)
        out.append(contentsOf: Array("WAVEfmt ".utf8)); append(UInt32(16))
        append(UInt16(1)); append(UInt16(channels)); append(UInt32(sampleRate))
        append(UInt32(sampleRate * channels * 2)); append(UInt16(channels * 2)); append(UInt16(16))
        out.append(contentsOf: Array("data".utf8)); append(dataBytes)
        samples.withUnsafeBufferPointer { buffer in
            for sample in buffer { append(sample) }
        }
        return out
    }

    /// Writes soundpack.json and clips/ into a staging folder beside `destination`, then renames it
    /// into place; `destination` must not exist.
    private static func place(_ files: [(name: String, data: Data)], json: Data, into destination: String) throws(SoundpackError) {
        let target = URL(fileURLWithPath: destination)
        if FileKind.at(target.path) != nil {
            throw .refused("\(destination.visible) already exists", hint: "the export is written as a new folder; remove it or choose another")
        }
        let parent = target.deletingLastPathComponent()
        StagingFolder.removeAbandoned(in: parent, for: target.lastPathComponent, "exporting")
        let staging = parent.appendingPathComponent(StagingFolder.name(target.lastPathComponent, "exporting"))
        var placed = false
        defer { if !placed { try? FileManager.default.removeItem(at: staging) } }
        do {
            try Folders.create(staging.appendingPathComponent("clips").path)
            var written: [String] = []
            for file in files {
                let path = staging.appendingPathComponent("clips").appendingPathComponent(file.name).path
                try FileBytes.write(file.data, to: path)
                written.append(path)
            }
            let manifest = staging.appendingPathComponent("soundpack.json").path
            try FileBytes.write(json, to: manifest)
            try FileBytes.syncAll(written + [manifest], folders: [staging.path, staging.appendingPathComponent("clips").path])
        } catch {
            throw .environment("cannot write \(destination.visible)", "\(error)")
        }
        guard rename(staging.path, target.path) == 0 else {
            throw .environment("cannot move the export into \(destination.visible)", String(cString: strerror(errno)))
        }
        placed = true
    }
}
