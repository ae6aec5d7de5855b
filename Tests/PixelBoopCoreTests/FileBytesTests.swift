import Foundation
import Testing

@testable import PixelBoopCore

/// Files and the process's surroundings without Foundation: each against what Foundation
/// (Data, FileManager, ProcessInfo) says of the same file or process.
@Suite("FileBytes")
struct FileBytesTests {
    static func folder() throws -> String { try scratchFolder("filebytes") }

    @Test("read gives the whole file, or its first `limit` bytes; nil for what cannot be read")
    func read() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let bytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }   // more than one 64 KiB read
        let path = dir + "/data.bin"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        #expect(FileBytes.read(path) == bytes)
        #expect(FileBytes.read(path, limit: 70000) == Array(bytes.prefix(70000)))
        #expect(FileBytes.read(path, limit: 0) == [])
        #expect(FileBytes.read(dir + "/missing") == nil)
        #expect(FileBytes.read(dir) == nil)   // a folder reads as an error
        try Data().write(to: URL(fileURLWithPath: dir + "/empty"))
        #expect(FileBytes.read(dir + "/empty") == [])
        #expect(FileBytes.text("/proc/self/comm")?.isEmpty == false)   // a file whose size stat does not know
    }

    @Test("text replaces invalid UTF-8; exists follows links")
    func textAndExists() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Data([0x61, 0xFF, 0x62]).write(to: URL(fileURLWithPath: dir + "/t"))
        #expect(FileBytes.text(dir + "/t") == "a\u{FFFD}b")
        #expect(FileBytes.exists(dir + "/t"))
        #expect(!FileBytes.exists(dir + "/none"))
        try FileManager.default.createSymbolicLink(atPath: dir + "/dangling", withDestinationPath: dir + "/none")
        #expect(!FileBytes.exists(dir + "/dangling"))
        #expect(FileManager.default.fileExists(atPath: dir + "/dangling") == FileBytes.exists(dir + "/dangling"))
    }

    @Test("makeFolders makes every missing folder with its mode; a file in the way is no folder")
    func makeFolders() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let deep = dir + "/a/b/c"
        #expect(FileBytes.makeFolders(deep, mode: 0o700))
        var isDir: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: deep, isDirectory: &isDir) && isDir.boolValue)
        let mode = try FileManager.default.attributesOfItem(atPath: dir + "/a")[.posixPermissions] as? Int
        #expect(mode.map { $0 & 0o077 } == 0)   // 0o700, less what the umask takes away: none for others
        #expect(FileBytes.makeFolders(deep))   // already there
        try Data().write(to: URL(fileURLWithPath: dir + "/file"))
        #expect(!FileBytes.makeFolders(dir + "/file"))
    }

    @Test("the environment and the current folder are ProcessInfo's and FileManager's")
    func process() {
        #expect(ProcessText.environment == ProcessInfo.processInfo.environment)
        #expect(ProcessText.currentFolder == FileManager.default.currentDirectoryPath)
        #expect(ProcessText.passwordHome.hasPrefix("/"))
    }
}
