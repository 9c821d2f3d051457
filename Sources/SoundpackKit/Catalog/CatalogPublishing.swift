// Catalog queries and writes for publishing: published versions, their facts, yanks, the index.

import Foundation
import SoundpackCore

/// A published version as the catalog holds it.
public struct PublishedVersion: Sendable, Equatable {
    public var id: String
    public var version: String
    public var digest: String
    public var publishedAt: String
    public var yanked: Bool
    public var yankReason: String?
    public var manifestSha256: String?
    public var tarSha256: String?
    public var zipSha256: String?
    public var keyID: String?
    /// Token → (store file, sha256)
    public var clips: [String: (file: String, sha256: String)]

    public static func == (a: PublishedVersion, b: PublishedVersion) -> Bool {
        a.id == b.id && a.version == b.version && a.digest == b.digest && a.yanked == b.yanked
    }
}

extension Catalog {
    /// Every published version, of one pack or of all.
    public func publishedVersions(of id: String? = nil) throws(CatalogError) -> [PublishedVersion] {
        let rows = try read("""
            SELECT v.id, v.pack_id, v.version, v.digest, v.published_at, v.yanked, v.yank_reason, v.manifest_sha256,
                   v.tar_sha256, v.zip_sha256, v.key_id
            FROM versions v WHERE v.published_at IS NOT NULL AND (?1 IS NULL OR v.pack_id = ?1) ORDER BY v.pack_id, v.id
            """, [id.map(SQLValue.text) ?? .null])
        var result: [PublishedVersion] = []
        for row in rows {
            var clips: [String: (String, String)] = [:]
            for clip in try read("SELECT token, store_file, sha256 FROM clips WHERE version_id = ?", [row[0]]) {
                clips[clip[0].string ?? ""] = (clip[1].string ?? "", clip[2].string ?? "")
            }
            result.append(PublishedVersion(
                id: row[1].string ?? "", version: row[2].string ?? "", digest: row[3].string ?? "", publishedAt: row[4].string ?? "",
                yanked: row[5].int == 1, yankReason: row[6].string, manifestSha256: row[7].string, tarSha256: row[8].string,
                zipSha256: row[9].string, keyID: row[10].string, clips: clips))
        }
        return result
    }

    /// The facts of a recorded version (published or validated) that decide compatibility.
    public func facts(of id: String, _ version: String) throws(CatalogError) -> VersionFacts? {
        guard let row = try read("SELECT id, version, digest, grammar, COALESCE(two, 'er'), max_amount FROM versions WHERE pack_id = ? AND version = ?",
                                 [.text(id), .text(version)]).first else { return nil }
        var clips: [String: (String, String)] = [:]
        for clip in try read("SELECT token, sha256, sample_rate, channels, codec FROM clips WHERE version_id = ?", [row[0]]) {
            let format = "\(clip[2].int ?? 0) Hz, \(clip[3].int ?? 0) ch, \(clip[4].string ?? "?")"
            clips[clip[0].string ?? ""] = (clip[1].string ?? "", format)
        }
        return VersionFacts(version: row[1].string ?? "", digest: row[2].string ?? "", grammar: row[3].string ?? "",
                            two: row[4].string ?? "er", maxAmount: row[5].string ?? "", clips: clips)
    }

    /// Records `manifest` as published, in one IMMEDIATE transaction. Returns false (and changes
    /// nothing) when the version was published meanwhile.
    public func recordPublication(_ manifest: StoreManifest, report: PackReport, manifestSha256: String, at date: Date) throws(CatalogError) -> Bool {
        let now = Self.timestamp(date)
        return try write { () throws -> Bool in
            let existing = try db.query("SELECT id, published_at FROM versions WHERE pack_id = ? AND version = ?",
                                        [.text(manifest.id), .text(manifest.version)]).first
            if let published = existing?[1], published != .null { return false }
            try db.query("INSERT INTO packs (id, name, grammar, created_at) VALUES (?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET name = excluded.name, grammar = excluded.grammar",
                         [.text(manifest.id), manifest.name.map(SQLValue.text) ?? .null, .text(manifest.grammar), .text(now)])
            let versionID: Int64
            if let rowID = existing?[0].int {
                versionID = rowID
                try db.query("DELETE FROM clips WHERE version_id = ?", [.integer(rowID)])
            } else {
                try db.query("INSERT INTO versions (pack_id, version, digest, grammar, max_amount, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
                             [.text(manifest.id), .text(manifest.version), .text(manifest.digest), .text(manifest.grammar),
                              .text(manifest.maxAmount), .text(now)])
                versionID = db.lastInsertedRowID
            }
            for (token, clip) in manifest.clips {
                let facts = report.clips.first { $0.token == token }?.facts
                try db.query("""
                    INSERT INTO clips (version_id, token, file, store_file, bytes, sha256, container, codec, bits, sample_rate, channels,
                                       frames, duration, peak_dbfs, leading_silence_ms, trailing_silence_ms, true_peak_dbtp,
                                       momentary_max_lufs, dc_offset_percent, clipped_runs)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                    [.integer(versionID), .text(token), .text(report.clips.first { $0.token == token }?.file ?? clip.file), .text(clip.file),
                     .integer(Int64(clip.bytes)), .text(clip.sha256), .text(clip.container), .text(clip.codec),
                     facts?.bitsPerSample.map { .integer(Int64($0)) } ?? .null, .integer(Int64(clip.sampleRate)),
                     .integer(Int64(clip.channels)), .integer(clip.frames), .real(clip.durationSeconds),
                     facts?.peakDbfs.map(SQLValue.real) ?? .null, facts.map { .real($0.leadingSilenceMs) } ?? .null,
                     facts.map { .real($0.trailingSilenceMs) } ?? .null, facts?.truePeakDbtp.map(SQLValue.real) ?? .null,
                     facts?.momentaryMaxLufs.map(SQLValue.real) ?? .null, facts.map { .real($0.dcOffsetPercent) } ?? .null,
                     facts.map { .integer(Int64($0.clippedRuns)) } ?? .null])
            }
            try db.query("""
                UPDATE versions SET digest = ?, grammar = ?, max_amount = ?, two = ?, manifest_sha256 = ?, tar_sha256 = ?, zip_sha256 = ?,
                                    key_id = ?, updated_at = ?, published_at = ?
                WHERE id = ?
                """,
                [.text(manifest.digest), .text(manifest.grammar), .text(manifest.maxAmount), .text(manifest.two), .text(manifestSha256),
                 manifest.archives[ArchiveKind.tarGzip.rawValue].map { .text($0.sha256) } ?? .null,
                 manifest.archives[ArchiveKind.zip.rawValue].map { .text($0.sha256) } ?? .null,
                 manifest.signingKey.map(SQLValue.text) ?? .null, .text(now), .text(now), .integer(versionID)])
            return true
        }
    }

    /// Marks a published version yanked. Returns false when it is not published.
    public func yank(_ id: String, _ version: String, reason: String, at date: Date) throws(CatalogError) -> Bool {
        try write { () throws -> Bool in
            guard let row = try db.query("SELECT id, yanked FROM versions WHERE pack_id = ? AND version = ? AND published_at IS NOT NULL",
                                         [.text(id), .text(version)]).first else { return false }
            if row[1].int == 1 { return true }
            try db.query("UPDATE versions SET yanked = 1, yank_reason = ?, yanked_at = ? WHERE id = ?",
                         [.text(reason), .text(Self.timestamp(date)), row[0]])
            return true
        }
    }

    /// The store index the catalog's published versions describe.
    public func storeIndex() throws(CatalogError) -> StoreIndex {
        var packs: [String: StoreIndex.Pack] = [:]
        for version in try publishedVersions() {
            var pack = packs[version.id] ?? StoreIndex.Pack(latest: nil, versions: [:])
            pack.versions[version.version] = StoreIndex.Version(
                digest: version.digest, manifest: "\(version.id)/\(version.version)/manifest.json",
                manifestSha256: version.manifestSha256 ?? "", publishedAt: version.publishedAt, yanked: version.yanked,
                yankReason: version.yankReason)
            packs[version.id] = pack
        }
        for (id, pack) in packs {
            packs[id]?.latest = pack.versions.filter { !$0.value.yanked }.keys.compactMap(SemanticVersion.init).max()?.description
        }
        return StoreIndex(packs: packs)
    }
}
