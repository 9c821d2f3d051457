// swift-tools-version:6.1
// 6.1, not 6.0: the iOS example marks types and an extension `nonisolated` (SE-0449, Swift 6.1), so an
// app building it needs Xcode 16.3 or later; an older SwiftPM says so instead of failing in the example.
import PackageDescription

// Linux only: behavioural stand-ins of the Apple frameworks the iOS example uses (UserNotifications,
// AVFoundation, CryptoKit), so the example's own sources compile and run in our tests. They are in
// no product, and are not declared on Apple platforms, where the real frameworks are.
#if os(Linux)
let standInDependencies: [Target.Dependency] = ["UserNotifications", "AVFoundation", "CryptoKit"]
let exampleSettings: [SwiftSetting] = [.unsafeFlags(["-warnings-as-errors"])]
let standIns: [Target] = [
    // SoundpackKit: the notification center reads a delivered sound's format and length as iOS does.
    // CMalloc: glibc's allocator statistics, for the memory meter (`ExtensionMemory`).
    .systemLibrary(name: "CMalloc", path: "Tests/StandIns/CMalloc"),
    .target(name: "UserNotifications", dependencies: ["SoundpackKit", "SoundpackCore", "CMalloc"], path: "Tests/StandIns/UserNotifications"),
    .target(name: "AVFoundation", dependencies: ["SoundpackKit", "SoundpackCore", "UserNotifications"], path: "Tests/StandIns/AVFoundation"),
    .target(name: "CryptoKit", dependencies: ["SoundpackKit"], path: "Tests/StandIns/CryptoKit"),
    .testTarget(
        name: "NotificationServiceExampleTests",
        // CSndFile: the tests read what the example wrote with libsndfile directly, not through the stand-ins.
        dependencies: ["NotificationServiceExample", "SoundpackTestSupport", "SoundpackKit", "SoundpackCore", "soundpack", "CSndFile"] + standInDependencies
    ),
]
#else
let standInDependencies: [Target.Dependency] = []
let exampleSettings: [SwiftSetting] = []
let standIns: [Target] = []
#endif

let package = Package(
    name: "soundpack",
    platforms: [.macOS(.v13), .iOS(.v13)],
    products: [
        .executable(name: "soundpack", targets: ["soundpack"]),
        .library(name: "SoundpackCore", targets: ["SoundpackCore"]),
        .library(name: "SoundpackKit", targets: ["SoundpackKit"]),
    ],
    targets: [
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
        .systemLibrary(name: "CSndFile", pkgConfig: "sndfile", providers: [.apt(["libsndfile1-dev"]), .brew(["libsndfile"])]),
        .systemLibrary(name: "CSodium", pkgConfig: "libsodium", providers: [.apt(["libsodium-dev"]), .brew(["libsodium"])]),
        .systemLibrary(name: "CEBUR128", pkgConfig: "libebur128", providers: [.apt(["libebur128-dev"]), .brew(["libebur128"])]),
        .systemLibrary(name: "CSampleRate", pkgConfig: "samplerate", providers: [.apt(["libsamplerate0-dev"]), .brew(["libsamplerate"])]),
        .systemLibrary(name: "CArchive", pkgConfig: "libarchive", providers: [.apt(["libarchive-dev"]), .brew(["libarchive"])]),
        // libpq, libcurl and libespeak-ng are opened on first use (Sources/CSyscalls/lazy_library.h), not linked: their headers only.
        .systemLibrary(name: "CPostgreSQL", path: "Sources/CPostgreSQL"),
        .systemLibrary(name: "CCurl", path: "Sources/CCurl"),
        // libespeak-ng (synth) likewise: its header only, the library opened when synth speaks.
        .systemLibrary(name: "CEspeakNG", path: "Sources/CEspeakNG"),
        // libpocketsphinx (audio.wrong-word, English packs) likewise, with no header at all: the shim declares what it calls.
        .systemLibrary(name: "CPocketSphinx", path: "Sources/CPocketSphinx"),
        // FFmpeg's libavformat, libavcodec and libavutil (AAC/ALAC in MP4 for convert) likewise: headers only.
        .systemLibrary(
            name: "CFFmpeg", path: "Sources/CFFmpeg",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libavutil-dev"]), .brew(["ffmpeg"])]
        ),
        .systemLibrary(name: "COpenSSL", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]),
        .systemLibrary(name: "CSyscalls", path: "Sources/CSyscalls"),
        // Our own C: loops for vector units wider than Swift targets, chosen at run time (AVX2).
        .target(name: "CSoundpackKernels"),

        // Its privacy manifest declares the required-reason API it calls (file timestamps, C617.1).
        .target(name: "SoundpackCore", resources: [.copy("PrivacyInfo.xcprivacy")]),
        // SoundpackKit's layers, lowest first: each imports only the ones it names, so the compiler
        // refuses an arrow pointing up. The C libraries each belong to the one layer that uses them.
        .target(name: "SoundpackSupport", dependencies: ["SoundpackCore", "COpenSSL", "CSodium", "CSyscalls"]),
        .target(name: "SoundpackAudio", dependencies: ["SoundpackCore", "SoundpackSupport", "CSoundpackKernels", "CSndFile", "CEBUR128", "CSampleRate", "CFFmpeg", "CPocketSphinx"]),
        .target(name: "SoundpackPack", dependencies: ["SoundpackCore", "SoundpackSupport", "SoundpackAudio"]),
        .target(name: "SoundpackCatalog", dependencies: ["SoundpackCore", "SoundpackSupport", "SoundpackAudio", "CSQLite", "CPostgreSQL"]),
        .target(name: "SoundpackValidation", dependencies: ["SoundpackCore", "SoundpackSupport", "SoundpackAudio", "SoundpackPack"]),
        .target(name: "SoundpackRendering", dependencies: ["SoundpackCore", "SoundpackSupport", "SoundpackAudio", "SoundpackPack", "SoundpackValidation"]),
        .target(name: "SoundpackSynthesis", dependencies: ["SoundpackCore", "SoundpackSupport", "SoundpackAudio", "SoundpackPack", "SoundpackRendering", "CEspeakNG"]),
        .target(name: "SoundpackStore", dependencies: ["SoundpackCore", "SoundpackSupport", "SoundpackPack", "SoundpackCatalog", "CArchive", "CCurl"]),
        .target(
            name: "SoundpackPublish",
            dependencies: ["SoundpackCore", "SoundpackSupport", "SoundpackAudio", "SoundpackPack", "SoundpackCatalog", "SoundpackValidation", "SoundpackStore"]
        ),
        .target(name: "SoundpackExport", dependencies: ["SoundpackCore", "SoundpackSupport", "SoundpackPack", "SoundpackCatalog", "SoundpackValidation", "SoundpackStore", "SoundpackRendering"]),
        .target(
            name: "SoundpackPush",
            dependencies: ["SoundpackCore", "SoundpackSupport", "SoundpackPack", "SoundpackCatalog", "SoundpackValidation", "SoundpackStore", "SoundpackExport"]
        ),
        .target(
            name: "SoundpackReports",
            dependencies: ["SoundpackCore", "SoundpackSupport", "SoundpackAudio", "SoundpackPack", "SoundpackValidation", "SoundpackRendering"]
        ),
        // The top: the workspace a command runs in, and every layer re-exported (`import SoundpackKit`).
        .target(
            name: "SoundpackKit",
            dependencies: [
                "SoundpackCore", "SoundpackSupport", "SoundpackAudio", "SoundpackPack", "SoundpackCatalog", "SoundpackValidation", "SoundpackRendering",
                "SoundpackSynthesis", "SoundpackStore", "SoundpackPublish", "SoundpackExport", "SoundpackPush", "SoundpackReports",
            ]
        ),
        .target(name: "SoundpackCLI", dependencies: ["SoundpackKit", "SoundpackCore"]),
        .executableTarget(name: "soundpack", dependencies: ["SoundpackCLI"]),
        // The reference iOS extension and app code. On iOS it builds against Apple's frameworks; on
        // Linux against the stand-ins below, in Swift 6 mode with warnings as errors.
        .target(
            name: "NotificationServiceExample",
            dependencies: ["SoundpackCore"] + standInDependencies,
            path: "Examples/NotificationServiceExtension",
            exclude: ["README.md", "PrivacyInfo.xcprivacy"],
            swiftSettings: exampleSettings
        ),

        // scripts/bench.sh extension: the extension's plan + verify + join, timed (in no product).
        .executableTarget(name: "soundpack-bench-extension", dependencies: ["SoundpackKit", "SoundpackCore"], path: "Benchmarks/ExtensionJoin"),

        // Shared by the test targets only (fixture packs and audio); in no product.
        .target(name: "SoundpackTestSupport", dependencies: ["SoundpackCLI", "SoundpackKit", "SoundpackCore"], path: "Tests/SoundpackTestSupport"),

        .testTarget(name: "SoundpackCoreTests", dependencies: ["SoundpackCore"], exclude: ["Golden"]),  // read by path from the source tree
        .testTarget(
            name: "SoundpackKitTests",
            dependencies: ["SoundpackKit", "SoundpackCore", "SoundpackTestSupport"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "SoundpackCLITests",
            dependencies: ["SoundpackCLI", "SoundpackKit", "SoundpackTestSupport", "soundpack"],
            exclude: ["Golden"]  // read by path from the source tree, so re-recording rewrites them in place
        ),
    ] + standIns
)
