// The rows SQLCatalog reads, each named once by its columns (`CodingKeys`) and decoded by
// `SQLRow.decode`, on SQLite and PostgreSQL alike: no column read by hand, no NULL defaulted.

import Foundation
import SoundpackAudio
import SoundpackCore

/// `packs()`: a pack with its counts and last validation.
struct PackRow: Decodable {
    var id: String
    var name: String?
    var grammar: String
    var publishedCount: Int
    var lastValidated: Date?
    var lastResult: String?

    enum CodingKeys: String, CodingKey {
        case id, name, grammar, publishedCount = "published_count", lastValidated = "last_validated", lastResult = "last_result"
    }
}

/// `packs()`: one version of a pack, whether published and yanked.
struct PackVersionRow: Decodable {
    var version: String
    var published: Bool
    var yanked: Bool
}

/// A version's clip, as `version(of:)` shows it and `versionRecord(of:)` compares it.
struct ClipRow: Decodable {
    var token: String
    var file: String
    var storeFile: String?
    /// What validation measured; nil for a clip it could not read.
    var facts: ClipFacts?

    enum CodingKeys: String, CodingKey {
        case token, file, storeFile = "store_file", bytes, sha256, container, codec, bits, sampleRate = "sample_rate", channels, frames, duration
        case peakDbfs = "peak_dbfs", truePeakDbtp = "true_peak_dbtp", momentaryMaxLufs = "momentary_max_lufs"
        case leadingSilenceMs = "leading_silence_ms", trailingSilenceMs = "trailing_silence_ms", dcOffsetPercent = "dc_offset_percent"
        case clippedRuns = "clipped_runs"
    }

    /// The columns the clip queries select, for `SELECT \(ClipRow.columns) FROM clips …`.
    static let columns = """
        token, file, store_file, bytes, sha256, container, codec, bits, sample_rate, channels, frames, duration, peak_dbfs, true_peak_dbtp,
        momentary_max_lufs, leading_silence_ms, trailing_silence_ms, dc_offset_percent, clipped_runs
        """

    /// A clip is measured whole or not at all (`SQLCatalog.insert` writes every measure from one
    /// `ClipFacts`, or none): its hash says which, and a measured clip without one of its measures
    /// is a damaged row. Whether it is silent and its non-finite samples are not recorded (their
    /// findings are): a clip read back says neither.
    init(from decoder: any Decoder) throws {
        let row = try decoder.container(keyedBy: CodingKeys.self)
        token = try row.decode(String.self, forKey: .token)
        file = try row.decode(String.self, forKey: .file)
        storeFile = try row.decodeIfPresent(String.self, forKey: .storeFile)
        guard try !row.decodeNil(forKey: .sha256) else { return }
        facts = ClipFacts(
            container: try row.decode(Container.self, forKey: .container), codec: try row.decode(Codec.self, forKey: .codec),
            bitsPerSample: try row.decodeIfPresent(Int.self, forKey: .bits), sampleRate: Int(try row.decode(Int64.self, forKey: .sampleRate)),
            channels: Int(try row.decode(Int64.self, forKey: .channels)), frames: try row.decode(Int64.self, forKey: .frames),
            durationSeconds: try row.decode(Double.self, forKey: .duration), bytes: Int(try row.decode(Int64.self, forKey: .bytes)),
            sha256: try row.decode(String.self, forKey: .sha256), peakDbfs: try row.decodeIfPresent(Double.self, forKey: .peakDbfs),
            truePeakDbtp: try row.decodeIfPresent(Double.self, forKey: .truePeakDbtp),
            momentaryMaxLufs: try row.decodeIfPresent(Double.self, forKey: .momentaryMaxLufs),
            leadingSilenceMs: try row.decode(Double.self, forKey: .leadingSilenceMs), trailingSilenceMs: try row.decode(Double.self, forKey: .trailingSilenceMs),
            dcOffsetPercent: try row.decode(Double.self, forKey: .dcOffsetPercent), clippedRuns: try row.decode(Int.self, forKey: .clippedRuns),
            silent: false, nonFinite: nil)
    }

    /// The clip as `show` lists it.
    var clip: CatalogVersion.Clip {
        CatalogVersion.Clip(token: token, file: file, bytes: (facts?.bytes).map(Int64.init), sha256: facts?.sha256, container: facts?.container,
                            codec: facts?.codec, sampleRate: (facts?.sampleRate).map(Int64.init), channels: (facts?.channels).map(Int64.init),
                            frames: facts?.frames, durationSeconds: facts?.durationSeconds, peakDbfs: facts?.peakDbfs,
                            truePeakDbtp: facts?.truePeakDbtp, momentaryMaxLufs: facts?.momentaryMaxLufs)
    }

    /// The clip as the version-bump rule compares it.
    var record: ClipRecord { ClipRecord(key: token, file: file, storeFile: storeFile, facts: facts) }
}

/// A validation run of a version, as `version(of:)` shows it.
struct RunRow: Decodable {
    var ranAt: Date
    var path: String
    var digest: String
    var errors: Int64
    var warnings: Int64
    var passed: Bool
    var worstAmount: String?
    var worstSeconds: Double?

    enum CodingKeys: String, CodingKey {
        case ranAt = "ran_at", path, digest, errors, warnings, passed, worstAmount = "worst_amount", worstSeconds = "worst_seconds"
    }

    var run: CatalogVersion.Run {
        CatalogVersion.Run(ranAt: ranAt, path: path, digest: digest, errors: errors, warnings: warnings, passed: passed,
                           worstAmount: worstAmount, worstSeconds: worstSeconds)
    }
}

/// A published version, as `publishedVersions(of:withClips:)` lists it (its clips apart).
struct PublishedRow: Decodable {
    var id: Int64
    var packID: String
    var version: SemanticVersion
    var digest: String
    var publishedAt: Date
    var yanked: Bool
    var yankReason: String?
    var manifestSha256: String?
    var manifestMD5: String?
    var tarSha256: String?
    var zipSha256: String?
    var keyID: String?

    enum CodingKeys: String, CodingKey {
        case id, packID = "pack_id", version, digest, publishedAt = "published_at", yanked, yankReason = "yank_reason"
        case manifestSha256 = "manifest_sha256", manifestMD5 = "manifest_md5", tarSha256 = "tar_sha256", zipSha256 = "zip_sha256", keyID = "key_id"
    }

    /// The row read column by column (`SQLRow.text(_:)` and the others): the values and problems
    /// of `decode(PublishedRow.self)`, for a catalog's thousands of published versions.
    init(row: SQLRow) throws(RowProblem) {
        (id, packID, version, digest) = (try row.integer(CodingKeys.id.rawValue), try row.text(CodingKeys.packID.rawValue),
                                         try row.version(CodingKeys.version.rawValue), try row.text(CodingKeys.digest.rawValue))
        (publishedAt, yanked, yankReason) = (try row.instant(CodingKeys.publishedAt.rawValue), try row.flag(CodingKeys.yanked.rawValue),
                                             try row.optionalText(CodingKeys.yankReason.rawValue))
        (manifestSha256, tarSha256) = (try row.optionalText(CodingKeys.manifestSha256.rawValue), try row.optionalText(CodingKeys.tarSha256.rawValue))
        (zipSha256, keyID) = (try row.optionalText(CodingKeys.zipSha256.rawValue), try row.optionalText(CodingKeys.keyID.rawValue))
        manifestMD5 = try row.optionalText(CodingKeys.manifestMD5.rawValue)
    }

    func version(clips: [String: PublishedVersion.Clip]) -> PublishedVersion {
        var published = PublishedVersion(id: packID, version: version, digest: digest, publishedAt: publishedAt, yanked: yanked, yankReason: yankReason,
                                         manifestSha256: manifestSha256, tarSha256: tarSha256, zipSha256: zipSha256, keyID: keyID, clips: clips)
        published.manifestMD5 = manifestMD5
        return published
    }
}

/// A clip of a published version: which version, its token, file and SHA-256.
struct PublishedClipRow: Decodable {
    var versionID: Int64
    var token: String
    var storeFile: String?
    var sha256: String?

    enum CodingKeys: String, CodingKey { case versionID = "version_id", token, storeFile = "store_file", sha256 }
}

/// A version of a pack as `version(of:)` and `versionRecord(of:)` read it, with its pack's name.
struct VersionRow: Decodable {
    var id: Int64
    var version: String
    var digest: String
    var grammar: String
    var two: String?
    var readingOptions: String?
    var maxAmount: String
    var publishedAt: Date?
    var yanked: Bool
    var sourceEngine: String?
    var sourceVoice: String?
    var phrases: String?
    var name: String?

    enum CodingKeys: String, CodingKey {
        case id, version, digest, grammar, two, readingOptions = "reading_options", maxAmount = "max_amount", publishedAt = "published_at"
        case yanked, sourceEngine = "source_engine", sourceVoice = "source_voice", phrases, name
    }

    /// The columns every version query selects, for `SELECT \(VersionRow.columns) FROM versions v JOIN packs p …`.
    static let columns = """
        v.id, v.version, v.digest, v.grammar, v.two, v.reading_options, v.max_amount, v.published_at, v.yanked, v.source_engine,
        v.source_voice, v.phrases, p.name
        """

    /// What the row says of the reading; nil when a column holds what soundpack never writes.
    var reading: (version: SemanticVersion, grammar: GrammarID, options: GrammarOptions, maxAmount: Amount)? {
        guard let number = SemanticVersion(version), let grammar = GrammarID(rawValue: grammar),
              let maxAmount = try? Amount(parsing: maxAmount), let options = GrammarOptions(two: two, catalogText: readingOptions) else { return nil }
        return (number, grammar, options, maxAmount)
    }

    /// The voice the version was synthesized with; nil when no engine is recorded.
    var source: VoiceSource? { sourceEngine.map { VoiceSource(engine: $0, voice: sourceVoice) } }
}

/// The id a row was given (`INSERT … RETURNING id`).
struct RowID: Decodable {
    var id: Int64
}

/// A version's row id and whether it is published, before a validation or a publication writes it.
struct VersionStateRow: Decodable {
    var id: Int64
    var publishedAt: Date?

    enum CodingKeys: String, CodingKey { case id, publishedAt = "published_at" }
}

/// A published version's row id and its yank.
struct YankRow: Decodable {
    var id: Int64
    var yanked: Bool
    var yankReason: String?

    enum CodingKeys: String, CodingKey { case id, yanked, yankReason = "yank_reason" }
}
