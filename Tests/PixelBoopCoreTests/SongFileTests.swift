import Foundation
import Testing

@testable import PixelBoopCore

/// The editor's song on disk: a version-1 file when it says nothing version 2 is needed for (the
/// bytes a pattern save writes), else a version-2 song that reads back to the same music; and the
/// name `boop edit` opens without one, never an existing file's.
@Suite("SongFile")
struct SongFileTests {
    static func folder() throws -> String { try scratchFolder("songfile") }

    static let pattern = Song(
        name: "p", bpm: 110, length: 16,
        tracks: [.melody: [SongNote(step: 0, pitch: 60, velocity: .accent, length: 2)], .rhythm: [SongNote(step: 4, pitch: 38)]])

    @Test("a song a version-1 file can hold is written as the pattern save writes it")
    func version1() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try PatternFile.write(song: Self.pattern, version1: true, to: dir + "/a.json")
        try PatternFile.write(version1: Self.pattern, to: dir + "/b.json")
        let a = try Data(contentsOf: URL(fileURLWithPath: dir + "/a.json"))
        #expect(a == (try Data(contentsOf: URL(fileURLWithPath: dir + "/b.json"))))
        #expect(try PieceFile.load(path: dir + "/a.json") == Song(version1: Self.pattern))
    }

    @Test("a song that needs version 2 is written as a song, even from a version-1 file, and reads back the same")
    func version2() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var song = Self.pattern
        song.swing = 62
        try PatternFile.write(song: song, version1: true, to: dir + "/s.json")
        let back = try PieceFile.load(path: dir + "/s.json")
        #expect(back.version1 == nil)
        #expect(back.normalized == song.normalized)
        // Not from a version-1 file: a song, whatever it holds.
        try PatternFile.write(song: Self.pattern, version1: false, to: dir + "/t.json")
        #expect(try PieceFile.load(path: dir + "/t.json").version1 == nil)
    }

    @Test("untitled.json, then untitled-2.json, ... never an existing name (a dangling link counts)")
    func untitled() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(PatternSaving.untitled(in: dir) == dir + "/untitled.json")
        try Data().write(to: URL(fileURLWithPath: dir + "/untitled.json"))
        #expect(PatternSaving.untitled(in: dir) == dir + "/untitled-2.json")
        try FileManager.default.createSymbolicLink(atPath: dir + "/untitled-2.json", withDestinationPath: dir + "/nowhere")
        #expect(PatternSaving.untitled(in: dir) == dir + "/untitled-3.json")
        #expect(PatternSaving.untitled(in: ".").hasPrefix("untitled"))
    }
}
