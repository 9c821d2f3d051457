// `soundpack verify`: recompute every hash in the store against manifests and catalog.

import Foundation
import SoundpackCore
import SoundpackKit

enum VerifyCommand: Command {
    static let usesCatalogOrStore = true
    static let spec = CommandSpec(
        name: "verify",
        synopsis: "verify [--store DIR] [--public-key FILE...] [--unsigned-before ID@VERSION...] [--format text|json|junit|github|sarif]",
        summary: "Recompute every hash in the store and compare with manifests and catalog; exit 1 on any drift.",
        discussion: "Notes (exit 0) what an interrupted publish left: staging folders, temporary files, a version moved into place but never recorded, the files of a version whose manifest.json never went up (an object store writes it last) that neither the catalog nor index.json knows; the next publish cleans or completes them. Reports files missing from the store, files whose bytes changed, a manifest or index.json phones would refuse, a manifest that is not the one publish writes for the pack.json beside it (its digest recomputed from pack.json and the clips), a FIFO, device, socket, folder or symbolic link where a file was, or a file reached through a symbolic link (never opened; everything else is still checked), files no manifest lists, an index.json that does not match the catalog, and (with --public-key) manifest signatures that do not verify, or versions that are not signed: a team that adopts signing after unsigned releases names its first signed version with --unsigned-before ID@VERSION, and the older unsigned versions are notes, not drift.",
        options: Options.specs)

    struct Options: ParsableArguments {
        var publicKeys: [String] = []
        var unsignedBefore: [PackRef] = []
        var format = ReportFormat.text

        static let declarations: [Declaration<Self>] = [
            .option("--public-key", to: \.publicKeys, value: "FILE", help: "an Ed25519 public key (FILE.pub from keygen) to check signatures with"),
            .option("--unsigned-before", to: \.unsignedBefore, value: "ID@VERSION", help: "versions of ID older than VERSION may be unsigned (signing adopted later)") {
                text throws(SoundpackError) in try parseReference(text, requireVersion: true)
            },
            .choice("--format", to: \.format, value: "FORMAT"),
        ]
    }

    static func run(_ arguments: Options, _ context: CLIContext) throws(SoundpackError) -> ExitCode {
        let format = arguments.format
        // A store or catalog that does not exist is an error, never "0 files checked, no drift".
        let store = try context.store(existing: true)
        var verifier = StoreVerifier(catalog: try context.openCatalog(readOnly: true), store: store)
        for file in arguments.publicKeys {
            let key = try KeyFiles.publicKey(file, context)
            verifier.publicKeys[SigningKey.keyID(publicKey: key)] = key
        }
        for ref in arguments.unsignedBefore {
            guard let version = ref.version else { throw .usage("--unsigned-before needs ID@VERSION, such as wechat@1.0.2") }
            verifier.unsignedBefore[ref.id] = version
        }
        let result: StoreVerifier.Result
        do { result = try verifier.verify() } catch { throw error.context("cannot verify the store") }
        try context.emit(Verification(store: verifier.store.location, filesChecked: result.filesChecked, drift: result.drifts, notices: result.notices), format)
        return result.drifts.isEmpty ? .success : .failure
    }
}
