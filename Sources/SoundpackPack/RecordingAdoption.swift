// `init --from`: a folder of recordings (a sound designer's delivery, a TTS website's download)
// adopted as a new pack. Each file directly in the folder is matched to a token by its stem (the
// token's key, its ASCII clip stem, or a name the team maps), copied byte for byte under clips/,
// and pack.json written; everything is staged beside the destination and renamed into place, so a
// failure leaves nothing. Only regular files are read: symbolic links are never followed, and
// folders, FIFOs and devices are listed as skipped.

import Foundation
import SoundpackAudio
import SoundpackCore
import SoundpackSupport

/// A folder of recordings matched to the tokens of a new pack, decided before anything is written.
public struct RecordingAdoption: Sendable {
    /// A recording adopted as a token's clip.
    public struct Match: Sendable, Codable, Equatable {
        /// The token whose clip the recording becomes.
        public var token: String
        /// The file's name in the recordings folder.
        public var recording: String
        /// Its path in the pack (`clips/shi.mp3`).
        public var clip: String
    }

    /// An audio file no token claimed.
    public struct Unmatched: Sendable, Codable, Equatable {
        /// The file's name in the recordings folder.
        public var recording: String
        /// The token whose name is nearest the file's stem, when one is near.
        public var nearest: String?
        /// Why it is not adopted when its name is a token's (a token the pack does not need, or one
        /// mapped to another file).
        public var note: String?
    }

    /// A token the pack needs that no recording gives.
    public struct Missing: Sendable, Codable, Equatable {
        /// The token's name.
        public var token: String
        /// What the clip says (十, 微信到账).
        public var text: String
        /// The smallest amount whose reading says it (grammar tokens).
        public var amount: String?
        /// The declared phrases that say it (a phrase's own clips).
        public var phrases: [String]?
    }

    /// A folder entry that is not read.
    public struct Skipped: Sendable, Codable, Equatable {
        /// The entry's name in the recordings folder.
        public var name: String
        /// Why it is not read (a folder, a symbolic link, a FIFO or device, not an audio file name).
        public var reason: String
    }

    /// The pack.json to write: the given one with a clip for each match.
    public var pack: PackFile
    /// The recordings adopted, one per token.
    public var matched: [Match] = []
    /// The audio files no token claimed.
    public var unmatched: [Unmatched] = []
    /// The tokens the pack needs that no recording gives; their clips are still to be made.
    public var missing: [Missing] = []
    /// The folder entries that are not read.
    public var skipped: [Skipped] = []

    /// Why recordings cannot be adopted as asked, as data: `init --from` phrases each with its flags.
    public enum Problem: Error, Sendable, Equatable {
        /// A map's TOKEN is no token the pack needs: `unneeded` is the token it names that the pack
        /// never says up to `maxAmount`; otherwise the pack has none of that name (`nearest` is the
        /// closest name). `needed` lists the names a map can use.
        case unknownToken(given: String, name: String, unneeded: String?, maxAmount: Amount, nearest: String?, needed: [String])
        /// Two maps for one token.
        case tokenMappedTwice(token: String)
        /// One recording mapped to two tokens.
        case recordingMappedTwice(recording: String, first: String, second: String)
        /// A map's NAME is no recording in the folder (`skipped`: an entry of that name that is
        /// not read, and why; `nearest`: the closest name).
        case noSuchRecording(given: String, name: String, folder: String, skipped: Skipped?, nearest: String?)
        /// A map's NAME is the stem of several files.
        case ambiguousRecording(given: String, name: String, files: [String])
        /// Several recordings for one token and no map choosing one.
        case severalRecordings(token: String, files: [String], folder: String)
        /// Anything else: the folder or a recording cannot be read, a recording is too large.
        case failed(SoundpackError)
    }

    /// The most entries a recordings folder may hold; a delivery has a few dozen.
    package static let maxEntries = 4_096

    /// A recording found in the folder: a regular file with an audio extension.
    struct Recording {
        var name: String
        var stem: String
        var ext: String
        var bytes: Int
    }

    /// Matches the recordings in `recordings` (shown to the user as `shown`) to the tokens `pack`
    /// needs; `maps` (`--map TOKEN=NAME`, in order) claim a file for a token by its stem or its
    /// whole name. A map naming a token the pack does not need, or a file the folder does not
    /// hold, is a usage error; two files for one token are refused.
    public static func plan(_ pack: PackFile, recordings: String, shown: String,
                            maps: [(token: String, name: String)]) throws(Problem) -> RecordingAdoption {
        let found: [Recording], skipped: [Skipped]
        do { (found, skipped) = try scan(recordings, shown: shown) } catch { throw .failed(error) }
        var adoption = RecordingAdoption(pack: pack, skipped: skipped)
        let book = PhraseTexts.phrasebook(of: pack)
        let names = TokenNames(grammar: pack.grammar, required: book.requiredTokens(upTo: pack.maxAmount))
        var chosen: [String: [Int]] = [:]  // token → recordings
        var claimed: [Int: String] = [:]   // recording → token
        for (given, name) in maps {
            guard let token = names.tokenNamed[given.lowercased()] else {
                throw .unknownToken(given: given, name: name, unneeded: names.unneeded[given.lowercased()], maxAmount: pack.maxAmount,
                                    nearest: Suggestions.nearest(given, among: names.names), needed: Array(names.needed.prefix(24)))
            }
            guard chosen[token] == nil else { throw .tokenMappedTwice(token: token) }
            let hit = try mappedRecording(given, name, found: found, skipped: skipped, shown: shown)
            if let other = claimed[hit] { throw .recordingMappedTwice(recording: found[hit].name, first: other, second: token) }
            chosen[token] = [hit]
            claimed[hit] = token
        }
        let mapped = Set(chosen.keys)
        for (index, recording) in found.enumerated() where claimed[index] == nil {
            let stem = recording.stem.lowercased()
            if let token = names.tokenNamed[stem], !mapped.contains(token) {
                chosen[token, default: []].append(index)
                continue
            }
            let note: String?
            if let token = names.tokenNamed[stem] {
                note = "token '\(token)' is mapped to \(found[chosen[token]![0]].name)"
            } else if let token = names.unneeded[stem] {
                note = "the pack never says '\(token)' up to maxAmount \(pack.maxAmount)"
            } else {
                note = nil
            }
            let nearest = note == nil ? Suggestions.nearest(stem, among: names.names).flatMap { names.tokenNamed[$0] } : nil
            adoption.unmatched.append(Unmatched(recording: recording.name, nearest: nearest, note: note))
        }
        try adoption.adopt(chosen, of: found, names: names, book: book, shown: shown)
        return adoption
    }

    /// The one recording `--map given=name` names: by its whole name, else by its stem.
    private static func mappedRecording(
        _ given: String, _ name: String, found: [Recording], skipped: [Skipped], shown: String
    ) throws(Problem) -> Int {
        let byName = found.indices.filter { found[$0].name == name }
        let hits = byName.isEmpty ? found.indices.filter { found[$0].stem == name } : byName
        guard !hits.isEmpty else {
            let entry = skipped.first { $0.name == name || ($0.name as NSString).deletingPathExtension == name }
            let candidates = found.map(\.stem) + found.map(\.name)
            throw .noSuchRecording(given: given, name: name, folder: shown, skipped: entry, nearest: Suggestions.nearest(name, among: candidates))
        }
        guard hits.count == 1 else { throw .ambiguousRecording(given: given, name: name, files: hits.map { found[$0].name }) }
        return hits[0]
    }

    /// Each needed token's recording becomes its clip (one at most, within the size cap); a token
    /// without one is listed as missing, with where it is first heard.
    private mutating func adopt(_ chosen: [String: [Int]], of found: [Recording], names: TokenNames, book: Phrasebook, shown: String) throws(Problem) {
        let grammar = pack.grammar
        let cap = AudioLimits().maxFileBytes
        for key in names.needed {
            guard let indices = chosen[key] else {
                let token = names.tokenByKey[key]!
                let amount = grammar.says(token) ? grammar.smallestAmount(saying: token, upTo: pack.maxAmount)?.description : nil
                let phrases = book.isDeclared && !grammar.says(token) ? book.phrases(saying: token).map(\.id) : nil
                missing.append(Missing(token: key, text: grammar.text(of: token, texts: pack.texts), amount: amount, phrases: phrases))
                continue
            }
            guard indices.count == 1 else { throw .severalRecordings(token: key, files: indices.map { found[$0].name }, folder: shown) }
            let recording = found[indices[0]]
            guard recording.bytes <= cap else {
                throw .failed(.refused("recording '\(recording.name.quoted(limit: 60))' for token '\(key.visible)' is \(recording.bytes) bytes, above the \(cap / 1_048_576) MiB cap for a clip",
                               hint: "export a shorter or compressed take"))
            }
            let clip = "clips/\(names.stems[key] ?? key).\(recording.ext)"
            matched.append(Match(token: key, recording: recording.name, clip: clip))
            pack.clips[key] = clip
        }
    }

    /// The entries directly in `folder`: regular files with an audio extension, and what is not read
    /// and why. Hidden names (`.DS_Store`) are left out without a word.
    static func scan(_ folder: String, shown: String) throws(SoundpackError) -> (recordings: [Recording], skipped: [Skipped]) {
        guard let kind = FileKind.of(folder) else {
            throw .refused("cannot read the recordings in \(shown.visible)", String(cString: strerror(errno)))
        }
        guard case .other("a folder") = kind else { throw .refused("\(shown.visible) is \(kind.name), not a folder of recordings") }
        guard let directory = opendir(folder) else {
            throw .environment("cannot read the recordings in \(shown.visible)", String(cString: strerror(errno)))
        }
        defer { closedir(directory) }
        var recordings: [Recording] = [], skipped: [Skipped] = []
        var count = 0
        while let item = readdir(directory) {
            let bytes = withUnsafeBytes(of: item.pointee.d_name) { Array($0.prefix(while: { $0 != 0 })) }
            let name = String(decoding: bytes, as: UTF8.self)
            if name == "." || name == ".." || name.hasPrefix(".") { continue }
            count += 1
            guard count <= maxEntries else {
                throw .refused("\(shown.visible) holds more than \(maxEntries) entries", hint: "choose the folder of one pack's recordings")
            }
            guard Array(name.utf8) == bytes else {
                skipped.append(Skipped(name: name, reason: "its name is not UTF-8"))
                continue
            }
            var info = stat()
            guard lstat(folder + "/" + name, &info) == 0 else { continue }
            switch info.st_mode & S_IFMT {
            case S_IFREG: break
            case S_IFLNK: skipped.append(Skipped(name: name, reason: "a symbolic link, not followed")); continue
            case S_IFDIR: skipped.append(Skipped(name: name, reason: "a folder; only files directly in the recordings folder are read")); continue
            default: skipped.append(Skipped(name: name, reason: FileKind(mode: info.st_mode).name)); continue
            }
            let ext = (name as NSString).pathExtension
            guard !ext.isEmpty, PackPaths.audioExtensions.contains(ext.lowercased()), name.utf8.count > ext.utf8.count + 1 else {
                skipped.append(Skipped(name: name, reason: "not an audio file name (\(PackPaths.audioExtensions.sorted().joined(separator: ", ")))"))
                continue
            }
            recordings.append(Recording(name: name, stem: String(name.dropLast(ext.count + 1)), ext: ext, bytes: Int(info.st_size)))
        }
        let order: (String, String) -> Bool = { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        return (recordings.sorted { order($0.name, $1.name) }, skipped.sorted { order($0.name, $1.name) })
    }

    /// Writes the pack into `destination`, which must not exist: pack.json and each matched
    /// recording copied byte for byte from `recordings`, assembled in a staging folder beside it
    /// and renamed into place. A recording that changed into anything but a regular file under the
    /// cap since it was matched is refused, and nothing is left.
    public func write(from recordings: String, into destination: PackFolder) throws(SoundpackError) {
        let target = URL(fileURLWithPath: destination.path)
        let parent = target.deletingLastPathComponent()
        if FileKind.at(destination.path) != nil {
            throw .refused("\(destination.shown.visible) already exists", hint: "the pack is written as a new folder; choose another or remove it")
        }
        do { try Folders.create(parent.path) } catch {
            throw .environment("cannot create \(parent.path.visible)", error.localizedDescription)
        }
        StagingFolder.removeAbandoned(in: parent, for: target.lastPathComponent, "adopting")
        let staging = parent.appendingPathComponent(StagingFolder.name(target.lastPathComponent, "adopting"))
        do { try Folders.create(staging.appendingPathComponent("clips").path) } catch {
            throw .environment("cannot write into \(parent.path.visible)", error.localizedDescription)
        }
        var committed = false
        defer { if !committed { try? FileManager.default.removeItem(at: staging) } }

        let cap = AudioLimits().maxFileBytes
        var written: [String] = []
        for match in matched {
            let bytes: [UInt8]
            do { bytes = try CappedFile.read(recordings + "/" + match.recording, cap: cap, what: "a clip", followingLinks: false) } catch {
                throw error.cause(of: .refused, "cannot read recording '\(match.recording.quoted(limit: 60))'")
            }
            let path = staging.appendingPathComponent(match.clip).path
            do { try FileBytes.write(Data(bytes), to: path) } catch {
                throw .environment("cannot write \(match.clip)", error.localizedDescription)
            }
            written.append(path)
        }
        let manifest = staging.appendingPathComponent(PackFolder.packFile).path
        do { try FileBytes.write(try StoreJSON.encode(pack), to: manifest) } catch {
            throw .environment("cannot write pack.json", "\(error)")
        }
        do { try FileBytes.syncAll(written + [manifest], folders: [staging.path, staging.appendingPathComponent("clips").path]) } catch {
            throw .environment("cannot write \(destination.shown.visible)", error.localizedDescription)
        }
        // rename(2) over nothing: a folder that appeared meanwhile is never replaced (mkdir claims
        // the name atomically; the rename then fails unless that folder is still empty and ours).
        guard mkdir(target.path, 0o755) == 0 else {
            throw .refused("\(destination.shown.visible) already exists (it appeared meanwhile)")
        }
        guard rename(staging.path, target.path) == 0 else {
            let reason = errno
            rmdir(target.path)
            throw .environment("cannot move the new pack into \(destination.shown.visible)", String(cString: strerror(reason)))
        }
        committed = true
        FileBytes.syncFolder(parent.path)
    }
}

extension RecordingAdoption {
    /// Where an editor finds pack.json's schema from a pack in `destination`: the relative path to
    /// `schemas/pack.schema.json` of the nearest folder above it that holds one (the soundpack
    /// repository: `../../schemas/pack.schema.json` for `packs/NAME`, as the demo packs write it),
    /// looking no further than the first folder with `.git`. Nil elsewhere: the schema's `$id` is
    /// an identifier, not a published address, so a pack outside the repository gets no `$schema`
    /// rather than a link that does not resolve.
    public static func schemaReference(for destination: String) -> String? {
        var folder = URL(fileURLWithPath: Folders.realPath(destination)).deletingLastPathComponent()
        var depth = 1
        while true {
            if FileKind.of(folder.appendingPathComponent("schemas/pack.schema.json").path) == .regular {
                return String(repeating: "../", count: depth) + "schemas/pack.schema.json"
            }
            if FileKind.at(folder.appendingPathComponent(".git").path) != nil || folder.path == "/" { return nil }
            folder.deleteLastPathComponent()
            depth += 1
        }
    }
}

/// The tokens a new pack needs and the names a recording finds them by.
private struct TokenNames {
    let tokenByKey: [String: Token]
    /// The needed tokens' keys, in the grammar's order.
    let needed: [String]
    /// Each needed token's ASCII clip file stem.
    let stems: [String: String]
    /// Names that find a token, in lower case (Shi.mp3 is shi's): its key first, then its ASCII
    /// stem (a key wins where the two agree).
    let tokenNamed: [String: String]
    /// Those names, sorted: what a near name is suggested from.
    let names: [String]
    /// Tokens of the grammar this pack never says (亿 below 10^8): named in a note, not adopted.
    let unneeded: [String: String]

    init(grammar: Grammar, required: Set<Token>) {
        tokenByKey = Dictionary(required.map { ($0.rawValue, $0) }, uniquingKeysWith: { first, _ in first })
        let needed = tokenByKey.keys.sorted { grammar.precedes($0, $1) }
        self.needed = needed
        let stems = grammar.fileStems(for: needed)
        self.stems = stems
        var tokenNamed: [String: String] = [:]
        for key in needed { tokenNamed[key.lowercased()] = key }
        for key in needed { if let stem = stems[key]?.lowercased(), tokenNamed[stem] == nil { tokenNamed[stem] = key } }
        self.tokenNamed = tokenNamed
        names = Array(tokenNamed.keys).sorted()
        var unneeded: [String: String] = [:]
        for token in grammar.inventory where !needed.contains(token.rawValue) && grammar.says(token) {
            unneeded[token.rawValue.lowercased()] = token.rawValue
            unneeded[grammar.fileStem(of: token).lowercased()] = unneeded[grammar.fileStem(of: token).lowercased()] ?? token.rawValue
        }
        self.unneeded = unneeded
    }
}
