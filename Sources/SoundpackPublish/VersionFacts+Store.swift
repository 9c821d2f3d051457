// The version facts publish and diff read from the catalog and the store: a recorded version, and a
// manifest's texts and phrases (the bump rule and the change itself are SoundpackValidation's).

import SoundpackCatalog
import SoundpackCore
import SoundpackPack
import SoundpackStore
import SoundpackSupport
import SoundpackValidation

extension VersionFacts {
    /// These facts completed with what the store's manifest of the version keeps and the catalog
    /// does not: the texts and the phrases.
    public func completed(by manifest: StoreManifest) -> VersionFacts {
        var facts = self
        facts.texts = manifest.texts
        facts.phrasebook = manifest.phrasebook
        return facts
    }

    /// The facts of a version the catalog recorded, with its phrases and texts when the catalog
    /// kept them (versions recorded since catalog migration 7).
    public init(_ record: VersionRecord) {
        var clips: [String: Clip] = [:]
        for clip in record.clips { if let facts = clip.facts { clips[clip.key] = Clip(sha256: facts.sha256, format: facts.format) } }
        let phrases = record.pack.phrases
        self.init(version: record.pack.version, digest: record.pack.digest, grammar: record.pack.grammar,
                  maxAmount: record.pack.maxAmount, clips: clips, texts: phrases?.texts,
                  paths: Dictionary(record.clips.map { ($0.key, $0.file) }, uniquingKeysWith: { a, _ in a }),
                  phrasebook: phrases?.phrasebook(grammar: record.pack.grammar))
    }
}

extension VersionFacts {
    /// One side of `diff`: a pack folder, validated but not recorded, or a version the catalog
    /// recorded, its texts and phrases taken from the store's manifest when the store has it.
    /// `catalog` and `store` are opened only for a recorded version. The name is the pack's id.
    public static func of(_ source: PackSource, as argument: String, catalog: () throws(SoundpackError) -> any Catalog,
                          store: () throws(SoundpackError) -> Store) throws(SoundpackError) -> (name: String, facts: VersionFacts) {
        switch source {
        case .folder(let folder):
            let report = Validator().validate(folder: folder)
            guard let facts = VersionFacts(report) else {
                throw .refused("\(argument)/pack.json cannot be read", report.findings.first?.message)
            }
            return (report.packFile?.id ?? argument, facts)
        case .published(_, nil):
            throw .refused("'\(argument.visible)' needs a version: ID@VERSION")
        case .published(let id, let version?):
            let found: VersionRecord?
            do { found = try catalog().versionRecord(of: id, version) } catch { throw error.context("cannot read the catalog") }
            guard let found else { throw .refused("\(argument) is neither a pack folder nor a version in the catalog") }
            var recorded = VersionFacts(found)
            // A store without the version leaves its texts and phrases unknown, and the change says
            // so; a manifest that cannot be read would hide a changed phrase, so it stops the diff.
            let opened = try store()
            let manifest: StoreManifest?
            do { manifest = try opened.storedManifest(id, version) } catch {
                throw error.context("cannot read the texts and phrases of \(PackRef.name(id, version)) from the store")
            }
            if let manifest {
                recorded = recorded.completed(by: manifest)
                // The clips' sound, for a changed clip that sounds like another word's; a store
                // whose clips cannot be read leaves it unknown (verify reports such a store).
                recorded.voices = try? opened.voices(of: id, version)
            }
            return (id, recorded)
        }
    }
}
