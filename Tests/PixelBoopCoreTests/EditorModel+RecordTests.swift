import Foundation
import Testing

@testable import PixelBoopCore

/// Live recording: micro-timing in the song file and on the timeline, a frame's nearest step,
/// and the editor model placing played notes (quantize strength, overdub or replace, one undo
/// step per pass, lengths from note-offs, drums on channel 10, a transposed entry).
struct LiveRecordTests {
    static let rate = 48000.0
    static let perStep = rate * 60 / (120 * 4)   // 6000 frames at 120 BPM

    static func song(_ notes: String = "", length: Int = 16, chain: String = "") throws -> Song {
        let text = """
            {"version": 2, "bpm": 120, "patterns": {"A": {"length": \(length), "tracks": {"melody": [\(notes)]}}}\(chain)}
            """
        return try Song.parse(Bytes(text.utf8), file: "r.json")
    }

    @Test func offsetIsReadWrittenAndRefusedOutOfRange() throws {
        let song = try Self.song(#"{"step": 2, "pitch": 60, "offset": 0.125}, {"step": 3, "pitch": 62, "offset": -0.5}"#)
        #expect(song.patterns[0].notes(.melody).map(\.offset) == [0.125, -0.5])
        let again = try Song.parse(song.fileData(), file: "again.json")
        #expect(again == song)
        #expect(String(decoding: song.fileData(), as: UTF8.self).contains(#""offset": 0.125"#))
        #expect(song.version2Reason == nil || song.version2Reason == "micro-timing")
        for bad in ["0.5", "-0.75", "\"early\"", "true"] {
            #expect(throws: PatternError.self) {
                _ = try Self.song(#"{"step": 2, "pitch": 60, "offset": "# + bad + "}")
            }
        }
        do {
            _ = try Self.song(#"{"step": 2, "pitch": 60, "offset": 0.5}"#)
        } catch {
            #expect("\(error)".contains("patterns.A.tracks.melody[0].offset: expected a number of steps -0.5 ... 0.5"))
        }
    }

    @Test func offsetsMoveOnsetsOnTheirFramesAndEarlyNotesAreQueuedInTime() throws {
        let song = try Self.song(
            #"{"step": 0, "pitch": 60, "offset": -0.25}, {"step": 4, "pitch": 62, "offset": 0.3, "length": 2}"#,
            chain: #", "song": [{"pattern": "A", "repeat": 2}]"#)
        var seq = SongSequencer(song: song, sampleRate: Self.rate)
        let spans = seq.spans(forSteps: 0..<32)
        let frame = { (p: Double) in UInt64((p * Self.perStep + 0.5).rounded(.down)) }
        #expect(spans.map(\.on) == [0, frame(4.3), frame(15.75), frame(20.3)])
        // The whole note moves: a sustain-free note's gate is 0.8 of its length from its onset.
        #expect(spans[1].off == spans[1].on + UInt64((1.6 * Self.perStep).rounded()))
        // Step 16's note sounds a quarter step early: it is due (queued) by then.
        #expect(seq.timeline.earlySteps == 0.25)
        #expect(seq.dueFrame(ofStep: 16) == frame(15.75))
        // A song without early notes is scheduled as ever.
        var plain = SongSequencer(song: try Self.song(#"{"step": 0, "pitch": 60}"#), sampleRate: Self.rate)
        #expect(plain.dueFrame(ofStep: 5) == plain.frame(ofStep: 5))
    }

    @Test func aFramesNearestStepAndOffset() throws {
        var seq = SongSequencer(song: try Self.song(), sampleRate: Self.rate, loops: nil, startFrame: 10_000)
        let at = { (p: Double) in UInt64(10_000 + p * Self.perStep) }
        let first = seq.position(atFrame: at(3.2))
        var pos = try #require(first)
        #expect(pos.entryStep == 3 && abs(pos.offset - 0.2) < 1e-3 && pos.pass == 0)
        let second = seq.position(atFrame: at(3.7))
        pos = try #require(second)
        #expect(pos.entryStep == 4 && abs(pos.offset + 0.3) < 1e-3)
        // Just before the next pass: its first step, early; passes told apart.
        let third = seq.position(atFrame: at(15.8))
        pos = try #require(third)
        #expect(pos.entryStep % 16 == 0 && pos.pass == 16 && abs(pos.offset + 0.2) < 1e-3)
        // In the count-in (more than half a step before the first step): nowhere.
        #expect(seq.position(atFrame: 10_000 - UInt64(0.6 * Self.perStep)) == nil)
        #expect(seq.position(atFrame: 10_000 - UInt64(0.4 * Self.perStep))?.entryStep == 0)
    }

    private func played(_ pitch: Int, _ velocity: Int, channel: Int = 0) -> PlayedNote {
        PlayedNote(pitch: pitch, velocity: velocity, on: true, channel: channel)
    }

    private func position(_ step: Int, _ offset: Double, pass: Int = 0, entry: Int = 0) -> PlayedPosition {
        PlayedPosition(entry: entry, pattern: 0, entryStep: step, pass: pass, offset: offset, framesPerStep: Self.perStep)
    }

    @Test func quantizeStrengthLengthsAndVelocities() throws {
        var m = EditorModel(song: try Self.song(), version1: false)
        m.toggleRecording()
        #expect(m.recording.armed && m.recording.strength == 100)
        _ = m.record(played(60, 90), at: position(2, 0.21), frame: 12_000)
        _ = m.record(PlayedNote(pitch: 60, velocity: 0, on: false), at: nil, frame: 12_000 + 17_000)
        m.setQuantizeStrength(0)
        _ = m.record(played(64, 33), at: position(8, -0.27), frame: 48_000)
        m.setQuantizeStrength(50)
        _ = m.record(played(67, 127), at: position(12, 0.3), frame: 72_000)
        let notes = m.songPattern.notes(.melody)
        #expect(notes.map(\.step) == [2, 8, 12] && notes.map(\.pitch) == [60, 64, 67])
        #expect(notes.map(\.offset) == [0, -0.27, 0.15])
        #expect(notes.map(\.velocity) == [.level(90), .level(33), .level(127)])
        // Held 17,000 frames (2.83 steps): 3 steps.
        #expect(notes.map(\.length) == [3, 1, 1])
    }

    @Test func eachPassIsOneUndoStepAndReplaceClearsOnItsFirstNote() throws {
        var m = EditorModel(song: try Self.song(#"{"step": 5, "pitch": 72}"#), version1: false)
        m.toggleRecording()
        _ = m.record(played(60, 80), at: position(0, 0), frame: 0)
        _ = m.record(played(62, 80), at: position(4, 0), frame: 0)
        _ = m.record(played(64, 80), at: position(16, 0, pass: 16), frame: 0)
        // Step 16 of the entry is the pattern's step 0 on its next pass.
        #expect(m.songPattern.notes(.melody).map(\.pitch) == [60, 64, 62, 72])
        #expect(m.recording.passes == 2)
        m.undo()
        #expect(m.songPattern.notes(.melody).map(\.pitch) == [60, 62, 72])
        m.undo()
        #expect(m.songPattern.notes(.melody).map(\.pitch) == [72])
        // Replace: the pass's first note clears the track; a pass with no notes changes nothing.
        m.toggleRecordReplace()
        _ = m.record(played(65, 80), at: position(3, 0, pass: 32), frame: 0)
        _ = m.record(played(67, 80), at: position(6, 0, pass: 32), frame: 0)
        #expect(m.songPattern.notes(.melody).map(\.pitch) == [65, 67])
        m.undo()
        #expect(m.songPattern.notes(.melody).map(\.pitch) == [72])
        m.toggleRecording()
        #expect(!m.recording.armed)
    }

    @Test func drumsOnChannelTenTransposeAndRefusals() throws {
        let song = try Self.song(chain: #", "song": [{"pattern": "A", "transpose": 5}]"#)
        var m = EditorModel(song: song, version1: false)
        m.toggleRecording()
        _ = m.record(played(38, 100, channel: 9), at: position(4, 0), frame: 0)
        _ = m.record(played(65, 100), at: position(0, 0), frame: 0)
        #expect(m.songPattern.notes(.rhythm).map(\.pitch) == [38])
        #expect(m.songPattern.notes(.melody).map(\.pitch) == [60])   // heard as 65 in an entry transposed +5
        #expect(m.record(played(20, 100, channel: 9), at: position(1, 0), frame: 0) == nil)
        #expect(m.message?.contains("no drum lane") == true)
        _ = m.record(played(62, 100), at: nil, frame: 0)
        #expect(m.message?.contains("before the first step") == true)
        #expect(m.songPattern.notes(.melody).count == 1)
    }
}
