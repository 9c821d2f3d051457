// The clips of the version a store holds just below a pack's, read from the store and probed for
// their prints: what `audio.swapped` compares a pack with (validate with a store, publish's gate)
// and what `diff` compares a recorded version with.

import Foundation
import SoundpackAudio
import SoundpackCore
import SoundpackStore
import SoundpackSupport
import SoundpackValidation

extension Store {
    /// For each inspected pack, the clips of the newest version below its own that this store's
    /// index lists (yanked or not: it is what phones had), with their prints; nil when it lists
    /// none, or the pack's pack.json could not be read. The index is read once, from now on a
    /// thread of its own while the caller probes the packs' clips. An earlier clip with the bytes
    /// of one of the pack's own clips takes that clip's print (`voices`).
    public func earlierVoices(limits: AudioLimits = AudioLimits()) -> @Sendable (InspectedPack) -> Result<EarlierVoices?, SoundpackError> {
        let index = Background { [self] in Result { () throws(SoundpackError) in try readSkimmedIndex() } }
        return { inspected in
            index.value.flatMap { index in
                Result { () throws(SoundpackError) -> EarlierVoices? in
                    guard let pack = inspected.packFile, let versions = index?.pack(pack.id)?.versions.keys else { return nil }
                    guard let version = versions.compactMap(SemanticVersion.init).filter({ $0 < pack.version }).max() else { return nil }
                    var known: [String: VoicePrint] = [:], paths: [String: String] = [:]
                    for clip in inspected.clips {
                        guard let facts = clip.facts, let print = facts.print else { continue }
                        known[facts.sha256] = print
                        if clip.unsafePath == nil { paths[facts.sha256] = inspected.folder.path + "/" + clip.path }
                    }
                    let (cap, local) = (limits.maxFileBytes, paths)
                    return try voices(of: pack.id, version, limits: limits, known: known) { sha256 in
                        // Read again: the bytes whose SHA-256 the pack's probe took, or none.
                        guard let path = local[sha256], let bytes = try? AudioProbe.readCapped(path: path, cap: cap),
                              Digest.sha256Hex(bytes) == sha256 else { return nil }
                        return Digest.md5Hex(bytes)
                    }
                }
            }
        }
    }

    /// The clips of `id@version` as the store holds them, each checked against its manifest's
    /// SHA-256 and probed (a clip that is missing, altered or unreadable is an error naming it).
    /// Each file is read once however many keys name it, and no more bytes than its manifest
    /// declares, in all at most the pack budget (`limits.maxPackBytes`): a hostile store cannot
    /// make a reader load more than a pack may hold.
    public func voices(of id: String, _ version: SemanticVersion, limits: AudioLimits = AudioLimits()) throws(SoundpackError) -> EarlierVoices {
        try voices(of: id, version, limits: limits, known: [:])
    }

    /// `voices(of:_:limits:)`, where a file whose SHA-256 `known` holds is checked all the same,
    /// but not probed: the same bytes decode to the same samples, and so to the same print. On
    /// object storage such a file is checked by the pack folder's listing, one request for all of
    /// them (and for the earlier manifests publish checks next): the size its manifest declares,
    /// and an ETag that is the MD5 `md5` gives of the pack's own bytes with that SHA-256. Any
    /// other file, and one the listing does not vouch for (missing, another size, another MD5, an
    /// ETag that is no MD5), is read and checked.
    package func voices(of id: String, _ version: SemanticVersion, limits: AudioLimits, known: [String: VoicePrint],
                        md5: @escaping @Sendable (_ sha256: String) -> String? = { _ in nil }) throws(SoundpackError) -> EarlierVoices {
        // The pack folder's listing is asked for while the manifest is read.
        let listing = known.isEmpty || !listsObjects ? nil : Background { [self] in listedObjects(ofPack: id) }
        let manifest = try self.manifest(id, version)
        let grammar = manifest.readingGrammar
        let book = manifest.phrasebook
        // Each file once, with every key that names it (in key order), as its first key's entry declares
        // it; files told apart by their bytes, as two spellings of one name are two files.
        var distinct: [(clip: StoreManifest.Clip, keys: [String])] = [], indexOfFile: [[UInt8]: Int] = [:]
        for (key, clip) in manifest.clips.sorted(by: { $0.key < $1.key }) {
            if let index = indexOfFile[clip.file.pathKey] {
                // A file under two keys whose manifest entries disagree is not one file.
                guard distinct[index].clip.sha256 == clip.sha256 else {
                    throw SoundpackError.environment("\(location)/\(StoreLayout.manifest(id, version).visible) names \(clip.file.visible) with two SHA-256s (soundpack verify checks the store)")
                }
                distinct[index].keys.append(key)
            } else {
                indexOfFile[clip.file.pathKey] = distinct.count
                distinct.append((clip, [key]))
            }
        }
        let files = distinct  // a constant, for the workers
        // Each size taken up to just past the budget, so no sum of hostile sizes can overflow.
        let declared = files.reduce(0) { $0 + min(max(0, $1.clip.bytes), limits.maxPackBytes + 1) }
        guard declared <= limits.maxPackBytes else {
            throw SoundpackError.environment("\(location)/\(StoreLayout.manifest(id, version).visible) declares clips of \(declared / 1_048_576) MiB or more in all, more than the \(limits.maxPackBytes / 1_048_576) MiB a pack may hold")
        }
        let probe = AudioProbe(limits: limits)
        let listed = files.contains { known[$0.clip.sha256] != nil } ? listing?.value : nil
        // Eight at a time: on object storage each is a request that mostly waits. (The clips probed
        // here add to the hashing and voice-print phases too.)
        let results = PhaseTimes.measure("earlier version's clips checked") {
            WorkerPool.mapBlocking(files.count, workers: 8) { n -> Result<VoicePrint?, SoundpackError> in
                let clip = files[n].clip
                let file = StoreLayout.versionFile(id, version, clip.file)
                if let print = known[clip.sha256], let object = listed?["\(version)/\(clip.file)".pathKey], object.bytes == Int64(clip.bytes),
                   let etag = object.md5, etag == md5(clip.sha256) {
                    return .success(print)
                }
                return Result { () throws(SoundpackError) -> VoicePrint? in
                    guard let data = try backend.read(file, atMost: min(limits.maxFileBytes, max(0, clip.bytes))) else {
                        throw SoundpackError.environment("\(location)/\(file.visible) is missing (soundpack verify checks the store)")
                    }
                    guard Digest.sha256Hex(data) == clip.sha256 else {
                        throw SoundpackError.environment("\(location)/\(file.visible) is not the clip its manifest names (another SHA-256; soundpack verify checks the store)")
                    }
                    if let print = known[clip.sha256] { return print }
                    do throws(AudioError) { return try probe.probe(bytes: [UInt8](data)).print } catch {
                        throw SoundpackError.environment("\(location)/\(file.visible) cannot be read as audio: \(error.message)")
                    }
                }
            }
        }
        var voices: [String: EarlierVoices.Clip] = [:]
        for (n, result) in results.enumerated() {
            guard let print = try result.get() else { continue }
            for key in distinct[n].keys {
                let words = book.token(forKey: key).map { grammar.text(of: $0, texts: manifest.texts) } ?? manifest.texts[key] ?? key
                voices[key] = EarlierVoices.Clip(words: words, sha256: distinct[n].clip.sha256, print: print)
            }
        }
        return EarlierVoices(version: version, clips: voices)
    }
}
