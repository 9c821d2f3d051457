// A simulated phone for the example's own code: the store published and served on loopback, an
// App Group container, the app's bundle (the manifest `export` wrote and the clips the app ships),
// the extension's bundle, shared UserDefaults and a notification center of its own.

import Foundation
import Testing
@_spi(StandIn) import AVFoundation
import SoundpackCore
import SoundpackKit
import SoundpackTestSupport
@_spi(StandIn) import UserNotifications
@testable import NotificationServiceExample

struct Phone {
    let project: TemporaryFolder
    let server: LoopbackHTTPServer
    let group: URL
    let appBundle: URL
    let extensionBundle: URL
    let center = UNUserNotificationCenter()
    var configuration: SoundpackConfiguration
    /// What the app and the extension reported on their way (set-up errors, why they fell back).
    let reports: Reports
    /// The key every publish signs with (`--sign-key`); nil: the store is unsigned.
    let signingKey: KeyPair?

    /// Published wechat@1.0.0 (or `pack`: merchant, the demo pack with phrases), served; the app
    /// bundles `bundled` (file names) and the export. The configuration declares the store unsigned unless `trust` is `.signed`.
    /// `suffix`: the pack also ends every announcement with a 1.28 s suffix clip (the prefix backwards, `Fixtures.standIn`).
    /// `codec`, `rate`: the pack's clips converted first (`soundpack convert --codec --rate`), e.g. ima4, 48000.
    /// `signedWith`: every publish signs the manifests with that key (the configuration is left unsigned).
    /// `trust: .signed`: a fresh key signs every publish and the configuration trusts it, so the
    /// signature is fetched and checked on the way to every sound.
    static func make(pack id: String = "wechat", bundled: [String] = ["prefix.caf", "yuan.caf"], suffix: Bool = false,
                     codec: String? = nil, rate: Int? = nil, signedWith key: KeyPair? = nil, trust: StoreTrust = .unsigned) throws -> Phone {
        let signingKey = try key ?? (trust == .signed ? KeyPair.generate() : nil)
        let project = TemporaryFolder()
        try FileManager.default.createDirectory(atPath: project.file("packs"), withIntermediateDirectories: true)
        let pack = try Fixtures.copyDemoPack(into: project, as: "packs/\(id)", from: id == "wechat" ? Fixtures.demoPack : Fixtures.merchantPack)
        if codec != nil || rate != nil {
            let options = (codec.map { ["--codec", $0] } ?? []) + (rate.map { ["--rate", "\($0)"] } ?? [])
            let converted = try Executable.run(["convert", "packs/\(id)", "converted"] + options, in: project.path)
            try #require(converted.status == 0, "\(converted.stdout)\(converted.stderr)")
            try FileManager.default.removeItem(atPath: pack)
            try FileManager.default.moveItem(atPath: project.file("converted"), toPath: pack)
        }
        if suffix {
            try Fixtures.standIn(for: pack + "/clips/prefix.caf", to: pack + "/clips/suffix.caf")
            try Fixtures.editManifest(pack) { object in
                var clips = object["clips"] as? [String: Any] ?? [:]
                clips["suffix"] = "clips/suffix.caf"
                object["clips"] = clips
                var texts = object["texts"] as? [String: Any] ?? [:]
                texts["suffix"] = "请查收"
                object["texts"] = texts
            }
        }
        let server = try LoopbackHTTPServer(serving: project.file("dist"))
        let reports = Reports()
        let signature: SoundpackConfiguration.Signature = trust == .signed ? .signed(publicKeys: [try signingKey?.publicKeyText() ?? ""]) : .unsigned
        var configuration = SoundpackConfiguration(appGroup: "group.test.\(UUID().uuidString)", storeURL: server.baseURL, signature: signature)
        configuration.report = { [reports] in reports.append($0) }
        let phone = Phone(project: project, server: server, group: URL(fileURLWithPath: project.file("AppGroup")),
                          appBundle: URL(fileURLWithPath: project.file("App.app")), extensionBundle: URL(fileURLWithPath: project.file("Extension.appex")),
                          configuration: configuration, reports: reports, signingKey: signingKey)
        try phone.publish()
        for folder in [phone.group, phone.appBundle, phone.extensionBundle] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        try phone.run(["export", id, "--base-url", server.baseURL, "-o", phone.appBundle.appendingPathComponent("SoundpackManifest.plist").path])
        for file in bundled {
            try FileManager.default.copyItem(atPath: project.file("packs/\(id)/clips/\(file)"), toPath: phone.appBundle.appendingPathComponent(file).path)
        }
        AppGroupContainers.register(phone.configuration.appGroup, at: phone.group)
        // Where iOS looks a delivered sound up, in Apple's order: the app's container, the group's, the app's bundle.
        phone.center.soundDirectories = [URL(fileURLWithPath: project.file("AppContainer/Library/Sounds")), phone.sounds, phone.appBundle]
        return phone
    }

    func tearDown() {
        server.stop()
        AppGroupContainers.remove(configuration.appGroup)
        UserDefaults.standard.removePersistentDomain(forName: configuration.appGroup)
        configuration.defaults?.removePersistentDomain(forName: configuration.appGroup)
    }

    var sounds: URL { group.appendingPathComponent("Library/Sounds") }

    @discardableResult
    func run(_ arguments: [String]) throws -> ExecutionResult {
        let result = try Executable.run(arguments, in: project.path)
        #expect(result.status == 0, "\(arguments) → \(result.stdout)\(result.stderr)")
        return result
    }

    /// `soundpack publish`, signed with `signingKey` when there is one.
    func publish() throws {
        try run(["publish"] + (signingKey.map { ["--sign-key", $0.secretKeyFile] } ?? []))
    }

    /// The app's launch: `SoundpackSetup.install()`.
    func install() throws {
        try SoundpackSetup.install(configuration: configuration, bundle: try #require(Bundle(path: appBundle.path)))
    }

    /// What `soundpack payload` prints, as the request iOS hands the extension: userInfo is the whole
    /// payload, the alert's body and the "default" sound from aps.
    func request(_ amount: String?, pack: String = "wechat", extra: [String] = [], identifier: String = UUID().uuidString) throws -> UNNotificationRequest {
        let payload = try run(["payload"] + [amount].compactMap { $0 } + ["--pack", pack, "--base-url", server.baseURL] + extra).stdout
        return try Self.request(payload: Data(payload.utf8), identifier: identifier)
    }

    static func request(payload: Data, identifier: String = UUID().uuidString) throws -> UNNotificationRequest {
        let root = try #require(try JSONSerialization.jsonObject(with: payload) as? [String: Any])
        let content = UNMutableNotificationContent()
        content.userInfo = root
        let aps = root["aps"] as? [String: Any]
        content.body = ((aps?["alert"] as? [String: Any])?["body"] as? String) ?? ""
        if aps?["sound"] as? String == "default" { content.sound = .default }
        return UNNotificationRequest(identifier: identifier, content: content, trigger: nil)
    }

    /// iOS runs the extension for `request`: returns what the user is shown and the handler's calls.
    /// The time limits are iOS's own only where a test is about time. Elsewhere they are ten
    /// minutes: in the whole test run the other targets' tests block Swift's cooperative threads
    /// (two on this machine) for minutes at a time, and the extension's task waits for one; a
    /// behaviour test must not turn on that.
    func push(_ request: UNNotificationRequest, style: AnnouncementStyle = .joinedSound, host: NotificationServiceHost = NotificationServiceHost(timeLimit: 600),
              configure: (inout SoundpackConfiguration) -> Void = { _ in }) async -> (shown: UNNotificationContent, calls: [NotificationServiceHost.Delivery]) {
        let service = NotificationService()
        var configuration = self.configuration
        configuration.refreshBudget = 600
        configuration.downloadBudget = 600
        configure(&configuration)
        service.configuration = configuration
        service.bundle = Bundle(path: extensionBundle.path) ?? .main
        service.style = style
        let result = await UNUserNotificationCenter.$simulated.withValue(center) {
            await host.run(service, request: request)
        }
        // What would have crashed the extension on the phone, or played at the wrong speed.
        for misuse in AVFoundationMisuse.take(under: project.path) { Issue.record("on the phone: \(misuse)") }
        return result
    }

    /// iOS's own time limit for a service extension, in seconds. Apple, `UNNotificationServiceExtension`:
    /// the extension has "a limited amount of time (about 30 seconds)".
    static let extensionTimeLimit: TimeInterval = 30

    /// Runs the extension at the phone's budgets, on a clock `scale` times the phone's: iOS's 30 s
    /// limit and the example's own refresh, download and speech budgets (`SoundpackConfiguration.app`,
    /// as shipped) are all multiplied by `scale`, so 30 s pass in `30 × scale` s of wall time.
    /// `configure` may opt in to the spoken text; the budgets it finds are already scaled.
    func pushAtThePhonesBudgets(_ request: UNNotificationRequest, scale: Double, host: NotificationServiceHost,
                                configure: (inout SoundpackConfiguration) -> Void = { _ in }) async -> (shown: UNNotificationContent, calls: [NotificationServiceHost.Delivery]) {
        let shipped = SoundpackConfiguration.app
        return await push(request, host: host) { configuration in
            configuration.refreshBudget = shipped.refreshBudget * scale
            configuration.downloadBudget = shipped.downloadBudget * scale
            configuration.speechBudget = shipped.speechBudget * scale
            configure(&configuration)
        }
    }

    /// The sound `name` in the group's Library/Sounds, as libsndfile decodes it.
    func played(_ name: String) throws -> LibSndFileSamples {
        try LibSndFileSamples(path: sounds.appendingPathComponent(name).path)
    }

    /// What an amount (and phrase) must sound like: the pack folder's clips end to end, read with
    /// libsndfile — neither the example's join nor the stand-ins' reader.
    func clipsEndToEnd(_ amount: String?, pack: String = "wechat", phrase: String? = nil) throws -> LibSndFileSamples {
        try LibSndFileSamples.concatenation(of: clipPaths(amount, pack: pack, phrase: phrase))
    }

    /// The pack folder's clip files an amount is said with, in order (the plan over the manifest the
    /// app ships; `phrase` as the push names it).
    func clipPaths(_ amount: String?, pack: String = "wechat", phrase: String? = nil) throws -> [String] {
        let manifest = try SharedManifest(data: Data(contentsOf: appBundle.appendingPathComponent("SoundpackManifest.plist")))
        return try ClipPlanner(manifest: manifest, packID: pack).plan(amount: amount, phrase: phrase).clips.map { project.file("packs/\(pack)/clips/\($0.file)") }
    }

    /// Publishes the pack again as `version`, with clip 3 re-recorded (one sample changed).
    func publishWithNewClip3(as version: String) throws {
        let pack = project.file("packs/wechat")
        var samples = try AudioProbe().decode(path: pack + "/clips/3.caf").samples
        samples[samples.count / 2] += 0.01
        try Fixtures.writeClip(samples, to: pack + "/clips/3.caf")
        try Fixtures.editManifest(pack) { $0["version"] = version }
        try publish()
    }
}

/// How the simulated phone's configuration trusts the store: declared unsigned on purpose, or
/// signed, with the key every publish signs with.
enum StoreTrust: String, CaseIterable, Sendable {
    case unsigned, signed
}

/// A key pair `soundpack keygen -o release.key` wrote into a temporary folder of its own, outside any
/// git work tree.
struct KeyPair {
    let folder: TemporaryFolder

    static func generate() throws -> KeyPair {
        let keys = KeyPair(folder: TemporaryFolder("soundpack-keys"))
        let result = try Executable.run(["keygen", "-o", keys.secretKeyFile], in: keys.folder.path)
        try #require(result.status == 0, "\(result.stdout)\(result.stderr)")
        return keys
    }

    var secretKeyFile: String { folder.file("release.key") }

    /// release.key.pub as keygen wrote it: the key in base64 and a newline, what a team pastes.
    func publicKeyText() throws -> String {
        try String(contentsOfFile: folder.file("release.key.pub"), encoding: .utf8)
    }
}

/// The extension's reports, collected across its threads.
final class Reports: @unchecked Sendable, CustomStringConvertible {
    private let lock = NSLock()
    private var lines: [String] = []
    func append(_ line: String) { lock.lock(); lines.append(line); lock.unlock() }
    var description: String { lock.lock(); defer { lock.unlock() }; return lines.joined(separator: "\n") }
}

extension UNNotificationContent {
    /// The custom sound's file name; nil for the default sound or none.
    var soundName: String? { sound?.name?.rawValue }
}
