// Gathers an InspectedPack: reads pack.json, checks each clip path, probes clips in parallel and
// lists the audio files on disk.

import Dispatch
import Foundation
import SoundpackCore
import Synchronization

/// Reads a pack folder into the facts the rules check.
public struct PackInspector: Sendable {
    public var limits: AudioLimits
    static let audioExtensions: Set<String> = ["caf", "wav", "wave", "aif", "aiff", "aifc", "mp3", "m4a", "aac", "flac", "ogg", "opus"]

    public init(limits: AudioLimits = AudioLimits()) { self.limits = limits }

    public func inspect(directory: String) -> InspectedPack {
        inspect(directories: [directory])[0]
    }

    /// Inspects several packs, probing the clips of all of them in one pool of workers so every
    /// core stays busy across pack boundaries.
    public func inspect(directories: [String], progress: (@Sendable (_ done: Int, _ total: Int) -> Void)? = nil) -> [InspectedPack] {
        var packs = directories.map(prepare)
        struct Job: Sendable { var pack: Int, clip: Int, path: String, probe: AudioProbe }
        var jobs: [Job] = []
        for (p, pack) in packs.enumerated() {
            guard let manifest = pack.manifest else { continue }
            let probe = AudioProbe(limits: limits, silenceThresholdDbfs: manifest.checks.silenceThresholdDbfs,
                                   clippingRunSamples: Int(manifest.checks.clippingRunSamples))
            let root = URL(fileURLWithPath: pack.directory, isDirectory: true)
            for (c, clip) in pack.clips.enumerated() where clip.unsafePath == nil {
                jobs.append(Job(pack: p, clip: c, path: root.appendingPathComponent(clip.path).path, probe: probe))
            }
        }
        let queue = jobs
        let results = Mutex<[Int: Result<ClipFacts, AudioError>]>([:])
        DispatchQueue.concurrentPerform(iterations: queue.count) { index in
            let job = queue[index]
            let result: Result<ClipFacts, AudioError>
            do throws(AudioError) { result = .success(try job.probe.probe(path: job.path)) } catch { result = .failure(error) }
            let done = results.withLock { results -> Int in
                results[index] = result
                return results.count
            }
            progress?(done, queue.count)
        }
        let probed = results.withLock { $0 }
        for (index, job) in queue.enumerated() { packs[job.pack].clips[job.clip].probe = probed[index] }
        for index in packs.indices {
            if let manifest = packs[index].manifest { packs[index].worstCase = WorstCase.search(manifest, clips: packs[index].clips) }
        }
        return packs
    }

    /// Reads pack.json, lists the audio files and checks each clip path; probing comes later.
    private func prepare(directory: String) -> InspectedPack {
        var pack = InspectedPack(directory: directory, manifest: nil, manifestError: nil, clips: [], audioFiles: [], worstCase: nil)
        let root = URL(fileURLWithPath: directory, isDirectory: true)
        let manifest: PackManifest
        do { manifest = try ManifestLoader.load(directory: directory) } catch {
            pack.manifestError = error
            return pack
        }
        pack.audioFiles = Self.audioFiles(under: root)
        pack.manifest = manifest
        pack.clips = manifest.clips.map { key, path in
            InspectedClip(key: key, token: Token(rawValue: key), path: path,
                          unsafePath: Self.unsafeReason(path, root: root), probe: nil)
        }.sorted { Token.precedes($0.key, $1.key) }
        return pack
    }

    /// Why a clip path must not be opened, or nil: absolute, `..`, empty, or through a symlink.
    static func unsafeReason(_ path: String, root: URL) -> String? {
        if path.isEmpty { return "the path is empty" }
        if path.hasPrefix("/") || path.hasPrefix("~") { return "the path is absolute; write it relative to the pack folder" }
        if path.contains("\\") { return "the path contains a backslash; use '/'" }
        let components = path.split(separator: "/", omittingEmptySubsequences: true)
        if components.contains("..") { return "the path contains '..' and could point outside the pack" }
        var current = root
        for component in components where component != "." {
            current.appendPathComponent(String(component))
            var info = stat()
            if lstat(current.path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK {
                let relative = current.path.dropFirst(root.path.count + 1)
                return "'\(relative)' is a symbolic link; clips must be regular files inside the pack"
            }
        }
        return nil
    }

    /// Audio files (by extension) under `root`, as sorted relative paths; symlinks are not followed.
    static func audioFiles(under root: URL) -> [String] {
        guard let walker = FileManager.default.enumerator(
            at: root, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles]) else { return [] }
        var files: [String] = []
        let base = root.standardizedFileURL.path
        for case let url as URL in walker {
            guard audioExtensions.contains(url.pathExtension.lowercased()),
                  (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
            let path = url.standardizedFileURL.path
            guard path.hasPrefix(base + "/") else { continue }
            files.append(String(path.dropFirst(base.count + 1)))
        }
        return files.sorted()
    }
}
