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
    /// For each pack, the clips of the newest version below its own that this store's index lists
    /// (yanked or not: it is what phones had), with their prints; nil when it lists none. The
    /// index is read once, now.
    public func earlierVoices(limits: AudioLimits = AudioLimits()) -> @Sendable (PackFile) -> Result<EarlierVoices?, SoundpackError> {
        let index = Result { () throws(SoundpackError) in try readIndex() }
        return { pack in
            index.flatMap { index in
                Result { () throws(SoundpackError) -> EarlierVoices? in
                    guard let versions = index?.packs[pack.id]?.versions.keys else { return nil }
                    guard let version = versions.compactMap(SemanticVersion.init).filter({ $0 < pack.version }).max() else { return nil }
                    return try voices(of: pack.id, version, limits: limits)
                }
            }
        }
    }

    /// The clips of `id@version` as the store holds them, each checked against its manifest's
    /// SHA-256 and probed (a clip that is missing, altered or unreadable is an error naming it).
    public func voices(of id: String, _ version: SemanticVersion, limits: AudioLimits = AudioLimits()) throws(SoundpackError) -> EarlierVoices {
        let manifest = try self.manifest(id, version)
        let grammar = manifest.readingGrammar
        let book = manifest.phrasebook
        let clips = manifest.clips.sorted { $0.key < $1.key }
        let probe = AudioProbe(limits: limits)
        let results = WorkerPool.map(clips.count) { n -> Result<EarlierVoices.Clip?, SoundpackError> in
            let (key, clip) = clips[n]
            let file = StoreLayout.versionFile(id, version, clip.file)
            return Result { () throws(SoundpackError) -> EarlierVoices.Clip? in
                guard let data = try backend.read(file, atMost: limits.maxFileBytes) else {
                    throw SoundpackError.environment("\(location)/\(file.visible) is missing (soundpack verify checks the store)")
                }
                guard Digest.sha256Hex(data) == clip.sha256 else {
                    throw SoundpackError.environment("\(location)/\(file.visible) is not the clip its manifest names (another SHA-256; soundpack verify checks the store)")
                }
                let facts: ClipFacts
                do throws(AudioError) { facts = try probe.probe(bytes: [UInt8](data)) } catch {
                    throw SoundpackError.environment("\(location)/\(file.visible) cannot be read as audio: \(error.message)")
                }
                guard let print = facts.print else { return nil }
                let words = book.token(forKey: key).map { grammar.text(of: $0, texts: manifest.texts) } ?? manifest.texts[key] ?? key
                return EarlierVoices.Clip(words: words, sha256: clip.sha256, print: print)
            }
        }
        var voices: [String: EarlierVoices.Clip] = [:]
        for (n, result) in results.enumerated() {
            if let clip = try result.get() { voices[clips[n].key] = clip }
        }
        return EarlierVoices(version: version, clips: voices)
    }
}
