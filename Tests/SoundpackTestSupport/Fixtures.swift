// Fixtures for tests: temporary folders, generated clips and packs made from the demo pack.

import Foundation
import SoundpackCore
import SoundpackKit

/// A fresh temporary folder, removed when the value is released.
public final class TemporaryFolder: @unchecked Sendable {
    public let path: String

    public init(_ label: String = "soundpack-test") {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("\(label)-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        path = base.path
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    public func file(_ relative: String) -> String { path + "/" + relative }

    public func write(_ text: String, to relative: String) throws {
        let target = file(relative)
        try FileManager.default.createDirectory(atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: target))
    }
}

public enum Fixtures {
    /// The repository root, found from this file's location.
    public static let repositoryRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url.path }
        }
        return FileManager.default.currentDirectoryPath
    }()

    public static var demoPack: String { repositoryRoot + "/packs/wechat" }
    /// The demo pack with phrases: wechat (default), alipay, refund, and order (no amount).
    public static var merchantPack: String { repositoryRoot + "/packs/merchant" }

    /// Copies the demo pack (or `source`) into `folder/name` and returns its path.
    @discardableResult
    public static func copyDemoPack(into folder: TemporaryFolder, as name: String = "wechat", from source: String = demoPack) throws -> String {
        let target = folder.file(name)
        try FileManager.default.createDirectory(atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: source, toPath: target)
        return target
    }

    /// Puts a copy of a demo pack back at the default `compose.banner-cut` threshold (5 s). The demo
    /// packs raise it, with their reason, just above their longest announcement; at 5 s each has one
    /// warning, that rule's (the wechat pack's: 33333333.33 lasts 9.559 s).
    public static func restoreDefaultBannerCut(_ pack: String) throws {
        try editManifest(pack) { object in
            var checks = object["checks"] as? [String: Any] ?? [:]
            checks["bannerCutSeconds"] = nil
            checks["reasons"] = nil
            object["checks"] = checks
        }
    }

    /// Reads, edits and writes back a pack's pack.json as a JSON object.
    public static func editManifest(_ pack: String, _ edit: (inout [String: Any]) -> Void) throws {
        let url = URL(fileURLWithPath: pack + "/pack.json")
        var object = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any] ?? [:]
        edit(&object)
        try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys]).write(to: url)
    }

    /// A sine tone with optional silence around it, interleaved for `channels`.
    public static func tone(seconds: Double, sampleRate: Int = 22_050, channels: Int = 1, amplitude: Float = 0.5,
                            frequency: Double = 440, leadingSilence: Double = 0.01, trailingSilence: Double = 0.01,
                            offset: Float = 0) -> [Float] {
        let lead = Int(leadingSilence * Double(sampleRate)), body = Int(seconds * Double(sampleRate))
        let tail = Int(trailingSilence * Double(sampleRate))
        var samples: [Float] = []
        samples.reserveCapacity((lead + body + tail) * channels)
        for i in 0..<(lead + body + tail) {
            let value: Float = (i >= lead && i < lead + body)
                ? amplitude * Float(sin(2 * Double.pi * frequency * Double(i - lead) / Double(sampleRate))) + offset : 0
            for _ in 0..<channels { samples.append(value) }
        }
        return samples
    }

    /// Another take standing in for a word a pack lacks: `source`'s samples played backwards, in
    /// the demo pack's format (22.05 kHz mono 16-bit CAF). Same length and level, but no copy of any
    /// clip (a copy of another word's clip is `audio.duplicate`).
    public static func standIn(for source: String, to path: String) throws {
        try writeClip(AudioProbe().decode(path: source).samples.reversed(), to: path)
    }

    /// Shell lines for a script standing in for a TTS engine: copy to `out` a demo clip no earlier
    /// call of the script copied (a slot taken with mkdir, so concurrent calls never share one),
    /// since an engine that says every text with one recording makes a pack of duplicates.
    public static func distinctDemoClip(to out: String, slots: String) -> String {
        """
        mkdir -p "\(slots)"; slot=0
        while ! mkdir "\(slots)/$slot" 2>/dev/null; do slot=$((slot + 1)); done
        set -- "\(demoPack)"/clips/*.caf; shift $((slot % $#)); cp "$1" \(out)
        """
    }

    /// Writes a tone clip into a pack, replacing whatever file was there.
    public static func writeClip(_ samples: [Float], to path: String, sampleRate: Int = 22_050, channels: Int = 1,
                                 container: Container = .caf, encoding: AudioFileWriter.Encoding = .pcm16) throws {
        try? FileManager.default.removeItem(atPath: path)
        try AudioFileWriter.write(samples, sampleRate: sampleRate, channels: channels, container: container, encoding: encoding, to: path)
    }
}

extension Fixtures {
    /// A 32-bit float WAV (WAVE_FORMAT_IEEE_FLOAT) of `samples`, written byte by byte so NaN,
    /// infinities and huge values reach the file exactly as given.
    public static func floatWAV(_ samples: [Float], sampleRate: Int = 22_050, channels: Int = 1) -> [UInt8] {
        func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
        func le16(_ v: Int) -> [UInt8] { (0..<2).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
        let data = samples.flatMap { sample in (0..<4).map { UInt8(truncatingIfNeeded: sample.bitPattern >> (8 * $0)) } }
        var bytes = Array("RIFF".utf8) + le32(4 + 8 + 16 + 8 + data.count) + Array("WAVE".utf8)
        bytes += Array("fmt ".utf8) + le32(16) + le16(3) + le16(channels) + le32(sampleRate)
        bytes += le32(sampleRate * channels * 4) + le16(channels * 4) + le16(32)
        bytes += Array("data".utf8) + le32(data.count) + data
        return bytes
    }

    /// The bytes of a CAF file: its header and the given chunks (type, declared size, body).
    public static func caf(_ chunks: [(type: String, size: Int64, body: [UInt8])]) -> [UInt8] {
        func be(_ value: Int64, _ width: Int) -> [UInt8] { (0..<width).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        var bytes = Array("caff".utf8) + be(1, 2) + be(0, 2)
        for chunk in chunks { bytes += Array(chunk.type.utf8) + be(chunk.size, 8) + chunk.body }
        return bytes
    }

    /// A CAF 'desc' chunk body for Apple IMA4 (34 bytes per channel packet of 64 frames).
    public static func ima4Description(sampleRate: Double = 22_050, channels: Int = 1) -> [UInt8] {
        func be(_ value: UInt64, _ width: Int) -> [UInt8] { (0..<width).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) } }
        return be(sampleRate.bitPattern, 8) + Array("ima4".utf8) + be(0, 4) + be(UInt64(34 * channels), 4) + be(64, 4)
            + be(UInt64(channels), 4) + be(0, 4)
    }
}
