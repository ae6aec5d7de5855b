import Foundation
import Testing

@testable import PixelBoopCore

@Suite("PatternSaving: the editor's save rules")
struct PatternSavingTests {
    @Test("a typed path: a folder offers the file's name inside it, another file is asked about, ~ is home")
    func destinations() throws {
        let dir = PatternFileTests.folder("destinations")
        let file = dir + "/song.json"
        try PatternFile.write(version1: PatternFileTests.pattern, to: file)
        try PatternFile.write(version1: PatternFileTests.pattern, to: dir + "/other.json")
        symlink("song.json", dir + "/link.json")
        #expect(
            PatternSaving.destination(typed: dir, editing: file, home: nil)
                == .folder(path: dir, suggested: dir + "/song.json"))
        #expect(
            PatternSaving.destination(typed: dir + "/other.json", editing: file, home: nil)
                == .otherFile(path: dir + "/other.json"))
        #expect(PatternSaving.destination(typed: file, editing: file, home: nil) == .free(path: file))
        #expect(PatternSaving.destination(typed: dir + "/link.json", editing: file, home: nil) == .free(path: dir + "/link.json"))
        #expect(PatternSaving.destination(typed: dir + "/new.json", editing: file, home: nil) == .free(path: dir + "/new.json"))
        #expect(PatternSaving.destination(typed: "~/new.json", editing: file, home: dir) == .free(path: dir + "/new.json"))
        #expect(PatternSaving.destination(typed: "~", editing: file, home: dir) == .folder(path: dir, suggested: file))
    }

    @Test("a read-only file needs agreeing to, once, under the name its link resolves to")
    func confirmation() throws {
        let dir = PatternFileTests.folder("confirm")
        let file = dir + "/ro.json"
        try PatternFile.write(version1: PatternFileTests.pattern, to: file)
        symlink("ro.json", dir + "/link.json")
        chmod(file, 0o444)
        #expect(PatternSaving.needsConfirmation(file, confirmed: []))
        #expect(PatternSaving.needsConfirmation(dir + "/link.json", confirmed: []))
        let agreed: Set = [PatternSaving.confirmationKey(dir + "/link.json")]
        #expect(!PatternSaving.needsConfirmation(file, confirmed: agreed))
        chmod(file, 0o644)
        #expect(!PatternSaving.needsConfirmation(file, confirmed: []))
    }

    @Test("a save removes the emergency copies of the edited file and of the name saved as")
    func saveRemovesEmergencyCopies() throws {
        let dir = PatternFileTests.folder("save")
        let env = ["XDG_STATE_HOME": dir + "/state", "HOME": dir + "/home"]
        let file = dir + "/a.json"
        let other = dir + "/b.json"
        try EmergencySave.write(song: PatternFileTests.pattern, version1: true, for: file, environment: env)
        try EmergencySave.write(song: PatternFileTests.pattern, version1: true, for: other, environment: env)
        try PatternSaving.save(song: PatternFileTests.pattern, version1: true, to: other, editing: file, environment: env)
        #expect(try PieceFile.load(path: other) == Song(version1: PatternFileTests.pattern))
        #expect(EmergencySave.find(for: file, environment: env) == nil)
        #expect(EmergencySave.find(for: other, environment: env) == nil)
    }
}
