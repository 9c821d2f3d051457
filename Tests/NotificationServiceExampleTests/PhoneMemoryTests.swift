// The example within the phone's memory: iOS ends a service extension at "ActiveHard 24 MB"
// (nextcloud/talk-ios #1223), at 12–16 MB on older iOS 13 devices (element-ios #3868, deltachat-ios
// PR #2477), and then shows no notification at all. Each of the extension's heavy paths, at the
// largest sizes a real pack and store give it, holds less than 12 MiB at its peak
// (`ExtensionMemory`, which says how it measures and what it cannot see). Each is measured in a
// test process of its own (`MeasuredAlone`): the suite's other tests share the heap and moved a
// measurement by 10 MiB either way when they ran beside it.

import Foundation
import Testing
@_spi(StandIn) import AVFoundation
import SoundpackCore
import SoundpackTestSupport
@_spi(StandIn) import UserNotifications
@testable import NotificationServiceExample

@Suite(.serialized) struct PhoneMemoryTests {
    static func expectUnderBudget(_ reading: ExtensionMemory.Reading, _ path: String, sourceLocation: SourceLocation = #_sourceLocation) {
        print("memory: \(path): \(reading)")
        #expect(reading.peakBytes < ExtensionMemory.budget,
                "\(path): \(reading), above the \(ExtensionMemory.budget >> 20) MiB budget (iOS ends the extension at 24 MB, at 12–16 MB on older iOS 13 devices)",
                sourceLocation: sourceLocation)
    }

    /// How a deliberate 16 MiB is held: as the join would (an audio buffer the extension makes,
    /// sampled at a stand-in call), or as any code might (an array no stand-in sees).
    enum Allocation: String, CaseIterable, Sendable {
        case audioBuffer, array
    }

    /// A meter that cannot catch a big allocation would pass every path: 16 MiB held for 20 ms is
    /// seen whole, and fails the 12 MiB budget. "Whole" allows 64 KiB: the meter counts the heap
    /// against what it held when the run began, so memory the process frees while the 16 MiB is
    /// held (a task's frame, a buffer of the runtime) lowers the figure by as much — one full run
    /// saw 16 bytes less than 16 MiB.
    @Test(arguments: Allocation.allCases)
    func theMeterSeesA16MiBAllocation(_ allocation: Allocation) async throws {
        let sixteen = 16 << 20
        guard let reading = try await MeasuredAlone.reading("16MiB-\(allocation)", test: "theMeterSeesA16MiBAllocation", {
            try await ExtensionMemory.measure {
            switch allocation {
            case .audioBuffer:
                let format = try #require(AVAudioFormat(standardFormatWithSampleRate: 22_050, channels: 1))
                let buffer = try #require(AVAudioPCMBuffer(pcmFormat: format, frameCapacity: AVAudioFrameCount(sixteen / 4)))
                try await Task.sleep(nanoseconds: 20_000_000)
                withExtendedLifetime(buffer) {}
            case .array:
                let bytes = [UInt8](repeating: 1, count: sixteen)
                try await Task.sleep(nanoseconds: 20_000_000)
                withExtendedLifetime(bytes) {}
            }
            }.reading
        }) else { return }
        print("memory: a deliberate 16 MiB (\(allocation)): \(reading)")
        #expect(reading.peakBytes >= sixteen - (64 << 10), "the meter saw \(reading) of a 16 MiB \(allocation)")
        #expect(reading.peakBytes >= ExtensionMemory.budget, "a 16 MiB \(allocation) passed the 12 MiB budget: \(reading)")
    }

    /// The longest announcement the demo pack can say, every clip downloaded (nothing bundled) and
    /// joined: as published (22,050 Hz) and converted to 48 kHz, the highest rate a pack may have.
    @Test(arguments: [nil, 48_000] as [Int?])
    func theLongestJoinFitsTheBudget(rate: Int?) async throws {
        guard let reading = try await MeasuredAlone.reading("join-\(rate ?? 0)", test: "theLongestJoinFitsTheBudget", {
            let phone = try Phone.make(bundled: [], rate: rate)
            defer { phone.tearDown() }
            try phone.install()
            let amount = try phone.longestAmount()
            let request = try phone.request(amount)
            let ((shown, calls), reading) = await ExtensionMemory.measure { await phone.push(request) }
            #expect(calls.count == 1)
            #expect(shown.soundName == "soundpack-wechat-1.0.0-\(amount).caf", "\(phone.reports)")
            return reading
        }) else { return }
        Self.expectUnderBudget(reading, "the join of the longest amount at \(rate.map { "\($0) Hz" } ?? "the pack's rate")")
    }

    /// A push pins a version the phone has not seen, in a store of 200 packs of 5 versions each:
    /// the index is fetched, read and kept, the manifest fetched and checked, the new clip
    /// downloaded and the amount joined.
    @Test func aRefreshFromA200PackIndexFitsTheBudget() async throws {
        guard let reading = try await MeasuredAlone.reading("index-200", test: "aRefreshFromA200PackIndexFitsTheBudget", {
            let phone = try Phone.make()
            defer { phone.tearDown() }
            try phone.install()
            try phone.publishWithNewClip3(as: "1.0.1")
            let indexBytes = try phone.growIndex(toPacks: 200, versionsEach: 5)
            print("memory: a 200-pack index of \(indexBytes / 1024) KiB")
            let request = try phone.request("15.40")
            let ((shown, calls), reading) = await ExtensionMemory.measure { await phone.push(request) }
            #expect(calls.count == 1)
            #expect(shown.soundName == "soundpack-wechat-1.0.1-15.40.caf", "not refreshed: \(phone.reports)")
            return reading
        }) else { return }
        Self.expectUnderBudget(reading, "the refresh from a 200-pack index")
    }

    /// The store is down and no clip is on the phone: the system voice speaks the longest
    /// amount's text for 29 s (the longest sound iOS plays), every buffer passing through the
    /// extension into the file.
    @Test func theSpokenTextFitsTheBudget() async throws {
        guard let reading = try await MeasuredAlone.reading("speech", test: "theSpokenTextFitsTheBudget", {
            let phone = try Phone.make(bundled: [])
            defer { phone.tearDown() }
            try phone.install()
            let amount = try phone.longestAmount()
            let request = try phone.request(amount)
            phone.server.stop()
            let ((shown, calls), reading) = await AVSpeechSynthesizer.$speechSeconds.withValue(29) {
                await ExtensionMemory.measure { await phone.push(request) { $0.speaksWrittenTextAsLastResort = true } }
            }
            #expect(calls.count == 1)
            #expect(shown.soundName == "soundpack-wechat-spoken-\(amount).caf", "\(phone.reports)")
            return reading
        }) else { return }
        Self.expectUnderBudget(reading, "29 s of the system voice for the longest amount")
    }
}

/// A measurement made in a test process of its own: this test binary run again for one test
/// (`--filter`), told by `SOUNDPACK_MEASURE_ALONE` which case to measure; its expectations are
/// checked there and its figure is read back here. In that process `reading` measures the case
/// it names, and returns nil for the test's other cases.
enum MeasuredAlone {
    static let variable = "SOUNDPACK_MEASURE_ALONE"
    static let marker = "soundpack-measured-alone:"

    static func reading(_ key: String, test: String, _ measure: () async throws -> ExtensionMemory.Reading,
                        sourceLocation: SourceLocation = #_sourceLocation) async throws -> ExtensionMemory.Reading? {
        if let asked = ProcessInfo.processInfo.environment[variable] {
            guard asked == key else { return nil }
            let reading = try await measure()
            print("\(marker) \(reading.peakBytes) \(reading.samples)")
            return reading
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = ["--testing-library", "swift-testing", "--filter", "PhoneMemoryTests/\(test)"]
        process.environment = ProcessInfo.processInfo.environment.merging([variable: key]) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        // Read on a thread of its own: the pipe blocks, and the cooperative threads are few.
        let text: String = await withCheckedContinuation { continuation in
            Thread {
                let data = output.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                continuation.resume(returning: String(decoding: data, as: UTF8.self))
            }.start()
        }
        let figures = text.split(separator: "\n").last { $0.hasPrefix(marker) }?.dropFirst(marker.count).split(separator: " ").compactMap { Int($0) }
        guard process.terminationStatus == 0, let figures, figures.count == 2 else {
            Issue.record("the measuring process for \(key) failed (status \(process.terminationStatus)):\n\(text)", sourceLocation: sourceLocation)
            return nil
        }
        return ExtensionMemory.Reading(peakBytes: figures[0], samples: figures[1])
    }
}

extension Phone {
    /// The amount whose announcement lasts longest, by the durations of the clips the app ships
    /// the manifest of (`Phrasebook.costliest`, as `validate` finds it).
    func longestAmount() throws -> String {
        let manifest = try SharedManifest(data: Data(contentsOf: appBundle.appendingPathComponent("SoundpackManifest.plist")))
        let pack = try ClipPlanner(manifest: manifest, packID: "wechat").pack
        let longest = pack.phrasebook.costliest(upTo: pack.maxAmount) { Int64((pack.clips[$0]?.durationSeconds ?? 0) * 1_000_000) }
        return try #require(longest.amount).description
    }

    /// Adds packs to the served index until it lists `count`, each with `versionsEach` versions
    /// shaped like wechat's; returns the index's size in bytes.
    func growIndex(toPacks count: Int, versionsEach: Int) throws -> Int {
        let url = URL(fileURLWithPath: project.file("dist/\(StoreLayout.index)"))
        var index = try JSONDecoder().decode(StoreIndex.self, from: Data(contentsOf: url))
        let model = try #require(index.packs["wechat"]?.versions.values.first)
        for number in index.packs.count..<count {
            let id = String(format: "pack-%03d", number)
            var versions: [String: StoreIndex.Version] = [:]
            for minor in 0..<versionsEach {
                var version = model
                version.manifest = "\(id)/1.\(minor).0/\(StoreLayout.manifestFile)"
                versions["1.\(minor).0"] = version
            }
            index.packs[id] = StoreIndex.Pack(latest: "1.\(versionsEach - 1).0", versions: versions)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data = try encoder.encode(index)
        try data.write(to: url)
        return data.count
    }
}
