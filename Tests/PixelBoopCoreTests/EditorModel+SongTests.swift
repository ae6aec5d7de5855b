import Foundation
import Testing

@testable import PixelBoopCore

@Suite("Editor model: songs, blocks, patterns, mix")
struct EditorModelSongTests {
    static func melody(_ m: EditorModel) -> [[Int]] {
        m.songPattern.notes(.melody).map { [$0.step, $0.pitch] }.sorted { $0.lexicographicallyPrecedes($1) }
    }

    /// C4, E4, G4 on steps 0, 1, 2.
    static func triad() -> EditorModel {
        var m = EditorModel(version1: Song(name: "t"))
        m.place()
        m.move(steps: 1, rows: 4)
        m.place()
        m.move(steps: 1, rows: 3)
        m.place()
        return m
    }

    @Test("a block copied and pasted lands with its top-left at the cursor; transpose and nudge move it; each one undo step")
    func blocks() {
        var m = Self.triad()
        m.toggleBlock()   // anchor at step 2, G4
        m.move(steps: -2, rows: -7)
        m.toggleBlock()   // steps 0-2, G4...C4
        m.copyBlock()
        m.clearBlock()
        m.move(steps: 4, rows: 7)   // step 4, G4
        m.paste()
        #expect(Self.melody(m) == [[0, 60], [1, 64], [2, 67], [4, 60], [5, 64], [6, 67]])
        m.extendBlock(steps: 2)
        m.extendBlock(rows: -7)
        m.transpose(by: 1)
        m.transpose(by: 12)
        m.nudge(by: 1)
        #expect(Self.melody(m) == [[0, 60], [1, 64], [2, 67], [5, 73], [6, 77], [7, 80]])
        m.deleteBlock()
        #expect(Self.melody(m) == [[0, 60], [1, 64], [2, 67]])
        for _ in 0..<5 { m.undo() }
        #expect(Self.melody(m) == [[0, 60], [1, 64], [2, 67]] && m.canUndo)
        m.redo()
        #expect(Self.melody(m).count == 6)
    }

    @Test("a move that would leave the pattern is refused whole")
    func refusedMove() {
        var m = Self.triad()
        m.toggleBlock()
        m.move(steps: -2, rows: -7)
        m.nudge(by: -1)
        #expect(Self.melody(m) == [[0, 60], [1, 64], [2, 67]] && m.message?.contains("not moved") == true)
    }

    @Test("patterns: clone and new go right after the current one, in the list and the chain; undo spans them")
    func patterns() {
        var m = Self.triad()
        m.addPattern(clone: true)
        #expect(m.song.patterns.map(\.name) == ["A", "B"] && m.current == 1 && Self.melody(m).count == 3)
        m.selectPattern(by: -1)
        m.addPattern(clone: false)
        #expect(m.song.patterns.map(\.name) == ["A", "C", "B"] && m.song.chain.map(\.pattern) == ["A", "C", "B"])
        #expect(m.songPattern.tracks.isEmpty)
        m.panel = .chain
        m.moveChainCursor(by: 1)
        m.changeRepeats(by: 2)
        m.moveChainEntry(by: -1)
        #expect(m.song.chain.map(\.pattern) == ["A", "B", "C"] && m.song.chain[1].repeats == 3)
        m.renamePattern(to: "verse")
        #expect(m.song.chain[1].pattern == "verse" && m.song.pattern(named: "verse") != nil)
        m.deleteChainPattern()   // "verse" and its entry
        #expect(m.song.patterns.map(\.name) == ["A", "C"] && m.song.chain.map(\.pattern) == ["A", "C"])
        m.addPattern(clone: false)
        m.panel = .chain
        m.cycleTrack(by: 3)
        m.place()
        m.copyBlock()
        m.toggleBlock()
        m.copyBlock()
        m.cycleTrack(by: 1)
        m.paste()
        #expect(m.message == "drums paste on the rhythm track")
        for _ in 0..<8 { m.undo() }
        #expect(m.song.patterns.count == 1 && m.current == 0 && Self.melody(m).count == 3)
    }

    @Test("mute, solo and the instrument are undoable and keep the loop's pattern audible as the song would")
    func mix() {
        var m = Self.triad()
        m.toggleSolo()
        m.cycleTrack(by: 3)
        m.place()
        #expect(m.audiblePattern.notes(.rhythm).isEmpty && m.audiblePattern.notes(.melody).count == 3)
        m.toggleMute()
        m.cycleTrack(by: 1)
        m.changeInstrument(by: 1)   // voice: sine
        #expect(m.song.instrument(.melody).voice == .sine && m.song.instrument(.rhythm).mute)
        #expect(m.song.needsVersion2 && !m.savesVersion1)
        m.undo()
        m.undo()
        #expect(m.song.instrument(.melody).voice == nil && !m.song.instrument(.rhythm).mute)
    }

    @Test("the instrument panel's field follows a track with fewer fields (sustain, then rhythm: pan)")
    func instrumentFieldAcrossTracks() {
        var m = Self.triad()
        m.moveInstrumentField(by: 4)   // melody: sustain
        m.cycleTrack(by: 3)   // rhythm: kit, level, pan
        #expect(m.instrumentField == 2)
        m.changeInstrument(by: -1)   // pan, one notch left (it trapped: index 4 of 3 fields)
        #expect(m.song.instrument(.rhythm).pan < 0)
    }

    @Test("a song written by the editor reads back the same; a version-1 pattern stays version 1")
    func roundTrip() throws {
        var m = Self.triad()
        #expect(!m.song.needsVersion2)
        m.addPattern(clone: true)
        m.changeLength(steps: 1)
        m.changeLength(steps: 1)
        m.changeLength(steps: 1)   // 48 steps
        m.toggleMute()
        var song = m.song
        song.patterns[0].tracks[.melody]![0].probability = 40
        song.patterns[0].tracks[.melody]![0].condition = SongNote.Condition(a: 1, b: 2)
        song.chain[1].bpm = 140.5
        let back = try Song.parse(song.fileData(), file: "t.json")
        #expect(back.normalized == song.normalized)
        #expect(back.patterns[1].length == 48)
    }

    @Test("a song's groove survives the editor: paste keeps probability and ratchets; a ratchet stays one step")
    func groove() {
        let note = SongNote(step: 0, pitch: 60, probability: 40, condition: .init(a: 1, b: 2), ratchet: 3)
        let song = Song(name: "s", patterns: [SongPattern(name: "A", length: 12, tracks: [.melody: [note]])])
        var m = EditorModel(song: song, version1: false)
        m.changeLength(by: 1)
        #expect(m.songPattern.notes(.melody) == [note] && m.message?.contains("ratchet") == true)
        m.toggleBlock()
        m.copyBlock()
        m.clearBlock()
        m.move(steps: 5)
        m.paste()
        var moved = note
        moved.step = 5
        #expect(m.songPattern.notes(.melody) == [note, moved])
        #expect(!m.savesVersion1)
    }

    @Test("the scale lock moves the cursor onto its notes")
    func scale() {
        var m = EditorModel(version1: Song(name: "t"))
        m.setScale(Scale(parsing: "C major"))
        m.move(rows: 1)
        #expect(m.cursorLabel == "D4")
        m.moveTo(step: 0, row: 66)   // F#4: nearest scale note F4 (the lower on a tie)
        #expect(m.cursorLabel == "F4")
        #expect(Scale(parsing: "Bb minor")?.name == "A# minor" && Scale(parsing: "H major") == nil)
        // Roots are read as note names are, without the octave: every spelling, and nothing more.
        #expect(Scale(parsing: "e# major")?.name == "F major" && Scale(parsing: "Cb blues")?.name == "B blues")
        #expect(Scale(parsing: "G♭ dorian")?.name == "F# dorian" && Scale(parsing: "f##")?.name == "G major")
        #expect(Scale(parsing: "C4 major") == nil && Scale(parsing: "C-1") == nil && Scale(parsing: "C major 2") == nil)
        #expect(Scale(parsing: "") == nil && Scale(parsing: "C lydia") == nil)
        // The modes, and "harmonic minor" written with a space as a song file writes it.
        for text in ["E phrygian", "F lydian", "B locrian", "A melodic minor", "A harmonic minor", "C chromatic"] {
            #expect(Scale(parsing: text) != nil, "\(text)")
        }
        #expect(Scale(parsing: "A harmonic minor") == Scale(parsing: "A harmonic-minor"))
        #expect(Scale(parsing: "F lydian")?.contains(71) == true && Scale(parsing: "F lydian")?.contains(70) == false)
    }

    @Test("under a scale lock t and T move notes by scale degrees: an F chord in A minor becomes G, then A minor")
    func degreeTranspose() {
        var m = EditorModel(version1: Song(name: "t"))
        m.setScale(Scale(parsing: "A minor"))
        for pitch in [65, 69, 72] {   // F4 A4 C5
            m.moveTo(step: 0, row: pitch)
            m.place()
        }
        m.moveTo(step: 0, row: 65)
        m.toggleBlock()
        m.extendBlock(rows: 7)
        m.transpose(by: 1)
        #expect(m.songPattern.notes(.melody).map(\.pitch).sorted() == [67, 71, 74])   // G B D
        m.transpose(by: 1)
        #expect(m.songPattern.notes(.melody).map(\.pitch).sorted() == [69, 72, 76])   // A C E
        #expect(m.songPattern.notes(.melody).allSatisfy { m.scale!.contains($0.pitch) })
        m.transpose(by: -1)
        #expect(m.songPattern.notes(.melody).map(\.pitch).sorted() == [67, 71, 74])
        #expect(
            Scale(parsing: "C major")?.pitch(66, movedBy: 1) == 67 && Scale(parsing: "C major")?.pitch(127, movedBy: 1) == nil)
    }

    @Test("untitled.json, then untitled-2.json, ... never one that exists")
    func untitled() throws {
        let dir = NSTemporaryDirectory() + "boop-untitled-\(getpid())"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(PatternSaving.untitled(in: dir) == dir + "/untitled.json")
        _ = FileManager.default.createFile(atPath: dir + "/untitled.json", contents: Data())
        _ = FileManager.default.createFile(atPath: dir + "/untitled-2.json", contents: Data())
        #expect(PatternSaving.untitled(in: dir) == dir + "/untitled-3.json")
    }
}
