import Foundation
import SoundpackCore
import SoundpackPack
import Testing

/// The shortcuts `PackPaths` takes for the usual path give what the general way gives.
@Suite struct PackPathsTests {
    /// Every path of up to five bytes from `a`, `.`, `/` and `微`: normalized as by splitting at
    /// each slash and dropping the empty and `.` components.
    @Test func aNormalPathIsKeptAndEveryOtherIsRebuilt() {
        var paths = [""]
        for _ in 0..<5 { paths += paths.flatMap { path in ["a", ".", "/", "微"].map { path + $0 } } }
        for path in Set(paths) {
            let expected = path.slashSeparated.filter { $0 != "." }.joined(separator: "/")
            #expect(PackPaths.normalized(path) == expected, "\(path.debugDescription)")
        }
    }

    /// What follows a file name's last dot, as Foundation's `pathExtension` says it.
    @Test(arguments: [".caf", "a/.caf", "a/b.", "a/b.CAF", "x.y/z", "a/b..caf", "a/b.tar.gz", "é.wav", "a/b.c a f", "/", "", "clips/十.caf", "a.b/.c.d"])
    func anExtensionIsFoundationsExtension(_ path: String) {
        #expect(String(PackPaths.pathExtension(path)) == (path as NSString).pathExtension, "\(path.debugDescription)")
    }
}
