import Foundation
import Testing

@testable import PixelBoopCore

@Suite("Editor files: through links, read-only, emergency copies")
struct EditorFileTests {
    static func folder(_ name: String) -> String {
        let path = NSTemporaryDirectory() + "boop-editor-files-\(getpid())-\(name)"
        try? FileManager.default.removeItem(atPath: path)
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static let pattern = Pattern(name: "f", bpm: 120, length: 16, tracks: [.melody: [Note(step: 3, pitch: 64)]])

    @Test("a symbolic link is written through: the link stays, its target (relative or absolute) is replaced")
    func throughLinks() throws {
        let dir = EditorFileTests.folder("links")
        try FileManager.default.createDirectory(atPath: dir + "/real", withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: dir + "/real/t.json", contents: Data("{}".utf8))
        chmod(dir + "/real/t.json", 0o640)
        symlink("real/t.json", dir + "/rel.json")
        symlink(dir + "/rel.json", dir + "/abs.json")   // a link to a link
        #expect(PatternFile.resolvingLinks(dir + "/abs.json") == dir + "/real/t.json")
        try PatternFile.write(EditorFileTests.pattern, to: dir + "/abs.json")
        var st = stat()
        #expect(lstat(dir + "/abs.json", &st) == 0 && st.st_mode & S_IFMT == S_IFLNK)
        #expect(lstat(dir + "/rel.json", &st) == 0 && st.st_mode & S_IFMT == S_IFLNK)
        #expect(try Pattern.load(path: dir + "/real/t.json") == EditorFileTests.pattern)
        #expect(stat(dir + "/real/t.json", &st) == 0 && st.st_mode & 0o777 == 0o640)
        // A dangling link names its missing target, which the write creates.
        symlink("real/new.json", dir + "/dangling.json")
        try PatternFile.write(EditorFileTests.pattern, to: dir + "/dangling.json")
        #expect(FileManager.default.fileExists(atPath: dir + "/real/new.json"))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir + "/real").filter { $0.hasPrefix(".boop-") }
        #expect(leftovers.isEmpty)
    }

    @Test("read-only means no w bit, whoever asks (root included); a folder or a missing file is not")
    func readOnly() {
        let dir = EditorFileTests.folder("ro")
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
        let dir = EditorFileTests.folder("none")
        #expect(throws: PatternFileError.self) { try PatternFile.write(EditorFileTests.pattern, to: dir + "/gone/x.json") }
        do {
            try PatternFile.write(EditorFileTests.pattern, to: dir + "/gone/x.json")
        } catch {
            #expect(error.kind == .cannotCreate && error.reason == "No such file or directory")
        }
    }

    @Test("emergency copies: beside the file, else the state folder under the encoded absolute path")
    func emergency() throws {
        let dir = EditorFileTests.folder("emergency")
        let env = ["XDG_STATE_HOME": dir + "/state", "HOME": dir + "/home"]
        #expect(EmergencySave.stateFolder(env) == dir + "/state/pixelboop")
        #expect(EmergencySave.stateFolder(["XDG_STATE_HOME": "relative", "HOME": "/h"]) == "/h/.local/state/pixelboop")
        #expect(EmergencySave.encodedName("/a/b%c/song.json") == "%2Fa%2Fb%25c%2Fsong.json.save")
        #expect(EmergencySave.encodedName("/a/b_c.json") != EmergencySave.encodedName("/a_b/c.json"))
        let long = "/" + String(repeating: "d/", count: 200) + "song.json"
        let name = EmergencySave.encodedName(long)
        #expect(name.utf8.count <= 255 && name.hasSuffix("song.json.save"))
        #expect(name != EmergencySave.encodedName("/x" + long))
        // Beside the file when its folder takes one.
        let beside = try EmergencySave.write(EditorFileTests.pattern, for: dir + "/song.json", environment: env)
        #expect(beside == dir + "/song.json.save")
        #expect(EmergencySave.find(for: dir + "/song.json", environment: env) == beside)
        EmergencySave.removeAll(for: dir + "/song.json", environment: env)
        #expect(EmergencySave.find(for: dir + "/song.json", environment: env) == nil)
        // Else in the state folder (made 0700), found by another spelling of the path too.
        let missing = dir + "/gone/song.json"
        let place = try EmergencySave.write(EditorFileTests.pattern, for: missing, environment: env)
        #expect(place.hasPrefix(dir + "/state/pixelboop/%2F") && place.hasSuffix("%2Fgone%2Fsong.json.save"))
        var st = stat()
        #expect(stat(dir + "/state/pixelboop", &st) == 0 && st.st_mode & 0o777 == 0o700)
        #expect(try Pattern.load(path: place) == EditorFileTests.pattern)
        #expect(EmergencySave.find(for: dir + "/state/../gone/song.json", environment: env) == place)
    }
}
