// Gathers an InspectedPack: reads pack.json, checks each clip path, probes clips in parallel and
// lists the audio files on disk.

import Foundation
import SoundpackCore
import Synchronization

/// Reads a pack folder into the facts the rules check.
public struct PackInspector: Sendable {
    public var limits: AudioLimits

    public init(limits: AudioLimits = AudioLimits()) { self.limits = limits }

    public func inspect(folder: PackFolder) -> InspectedPack {
        inspect(folders: [folder])[0]
    }

    /// Inspects several packs, probing the clips of all of them in one pool of workers so every
    /// core stays busy across pack boundaries.
    public func inspect(folders: [PackFolder], progress: (@Sendable (_ done: Int, _ total: Int) -> Void)? = nil) -> [InspectedPack] {
        var packs = WorkerPool.map(folders.count) { self.prepare(folder: folders[$0]) }
        // Each distinct file is probed once, however many keys name it, and a pack's files are read
        // only up to a total byte budget: the work is bounded by the pack's size, not its keys.
        struct Job: Sendable { var pack: Int, clips: [Int], path: String, probe: AudioProbe }
        var jobs: [Job] = []
        for (p, pack) in packs.enumerated() {
            guard let manifest = pack.packFile else { continue }
            let probe = AudioProbe(limits: limits, silenceThresholdDbfs: manifest.checks.silenceThresholdDbfs,
                                   clippingRunSamples: Int(manifest.checks.clippingRunSamples))
            let root = URL(fileURLWithPath: pack.folder.path, isDirectory: true)
            var jobOfPath: [[UInt8]: Int] = [:]  // by bytes: NFC and NFD names are two files
            var budget = limits.maxPackBytes
            for (c, clip) in pack.clips.enumerated() where clip.unsafePath == nil {
                let relative = PackPaths.normalized(clip.path)
                if let job = jobOfPath[relative.pathKey] {
                    jobs[job].clips.append(c)
                    continue
                }
                let path = root.appendingPathComponent(relative).path
                var info = stat()
                let size = lstat(path, &info) == 0 ? Int(info.st_size) : 0
                guard size <= budget else {
                    packs[p].clips[c].probe = .failure(AudioError("not read: the pack's clips hold more than \(limits.maxPackBytes / 1_048_576) MiB in all"))
                    continue
                }
                budget -= size
                jobOfPath[relative.pathKey] = jobs.count
                jobs.append(Job(pack: p, clips: [c], path: path, probe: probe))
            }
        }
        let queue = jobs
        let results = Mutex<[Int: (Result<ClipFacts, AudioError>, Double)]>([:])
        WorkerPool.run(queue.count) { (index: Int) throws(Never) in
            let job = queue[index]
            let result: Result<ClipFacts, AudioError>
            let start = ContinuousClock.now
            do throws(AudioError) { result = .success(try job.probe.probe(path: job.path)) } catch { result = .failure(error) }
            let elapsed = ContinuousClock.now - start
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            let done = results.withLock { results -> Int in
                results[index] = (result, seconds)
                return results.count
            }
            progress?(done, queue.count)
        }
        let probed = results.withLock { $0 }
        for (index, job) in queue.enumerated() {
            for clip in job.clips {
                packs[job.pack].clips[clip].probe = probed[index]?.0
                packs[job.pack].clips[clip].probeSeconds = probed[index]?.1 ?? 0
            }
        }
        let measured = packs
        let worst = WorkerPool.map(measured.count) { index -> WorstCase? in
            guard let manifest = measured[index].packFile else { return nil }
            return WorstCase.search(manifest, clips: measured[index].clips)
        }
        for index in packs.indices { packs[index].worstCase = worst[index] }
        return packs
    }

    /// Reads pack.json, lists the audio files and checks each clip path; probing comes later.
    private func prepare(folder: PackFolder) -> InspectedPack {
        var pack = InspectedPack(folder: folder, packFile: nil, packFileError: nil, clips: [], audioFiles: [], worstCase: nil)
        let root = URL(fileURLWithPath: folder.path, isDirectory: true)
        let manifest: PackFile
        do {
            let bytes = try PackFileLoader.read(directory: folder.path)
            pack.packFileKeyLocations = JSONDuplicateKeys.locations(in: bytes)
            manifest = try PackFile(json: bytes)
        } catch {
            pack.packFileError = error
            return pack
        }
        pack.audioFiles = PackPaths.audioFiles(under: root)
        pack.packFile = manifest
        let book = manifest.phrasebook
        pack.clips = manifest.clips.map { key, path in
            InspectedClip(key: key, token: book.token(forKey: key), path: path,
                          unsafePath: PackPaths.unsafeReason(path, root: root), probe: nil)
        }.sorted { manifest.grammar.precedes($0.key, $1.key) }
        return pack
    }
}
