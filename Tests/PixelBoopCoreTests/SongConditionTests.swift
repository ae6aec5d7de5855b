import Testing

@testable import PixelBoopCore

/// The trig conditions beyond a:b (DESIGN.md, "Song files"): FILL by the chain entry's flag, PRE
/// and NEI looking back at the latest self-deciding note of the track or the track above, and `!`.
struct SongConditionTests {
    /// The global steps on which `kind`'s note of pitch `pitch` plays, over the whole song.
    static func steps(_ text: String, _ kind: TrackKind, pitch: Int) throws -> [Int] {
        let song = try Song.parse(Bytes(text.utf8), file: "c.json")
        var seq = SongSequencer(song: song, sampleRate: 48000)
        return seq.spans(forSteps: 0..<(seq.totalSteps ?? 0)).filter { $0.hit.track == kind && $0.hit.pitch == pitch }
            .map(\.hit.step)
    }

    static func song(_ notes: String, chain: String = #"[{"pattern": "A", "repeat": 4}]"#) -> String {
        #"{"version": 2, "patterns": {"A": {"length": 4, "tracks": {"# + notes + #"}}}, "song": "# + chain + "}"
    }

    @Test func fillPlaysInAFillEntryAndNotFillElsewhere() throws {
        let text = Self.song(
            #""melody": [{"step": 0, "pitch": 60, "condition": "FILL"}, {"step": 1, "pitch": 62, "condition": "!FILL"}]"#,
            chain: #"[{"pattern": "A", "repeat": 2}, {"pattern": "A", "fill": true}]"#)
        #expect(try Self.steps(text, .melody, pitch: 60) == [8])
        #expect(try Self.steps(text, .melody, pitch: 62) == [1, 5])
    }

    @Test func previousFollowsTheLatestDecidingNoteOfTheTrack() throws {
        // 1:2 on step 0 plays on passes 0 and 2; PRE on step 2 follows it, !PRE does the opposite.
        let text = Self.song(
            #""bass": [{"step": 0, "pitch": 36, "condition": "1:2"}, {"step": 2, "pitch": 38, "condition": "PRE"},"#
                + #"{"step": 3, "pitch": 40, "condition": "!PRE"}]"#)
        #expect(try Self.steps(text, .bass, pitch: 36) == [0, 8])
        #expect(try Self.steps(text, .bass, pitch: 38) == [2, 10])
        #expect(try Self.steps(text, .bass, pitch: 40) == [7, 15])
    }

    @Test func previousWithNothingBeforeItIsFalse() throws {
        let text = Self.song(
            #""melody": [{"step": 0, "pitch": 60, "condition": "PRE"}, {"step": 1, "pitch": 61, "condition": "!PRE"}]"#)
        #expect(try Self.steps(text, .melody, pitch: 60) == [])
        #expect(try Self.steps(text, .melody, pitch: 61) == [1, 5, 9, 13])
    }

    @Test func neighbourLooksAtTheTrackAbove() throws {
        // The melody's 2:2 plays on passes 1 and 3; the chords' NEI on the same step follows it;
        // melody has no track above, so its own NEI never plays.
        let text = Self.song(
            #""melody": [{"step": 0, "pitch": 72, "condition": "2:2"}, {"step": 2, "pitch": 74, "condition": "NEI"}],"#
                + #""chords": [{"step": 0, "pitch": 60, "condition": "NEI"}, {"step": 1, "pitch": 64, "condition": "!NEI"}]"#)
        #expect(try Self.steps(text, .chords, pitch: 60) == [4, 12])
        #expect(try Self.steps(text, .chords, pitch: 64) == [1, 9])
        #expect(try Self.steps(text, .melody, pitch: 74) == [])
    }

    @Test func aProbabilityDecidesForPreToo() throws {
        // A note at 0 % never plays, so PRE after it never plays and !PRE always does.
        let text = Self.song(
            #""rhythm": [{"step": 0, "pitch": 36, "probability": 0}, {"step": 1, "pitch": 38, "condition": "PRE"},"#
                + #"{"step": 2, "pitch": 42, "condition": "!PRE"}]"#)
        #expect(try Self.steps(text, .rhythm, pitch: 38) == [])
        #expect(try Self.steps(text, .rhythm, pitch: 42) == [2, 6, 10, 14])
    }

    @Test func negatedRatioAndTheTextsReadAndWritten() throws {
        let text = Self.song(#""melody": [{"step": 0, "pitch": 60, "condition": "!1:4"}]"#)
        #expect(try Self.steps(text, .melody, pitch: 60) == [4, 8, 12])
        for t in ["1:2", "!3:4", "64:64", "FILL", "!FILL", "PRE", "!PRE", "NEI", "!NEI"] {
            #expect(SongNote.Condition(text: t)?.text == t)
        }
        for t in ["", "!", "!!PRE", "0:2", "3:2", "1:65", "fill", "PRE:1", "1:2:3"] {
            #expect(SongNote.Condition(text: t) == nil, "\(t)")
        }
        let song = try Song.parse(
            Bytes(
                Self.song(
                    #""melody": [{"step": 0, "pitch": 60, "condition": "!NEI"}]"#, chain: #"[{"pattern": "A", "fill": true}]"#
                ).utf8),
            file: "c.json")
        #expect(try Song.parse(song.fileData(), file: "c.json") == song)
        #expect(String(decoding: song.fileData(), as: UTF8.self).contains(#""fill": true"#))
    }

    @Test func refusesAnUnknownConditionOrFill() {
        #expect(throws: PatternError.self) {
            try Self.steps(Self.song(#""melody": [{"step": 0, "pitch": 60, "condition": "FIL"}]"#), .melody, pitch: 60)
        }
        #expect(throws: PatternError.self) {
            try Self.steps(Self.song(#""melody": []"#, chain: #"[{"pattern": "A", "fill": 1}]"#), .melody, pitch: 60)
        }
    }
}
