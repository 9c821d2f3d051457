// What `render` writes where: one file, the bytes of one file for a stream, or a folder of files.
// Decided here from the request and what is on disk; the command only phrases the problems.

import Foundation
import SoundpackAudio
import SoundpackCore
import SoundpackSupport

/// Where `render` writes: one file, a stream, or a folder of one file per amount.
public enum RenderDestination: Sendable, Equatable {
    /// One amount into a regular file (replaced whole), its container from its extension.
    case file(String, Container)
    /// One amount for standard output or an existing device or FIFO: rendered aside, then the
    /// bytes written into it, never replacing it.
    case stream(Container)
    /// Each amount into `AMOUNT.EXT` in the folder (made if missing, its parent must exist).
    case folder(String, Container)

    /// Why a request names no destination.
    public enum Problem: Error, Sendable, Equatable {
        /// A container was asked for that the file name contradicts.
        case containerConflict(asked: Container, named: Container)
        /// One amount into a file whose extension names no container.
        case unknownContainer
        /// Several amounts, but the output names a file (`stream`: a stream or device).
        case severalAmountsNeedAFolder(stream: Bool)
    }

    /// The destination of `amounts` (nil: read from a file, so possibly several) at `path`
    /// (absolute; `isStandardOutput` for `-`). `container` is the one asked for, nil when none was:
    /// files in a folder and streams then use CAF.
    public static func resolve(path: String, isStandardOutput: Bool, amounts: Int?, container: Container?) throws(Problem) -> RenderDestination {
        var info = stat()
        let exists = !isStandardOutput && stat(path, &info) == 0
        let isFolder = exists && info.st_mode & S_IFMT == S_IFDIR
        let special = isStandardOutput || (exists && info.st_mode & S_IFMT != S_IFREG && !isFolder)
        let byName = AudioFileWriter.container(forExtension: (path as NSString).pathExtension)
        let chosen = container ?? .caf
        guard amounts == 1, !isFolder else {
            if special { throw .severalAmountsNeedAFolder(stream: true) }
            if !isFolder, byName != nil { throw .severalAmountsNeedAFolder(stream: false) }
            return .folder(path, chosen)
        }
        if special { return .stream(chosen) }
        guard let byName else { throw .unknownContainer }
        if let container, container != byName { throw .containerConflict(asked: container, named: byName) }
        return .file(path, byName)
    }
}

extension PackRenderer {
    /// The file `amount` renders to, as bytes: written aside in the temporary folder, read back,
    /// removed.
    public func bytes(_ amount: Amount?, container: Container) throws(AudioError) -> Data {
        let aside = FileManager.default.temporaryDirectory
            .appendingPathComponent("soundpack-render-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).\(container.rawValue)").path
        defer { unlink(aside) }
        try write(amount, to: aside, container: container)
        guard let data = FileManager.default.contents(atPath: aside) else { throw AudioError("cannot read back the rendered \(fileStem(for: amount, namedByPhrase: true))") }
        return data
    }

    /// Renders every amount into `folder` as `AMOUNT.EXT` (`PHRASE-AMOUNT.EXT` when `namedByPhrase`;
    /// the folder made if missing, its parent must exist); `shown` names the folder in errors as the user wrote it.
    public func write(_ amounts: [Amount?], intoFolder folder: String, shown: String, container: Container, namedByPhrase: Bool = false,
                      progress: (@Sendable () -> Void)? = nil) throws(SoundpackError) {
        do { try Self.makeOutputFolder(folder) } catch { throw error.context("cannot create the output folder \(shown)") }
        do { try write(amounts, into: folder, fileExtension: container.rawValue, container: container, namedByPhrase: namedByPhrase, progress: progress) } catch {
            throw .environment("cannot write \(error.path)", error.error.message)
        }
    }

    /// Makes the output folder, but not the folders above it: a typo there is an error.
    static func makeOutputFolder(_ path: String) throws(SoundpackError) {
        let parent = (path as NSString).deletingLastPathComponent
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: parent, isDirectory: &isFolder), isFolder.boolValue else {
            throw .environment("the folder \(parent) does not exist", hint: "create it first")
        }
        do { try Folders.create(path) } catch { throw .environment(error.message) }
    }
}

/// What one amount rendered to: its tokens and length, and the bytes when they go to a stream.
public struct RenderedAmount: Sendable {
    /// The phrase said, and the amount (nil for a phrase that says none).
    public var phrase: String
    /// The amount said; nil for a phrase that says none.
    public var amount: Amount?
    /// The announcement's words.
    public var text: String
    /// Its length in frames.
    public var frames: Int64
    /// Its length in seconds.
    public var seconds: Double
    /// The file's bytes for a stream; nil when a file was written.
    public var bytes: Data?
}

extension PackRenderer {
    /// Renders `amount` into a file or a stream's bytes. An announcement at or above the pack's
    /// limit is refused (`compose.too-long`, the one refusal) unless `allowLong`; `shown` names
    /// the output in messages.
    public func render(_ amount: Amount?, to destination: RenderDestination, allowLong: Bool, shown: String) throws(SoundpackError) -> RenderedAmount {
        if !allowLong, let finding = tooLong(amount) { throw .refused("\(shown) not written", "[\(finding.rule.rawValue)] \(finding.message)") }
        let tokens = tokens(for: amount), frames = timing.frames(of: tokens)
        var rendered = RenderedAmount(phrase: phrase.id, amount: phrase.saysAmount ? amount : nil, text: packFile.grammar.text(of: tokens, texts: packFile.texts), frames: frames,
                                      seconds: Double(frames) / Double(sampleRate))
        switch destination {
        case .file(let path, let container):
            do { try write(amount, to: path, container: container) } catch { throw .environment("cannot write \(shown)", error.message) }
        case .stream(let container):
            do throws(AudioError) { rendered.bytes = try bytes(amount, container: container) } catch {
                throw .environment("cannot render \(fileStem(for: amount, namedByPhrase: packFile.phrasebook.isDeclared))", error.message)
            }
        case .folder:
            preconditionFailure("a folder takes a list of amounts")
        }
        return rendered
    }
}

extension AmountList {
    /// The amounts of the arguments and of `file` (one per line; `-` is `standardInput`), read
    /// whole before anything is rendered, so bad lines are reported in order.
    /// `file` is absolute; `shown` is how it was named.
    public static func read(arguments: [String], file: String?, shown: String, standardInput: LineSource, maximum: Amount,
                            grouping: DigitGrouping = .thousands, refuse: (Amount) -> String?) throws(SoundpackError) -> AmountList {
        guard let file, shown != "-" else {
            return AmountList(arguments: arguments, lines: file == nil ? nil : standardInput, maximum: maximum, grouping: grouping, refuse: refuse)
        }
        guard let handle = FileHandle(forReadingAtPath: file) else {
            throw .environment("cannot read the amounts file \(shown.visible)", "no such file or no permission")
        }
        defer { try? handle.close() }
        return AmountList(arguments: arguments, lines: LineSource(fileDescriptor: handle.fileDescriptor), maximum: maximum, grouping: grouping, refuse: refuse)
    }
}
