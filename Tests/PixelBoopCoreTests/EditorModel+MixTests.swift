import Foundation
import Testing

@testable import PixelBoopCore

/// Each track's instrument and mix (EditorModel+Mix.swift): `m` mutes, `M` solos, the track
/// panel (`I`) lists and steps the fields; each change is one undo step.
@Suite("Editor model: mix")
struct EditorModelMixTests {
    static func song() -> Song {
        let tracks: [TrackKind: [SongNote]] = [
            .melody: [SongNote(step: 0, pitch: 72)], .chords: [SongNote(step: 0, pitch: 60)],
            .bass: [SongNote(step: 0, pitch: 36)], .rhythm: [SongNote(step: 0, pitch: 36)]
        ]
        return Song(name: "m", patterns: [SongPattern(name: "A", tracks: tracks)])
    }

    /// The track panel's cursor on `field` of the current track.
    static func select(_ field: String, _ m: inout EditorModel) {
        m.moveInstrumentField(by: -100)
        m.moveInstrumentField(by: EditorModel.instrumentFields(m.track).firstIndex(of: field)!)
    }

    @Test("m mutes the track out of the loop, M solos one track; each is an undo step")
    func muteSolo() {
        var m = EditorModel(song: Self.song(), version1: false)
        m.toggleMute()
        #expect(m.message == "melody muted" && m.instrument.mute)
        #expect(m.audiblePattern.tracks[.melody] == nil && m.audiblePattern.tracks[.bass] != nil)
        m.cycleTrack(by: 2)
        m.toggleSolo()
        #expect(m.message == "bass soloed")
        #expect(Set(m.audiblePattern.tracks.keys) == [.bass])
        m.toggleSolo()
        #expect(m.message == "bass solo off")
        #expect(Set(m.audiblePattern.tracks.keys) == [.chords, .bass, .rhythm])
        m.undo()
        m.undo()
        m.undo()
        #expect(m.song == Self.song() && !m.isModified)
    }

    @Test("the panel lists ten fields for a pitched track and three for rhythm; its cursor is clamped")
    func fields() {
        #expect(EditorModel.instrumentFields(.rhythm) == ["kit", "level", "pan"])
        #expect(EditorModel.instrumentFields(.bass).count == 10)
        var m = EditorModel(song: Self.song(), version1: false)
        m.moveInstrumentField(by: 100)
        #expect(m.instrumentField == 9)
        m.cycleTrack(by: -1)   // rhythm: the field stays within its three
        #expect(m.instrumentField == 2)
        m.moveInstrumentField(by: -5)
        #expect(m.instrumentField == 0)
    }

    @Test("a classic melody's fields show its version-1 timbre")
    func classicValues() {
        let m = EditorModel(song: Self.song(), version1: false)
        let shown = EditorModel.instrumentFields(.melody).map { m.instrumentValue($0) }
        #expect(
            shown == [
                "classic (\(Instrument.Voice.sine.rawValue))", "0.50", "0.010 s", "0.000 s", "1.00", "0.150 s",
                "2000 Hz", "0.71", "1.00", "+0.00"
            ])
        #expect(m.instrumentValue("no such field") == "")
    }

    @Test("left and right step a field by its notch and stop at its range; a stop is no undo step")
    func stepping() {
        var m = EditorModel(song: Self.song(), version1: false)
        Self.select("level", &m)
        m.changeInstrument(by: 1)
        #expect(m.instrument.level == 1.05 && m.instrumentValue("level") == "1.05")
        for _ in 0..<40 { m.changeInstrument(by: 1) }
        #expect(m.instrument.level == Instrument.levelRange.upperBound)
        Self.select("pan", &m)
        m.changeInstrument(by: -3)
        #expect(m.instrument.pan == -0.3 && m.instrumentValue("pan") == "-0.30")
        m.changeInstrument(by: -30)
        #expect(m.instrument.pan == -1)
        Self.select("attack", &m)
        m.changeInstrument(by: 2)
        #expect(m.instrument.attack == 0.03 && m.instrumentValue("attack") == "0.030 s")
        Self.select("attack", &m)
        m.changeInstrument(by: -100)
        #expect(m.instrument.attack == 0)
        var undone = 0
        while m.canUndo {
            m.undo()
            undone += 1
        }
        // level (up to 2.0 in 20 notches), pan twice, attack twice: the notches past a stop left none.
        #expect(undone == 20 + 2 + 2)
        #expect(m.song == Self.song())
    }

    @Test("cutoff moves by a sixth of an octave: six notches up double it, within 20 ... 20000 Hz")
    func cutoff() {
        var m = EditorModel(song: Self.song(), version1: false)
        Self.select("cutoff", &m)
        m.changeInstrument(by: 6)
        #expect(abs(m.instrument.cutoff! - 4000) <= 3)
        m.changeInstrument(by: 200)
        #expect(m.instrument.cutoff == 20000)
        m.changeInstrument(by: -400)
        #expect(m.instrument.cutoff == 20)
    }

    @Test("the voice steps through classic and every engine voice, wrapping; the kit likewise")
    func voicesAndKits() {
        var m = EditorModel(song: Self.song(), version1: false)
        Self.select("voice", &m)
        m.changeInstrument(by: 1)
        #expect(m.instrument.voice == Instrument.Voice.allCases.first)
        m.changeInstrument(by: -2)
        #expect(m.instrument.voice == Instrument.Voice.allCases.last)
        m.changeInstrument(by: 1)
        #expect(m.instrument.voice == nil && m.instrument.isClassic)
        m.cycleTrack(by: -1)
        Self.select("kit", &m)
        m.changeInstrument(by: Instrument.Kit.allCases.count)
        #expect(m.instrument.kit == .gm)
        m.changeInstrument(by: 1)
        #expect(
            m.instrument.kit
                == Instrument.Kit.allCases[(Instrument.Kit.allCases.firstIndex(of: .gm)! + 1) % Instrument.Kit.allCases.count])
        #expect(m.instrumentValue("kit") == m.instrument.kit.rawValue)
    }

    @Test("a change on one track leaves the others' instruments as they were")
    func ownTrack() {
        var m = EditorModel(song: Self.song(), version1: false)
        m.cycleTrack(by: 1)
        Self.select("width", &m)
        m.changeInstrument(by: 1)
        #expect(m.song.instruments.keys.sorted { $0.rawValue < $1.rawValue } == [.chords])
        #expect(m.song.instrument(.chords).width == 0.55)
        #expect(m.song.instrument(.melody) == Instrument())
    }
}
