import Foundation
import Testing

@testable import PixelBoopCore

@Suite("PatternFile: through links, modes, read-only, failures")
struct PatternFileTests {
    static func folder(_ name: String) -> String {
        let path = NSTemporaryDirectory() + "boop-editor-files-\(getpid())-\(name)"
        try? FileManager.default.removeItem(atPath: path)
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static let pattern = Song(name: "f", bpm: 120, length: 16, tracks: [.melody: [SongNote(step: 3, pitch: 64)]])

    @Test("a symbolic link is written through: the link stays, its target (relative or absolute) is replaced")
    func throughLinks() throws {
        let dir = PatternFileTests.folder("links")
        try FileManager.default.createDirectory(atPath: dir + "/real", withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: dir + "/real/t.json", contents: Data("{}".utf8))
        chmod(dir + "/real/t.json", 0o640)
        symlink("real/t.json", dir + "/rel.json")
        symlink(dir + "/rel.json", dir + "/abs.json")   // a link to a link
        #expect(PatternFile.resolvingLinks(dir + "/abs.json") == dir + "/real/t.json")
        try PatternFile.write(version1: PatternFileTests.pattern, to: dir + "/abs.json")
        var st = stat()
        #expect(lstat(dir + "/abs.json", &st) == 0 && st.st_mode & S_IFMT == S_IFLNK)
        #expect(lstat(dir + "/rel.json", &st) == 0 && st.st_mode & S_IFMT == S_IFLNK)
        #expect(try PieceFile.load(path: dir + "/real/t.json") == Song(version1: PatternFileTests.pattern))
        #expect(stat(dir + "/real/t.json", &st) == 0 && st.st_mode & 0o777 == 0o640)
        // A dangling link names its missing target, which the write creates.
        symlink("real/new.json", dir + "/dangling.json")
        try PatternFile.write(version1: PatternFileTests.pattern, to: dir + "/dangling.json")
        #expect(FileManager.default.fileExists(atPath: dir + "/real/new.json"))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir + "/real").filter { $0.hasPrefix(".boop-") }
        #expect(leftovers.isEmpty)
    }

    @Test("read-only means no w bit, whoever asks (root included); a folder or a missing file is not")
    func readOnly() {
        let dir = PatternFileTests.folder("ro")
        _ = FileManager.default.createFile(atPath: dir + "/r.json", contents: Data("{}".utf8))
        chmod(dir + "/r.json", 0o444)
        #expect(PatternFile.isReadOnly(dir + "/r.json"))
        chmod(dir + "/r.json", 0o644)
        #expect(!PatternFile.isReadOnly(dir + "/r.json"))
        #expect(!PatternFile.isReadOnly(dir + "/missing.json"))
        #expect(!PatternFile.isReadOnly(dir))
    }

    @Test("a folder that takes no file: the write fails with the reason and leaves nothing")
    func cannotCreate() {
        let dir = PatternFileTests.folder("none")
        #expect(throws: PatternFileError.self) {
            try PatternFile.write(version1: PatternFileTests.pattern, to: dir + "/gone/x.json")
        }
        do {
            try PatternFile.write(version1: PatternFileTests.pattern, to: dir + "/gone/x.json")
        } catch {
            #expect(error.kind == .cannotCreate && error.reason == "No such file or directory")
        }
    }

    @Test("a new pattern file is 0644 less the umask; a replaced one keeps its mode; nothing else is left")
    func modes() throws {
        let dir = PatternFileTests.folder("modes")
        let mask = umask(0o022)
        defer { umask(mask) }
        try PatternFile.write(version1: PatternFileTests.pattern, to: dir + "/new.json")
        var st = stat()
        #expect(stat(dir + "/new.json", &st) == 0 && st.st_mode & 0o777 == 0o644)
        chmod(dir + "/new.json", 0o600)
        try PatternFile.write(version1: PatternFileTests.pattern, to: dir + "/new.json")
        #expect(stat(dir + "/new.json", &st) == 0 && st.st_mode & 0o777 == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["new.json"])
    }

    @Test("a write that fails after the temporary file was made says why and leaves nothing")
    func failedRename() throws {
        let dir = PatternFileTests.folder("rename")
        try FileManager.default.createDirectory(atPath: dir + "/x.json/inside", withIntermediateDirectories: true)
        do {
            try PatternFile.write(version1: PatternFileTests.pattern, to: dir + "/x.json")
            Issue.record("a non-empty folder was replaced")
        } catch {
            #expect(error.kind == .ioError)
            #expect(error.description.hasPrefix(dir + "/x.json: not written: "))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["x.json"])
    }

    @Test("a name that is not UTF-8, in a folder whose name is not either: the very bytes are written")
    func bytesOfNames() throws {
        let dir = PatternFileTests.folder("bytes")
        let folder = dir + "/" + RawBytes.decode([0x64, 0xFE])   // "d\xFE"
        #expect(RawBytes.withPath(folder) { mkdir($0, 0o755) } == 0)
        let path = folder + "/" + RawBytes.decode([0x73, 0xFF]) + ".json"   // "s\xFF.json"
        try PatternFile.write(version1: PatternFileTests.pattern, to: path)
        var st = stat()
        // Not the UTF-8 of the scalars standing for the bytes (U+10FEFE), nor U+FFFD.
        #expect(stat(dir + "/d\u{10FEFE}", &st) != 0 && stat(dir + "/d\u{FFFD}", &st) != 0)
        let raw = RawBytes.withPath(path) { open($0, O_RDONLY) }
        #expect(raw >= 0)
        if raw >= 0 { close(raw) }
        #expect(try PieceFile.load(path: path) == Song(version1: PatternFileTests.pattern))
        #expect(PatternFile.resolvingLinks(path) == path)
        guard case .folder = PatternSaving.destination(typed: folder, editing: path, home: nil) else {
            Issue.record("the folder named by its bytes is not seen as a folder")
            return
        }
    }
}
