import Foundation
import Testing

@testable import PixelBoopCore

/// A song written as a version-2 file (DESIGN.md, "Song files"): what it writes parses back with
/// the strict loader to an equal song, defaults are left out, notes keep their order (a note's
/// index picks its probability draw); and a version-1 pattern's round trip through a one-pattern
/// song, with the reasons a song needs version 2.
@Suite("SongWriter")
struct SongWriterTests {
    static let rich = #"""
        {"version": 2, "name": "a/b \"q\" é", "bpm": 97.5, "swing": 60, "seed": 42, "scale": "A minor",
         "instruments": {"melody": {"voice": "pluck", "attack": 0.005, "cutoff": 2000, "pan": -0.5},
                         "rhythm": {"kit": "808", "level": 0.9, "mute": true}},
         "patterns": {"B": {"length": 12, "swing": 55, "track_lengths": {"bass": 5},
                            "tracks": {"melody": [{"step": 3, "pitch": 64, "velocity": "accent", "length": 2,
                                                   "probability": 50, "condition": "!1:2"},
                                                  {"step": 0, "pitch": 60, "velocity": 90, "ratchet": 3, "offset": -0.25}],
                                       "bass": [{"step": 4, "pitch": 36, "velocity": "sustain"}]}},
                      "A": {"length": 16, "tracks": {}}},
         "song": [{"pattern": "B", "repeat": 2, "bpm": 140, "transpose": -3}, {"pattern": "A", "fill": true}]}
        """#

    static func parse(_ bytes: Bytes) throws -> Song { try Song.parse(bytes, file: "s.json") }

    @Test("what it writes parses back to an equal song, and writes the same bytes again")
    func roundTrip() throws {
        let song = try Self.parse(Bytes(Self.rich.utf8))
        let written = song.fileData()
        let back = try Self.parse(written)
        #expect(back == song)
        #expect(back.fileData() == written)
        #expect(written.last == UInt8(ascii: "\n"))
    }

    @Test("patterns, notes and chain keep their written order")
    func order() throws {
        let text = String(decoding: try Self.parse(Bytes(Self.rich.utf8)).fileData(), as: UTF8.self)
        let b = try #require(text.range(of: "\"B\": {"))
        let a = try #require(text.range(of: "\"A\": {"))
        #expect(b.lowerBound < a.lowerBound)
        let step3 = try #require(text.range(of: "\"step\": 3"))
        let step0 = try #require(text.range(of: "\"step\": 0"))
        #expect(step3.lowerBound < step0.lowerBound)
    }

    @Test("defaults are left out; names keep their slashes; numbers without a needless fraction")
    func defaultsLeftOut() throws {
        let minimal = #"{"version": 2, "patterns": {"A": {"tracks": {"bass": [{"step": 0, "pitch": 36}]}}}}"#
        let text = String(decoding: try Self.parse(Bytes(minimal.utf8)).fileData(), as: UTF8.self)
        #expect(text.contains("{\"step\": 0, \"pitch\": 36}"))
        for absent in ["velocity", "probability", "ratchet", "offset", "instruments", "tuning", "scale", "transpose", "fill"] {
            #expect(!text.contains("\"\(absent)\""), "\(absent)")
        }
        #expect(text.contains("\"bpm\": 120,"))
        let rich = String(decoding: try Self.parse(Bytes(Self.rich.utf8)).fileData(), as: UTF8.self)
        #expect(rich.contains(#""name": "a/b \"q\" é""#))
        #expect(rich.contains("\"bpm\": 97.5"))
        #expect(rich.contains("\"offset\": -0.25"))
        #expect(rich.contains("\"velocity\": 90"))
        #expect(Song.number(120) == "120" && Song.number(0.1) == "0.1" && Song.number(-3) == "-3")
    }

    @Test("a version-1 pattern becomes pattern A of a song and comes back unchanged")
    func version1() {
        let pattern = Song(
            name: "groove", bpm: 133, length: 24,
            tracks: [
                .melody: [SongNote(step: 1, pitch: 67, velocity: .accent, length: 3)], .rhythm: [SongNote(step: 0, pitch: 36)]
            ])
        let song = pattern
        #expect(song.patterns.map(\.name) == ["A"])
        #expect(!song.needsVersion2)
        #expect(Song(version1: pattern).version1?.tracks == [.melody, .rhythm])
    }

    @Test("what a version-1 file cannot say, in the editor's words")
    func version2Reasons() {
        let base = Song(name: "p", tracks: [.bass: [SongNote(step: 0, pitch: 36)]])
        #expect(base.version2Reason == nil)
        var s = base
        s.patterns.append(SongPattern(name: "B", length: 16, tracks: [:]))
        #expect(s.version2Reason == "a second pattern")
        s = base
        s.swing = 60
        #expect(s.version2Reason == "swing")
        s = base
        s.seed = 1
        #expect(s.version2Reason == "a seed")
        s = base
        s.patterns[0].length = 12
        #expect(s.version2Reason == "a length of 12 steps")
        s = base
        s.chain = [ChainEntry(pattern: "A", repeats: 2)]
        #expect(s.version2Reason == "a chain")
        s = base
        s.instruments[.bass] = {
            var i = Instrument()
            i.mute = true
            return i
        }()
        #expect(s.version2Reason == "a mute, solo or instrument setting")
        s = base
        s.patterns[0].tracks[.bass]![0].ratchet = 2
        #expect(s.version2Reason == "probability, a condition or a ratchet")
        s = base
        s.patterns[0].tracks[.bass]![0].offset = 0.1
        #expect(s.version2Reason == "micro-timing")
    }

    @Test("normalized: notes in step order, empty tracks and default instruments left out")
    func normalized() {
        var song = Song(
            name: "n",
            patterns: [
                SongPattern(
                    name: "A", length: 16,
                    tracks: [.melody: [SongNote(step: 5, pitch: 60), SongNote(step: 1, pitch: 62)], .bass: []])
            ])
        song.instruments[.chords] = Instrument()
        let n = song.normalized
        #expect(n.patterns[0].tracks[.melody]?.map(\.step) == [1, 5])
        #expect(n.patterns[0].tracks[.bass] == nil)
        #expect(n.instruments.isEmpty)
    }
}
