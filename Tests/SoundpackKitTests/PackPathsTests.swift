import Foundation
import SoundpackCore
import SoundpackPack
import SoundpackTestSupport
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

    /// A path is refused for `..` exactly when one of its components is `..`, and a symbolic link
    /// on the way is found under every spelling of the path.
    @Test func parentComponentsAndLinksAreFoundUnderEverySpelling() throws {
        let folder = TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.file("real"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.file("link"), withDestinationPath: folder.file("real"))
        var paths = [""]
        for _ in 0..<5 { paths += paths.flatMap { path in ["a", ".", "/", ".."].map { path + $0 } } }
        for path in Set(paths) where !path.isEmpty && !path.hasPrefix("/") {
            let reason = PackPaths.unsafeReason(path, root: URL(fileURLWithPath: folder.path))
            #expect((reason?.contains("'..'") ?? false) == path.slashSeparated.contains(".."), "\(path.debugDescription): \(reason ?? "nil")")
        }
        for path in ["link/x.caf", "./link//x.caf", "link/./x.caf", "real/../link/x.caf"] {
            #expect(PackPaths.unsafeReason(path, root: URL(fileURLWithPath: folder.path)) != nil, "\(path)")
        }
        #expect(PackPaths.unsafeReason("./link//x.caf", root: URL(fileURLWithPath: folder.path)) == "'link' is a symbolic link; clips must be regular files inside the pack")
        #expect(PackPaths.unsafeReason("real/./x.caf", root: URL(fileURLWithPath: folder.path)) == nil)
    }

    /// What follows a file name's last dot, as Foundation's `pathExtension` says it.
    @Test(arguments: [".caf", "a/.caf", "a/b.", "a/b.CAF", "x.y/z", "a/b..caf", "a/b.tar.gz", "é.wav", "a/b.c a f", "/", "", "clips/十.caf", "a.b/.c.d", "clip\u{0600}.wav", "a.b/", "clips/x.wav/", "\u{0600}.caf"])
    func anExtensionIsFoundationsExtension(_ path: String) {
        #expect(String(PackPaths.pathExtension(path)) == (path as NSString).pathExtension, "\(path.debugDescription)")
    }
}
