// The Notification Service Extension's work for one amount, timed on Linux as a proxy for the phone:
// plan with the exported manifest (each clip already in Library/Sounds is read and its SHA-256
// checked), join the clips (decode, then write one CAF, as the simulator tests do) and move the
// joined sound into the joined-sound cache. Prints one JSON object: wall time per run (first,
// median, slowest) and the peak memory the runs added to the process (getrusage's maxrss after
// minus before; the manifest is already loaded before).
//
//   soundpack-bench-extension MANIFEST SOUNDS_FOLDER AMOUNT [--pack ID] [--runs N]

import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SoundpackCore
import SoundpackKit

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("error: \(message)\n".utf8))
    exit(2)
}

func peakKiB() -> Int {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return usage.ru_maxrss
}

func milliseconds(since start: UInt64) -> Double {
    Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000
}

var arguments = Array(CommandLine.arguments.dropFirst())
var runs = 50
var packID: String?
if let i = arguments.firstIndex(of: "--runs") {
    guard i + 1 < arguments.count, let n = Int(arguments[i + 1]), n > 0, n <= 100_000 else { fail("--runs takes a count from 1 to 100000") }
    runs = n
    arguments.removeSubrange(i...(i + 1))
}
if let i = arguments.firstIndex(of: "--pack") {
    guard i + 1 < arguments.count else { fail("--pack takes a pack id") }
    packID = arguments[i + 1]
    arguments.removeSubrange(i...(i + 1))
}
guard arguments.count == 3 else {
    fail("usage: soundpack-bench-extension MANIFEST SOUNDS_FOLDER AMOUNT [--pack ID] [--runs N]")
}
let (manifestPath, soundsPath, amount) = (arguments[0], arguments[1], arguments[2])

let manifest: SharedManifest
do {
    manifest = try SharedManifest(data: Data(contentsOf: URL(fileURLWithPath: manifestPath)))
} catch {
    fail("cannot read \(manifestPath): \(error)")
}
guard let id = packID ?? manifest.packs.keys.sorted().first else { fail("\(manifestPath) lists no pack") }
let sounds = URL(fileURLWithPath: soundsPath)
let cache = JoinedSoundCache(folder: sounds)
let before = peakKiB()

var times: [Double] = []
var clipCount = 0
var joinedBytes = 0
for _ in 0..<runs {
    let start = DispatchTime.now().uptimeNanoseconds
    do {
        // Nothing is bundled: every clip comes from Library/Sounds and is hash-checked, the costlier case.
        let plan = try ClipPlanner(manifest: manifest, packID: id, bundledFiles: [], soundsFolder: sounds).plan(amount: amount)
        let paths = plan.clips.map { clip -> String in
            guard case .librarySounds(let url) = clip.source else { fail("\(clip.file) is not in \(soundsPath) with the manifest's bytes") }
            return url.path
        }
        let temporary = cache.temporaryURL()
        try ClipJoiner.join(paths, to: temporary.path)
        let joined = try cache.store(fileAt: temporary, named: plan.soundName)
        times.append(milliseconds(since: start))
        clipCount = plan.clips.count
        joinedBytes = (try? FileManager.default.attributesOfItem(atPath: joined.path)[.size] as? Int) ?? 0
        try FileManager.default.removeItem(at: joined)  // the next run joins again
    } catch {
        fail("\(amount): \(error)")
    }
}
let after = peakKiB()
let sorted = times.sorted()
let result: [String: Any] = [
    "amount": amount, "pack": id, "clips": clipCount, "joinedBytes": joinedBytes, "runs": runs,
    "firstMs": times[0], "medianMs": sorted[sorted.count / 2], "slowestMs": sorted[sorted.count - 1],
    "peakKiBBefore": before, "peakKiBAfter": after, "addedPeakKiB": after - before,
]
let json = try JSONSerialization.data(withJSONObject: result, options: [.sortedKeys])
print(String(decoding: json, as: UTF8.self))
