import Foundation
import Testing

@testable import PixelBoopCore

/// Version-2 song files: the loader's contract, the timeline's formula (chain, repeats, tempo
/// changes, swing, ratchets), the seeded groove, the mix, and that render and .mid agree.
struct SongTests {
    static let text = """
        {"version": 2, "name": "t", "bpm": 120, "swing": 50, "seed": 3,
         "instruments": {"melody": {"voice": "triangle", "release": 0.01, "level": 0.5},
                         "chords": {"voice": "pad", "mute": true},
                         "rhythm": {"kit": "chip"}},
         "patterns": {"B": {"length": 12, "swing": 60,
                            "tracks": {"melody": [{"step": 0, "pitch": 60}, {"step": 1, "pitch": 62, "ratchet": 2},
                                                  {"step": 4, "pitch": 64, "probability": 50},
                                                  {"step": 6, "pitch": 65, "condition": "2:2"}],
                                       "chords": [{"step": 0, "pitch": 48, "length": 12}],
                                       "rhythm": [{"step": 3, "pitch": 42}]}},
                      "A": {"length": 5}},
         "song": [{"pattern": "B", "repeat": 2}, {"pattern": "A", "bpm": 90}, {"pattern": "B"}]}
        """

    static func song(_ text: String = SongTests.text) throws(PatternError) -> Song {
        try Song.parse(Bytes(text.utf8), file: "t.json")
    }

    @Test func loadsEveryFieldAndKeepsThePatternsInWrittenOrder() throws {
        let song = try Self.song()
        #expect(song.patterns.map(\.name) == ["B", "A"])
        #expect(song.chain == [ChainEntry(pattern: "B", repeats: 2), ChainEntry(pattern: "A", bpm: 90), ChainEntry(pattern: "B")])
        #expect(song.seed == 3)
        #expect(song.instrument(.melody).voice == .triangle)
        #expect(song.instrument(.rhythm).kit.rawValue == "chip")
        #expect(!song.isAudible(.chords) && song.isAudible(.melody))
        let notes = song.patterns[0].notes(.melody)
        #expect(notes[1].ratchet == 2 && notes[2].probability == 50 && notes[3].condition == .init(a: 2, b: 2))
        // Without `song`, the patterns play once each, in the order written.
        let plain = try Self.song(#"{"version": 2, "patterns": {"Z": {"length": 3}, "A": {}}}"#)
        #expect(plain.chain.map(\.pattern) == ["Z", "A"] && plain.patterns[1].length == 16 && plain.bpm == 120)
    }

    @Test func refusesWithTheFieldsPath() {
        let cases: [(String, String)] = [
            (
                #"{"version": 2, "patterns": {"A": {"tracks": {"melody": [{"step": 0, "pitch": 60, "probability": 101}]}}}}"#,
                "t.json: patterns.A.tracks.melody[0].probability: expected an integer 0...100"
            ),
            (#"{"version": 2, "patterns": {"A": {"length": 65}}}"#, "t.json: patterns.A.length: expected an integer 1...64"),
            (
                #"{"version": 2, "patterns": {"A": {}}, "song": [{"pattern": "C"}]}"#,
                "t.json: song[0].pattern: expected one of the patterns (A), got \"C\" (chain entry 1)"
            ),
            (#"{"version": 2, "patterns": {"A": {"swing": 80}}}"#, "t.json: patterns.A.swing: expected a number 50...75"),
            (
                #"{"version": 2, "patterns": {"A": {"tracks": {"bass": [{"step": 0, "pitch": 40, "condition": "0:2"}]}}}}"#,
                "t.json: patterns.A.tracks.bass[0].condition: expected \"a:b\""
            ),
            (
                #"{"version": 2, "instruments": {"melody": {"voice": "organ"}}, "patterns": {"A": {}}}"#,
                "t.json: instruments.melody.voice: expected one of sine, triangle"
            ),
            (#"{"version": 2, "patterns": {}}"#, "t.json: patterns: expected 1...64 patterns"),
            ("{\"version\": 2,\n \"patterns\": {]}", "t.json: not valid JSON at line 2, column 15")
        ]
        for (text, prefix) in cases {
            do {
                _ = try Self.song(text)
                Issue.record("accepted \(text)")
            } catch {
                #expect(error.message.hasPrefix(prefix), "\(error.message)")
                #expect(!error.message.contains("\n"))
            }
        }
    }

    @Test func stepsFollowTheFormulaWithSwingRepeatsAndTempoChanges() throws {
        let rate = 44100.0
        var sequencer = SongSequencer(song: try Self.song(), sampleRate: rate)
        let fps120 = rate * 60 / (120 * 4)
        let fps90 = rate * 60 / (90 * 4)
        func f(_ x: Double) -> UInt64 { UInt64((x + 0.5).rounded(.down)) }
        // Segment 0: B twice (24 steps) at 120 BPM, swing 60 on odd steps.
        #expect(sequencer.frame(ofStep: 0) == 0)
        #expect(sequencer.frame(ofStep: 1) == f((1 - 1 + 1.2) * fps120))
        #expect(sequencer.frame(ofStep: 13) == f((13 - 1 + 1.2) * fps120))
        // Segment 1: A (5 steps) at 90 BPM from frame f(24 x fps120); its step 1 swung at 50 %.
        let start1 = f(24 * fps120)
        #expect(sequencer.frame(ofStep: 24) == start1)
        #expect(sequencer.frame(ofStep: 25) == start1 + f(1 * fps90))
        // Segment 2: B again from the end of A.
        #expect(sequencer.frame(ofStep: 29) == start1 + f(5 * fps90))
        #expect(sequencer.totalSteps == 41)
    }

    /// `--sync jack` places a song by the transport's frame: the first step at or after it, in the
    /// song's own time, wherever the music was anchored before (a restart moved it).
    @Test func theFirstStepAtOrAfterAFrameOfTheSongsOwnTime() throws {
        var sequencer = SongSequencer(song: try Self.song(), sampleRate: 44100, loops: nil)
        var own = SongSequencer(song: try Self.song(), sampleRate: 44100, loops: nil)
        sequencer.restart(step: 7, atFrame: 5_000_000)
        for k in [0, 1, 13, 24, 25, 28, 29, 41, 60] {
            let t = own.frame(ofStep: k)
            #expect(sequencer.firstStep(atOrAfter: t) == (k, t))
            #expect(sequencer.firstStep(atOrAfter: t + 1) == (k + 1, own.frame(ofStep: k + 1)))
            if t > 0 { #expect(sequencer.firstStep(atOrAfter: t - 1).step == k) }
        }
        #expect(sequencer.frame(ofStep: 7) == 5_000_000)
    }

    @Test func ratchetsConditionsAndProbabilityAreDecidedBySeedAndPass() throws {
        let song = try Self.song()
        var timeline = SongTimeline(song: song, loops: 1)
        let hits = timeline.hits(forSteps: 0..<41)
        // The ratchet: two hits inside step 1 (swung), each half of the step.
        let ratchet = hits.filter { $0.pitch == 62 && $0.segment == 0 && $0.step == 1 }
        #expect(ratchet.count == 2)
        #expect(zip(ratchet.map(\.onPosition), [1.2, 1.6]).allSatisfy { abs($0 - $1) < 1e-12 })
        #expect(ratchet.allSatisfy { abs(($0.gateSteps ?? 0) - 0.8 * 0.4) < 1e-12 })
        // "2:2": the second of every two passes of B (passes 0, 1 in segment 0, pass 2 in segment 2).
        #expect(hits.filter { $0.pitch == 65 }.map(\.step) == [12 + 6])
        // The muted chords never appear; the seed's choice is the same every time.
        #expect(!hits.contains { $0.track == .chords })
        var again = SongTimeline(song: song, loops: 1)
        #expect(again.hits(forSteps: 0..<41) == hits)
        // Probability 0 and 100 are never and always.
        var all = song
        all.patterns[0].tracks[.melody]![2].probability = 100
        var none = song
        none.patterns[0].tracks[.melody]![2].probability = 0
        var tAll = SongTimeline(song: all, loops: 1)
        var tNone = SongTimeline(song: none, loops: 1)
        #expect(tAll.hits(forSteps: 0..<41).filter { $0.pitch == 64 }.count == 3)
        #expect(tNone.hits(forSteps: 0..<41).filter { $0.pitch == 64 }.isEmpty)
        // Over many seeds a 50 % note plays about half the time.
        var played = 0
        for seed in 0..<400 {
            var t = SongTimeline(song: song, loops: 1, seed: UInt64(seed))
            played += t.hits(forSteps: 0..<12).filter { $0.pitch == 64 }.count
        }
        #expect((160...240).contains(played))
    }

    @Test func renderIsTheSameEveryRunAndTheMutedTrackIsSilent() throws {
        func render(_ song: Song, seed: UInt64? = nil) throws -> [Float] {
            var r = SongRenderer(song: song)
            r.channels = 2
            r.seed = seed
            var out: [Float] = []
            try r.render { out.append(contentsOf: $0) }
            return out
        }
        let song = try Self.song()
        let first = try render(song)
        #expect(first == (try render(song)))
        #expect(first.contains { $0 != 0 })
        // Only the muted track left audible... is nothing at all.
        var onlyMuted = song
        for kind in [TrackKind.melody, .bass, .rhythm] { onlyMuted.instruments[kind, default: Instrument()].mute = true }
        #expect(try render(onlyMuted).allSatisfy { $0 == 0 })
        // Solo wins over the others.
        var solo = song
        solo.instruments[.rhythm, default: Instrument()].solo = true
        var timeline = SongTimeline(song: solo, loops: 1)
        #expect(timeline.hits(forSteps: 0..<41).allSatisfy { $0.track == .rhythm })
    }

    @Test func playAndRenderQueueTheSameEvents() throws {
        // The live transport asks for one step at a time, SongRenderer for sixteen: the same events.
        let song = try Self.song()
        var live = SongSequencer(song: song, sampleRate: 48000, loops: 2, seed: 9)
        var offline = SongSequencer(song: song, sampleRate: 48000, loops: 2, seed: 9)
        var one: [SongEvent] = []
        for k in 0..<82 { one += live.events(forSteps: k..<(k + 1)) }
        var sixteen: [SongEvent] = []
        for k in stride(from: 0, to: 82, by: 16) { sixteen += offline.events(forSteps: k..<min(82, k + 16)) }
        #expect(one.sorted(by: SongEvent.playOrder).map(\.frame) == sixteen.map(\.frame))
        #expect(Set(one.map(\.step)) == Set(sixteen.map(\.step)) && one.count == sixteen.count)
    }

    @Test func midiExportHasTheSameNotesAndATempoChange() throws {
        let song = try Self.song()
        let data = [UInt8](MidiFileWriter.data(for: song))
        var timeline = SongTimeline(song: song, loops: 1)
        let hits = timeline.hits(forSteps: 0..<41)
        #expect(!hits.isEmpty)
        // Two tempo meta events at least: 120 at the start, 90 for A, 120 again after it.
        var tempos = 0
        for i in 0..<(data.count - 2) where data[i] == 0xFF && data[i + 1] == 0x51 && data[i + 2] == 3 { tempos += 1 }
        #expect(tempos == 3)
        #expect(MidiFileWriter.data(for: song) == MidiFileWriter.data(for: song))
    }

    @Test func versionOneFilesStillLoadAsPatterns() throws {
        let v1 = #"{"version": 1, "name": "p", "bpm": 100, "length": 8, "tracks": {}}"#
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("song-tests-v1-\(getpid()).json")
        try Data(v1.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let song = try PieceFile.load(path: url.path)
        #expect(song.version1 != nil, "a version-1 file is marked as one")
        #expect(song.bpm == 100 && song.patterns.map(\.length) == [8] && song.chain.count == 1)
    }

    @Test func aSongWithoutItsVersionIsToldSo() throws {
        let text = #"{"name": "s", "patterns": {"A": {"tracks": {}}}}"#
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("song-tests-nov-\(getpid()).json")
        try Data(text.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(throws: PatternError.self) { try PieceFile.load(path: url.path) }
        do {
            _ = try PieceFile.load(path: url.path)
        } catch {
            #expect(error.message.contains("version: expected 2 for a song (the file has \"patterns\""), "\(error.message)")
        }
    }
}
