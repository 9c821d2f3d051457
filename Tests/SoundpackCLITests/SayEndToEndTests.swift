// `soundpack say` (formats, stdin, bad amounts) and `soundpack init`.

import Foundation
import Testing
import SoundpackTestSupport

@Suite struct SayEndToEndTests {
    @Test func readsWithThePacksPrefixInEveryFormat() throws {
        let root = Fixtures.repositoryRoot
        let text = try Executable.run(["say", "--pack", "packs/wechat", "15.40", "1,234.5"], in: root)
        #expect(text.stdout == "微信到账十五点四元\n微信到账一千二百三十四点五元\n")
        let tokens = try Executable.run(["say", "--pack", "packs/wechat", "--format", "tokens", "10010"], in: root)
        #expect(tokens.stdout == "prefix 1 万 0 1 十 元\n")
        let files = try Executable.run(["say", "--pack", "packs/wechat", "--format", "files", "0.05"], in: root)
        #expect(files.stdout == "clips/prefix.caf clips/0.caf clips/dian.caf clips/0.caf clips/5.caf clips/yuan.caf\n")
        let json = try Executable.run(["say", "--pack", "packs/wechat", "--format", "json", "20"], in: root)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["text"] as? String == "微信到账二十元")
        #expect(object["files"] as? [String] == ["clips/prefix.caf", "clips/2.caf", "clips/shi.caf", "clips/yuan.caf"])
    }

    @Test func aGrammarAloneHasNoPrefix() throws {
        let result = try Executable.run(["say", "--grammar", "zh-Hant", "--two", "liang", "200000000.5"], in: Fixtures.repositoryRoot)
        #expect(result.stdout == "兩億點五元\n")
        #expect(try Executable.run(["say", "--grammar", "zh-Hans", "--format", "files", "1"], in: "/").status == 2)
    }

    @Test func stdinAnswersGoodLinesAndReportsBadOnesByNumber() throws {
        let input = "15.40\nabc\n1e3\n0\n100000000\n\n"
        let result = try Executable.run(["say", "--pack", "packs/wechat", "-"], in: Fixtures.repositoryRoot, input: input)
        #expect(result.status == 1)
        #expect(result.stdout == "微信到账十五点四元\n微信到账零元\n")
        let errors = result.stderr.split(separator: "\n")
        #expect(errors.count == 4)
        #expect(errors[0].hasPrefix("error: line 2: 'abc' is not an amount"))
        #expect(errors[1].hasPrefix("error: line 3: '1e3'"))
        #expect(errors[2].contains("line 5") && errors[2].contains("maxAmount is 99999999.99"))
        #expect(errors[3].hasPrefix("error: line 6: empty amount"))
    }

    @Test func badAmountsAsArgumentsFailWithExitOne() throws {
        let result = try Executable.run(["say", "--grammar", "zh-Hans", "-1", "1.234", "5"], in: "/")
        #expect(result.status == 1)
        #expect(result.stdout == "五元\n")
        #expect(result.stderr.contains("'-1' is not an amount — amounts cannot be negative"))
        #expect(result.stderr.contains("'1.234' is not an amount — at most 2 digits after the point"))
    }

    @Test func initScaffoldsAPackThatNamesEveryNeededClip() throws {
        let folder = TemporaryFolder()
        let result = try Executable.run(["init", "packs/shop", "--id", "shop", "--two", "liang", "--max-amount", "9999"], in: folder.path)
        #expect(result.status == 0, "\(result.stderr)")
        let validate = try Executable.run(["validate", "packs/shop", "--no-record"], in: folder.path)
        #expect(validate.status == 1)
        // Every clip is named, none exists yet, and none beyond what 9999 needs is asked for.
        #expect(validate.stdout.contains("[file.unreadable]"))
        #expect(validate.stdout.contains("clips/liang.caf"))
        #expect(!validate.stdout.contains("clips/wan.caf"))
        #expect(!validate.stdout.contains("[coverage.missing-token]"))
        #expect(try Executable.run(["init", "packs/shop", "--id", "shop"], in: folder.path).status == 1)
    }
}
