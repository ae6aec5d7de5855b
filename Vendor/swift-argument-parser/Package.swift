// swift-tools-version:6.0
// swift-argument-parser 1.8.2 as PixelBoop builds it: the parser, its tool-info model and the
// generate-manual tool (the man page). What changed from upstream: README.boop.md.
import PackageDescription

let quiet: [SwiftSetting] = [.unsafeFlags(["-suppress-warnings"])]

let package = Package(
    name: "swift-argument-parser",
    products: [
        .library(name: "ArgumentParser", targets: ["ArgumentParser"]),
        .executable(name: "generate-manual", targets: ["generate-manual"]),
    ],
    targets: [
        // Upstream's own deprecation warnings, which SwiftPM showed for it as a remote package
        // only on request, are not PixelBoop's to mend.
        .target(name: "ArgumentParser", dependencies: ["ArgumentParserToolInfo"], swiftSettings: quiet),
        .target(name: "ArgumentParserToolInfo", swiftSettings: quiet),
        .executableTarget(
            name: "generate-manual",
            dependencies: ["ArgumentParser", "ArgumentParserToolInfo"],
            path: "Tools/generate-manual", swiftSettings: quiet),
    ]
)
