// `ID[@VERSION]` has one parser and one formatter: what one writes, the other reads back.

import SoundpackCore
import Testing

@Suite struct PackRefTests {
    @Test func aPackOrAVersionReadsAndWritesBack() throws {
        #expect(try PackRef(parsing: "wechat") == PackRef(id: "wechat"))
        #expect(try PackRef(parsing: "wechat@1.0.1-rc.1") == PackRef(id: "wechat", version: SemanticVersion("1.0.1-rc.1")))
        for text in ["wechat", "wechat@1.0.1", "en-us@2.0.0-beta.2"] { #expect(PackRef(text)?.description == text) }
        #expect(PackRef.name("wechat", SemanticVersion("1.2.3")!) == "wechat@1.2.3")
    }

    @Test func eachWrongPartIsNamed() {
        #expect(throws: PackRef.Problem.notAnID("")) { try PackRef(parsing: "@1.0.0") }
        #expect(throws: PackRef.Problem.notAnID("../etc")) { try PackRef(parsing: "../etc@1.0.0") }
        #expect(throws: PackRef.Problem.notAnID("WeChat")) { try PackRef(parsing: "WeChat") }
        #expect(throws: PackRef.Problem.notAVersion("")) { try PackRef(parsing: "wechat@") }
        #expect(throws: PackRef.Problem.notAVersion("one@two")) { try PackRef(parsing: "wechat@one@two") }
        #expect(PackRef("wechat@1.0") == nil)
    }
}
