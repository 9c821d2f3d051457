// Fuzz target: every JSON reader soundpack and the phone have, on one input, for their cost as much
// as their safety. Each reader is capped and the strict-JSON scan is linear, so libFuzzer's
// -timeout reports any input that is slow: 30 s per 1 MiB input under ASan and coverage
// instrumentation (scripts/fuzz.sh), where all eight readers take about 8 s on the slowest seed;
// the quadratic scan took more than 300 s on it in a release build, where the linear one takes
// 0.05 s (scripts/bench.sh json times validate on such a pack.json).
// fuzz.sh adds 1 MiB seeds that were minutes each before the scan was linear: a one-line object
// of many keys, deep nesting, long strings of escapes.
import Foundation
import SoundpackCore
import SoundpackKit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(bytes: data, count: size)
    let problem = JSONDuplicateKeys.first(in: bytes)
    let locations = JSONDuplicateKeys.locations(in: bytes)
    let together = JSONDuplicateKeys.firstAndLocations(in: bytes)
    precondition(together.problem == problem && together.locations == locations, "one pass finds what the two scans find")
    for (path, location) in locations {
        precondition(location.line >= 1 && location.column >= 1, "a key location is 1-based: \(path.visible)")
    }
    if case .duplicateKey(let duplicate)? = problem { precondition(duplicate.firstLine <= duplicate.secondLine, "the first occurrence comes first") }
    if let syntax = JSONSyntax.firstError(in: Array(bytes)) {
        precondition(syntax.line >= 1 && syntax.column >= 1 && !syntax.message.isEmpty, "a syntax error is placed, 1-based, and says what")
        precondition(syntax.line <= bytes.filter { $0 == 0x0A }.count + 1, "a syntax error is on a line of the text")
    }
    var located: [String: JSONKeyLocation] = [:]
    let alone = Result { () throws(PackFileError) in try PackFile(json: bytes) }
    let beside = Result { () throws(PackFileError) in try PackFile(json: bytes, keyLocations: &located) }
    switch (alone, beside) {
    case (.success, .success): break
    case (.failure(let a), .failure(let b)): precondition(a == b, "the same error with key locations or without")
    default: preconditionFailure("pack.json read with key locations and without gives one verdict")
    }
    precondition(located == locations, "pack.json's key locations are the scan's")
    _ = try? SharedManifest(data: bytes)
    _ = try? ManifestRefresher.decodeIndex(bytes)
    _ = try? ManifestRefresher.decodeManifest(bytes)
    _ = try? Baseline.load(bytes)
    let findings = PushPayload.lint(bytes, packs: [:])
    if size > PushPayload.maxBytes { precondition(findings.contains { $0.rule == .payloadTooLarge }, "an oversized payload is always reported") }
    return 0
}
