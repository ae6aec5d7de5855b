import Foundation
import Testing

@testable import PixelBoopCore

/// Path arithmetic on plain strings: each function against the NSString call it replaces, for the
/// kinds of path boop handles, and `standardized` following links in a scratch folder.
@Suite("PathText")
struct PathTextTests {
    /// Paths this machine's Foundation answers for: its NSString differs on runs of slashes and
    /// an empty path, and its deletingLastPathComponent traps on paths such as "a/"
    /// (swift-corelibs-foundation of Swift 6.3); the documented examples below cover those.
    static let paths = [
        "/a/b.json", "a/", "/", "a", "/a", "dir/song.json", ".boop", "dir/.boop", "/x/y/z.tar.gz", "./a", "a/b/", "name.",
        "/a.b/c"
    ]

    @Test("lastComponent and deletingExtension are NSString's")
    func asNSString() {
        for path in Self.paths {
            let ns = path as NSString
            #expect(PathText.lastComponent(path) == ns.lastPathComponent, "\(path)")
            #expect(PathText.deletingExtension(path) == ns.deletingPathExtension, "\(path)")
        }
    }

    @Test("appending is NSString's appendingPathComponent")
    func appending() {
        for (base, name) in [("a", "b"), ("a/", "b"), ("", "b"), ("/", "b"), ("/a", "b/c"), ("a//", "b")] {
            #expect(
                PathText.appending(base, name) == (base as NSString).appendingPathComponent(name), "\(base) + \(name)")
        }
    }

    @Test("the documented examples")
    func examples() {
        #expect(PathText.components("a//b/") == ["a", "b"])
        #expect(PathText.lastComponent("a//b/") == "b")
        #expect(PathText.lastComponent("") == "")
        #expect(PathText.deletingLastComponent("a//b/") == "a")
        #expect(PathText.deletingLastComponent("a/") == "")
        #expect(PathText.deletingLastComponent("") == "")
        #expect(PathText.deletingExtension("//a//b.c") == "/a/b")
        #expect(PathText.appending("a", "/b") == "a/b")   // a name's leading slash is no second one
        #expect(PathText.components("/a") == ["/", "a"])
        #expect(PathText.lastComponent("/") == "/")
        #expect(PathText.deletingLastComponent("/a") == "/")
        #expect(PathText.deletingLastComponent("/a/b.json") == "/a")
        #expect(PathText.deletingLastComponent("dir/.boop") == "dir")
        #expect(PathText.deletingLastComponent("./a") == ".")
        #expect(PathText.deletingLastComponent("/") == "/")
        #expect(PathText.deletingLastComponent("a") == "")
        #expect(PathText.deletingExtension(".boop") == ".boop")
        #expect(PathText.deletingExtension("dir/song.json") == "dir/song")
    }

    @Test("standardized drops . and .., and follows links as it goes")
    func standardized() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("pathtext-\(getpid())").path
        let fm = FileManager.default
        try fm.createDirectory(atPath: root + "/real/inner", withIntermediateDirectories: true)
        defer { try? fm.removeItem(atPath: root) }
        try fm.createSymbolicLink(atPath: root + "/link", withDestinationPath: "real")
        try fm.createSymbolicLink(atPath: root + "/abs", withDestinationPath: root + "/real/inner")
        let resolvedRoot = PathText.standardized(root)
        #expect(PathText.standardized(root + "/./real//inner/..") == resolvedRoot + "/real")
        #expect(PathText.standardized(root + "/link/inner") == resolvedRoot + "/real/inner")
        #expect(PathText.standardized(root + "/abs/../x") == resolvedRoot + "/real/x")
        #expect(PathText.standardized("/..") == "/")
        #expect(PathText.standardized("") == "")
    }
}
