import Foundation
import Testing

@testable import PixelBoopCore

/// Notes from a MIDI keyboard in the editor: heard on the current track, and with step entry (`i`)
/// placed at the cursor with their velocity, chords on one step, one undo step each.
@Suite("Editor model: MIDI keyboard and step entry")
struct EditorModelKeyboardTests {
    private func on(_ pitch: Int, _ velocity: Int = 80) -> PlayedNote { PlayedNote(pitch: pitch, velocity: velocity, on: true) }
    private func off(_ pitch: Int) -> PlayedNote { PlayedNote(pitch: pitch, velocity: 0, on: false) }

    @Test("step entry off: a played note sounds on the current track and nothing is placed")
    func auditionOnly() throws {
        var m = EditorModel(version1: Song(name: "k"))
        #expect(!m.stepEntry)
        let played = m.play(on(64, 90))
        let sounded = try #require(played)
        #expect(sounded.pitch == 64 && sounded.velocity == .normal)
        #expect(m.play(off(64)) == nil)
        #expect(m.songPattern.notes(.melody).isEmpty && !m.canUndo && m.step == 0)
    }

    @Test("step entry on: a note is placed at the cursor with its velocity and the cursor moves on at its release")
    func placement() throws {
        var m = EditorModel(version1: Song(name: "k"))
        m.toggleStepEntry()
        #expect(m.stepEntry)
        m.move(steps: 2)
        let played = m.play(on(67, 64))
        let sounded = try #require(played)
        #expect(sounded.pitch == 67)
        #expect(m.songPattern.notes(.melody) == [SongNote(step: 2, pitch: 67, velocity: .normal, length: 1)])
        #expect(m.step == 2 && m.row == 67)   // still held: the cursor waits
        _ = m.play(off(67))
        #expect(m.step == 3)
        _ = m.play(on(69, 127))
        _ = m.play(off(69))
        #expect(m.songPattern.notes(.melody).last == SongNote(step: 3, pitch: 69, velocity: .accent, length: 1))
        #expect(m.step == 4)
        m.toggleStepEntry()
        #expect(!m.stepEntry)
    }

    @Test("velocity: 100 and above is an accent, below it a normal note; a note-on of velocity 0 is a note-off")
    func velocityMapping() {
        #expect(EditorModel.accentVelocity == 100)
        #expect(EditorModel.velocity(played: 1) == .normal)
        #expect(EditorModel.velocity(played: 99) == .normal)
        #expect(EditorModel.velocity(played: 100) == .accent)
        #expect(EditorModel.velocity(played: 127) == .accent)
        #expect(PlayedNote(status: 0x93, data1: 60, data2: 0) == PlayedNote(pitch: 60, velocity: 0, on: false, channel: 3))
        #expect(PlayedNote(status: 0x80, data1: 60, data2: 40)?.on == false)
        #expect(PlayedNote(status: 0x91, data1: 60, data2: 100) == PlayedNote(pitch: 60, velocity: 100, on: true, channel: 1))
        #expect(PlayedNote(status: 0x99, data1: 38, data2: 90)?.isDrum == true)
        #expect(PlayedNote(status: 0xB0, data1: 64, data2: 127) == nil)
    }

    @Test("keys held together land on one step as a chord; the next group goes on the next step")
    func chord() {
        var m = EditorModel(version1: Song(name: "k"))
        m.cycleTrack(by: 1)   // chords
        m.toggleStepEntry()
        _ = m.play(on(60))
        _ = m.play(on(64))
        _ = m.play(off(60))
        _ = m.play(on(67))   // 64 is still held: the same group
        _ = m.play(off(64))
        #expect(m.step == 0)
        _ = m.play(off(67))
        #expect(m.step == 1)
        _ = m.play(on(62))
        _ = m.play(off(62))
        let notes = m.songPattern.notes(.chords)
        #expect(notes.filter { $0.step == 0 }.map(\.pitch).sorted() == [60, 64, 67])
        #expect(notes.filter { $0.step == 1 }.map(\.pitch) == [62])
        #expect(m.step == 2)
    }

    @Test("each placement is one undo step; the last step wraps to the first")
    func undoSteps() {
        var m = EditorModel(version1: Song(name: "k"))
        m.toggleStepEntry()
        m.jump(steps: 64)
        _ = m.play(on(60))
        _ = m.play(on(64))
        _ = m.play(off(60))
        _ = m.play(off(64))
        #expect(m.step == 0)
        _ = m.play(on(60, 110))   // the same key again, on the wrapped step
        _ = m.play(off(60))
        #expect(m.songPattern.notes(.melody).count == 3)
        var undos = 0
        while m.canUndo {
            m.undo()
            undos += 1
        }
        #expect(undos == 3)
        #expect(m.songPattern.notes(.melody).isEmpty && m.canRedo)
        while m.canRedo { m.redo() }
        #expect(m.songPattern.notes(.melody).count == 3 && m.canUndo)
    }

    @Test("a pitch outside the track's range (or a key with no General MIDI drum lane) is refused with a message")
    func refused() throws {
        var m = EditorModel(version1: Song(name: "k"))
        m.cycleTrack(by: 2)   // bass: 16 ... 93
        m.toggleStepEntry()
        #expect(m.play(on(100)) == nil)
        #expect(m.message?.contains("outside the bass's range") == true)
        _ = m.play(off(100))
        #expect(m.songPattern.notes(.bass).isEmpty && m.step == 0 && !m.canUndo)
        m.cycleTrack(by: 1)   // rhythm
        // Every General MIDI percussion key (35 ... 81) has a lane; 34 and 82 have none.
        #expect(m.play(on(34)) == nil)
        #expect(m.message?.contains("no drum lane") == true)
        #expect(m.play(on(82)) == nil)
        #expect(Set(DrumLane.all.map(\.key)) == Set(35...81) && DrumLane.all.count == 47)
        #expect(DrumLane.all.allSatisfy { $0.name.count <= 10 })
        let played = m.play(on(38, 120))
        let snare = try #require(played)
        #expect(snare.pitch == 38)
        _ = m.play(off(38))
        #expect(m.songPattern.notes(.rhythm) == [SongNote(step: 0, pitch: 38, velocity: .accent, length: 1)])
        #expect(m.cursorLabel == "snare" && m.step == 1)
    }

    @Test("a JACK keyboard is told the keys that sound: those `play` takes, or any while a question waits")
    func soundsKey() {
        var m = EditorModel(version1: Song(name: "k"))
        m.cycleTrack(by: 2)   // bass: 16 ... 93
        #expect(m.soundsKey(40) && !m.soundsKey(100))
        m.cycleTrack(by: 1)   // rhythm
        #expect(m.soundsKey(38) && m.soundsKey(37) && !m.soundsKey(34))
        m.question = .restore
        #expect(m.soundsKey(34) && m.soundsKey(100))
    }
}
