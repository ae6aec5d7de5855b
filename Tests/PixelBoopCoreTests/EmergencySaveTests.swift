import Foundation
import Testing

@testable import PixelBoopCore

@Suite("EmergencySave: beside the file, else the state folder")
struct EmergencySaveTests {
    @Test("emergency copies: beside the file, else the state folder under the encoded absolute path")
    func emergency() throws {
        let dir = PatternFileTests.folder("emergency")
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
        let beside = try EmergencySave.write(
            song: PatternFileTests.pattern, version1: true, for: dir + "/song.json", environment: env)
        #expect(beside == dir + "/song.json.save")
        #expect(EmergencySave.find(for: dir + "/song.json", environment: env) == beside)
        EmergencySave.removeAll(for: dir + "/song.json", environment: env)
        #expect(EmergencySave.find(for: dir + "/song.json", environment: env) == nil)
        // Else in the state folder (made 0700), found by another spelling of the path too.
        let missing = dir + "/gone/song.json"
        let place = try EmergencySave.write(song: PatternFileTests.pattern, version1: true, for: missing, environment: env)
        #expect(place.hasPrefix(dir + "/state/pixelboop/%2F") && place.hasSuffix("%2Fgone%2Fsong.json.save"))
        var st = stat()
        #expect(stat(dir + "/state/pixelboop", &st) == 0 && st.st_mode & 0o777 == 0o700)
        #expect(try PieceFile.load(path: place) == Song(version1: PatternFileTests.pattern))
        #expect(EmergencySave.find(for: dir + "/state/../gone/song.json", environment: env) == place)
    }
}
