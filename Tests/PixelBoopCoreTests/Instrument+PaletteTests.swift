import CAudioEngine
import Testing

@testable import PixelBoopCore

/// The voices and kits as Swift reads them from the library's one table (CAudioEngine.h,
/// BOOP_VOICES and BOOP_KITS): every line once, in its value's order, under a name a song file
/// can hold and read back; each voice's General MIDI program a MIDI value and its default sound
/// inside the ranges a song file's fields are checked against, so the table and the loader agree.
@Suite("Instrument palette")
struct InstrumentPaletteTests {
    @Test("every voice of the table once, in value order, its name read back")
    func voices() {
        let all = Instrument.Voice.allCases
        #expect(all.count == Int(BOOP_VOICE_COUNT))
        #expect(all.map(\.index) == (0..<UInt32(BOOP_VOICE_COUNT)).map { $0 })
        #expect(Set(all.map(\.rawValue)).count == all.count)
        for voice in all {
            #expect(!voice.rawValue.isEmpty && voice.rawValue == voice.rawValue.lowercased())
            #expect(!voice.rawValue.contains(" "))
            #expect(Instrument.Voice(rawValue: voice.rawValue) == voice)
            #expect(voice.description == voice.rawValue)
            #expect(!voice.summary.isEmpty)
            #expect(voice.cValue.rawValue == voice.index)
        }
        #expect(Instrument.Voice(rawValue: "organ") == nil)
        #expect(Instrument.Voice(rawValue: "") == nil)
        #expect(Instrument.Voice.sine.rawValue == "sine")
        #expect(Instrument.Voice.triangle.rawValue == "triangle")
        #expect(Instrument.Voice.saw.rawValue == "saw")
    }

    @Test("each voice's program is a General MIDI program (0-based) and its default sound a valid song's")
    func defaults() {
        for voice in Instrument.Voice.allCases {
            #expect((0...127).contains(Int(voice.midiProgram)), "\(voice)")
            #expect(Int(voice.midiProgram) == Int(boop_voice_gm_program(voice.cValue)), "\(voice)")
            let s = voice.defaultSound
            #expect(Instrument.secondsRange.contains(s.attack), "\(voice) attack")
            #expect(Instrument.secondsRange.contains(s.decay), "\(voice) decay")
            #expect((0...1).contains(s.sustain), "\(voice) sustain")
            #expect(Instrument.secondsRange.contains(s.release), "\(voice) release")
            #expect(Instrument.cutoffRange.contains(s.cutoff), "\(voice) cutoff")
            #expect(Instrument.resonanceRange.contains(s.resonance), "\(voice) resonance")
        }
    }

    @Test("every kit of the table once, the General MIDI kit first and the default")
    func kits() {
        let all = Instrument.Kit.allCases
        #expect(all.count == Int(BOOP_KIT_COUNT))
        #expect(all.first == Instrument.Kit.gm && Instrument.Kit.gm.rawValue == "gm")
        #expect(Instrument().kit == .gm)
        #expect(Set(all.map(\.rawValue)).count == all.count)
        for kit in all {
            #expect(Instrument.Kit(rawValue: kit.rawValue) == kit)
            #expect(kit.cValue.rawValue == kit.index && !kit.summary.isEmpty)
        }
        #expect(Instrument.Kit(rawValue: "909") == nil)
    }
}
