// Where `render` writes, decided once in the engine, and the amounts it is given.

import Foundation
import Testing
import SoundpackCore
import SoundpackTestSupport
@testable import SoundpackKit

@Suite struct RenderPlanTests {
    @Test func theDestinationFollowsTheRequestAndTheDisk() throws {
        let folder = TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.file("out"), withIntermediateDirectories: true)
        func resolve(_ name: String, _ amounts: Int?, _ container: Container? = nil) -> Result<RenderDestination, RenderDestination.Problem> {
            Result { () throws(RenderDestination.Problem) in
                try RenderDestination.resolve(path: name == "-" || name.hasPrefix("/") ? name : folder.file(name), isStandardOutput: name == "-", amounts: amounts, container: container)
            }
        }
        #expect(resolve("a.wav", 1) == .success(.file(folder.file("a.wav"), .wav)))
        #expect(resolve("a.wav", 1, .caf) == .failure(.containerConflict(asked: .caf, named: .wav)))
        #expect(resolve("a.bin", 1) == .failure(.unknownContainer))
        #expect(resolve("-", 1, .aiff) == .success(.stream(.aiff)))
        #expect(resolve("/dev/null", 1) == .success(.stream(.caf)), "a device is written into, never replaced")
        #expect(resolve("-", 2) == .failure(.severalAmountsNeedAFolder(stream: true)))
        #expect(resolve("b.caf", 2) == .failure(.severalAmountsNeedAFolder(stream: false)))
        #expect(resolve("b.caf", nil) == .failure(.severalAmountsNeedAFolder(stream: false)), "an amounts file may hold several")
        #expect(resolve("out", 1, .wav) == .success(.folder(folder.file("out"), .wav)), "an existing folder takes one amount too")
        #expect(resolve("new", 2) == .success(.folder(folder.file("new"), .caf)))
    }

    @Test func amountsAreTakenInOrderOnceAndEveryBadLineIsKept() {
        let lines = LineSource(text: "5\n15.40\nabc\n5\n\(String(repeating: "9", count: 2_000))\n7\n")
        let list = AmountList(arguments: ["1", "x"], lines: lines, maximum: Amount(minorUnits: 1_000_000)) { $0 == Amount(minorUnits: 700) ? "seven is refused" : nil }
        #expect(list.amounts.map(\.description) == ["1", "5", "15.40"])
        #expect(list.rejections.map(\.line) == [nil, 3, 5, 6])
        #expect(list.rejections[2].reason.hasSuffix("the line is 2000 bytes, above 1024"))
        #expect(list.rejections[3].description == "line 6: seven is refused")
    }
}
