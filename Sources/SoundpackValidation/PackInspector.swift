// Gathers an InspectedPack: reads pack.json, checks each clip path, probes clips in parallel and
// lists the audio files on disk.

import Foundation
import SoundpackAudio
import SoundpackCore
import SoundpackPack
import SoundpackSupport
import Synchronization

/// Reads a pack folder into the facts the rules check.
public struct PackInspector: Sendable {
    /// What a clip may be (duration, rate, channels) before it is read further.
    public var limits: AudioLimits

    /// An inspector with iOS's limits by default.
    public init(limits: AudioLimits = AudioLimits()) { self.limits = limits }

    /// Reads one pack folder: pack.json, then every clip, probed once.
    public func inspect(folder: PackFolder) -> InspectedPack {
        inspect(folders: [folder])[0]
    }

    /// Inspects several packs, probing the clips of all of them in one pool of workers so every
    /// core stays busy across pack boundaries.
    public func inspect(folders: [PackFolder], progress: (@Sendable (_ done: Int, _ total: Int) -> Void)? = nil) -> [InspectedPack] {
        var packs = WorkerPool.map(folders.count) { index in PhaseTimes.measure("pack.json read, files listed") { self.prepare(folder: folders[index]) } }
        let queue = PhaseTimes.measure("clips listed for probing") { jobs(for: &packs) }
        var done = 0
        for segment in segments(of: queue) {
            let offset = done, total = queue.count
            var report: (@Sendable (Int, Int) -> Void)?
            if let progress { report = { done, _ in progress(offset + done, total) } }
            let probed = probe(Array(queue[segment]), progress: report)
            for (index, job) in queue[segment].enumerated() {
                for clip in job.clips {
                    packs[job.pack].clips[clip].probe = probed[index]?.0
                    packs[job.pack].clips[clip].probeSeconds = probed[index]?.1 ?? 0
                }
            }
            done += segment.count
            PhaseTimes.measure("clips heard (recogniser)") { hear(&packs, Set(queue[segment].map(\.pack))) }
        }
        // Packs with no clip to probe (none named, or pack.json unreadable) are heard too: they say
        // what was not checked.
        hear(&packs, Set(packs.indices).subtracting(queue.map(\.pack)))
        let measured = packs
        let worst = WorkerPool.map(measured.count) { index -> WorstCase? in
            guard let manifest = measured[index].packFile else { return nil }
            return PhaseTimes.measure("worst case searched") { WorstCase.search(manifest, clips: measured[index].clips) }
        }
        for index in packs.indices { packs[index].worstCase = worst[index] }
        return packs
    }

    /// How many packs whose clips keep their samples for the recogniser are probed at once: each
    /// batch is heard and its samples dropped before the next is read, so memory is bounded by the
    /// batch, not by how many packs a run validates.
    static let packsHeardAtOnce = 16

    /// The queue cut where a batch of `packsHeardAtOnce` packs that keep samples ends, never inside
    /// a pack (jobs come pack by pack); one range when none keeps them.
    private func segments(of queue: [Job]) -> [Range<Int>] {
        var cuts: [Range<Int>] = [], start = 0, keeping = Set<Int>()
        for (index, job) in queue.enumerated() where job.probe.keepsSpeech && !keeping.contains(job.pack) {
            if keeping.count == Self.packsHeardAtOnce {
                cuts.append(start..<index)
                (start, keeping) = (index, [])
            }
            keeping.insert(job.pack)
        }
        cuts.append(start..<queue.count)
        return cuts
    }

    /// Asks the recogniser which words the clips of `indices` say, and drops the samples kept for it.
    private func hear(_ packs: inout [InspectedPack], _ indices: Set<Int>) {
        let order = indices.sorted(), snapshot = order.map { packs[$0] }
        let words = WorkerPool.map(order.count) { WordCheck.run(snapshot[$0]) }
        for (index, checked) in zip(order, words) {
            for (clip, heard) in checked.heard { packs[index].clips[clip].heard = heard }
            if let note = checked.note {
                packs[index].notes.append(note)
                if checked.heard.isEmpty && checked.checkedNone { packs[index].unchecked[.audioWrongWord] = note }
            }
            // The samples were kept for the recogniser only.
            for clip in packs[index].clips.indices {
                if case .success(var facts)? = packs[index].clips[clip].probe, facts.speech != nil {
                    facts.speech = nil
                    packs[index].clips[clip].probe = .success(facts)
                }
            }
        }
    }

    /// One file to probe: the clips of one pack that name it.
    private struct Job: Sendable { var pack: Int, clips: [Int], path: String, size: Int, probe: AudioProbe }

    /// The files to probe. Each distinct file is probed once, however many keys name it, and a
    /// pack's files are read only up to a total byte budget (a clip past it is marked not read):
    /// the work is bounded by the pack's size, not its keys.
    private func jobs(for packs: inout [InspectedPack]) -> [Job] {
        var jobs: [Job] = []
        for (p, pack) in packs.enumerated() {
            guard let manifest = pack.packFile else { continue }
            var probe = AudioProbe(limits: limits, silenceThresholdDbfs: manifest.checks.silenceThresholdDbfs,
                                   clippingRunSamples: Int(manifest.checks.clippingRunSamples))
            probe.keepsSpeech = WordCheck.wanted(manifest) && WordRecogniser.unavailable == nil
            let root = URL(fileURLWithPath: pack.folder.path, isDirectory: true).path
            var jobOfPath: [[UInt8]: Int] = [:]  // by bytes: NFC and NFD names are two files
            var budget = limits.maxPackBytes
            for (c, clip) in pack.clips.enumerated() where clip.unsafePath == nil {
                let relative = PackPaths.normalized(clip.path)
                if let job = jobOfPath[relative.pathKey] {
                    jobs[job].clips.append(c)
                    continue
                }
                let path = root + "/" + relative, size = clip.bytesOnDisk
                guard size <= budget else {
                    packs[p].clips[c].probe = .failure(AudioError("not read: the pack's clips hold more than \(limits.maxPackBytes / 1_048_576) MiB in all"))
                    continue
                }
                budget -= size
                jobOfPath[relative.pathKey] = jobs.count
                jobs.append(Job(pack: p, clips: [c], path: path, size: size, probe: probe))
            }
        }
        return jobs
    }

    /// Each job's facts (or why it could not be read) and the seconds it took, by job index.
    /// Clips are probed in groups of up to four, each with the clips of its pack nearest its size
    /// (a pack's clips share a format): mono clips of one rate are measured side by side in about
    /// the time of one.
    private func probe(_ queue: [Job], progress: (@Sendable (_ done: Int, _ total: Int) -> Void)?) -> [Int: (Result<ClipFacts, AudioError>, Double)] {
        let order = queue.indices.sorted { (queue[$0].pack, queue[$1].size) < (queue[$1].pack, queue[$0].size) }
        let width = KWeightedLanes.width
        let groups = stride(from: 0, to: order.count, by: width).map { Array(order[$0..<min($0 + width, order.count)]) }
        let results = Mutex<[Int: (Result<ClipFacts, AudioError>, Double)]>([:])
        WorkerPool.run(groups.count) { (index: Int) throws(Never) in
            let group = groups[index]
            let start = ContinuousClock.now
            let read = PhaseTimes.measure("clips read") {
                group.map { job in
                    Result { () throws(AudioError) in try AudioProbe.readCapped(path: queue[job].path, cap: queue[job].probe.limits.maxFileBytes) }
                }
            }
            let readable = zip(group, read).compactMap { job, bytes in (try? bytes.get()).map { (probe: queue[job].probe, bytes: $0) } }
            // One outcome per clip read, in order: a clip that could not be read keeps its error.
            var outcomes = PhaseTimes.measure("clips decoded and measured") { AudioProbe.probe(together: readable) }[...]
            let probed = read.map { bytes in bytes.flatMap { _ in outcomes.removeFirst() } }
            let elapsed = ContinuousClock.now - start
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            // The group's time is shared by the bytes each clip holds.
            let sizes = group.map { Double(max(queue[$0].size, 1)) }
            let done = results.withLock { results -> Int in
                for (n, job) in group.enumerated() { results[job] = (probed[n], seconds * sizes[n] / sizes.reduce(0, +)) }
                return results.count
            }
            progress?(done, queue.count)
        }
        return results.withLock { $0 }
    }

    /// Reads pack.json, lists the audio files and checks each clip path; probing comes later.
    private func prepare(folder: PackFolder) -> InspectedPack {
        var pack = InspectedPack(folder: folder, packFile: nil, packFileError: nil, clips: [], audioFiles: [], worstCase: nil)
        let root = URL(fileURLWithPath: folder.path, isDirectory: true), rootPath = root.path
        let manifest: PackFile
        do {
            let bytes = try PackFileLoader.read(directory: folder.path)
            manifest = try PackFile(json: bytes, keyLocations: &pack.packFileKeyLocations)
        } catch {
            pack.packFileError = error
            return pack
        }
        pack.audioFiles = PackPaths.audioFiles(under: root)
        pack.packFile = manifest
        let book = manifest.phrasebook, grammar = manifest.grammar
        var folders = Set<[UInt8]>()
        // In the grammar's order (`Grammar.precedes`), each key's token looked up once.
        pack.clips = manifest.clips.map { key, path in
            var size = 0
            let unsafe = PackPaths.unsafeReason(path, root: rootPath, checkedFolders: &folders, size: &size)
            var clip = InspectedClip(key: key, token: book.token(forKey: key), path: path, unsafePath: unsafe, probe: nil)
            clip.bytesOnDisk = size
            return (grammar.token(forKey: key), clip)
        }.sorted { a, b in
            switch (a.0, b.0) {
            case let (x?, y?): x < y
            case (.some, nil): true
            case (nil, .some): false
            case (nil, nil): a.1.key < b.1.key
            }
        }.map(\.1)
        return pack
    }
}
