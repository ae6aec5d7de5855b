import Foundation
import Testing

@testable import PixelBoopCore

/// A track of its own length (`"track_lengths"`, polymeter) and a chain entry's `"transpose"`:
/// the loader's contract, the onsets on their frames by the timeline's formula, and a file
/// without either left as it was.
struct SongPolymeterTests {
    static let text = """
        {"version": 2, "bpm": 120,
         "patterns": {"A": {"length": 16, "track_lengths": {"bass": 12, "rhythm": 7},
                            "tracks": {"melody": [{"step": 0, "pitch": 60}],
                                       "bass": [{"step": 0, "pitch": 36}, {"step": 11, "pitch": 38}],
                                       "rhythm": [{"step": 0, "pitch": 36}, {"step": 3, "pitch": 42, "condition": "2:2"}]}}},
         "song": [{"pattern": "A", "repeat": 3}, {"pattern": "A", "transpose": -5}]}
        """

    static func song(_ text: String = text) throws(PatternError) -> Song {
        try Song.parse(Bytes(text.utf8), file: "p.json")
    }

    /// Global steps of the onsets of `kind` (each onset's frame checked against the formula).
    static func onsets(_ song: Song, _ kind: TrackKind, rate: Double = 48000) -> [(step: Int, pitch: Int)] {
        var seq = SongSequencer(song: song, sampleRate: rate)
        let perStep = rate * 60 / (song.bpm * 4)
        return seq.spans(forSteps: 0..<(seq.totalSteps ?? 0)).filter { $0.hit.track == kind }.map { span in
            #expect(span.on == UInt64((Double(span.hit.step) * perStep + 0.5).rounded(.down)))
            return (span.hit.step, span.hit.pitch)
        }
    }

    @Test func eachTrackLoopsItsOwnLengthThroughTheEntrysRepeats() throws {
        let song = try Self.song()
        #expect(song.patterns[0].length(of: .bass) == 12 && song.patterns[0].length(of: .melody) == 16)
        #expect(Self.onsets(song, .melody).map(\.step) == [0, 16, 32, 48])
        // 48 steps of the first entry: the 12-step bass 4 times; the next entry starts it again.
        #expect(Self.onsets(song, .bass).map(\.step) == [0, 11, 12, 23, 24, 35, 36, 47, 48, 59, 60])
        // The 7-step rhythm's step 3 on the 2nd of every 2 of its own loops (loops 1, 3, 5).
        let rhythm = Self.onsets(song, .rhythm)
        #expect(rhythm.filter { $0.pitch == 36 }.map(\.step) == [0, 7, 14, 21, 28, 35, 42, 48, 55, 62])
        #expect(rhythm.filter { $0.pitch == 42 }.map(\.step) == [10, 24, 38, 51])
    }

    @Test func anEntrysTransposeMovesItsPitchedNotesAndLeavesTheDrums() throws {
        let song = try Self.song()
        #expect(song.chain[1].transpose == -5)
        #expect(Self.onsets(song, .melody).map(\.pitch) == [60, 60, 60, 55])
        #expect(Self.onsets(song, .bass).suffix(3).map(\.pitch) == [31, 33, 31])
        #expect(Set(Self.onsets(song, .rhythm).map(\.pitch)) == [36, 42])
    }

    @Test func writtenAndReadBackTheSame() throws {
        let song = try Self.song()
        let back = try Song.parse(song.fileData(), file: "p.json")
        #expect(back == song)
        #expect(song.needsVersion2)
        let text = String(decoding: song.fileData(), as: UTF8.self)
        #expect(text.contains(#""track_lengths": {"bass": 12, "rhythm": 7}"#))
        #expect(text.contains(#"{"pattern": "A", "repeat": 1, "transpose": -5}"#))
    }

    @Test(arguments: [
        (
            #""track_lengths": {"bass": 0}"#, #""bass": []"#,
            "p.json: patterns.A.track_lengths.bass: expected an integer 1...64, got 0"
        ),
        (
            #""track_lengths": {"organ": 4}"#, #""bass": []"#,
            "p.json: patterns.A.track_lengths.organ: unknown key (expected one of bass, chords, melody, rhythm)"
        ),
        (
            #""track_lengths": {"bass": 4}"#, #""bass": [{"step": 4, "pitch": 36}]"#,
            "p.json: patterns.A.tracks.bass[0].step: expected an integer 0...3, got 4"
        ),
        (
            #""track_lengths": {"bass": 4}"#, #""bass": [{"step": 2, "pitch": 36, "length": 3}]"#,
            "p.json: patterns.A.tracks.bass[0].length: expected an integer 1...2, got 3"
        )
    ])
    func refusesALengthOrANoteBeyondIt(lengths: String, bass: String, message: String) {
        let text = #"{"version": 2, "patterns": {"A": {"# + lengths + #", "tracks": {"# + bass + #"}}}}"#
        #expect(throws: PatternError(.invalid, message)) { try Self.song(text) }
    }

    @Test func aVelocityOf1To127PlaysAtItsGainAndReachesTheMidiFile() throws {
        let text = #"{"version": 2, "patterns": {"A": {"tracks": {"melody": [{"step": 0, "pitch": 60, "velocity": 97}]}}}}"#
        let song = try Self.song(text)
        #expect(song.patterns[0].notes(.melody)[0].velocity == .level(97))
        var seq = SongSequencer(song: song, sampleRate: 48000)
        let on = seq.events(forSteps: 0..<16).compactMap { e -> Float? in
            if case .noteOn(_, _, let gain, _, _) = e.action { return gain } else { return nil }
        }
        #expect(on == [Float(97) / 127])
        #expect(MidiFileWriter.velocity(.level(97)) == 97)
        #expect(try Song.parse(song.fileData(), file: "p.json") == song)
        #expect(String(decoding: song.fileData(), as: UTF8.self).contains(#""velocity": 97"#))
        #expect(song.version2Reason == "a velocity of 1...127")
        for bad in ["0", "128", "97.5", "\"loud\""] {
            #expect(throws: PatternError.self) { try Self.song(text.replacingOccurrences(of: "97", with: bad)) }
        }
        // A version-1 pattern keeps its three names.
        #expect(throws: PatternError.self) {
            try Song.parseVersion1(
                Bytes(#"{"tracks": {"melody": [{"step": 0, "pitch": 60, "velocity": 97}]}}"#.utf8), file: "v1.json")
        }
    }

    @Test func refusesATransposeOutOfRangeOrPastTheMidiNotes() {
        let base = #"{"version": 2, "patterns": {"A": {"tracks": {"melody": [{"step": 0, "pitch": 120}]}}}, "song": "#
        #expect(throws: PatternError(.invalid, "p.json: song[0].transpose: expected an integer -24...24, got 25 (chain entry 1)"))
        {
            try Self.song(base + #"[{"pattern": "A", "transpose": 25}]}"#)
        }
        #expect(
            throws: PatternError(
                .invalid,
                "p.json: song[1].transpose: expected a shift keeping pattern A's notes in 0...127 (melody pitch 120 would be 132), got 12 (chain entry 2)"
            )
        ) { try Self.song(base + #"[{"pattern": "A"}, {"pattern": "A", "transpose": 12}]}"#) }
    }
}
