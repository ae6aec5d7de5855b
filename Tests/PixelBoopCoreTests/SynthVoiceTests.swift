import CAudioEngine
import Testing

@testable import PixelBoopCore

/// What a channel of `boop synth` plays: every name the help lists read to its sound and its
/// value in the engine's channel table (a timbre, the General MIDI drums, palette + voice, kit +
/// kit, off), a song track's instrument as the renderer plays it, and the General MIDI program
/// map's lines, one per family covering its eight programs.
@Suite("SynthVoice")
struct SynthVoiceTests {
    @Test("every listed name reads; gm is the classic drums; unknown names are none")
    func names() {
        for name in SynthVoice.names { #expect(SynthVoice(name: name) != nil, "\(name)") }
        #expect(Set(SynthVoice.names).count == SynthVoice.names.count)
        #expect(SynthVoice(name: "gm") == .classic(.drums))
        #expect(!SynthVoice.names.contains("gm"))
        #expect(SynthVoice(name: "off") == .off)
        #expect(SynthVoice(name: "organ") == nil)
        #expect(SynthVoice(name: "") == nil)
    }

    @Test("each sound's value in the engine's channel table")
    func values() {
        #expect(SynthVoice.classic(.melody).cValue == Int32(BOOP_TIMBRE_MELODY.rawValue))
        #expect(SynthVoice.classic(.chords).cValue == Int32(BOOP_TIMBRE_CHORDS.rawValue))
        #expect(SynthVoice.classic(.bass).cValue == Int32(BOOP_TIMBRE_BASS.rawValue))
        #expect(SynthVoice.classic(.tone).cValue == Int32(BOOP_TIMBRE_TONE.rawValue))
        #expect(SynthVoice.classic(.drums).cValue == Int32(BOOP_TIMBRE_COUNT))
        for v in Instrument.Voice.allCases {
            #expect(SynthVoice.voice(v).cValue == Int32(BOOP_SYNTH_VOICE_PALETTE) + Int32(v.index))
        }
        for k in Instrument.Kit.allCases { #expect(SynthVoice.kit(k).cValue == Int32(BOOP_SYNTH_VOICE_KIT) + Int32(k.index)) }
        #expect(SynthVoice.off.cValue == Int32(BOOP_SYNTH_VOICE_OFF))
    }

    @Test("a song's tracks: the classic timbre where no sound is named, else the instrument; the rhythm's kit")
    func tracks() {
        var song = Song(name: "s", patterns: [SongPattern(name: "A")])
        #expect(SynthVoice.track(.bass, of: song) == .classic(.bass))
        #expect(SynthVoice.track(.rhythm, of: song) == .classic(.drums))
        var pluck = Instrument()
        pluck.voice = Instrument.Voice(rawValue: "pluck")
        pluck.pan = 0.5
        song.instruments[.melody] = pluck
        var kit = Instrument()
        kit.kit = Instrument.Kit(rawValue: "chip")!
        song.instruments[.rhythm] = kit
        #expect(SynthVoice.track(.melody, of: song) == .instrument(pluck, .melody))
        #expect(SynthVoice.track(.rhythm, of: song) == .kit(Instrument.Kit(rawValue: "chip")!))
        let sound = SynthVoice.track(.melody, of: song).sound
        #expect(sound?.voice.rawValue == pluck.voice?.index)
        #expect(sound?.pan == 0.5)
        #expect(SynthVoice.classic(.melody).sound == nil)
    }

    @Test("the program map: a voice for each of the 128 programs, sixteen family lines covering eight each")
    func programs() {
        for p in 0..<128 { #expect(SynthTables.programVoice(p) != nil, "program \(p)") }
        let lines = SynthTables.programLines
        #expect(lines.count == 16)
        for (f, line) in lines.enumerated() {
            let runs = line.split(separator: ":", maxSplits: 1)[1].split(separator: ",")
            var covered = 0
            for run in runs {
                let range = String(run).trimmingWhitespace().split(separator: " ")[0]
                let ends = range.split(separator: "-").compactMap { Int($0) }
                covered += ends.count == 2 ? ends[1] - ends[0] + 1 : 1
                #expect(ends.allSatisfy { (f * 8)..<(f * 8 + 8) ~= $0 }, "\(line)")
            }
            #expect(covered == 8, "\(line)")
        }
        #expect(!SynthTables.controls.isEmpty)
    }
}
