// The Notification Service Extension's work, simulated on Linux: from an exported manifest, a
// "bundle" and an App Group "Library/Sounds" folder, and the store served over HTTP on loopback,
// plan an amount, download what is missing, verify it, join it — and get exactly what
// `soundpack render` makes. A corrupted file on the server is refused, never joined.

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import SoundpackAudio
import SoundpackCore
@testable import SoundpackKit
import SoundpackTestSupport

@Suite struct ExtensionSimulatorTests {
    struct Device {
        let project: TemporaryFolder
        let server: LoopbackHTTPServer
        let manifest: SharedManifest
        let bundle: URL
        let sounds: URL

        /// The app bundles only the prefix and 元; everything else comes from the CDN.
        static func make() throws -> Device {
            let project = try PublishEndToEndTests.project()
            #expect(try Executable.run(["publish"], in: project.path).status == 0)
            let server = try LoopbackHTTPServer(serving: project.file("dist"))
            let export = try Executable.run(["export", "wechat", "--format", "json", "--base-url", server.baseURL], in: project.path)
            #expect(export.status == 0, "\(export.stderr)")
            let bundle = URL(fileURLWithPath: project.file("Bundle"))
            let sounds = URL(fileURLWithPath: project.file("AppGroup/Library/Sounds"))
            try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: sounds, withIntermediateDirectories: true)
            for file in ["prefix.caf", "yuan.caf"] {
                try FileManager.default.copyItem(atPath: project.file("packs/wechat/clips/\(file)"), toPath: bundle.appendingPathComponent(file).path)
            }
            return Device(project: project, server: server, manifest: try SharedManifest(data: Data(export.stdout.utf8)), bundle: bundle, sounds: sounds)
        }

        var planner: ClipPlanner {
            get throws { try ClipPlanner(manifest: manifest, packID: "wechat", bundledFiles: ["prefix.caf", "yuan.caf"], soundsFolder: sounds) }
        }

        /// What NotificationService does: download and verify the missing clips, then join all of them.
        func announce(_ amount: String) async throws -> URL {
            let plan = try planner.plan(amount: amount)
            let verifier = ClipVerifier(hasher: PortableSHA256())
            for clip in plan.downloads {
                guard case .download(let url) = clip.source else { continue }
                let (data, response) = try await URLSession.shared.data(from: url)
                #expect((response as? HTTPURLResponse)?.statusCode == 200)
                try verifier.verify(data, against: clip)  // before anything is written or joined
                try data.write(to: sounds.appendingPathComponent(clip.file), options: .atomic)
            }
            let paths = plan.clips.map { clip -> String in
                switch clip.source {
                case .bundled: return bundle.appendingPathComponent(clip.file).path
                case .librarySounds(let url): return url.path
                case .download: return sounds.appendingPathComponent(clip.file).path
                }
            }
            let output = sounds.appendingPathComponent(plan.soundName)
            try ClipJoiner.join(paths, to: output.path)
            return output
        }
    }

    @Test func theExtensionBuildsWhatRenderBuilds() async throws {
        let device = try Device.make()
        defer { device.server.stop() }
        let joined = try await device.announce("1234.56")
        #expect(joined.lastPathComponent == "soundpack-wechat-1.0.0-1234.56.caf")
        let render = try Executable.run(["render", "--pack", "packs/wechat", "1234.56", "-o", "rendered.caf"], in: device.project.path)
        #expect(render.status == 0)
        let a = try AudioProbe().decode(path: joined.path), b = try AudioProbe().decode(path: device.project.file("rendered.caf"))
        #expect(a.frames == b.frames)
        #expect(a.samples == b.samples)
        #expect(try Data(contentsOf: joined) == Data(contentsOf: URL(fileURLWithPath: device.project.file("rendered.caf"))))
        // Little-endian linear PCM, as AVAudioFile writes it on iOS (kAudioFormatFlagIsLittleEndian = 2).
        let caf = try CAFFile(Array(try Data(contentsOf: joined)))
        #expect(caf.formatID == "lpcm" && caf.formatFlags & 2 != 0, "flags \(caf.formatFlags)")
        // Bundled clips were never fetched; the rest once each.
        #expect(!device.server.requests.contains { $0.hasSuffix("/prefix.caf") || $0.hasSuffix("/yuan.caf") })
        #expect(device.server.requests.count == Set(device.server.requests).count)

        // A second amount reuses what is now in Library/Sounds and downloads only what is new.
        let before = device.server.requests.count
        let plan = try device.planner.plan(amount: "1234.50")
        #expect(plan.downloads.isEmpty)
        _ = try await device.announce("1234.50")
        #expect(device.server.requests.count == before)
    }

    @Test func aCorruptedFileOnTheServerIsRefused() async throws {
        let device = try Device.make()
        defer { device.server.stop() }
        var served = try Data(contentsOf: URL(fileURLWithPath: device.project.file("dist/wechat/1.0.0/clips/5.caf")))
        served[served.count - 10] ^= 0xFF
        try served.write(to: URL(fileURLWithPath: device.project.file("dist/wechat/1.0.0/clips/5.caf")))
        do {
            _ = try await device.announce("15")
            Issue.record("a corrupted clip was joined")
        } catch let error as PlanError {
            guard case .hashMismatch(let file, _, _) = error else { Issue.record("unexpected \(error)"); return }
            #expect(file == "5.caf")
        }
        #expect(!FileManager.default.fileExists(atPath: device.sounds.appendingPathComponent("5.caf").path))
        #expect(!FileManager.default.fileExists(atPath: device.sounds.appendingPathComponent("soundpack-wechat-1.0.0-15.caf").path))
    }
}
