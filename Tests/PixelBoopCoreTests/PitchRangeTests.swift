import Foundation
import Testing

@testable import PixelBoopCore

@Suite("Pitch range: what each track can sound, and the hints outside it")
struct PitchRangeTests {
    @Test("useful pitch range per track from its lowpass and the 20 Hz floor; hints outside it")
    func pitchRange() {
        #expect(PitchRange.highest(.melody) == 107)   // B7, 3951 Hz <= 2 x 2 kHz
        #expect(PitchRange.highest(.chords) == 111)   // D#8, 4978 Hz <= 2 x 2.5 kHz
        #expect(PitchRange.highest(.bass) == 93)   // A6, 1760 Hz <= 2 x 900 Hz
        #expect(PitchRange.lowest == 16)   // E0, 20.6 Hz
        #expect(PitchRange.tag(pitch: 127, kind: .melody) == "too high")
        #expect(PitchRange.tag(pitch: 0, kind: .bass) == "too low")
        #expect(PitchRange.tag(pitch: 60, kind: .melody) == nil)
        #expect(PitchRange.tag(pitch: 0, kind: .rhythm) == nil)
        #expect(PitchRange.hint(pitch: 127, kind: .melody)?.hasPrefix("G9 (12544 Hz) is far above") == true)
        #expect(PitchRange.hint(pitch: 0, kind: .melody)?.hasPrefix("C-1 (8.2 Hz) is below hearing") == true)
        // The instrument's lowpass: a pluck (its own 20 kHz) takes every note; a 500 Hz cutoff stops at B5.
        var open = Instrument()
        open.voice = Instrument.Voice(rawValue: "pluck")
        #expect(PitchRange.tag(pitch: 112, kind: .melody, open) == nil && PitchRange.highest(.melody, open) == 127)
        var dark = Instrument()
        dark.cutoff = 500
        #expect(PitchRange.highest(.melody, dark) == 83 && PitchRange.tag(pitch: 84, kind: .melody, dark) == "too high")
        #expect(PitchRange.hint(pitch: 90, kind: .melody, dark)?.hasSuffix("useful notes are E0–B5") == true)
        var m = EditorModel(version1: Song(name: "t"))
        #expect(m.pitchHint == nil)
        m.move(rows: 200)
        var view = EditorView(colorMode: .truecolor)
        let f = view.frame(
            model: m, width: 80, height: 24, playStep: nil, playing: false, sound: .silent("s"), fileName: "f")
        #expect(f.lines[22].hasPrefix("G9 (12544 Hz) is far above the melody's 2 kHz lowpass"))
        #expect(f.lines[23].contains("G9 too high"))
    }
}
