import Testing

@testable import PixelBoopCore

/// The voices and kits as the library lists them (CAudioEngine.h, BOOP_VOICES and BOOP_KITS):
/// names that read back to the same entry, the C values in order, and a song's left-out fields
/// taking the voice's line.
struct PaletteTests {
    @Test func everyVoiceReadsBackByItsName() {
        let voices = Instrument.Voice.allCases
        #expect(!voices.isEmpty && Set(voices.map(\.rawValue)).count == voices.count)
        for (i, voice) in voices.enumerated() {
            #expect(voice.index == UInt32(i) && voice.cValue.rawValue == UInt32(i))
            #expect(Instrument.Voice(rawValue: voice.rawValue) == voice)
            #expect(!voice.summary.isEmpty && voice.midiProgram < 128)
            #expect(MidiFileWriter.program(voice) == voice.midiProgram)
        }
        #expect(Instrument.Voice.sine.rawValue == "sine" && Instrument.Voice.saw.rawValue == "saw")
        #expect(Instrument.Voice.triangle.rawValue == "triangle" && Instrument.Voice(rawValue: "organ") == nil)
    }

    @Test func everyKitReadsBackByItsName() {
        let kits = Instrument.Kit.allCases
        #expect(!kits.isEmpty && Set(kits.map(\.rawValue)).count == kits.count)
        for (i, kit) in kits.enumerated() {
            #expect(kit.index == UInt32(i) && kit.cValue.rawValue == UInt32(i))
            #expect(Instrument.Kit(rawValue: kit.rawValue) == kit && !kit.summary.isEmpty)
        }
        #expect(Instrument.Kit.gm.rawValue == "gm" && Instrument().kit == .gm)
    }

    @Test func aVoicedTrackLeftOutFieldsTakeTheVoicesLine() {
        for voice in Instrument.Voice.allCases {
            var inst = Instrument()
            inst.voice = voice
            let s = inst.sound(for: .melody)
            let d = voice.defaultSound
            #expect(
                s.attack == d.attack && s.decay == d.decay && s.sustain == d.sustain && s.release == d.release
                    && s.cutoff == d.cutoff && s.resonance == d.resonance)
        }
    }

    @Test func anUnknownVoiceOrKitIsRefusedNamingEveryOne() {
        let voices = Instrument.Voice.allCases.map(\.rawValue).joined(separator: ", ")
        let kits = Instrument.Kit.allCases.map(\.rawValue).joined(separator: ", ")
        for (text, expected) in [
            (#"{"version": 2, "instruments": {"bass": {"voice": "organ"}}, "patterns": {"A": {}}}"#, voices),
            (#"{"version": 2, "instruments": {"rhythm": {"kit": "909"}}, "patterns": {"A": {}}}"#, kits)
        ] {
            do {
                _ = try SongTests.song(text)
                Issue.record("accepted \(text)")
            } catch {
                #expect(error.message.contains("expected one of \(expected)"), "\(error.message)")
            }
        }
    }
}
