import Testing

@testable import PixelBoopCore

/// The song laid out in time (DESIGN.md, "Song files"): the chain as segments of repeated
/// patterns with their tempos and passes, the swing position of each step, ratchets, gates,
/// micro-timing and transposition of each hit, and the seeded probability draws.
@Suite("SongTimeline")
struct SongTimelineTests {
    static func song(_ patterns: String, chain: String, extra: String = "") throws -> Song {
        let text = #"{"version": 2, "bpm": 100"# + extra + #", "patterns": {"# + patterns + #"}, "song": "# + chain + "}"
        return try Song.parse(Bytes(text.utf8), file: "t.json")
    }

    static let ab =
        #""A": {"length": 4, "tracks": {"melody": [{"step": 0, "pitch": 60}]}}, "#
        + #""B": {"length": 8, "swing": 60, "tracks": {"bass": [{"step": 1, "pitch": 36}]}}"#

    @Test("a step's position: even steps on the grid, odd ones late by 2 x (swing - 50) / 100")
    func position() {
        #expect(SongTimeline.position(0, length: 16, swing: 50) == 0)
        #expect(SongTimeline.position(1, length: 16, swing: 50) == 1)
        #expect(SongTimeline.position(1, length: 16, swing: 66) == 1.32)
        #expect(SongTimeline.position(3, length: 16, swing: 75) == 3.5)
        #expect(SongTimeline.position(4, length: 16, swing: 75) == 4)
        // An odd-length pattern restarts its swing with each repeat: step 5 of a 5-step pattern is
        // its step 0, on the grid.
        #expect(SongTimeline.position(5, length: 5, swing: 75) == 5)
        #expect(SongTimeline.position(6, length: 5, swing: 75) == 6.5)
    }

    @Test("the chain as segments: first steps, lengths, tempos, swings and passes")
    func segments() throws {
        let song = try Self.song(
            Self.ab, chain: #"[{"pattern": "A", "repeat": 2}, {"pattern": "B", "bpm": 140}, {"pattern": "A"}]"#)
        var timeline = SongTimeline(song: song, loops: 2)
        #expect(timeline.segmentCount == 6)
        #expect(timeline.totalSteps == 2 * (8 + 8 + 4))
        let laid = (0..<6).compactMap { timeline.segment($0) }
        #expect(laid.map(\.firstStep) == [0, 8, 16, 20, 28, 36])
        #expect(laid.map(\.steps) == [8, 8, 4, 8, 8, 4])
        #expect(laid.map(\.bpm) == [100, 140, 100, 100, 140, 100])
        #expect(laid.map(\.swing) == [50, 60, 50, 50, 60, 50])
        #expect(laid.map(\.firstPass) == [0, 0, 2, 3, 1, 5])
        #expect(timeline.segment(6) == nil)
    }

    @Test("the segment of a step, found after laying out as many as needed; none past the end")
    func segmentOfStep() throws {
        let song = try Self.song(Self.ab, chain: #"[{"pattern": "A", "repeat": 2}, {"pattern": "B"}]"#)
        var timeline = SongTimeline(song: song, loops: 3)
        #expect(timeline.segmentIndex(ofStep: 0) == 0)
        #expect(timeline.segmentIndex(ofStep: 7) == 0)
        #expect(timeline.segmentIndex(ofStep: 8) == 1)
        #expect(timeline.segmentIndex(ofStep: 47) == 5)
        #expect(timeline.segmentIndex(ofStep: 17) == 2)   // back into laid-out segments
        #expect(timeline.segmentIndex(ofStep: 48) == nil)
    }

    @Test("an endless song keeps laying out segments")
    func endless() throws {
        var timeline = SongTimeline(song: try Self.song(Self.ab, chain: #"[{"pattern": "A"}, {"pattern": "B"}]"#), loops: nil)
        #expect(timeline.segmentCount == nil)
        #expect(timeline.totalSteps == nil)
        #expect(timeline.segmentIndex(ofStep: 12 * 1000 + 5) == 2000 + 1)
    }

    @Test("hits carry the segment, the global step, the swung position and 0.8 of the length as gate")
    func hits() throws {
        let patterns =
            #""S": {"length": 4, "swing": 75, "tracks": {"melody": [{"step": 1, "pitch": 64, "length": 2}],"#
            + #""bass": [{"step": 2, "pitch": 40, "velocity": "sustain", "length": 2}]}}"#
        var timeline = SongTimeline(song: try Self.song(patterns, chain: #"[{"pattern": "S", "repeat": 2}]"#))
        let hits = timeline.hits(forSteps: 0..<8)
        let melody = hits.filter { $0.track == .melody }
        #expect(melody.map(\.step) == [1, 5])
        #expect(melody.map(\.onPosition) == [1.5, 5.5])
        #expect(melody.map(\.endPosition) == [3.5, 7.5])   // the end on step 3 (7), odd: swung too
        #expect(melody.allSatisfy { $0.gateSteps == 1.6 })
        let bass = hits.filter { $0.track == .bass }
        #expect(bass.map(\.onPosition) == [2, 6])
        #expect(bass.map(\.endPosition) == [4, 8])
        #expect(bass.allSatisfy { $0.gateSteps == nil })
    }

    @Test("a ratchet splits the note into equal hits, each gated 0.8 of its share")
    func ratchets() throws {
        let patterns = #""R": {"length": 4, "tracks": {"rhythm": [{"step": 2, "pitch": 42, "ratchet": 4}]}}"#
        var timeline = SongTimeline(song: try Self.song(patterns, chain: #"[{"pattern": "R"}]"#))
        let hits = timeline.hits(forSteps: 0..<4)
        #expect(hits.map(\.onPosition) == [2, 2.25, 2.5, 2.75])
        #expect(hits.map(\.endPosition) == [2.25, 2.5, 2.75, 3])
        #expect(hits.allSatisfy { $0.gateSteps == 0.8 * 0.25 && $0.step == 2 })
    }

    @Test("micro-timing moves the whole note; nothing before the piece's first step")
    func offsets() throws {
        let patterns =
            #""O": {"length": 4, "tracks": {"melody": [{"step": 0, "pitch": 60, "offset": -0.25},"#
            + #"{"step": 2, "pitch": 62, "offset": 0.25}]}}"#
        var timeline = SongTimeline(song: try Self.song(patterns, chain: #"[{"pattern": "O", "repeat": 2}]"#))
        #expect(timeline.earlySteps == 0.25)
        let hits = timeline.hits(forSteps: 0..<8)
        #expect(hits.map(\.onPosition) == [0, 2.25, 3.75, 6.25])
        #expect(hits.map(\.endPosition) == [1, 3.25, 4.75, 7.25])
    }

    @Test("transpose shifts the pitched tracks, never the drums")
    func transpose() throws {
        let patterns =
            #""T": {"length": 2, "tracks": {"bass": [{"step": 0, "pitch": 40}], "rhythm": [{"step": 1, "pitch": 36}]}}"#
        var timeline = SongTimeline(song: try Self.song(patterns, chain: #"[{"pattern": "T", "transpose": -5}]"#))
        let hits = timeline.hits(forSteps: 0..<2)
        #expect(hits.first { $0.track == .bass }?.pitch == 35)
        #expect(hits.first { $0.track == .rhythm }?.pitch == 36)
    }

    @Test("probability: each note's draw fixed by seed, pattern, pass and note; about its share of passes play")
    func probability() throws {
        let patterns = #""P": {"length": 1, "tracks": {"melody": [{"step": 0, "pitch": 60, "probability": 30}]}}"#
        let song = try Self.song(patterns, chain: #"[{"pattern": "P", "repeat": 256}]"#, extra: #", "seed": 9"#)
        var timeline = SongTimeline(song: song, loops: 8)
        let played = timeline.hits(forSteps: 0..<2048).count
        // 2048 passes at 30 %: 614 expected, standard deviation 21; five of them either way.
        #expect(abs(played - 614) < 105)
        var again = SongTimeline(song: song, loops: 8)
        #expect(again.hits(forSteps: 0..<2048).map(\.step) == timeline.hits(forSteps: 0..<2048).map(\.step))
        var other = SongTimeline(song: song, loops: 8, seed: 10)
        #expect(other.hits(forSteps: 0..<2048).map(\.step) != timeline.hits(forSteps: 0..<2048).map(\.step))
    }

    @Test("the draw is in [0, 100) and changes with every part of its key")
    func draw() {
        var seen = Set<Double>()
        for seed: UInt64 in [0, 1] {
            for pattern in 0..<3 {
                for pass in 0..<3 {
                    for track in TrackKind.allCases {
                        for note in 0..<3 {
                            let d = SongTimeline.draw(seed: seed, pattern: pattern, pass: pass, track: track, note: note)
                            #expect(d >= 0 && d < 100)
                            seen.insert(d)
                        }
                    }
                }
            }
        }
        #expect(seen.count == 2 * 3 * 3 * TrackKind.allCases.count * 3)
    }
}
