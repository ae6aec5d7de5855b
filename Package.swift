// swift-tools-version:6.2
import PackageDescription


// Release builds link the Swift runtime statically (see boop-cli); the modules are compiled against
// the static resource folder too, so their autolinked libraries are the static ones. No module
// imports Foundation or FoundationEssentials (docs/DESIGN.md, "Packaging").
// Optimised for size: the Swift half builds events, reads files and draws the terminal, none of it
// per sample (the engine is C++, built at -O2 as ever), and -Osize took 0.5 MB off the binary.
let staticRuntime: [SwiftSetting] = [.unsafeFlags(["-static-stdlib", "-Osize"], .when(configuration: .release))]

// The release link: lld with identical-code folding, and where the C library reads them (glibc
// 2.36 and later: Debian 12, Ubuntu 24.04) relative relocations packed (DT_RELR): 1 MB of
// .rela.dyn that the loader walked at every start becomes a few kB.
#if canImport(Glibc)
import Glibc
let glibc: [Int] = {
    var text = [CChar](repeating: 0, count: 64)  // "glibc 2.36"
    guard confstr(Int32(_CS_GNU_LIBC_VERSION), &text, text.count) > 0 else { return [] }
    let words = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        .split(separator: " ")
    return words.count == 2 ? words[1].split(separator: ".").compactMap { Int($0) } : []
}()
let packedRelocations = glibc.count >= 2 && (glibc[0], glibc[1]) >= (2, 36)
#else
let packedRelocations = false
#endif
let releaseLink: [LinkerSetting] = [
    .unsafeFlags(["-static-stdlib", "-use-ld=lld", "-Xlinker", "--icf=all"]
                     + (packedRelocations ? ["-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"] : []),
                 .when(configuration: .release)),
]

// The engine's baseline instruction set, as the CMake build compiles it (CMakeLists.txt): the
// x86-64-v2 level (SSE4.2, no FMA) that the baseline kernels are written and tested for, so the
// shipped binary is the tested one. Its float arithmetic rounds as plain x86-64's does (the same
// bits); blends and rounding take one instruction each instead of three or a call. The AVX2 + FMA
// kernels carry their own target and are chosen at run time.
#if arch(x86_64)
let engineArch: [CXXSetting] = [.unsafeFlags(["-march=x86-64-v2"])]
#else
let engineArch: [CXXSetting] = []
#endif

let package = Package(
    name: "PixelBoop",
    products: [
        .library(name: "PixelBoopCore", targets: ["PixelBoopCore"]),
        .executable(name: "boop", targets: ["boop-cli"]),
    ],
    dependencies: [
        // Vendored with one change that keeps FoundationEssentials out of boop (Vendor/swift-argument-parser/README.boop.md).
        .package(path: "Vendor/swift-argument-parser"),
    ],
    targets: [
        // The C++17 engine. include/ holds its single plain-C header, from which SwiftPM makes the module.
        .target(
            name: "CAudioEngine",
            path: "Sources/CAudioEngine",
            cxxSettings: [
                .headerSearchPath("."),
                .define("NDEBUG", .when(configuration: .release)),
                // The same checks as the CMake build (CMakeLists.txt), so the shipped binary is the
                // tested one: clang refuses any call from a BOOP_RT (nonblocking) function to code
                // not known to be nonblocking.
                .enableWarning("all"),
                .enableWarning("extra"),
                .treatWarning("function-effects", as: .error),
                // Optimised in debug builds too: the tests render minutes of audio, and an
                // unoptimised engine (slower still under the sanitizers) made that most of their
                // time. The sanitizers work as well at -O2; stepping through the engine in a
                // debugger is the one thing that suffers (build it with CMake's Debug type for that).
                .unsafeFlags(["-O2"], .when(configuration: .debug)),
            ] + engineArch,
            // libsndfile and libsystemd are opened on first use (lazy/LazyLibrary.hpp), not linked.
            linkerSettings: [
                .linkedLibrary("asound"), .linkedLibrary("jack"), .linkedLibrary("pthread"), .linkedLibrary("dl"),
            ]
        ),
        // MPRIS media controls over sd-bus (libsystemd, opened on first use by the engine's
        // lazy/SdBus.cpp); plain C because sd-bus is variadic.
        .target(name: "CMpris", path: "Sources/CMpris"),
        // SQLite through its C API: the training history needs three tables and a dozen
        // statements; the system library (Debian's libsqlite3) adds no build time to the four
        // Swift builds the tests make, where an ORM package would.
        // The terminal session's signal-safe state and handlers (termios, job control, the
        // screen's own non-blocking descriptor): plain C, because a signal handler may touch only
        // lock-free atomics and async-signal-safe calls.
        .target(name: "CTerminal", path: "Sources/CTerminal"),
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3",
                       providers: [.apt(["libsqlite3-dev"])]),
        .target(
            name: "PixelBoopCore",
            dependencies: ["CAudioEngine", "CMpris", "CSQLite", "CTerminal"],
            path: "Sources/PixelBoopCore",
            // The preset JSON files are compiled in (Ambient/BundledPresets.swift), so an
            // installed boop needs no resource bundle; the files stay the source of truth.
            exclude: ["Ambient/Presets"],
            swiftSettings: staticRuntime
        ),
        .executableTarget(
            name: "boop-cli",
            dependencies: [
                "PixelBoopCore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/boop-cli",
            // The Swift runtime and Foundation linked in, in every release build (the README's
            // `swift build -c release`, scripts/run.sh, the test command's, `make`'s): loading the
            // toolchain's 14 shared libraries and resolving their symbols was about a third of a
            // one-loop render's CPU time, each time boop starts. The binary also runs without the
            // toolchain. Debug builds (the tests, the sanitizers) keep the shared runtime.
            swiftSettings: staticRuntime,
            linkerSettings: releaseLink
        ),
        .testTarget(name: "PixelBoopCoreTests", dependencies: ["PixelBoopCore"], path: "Tests/PixelBoopCoreTests",
                    exclude: ["Fixtures"]),
        .testTarget(name: "boop-cliTests", dependencies: ["boop-cli"], path: "Tests/boop-cliTests"),
    ],
    swiftLanguageModes: [.v6],
    cxxLanguageStandard: .cxx17
)
