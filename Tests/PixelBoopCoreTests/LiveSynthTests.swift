import Testing

@testable import PixelBoopCore

/// What `boop synth --verbose` prints of each MIDI message (channels counted from 1, notes by
/// name, a bend as its signed distance from the 8192 centre), and the synth's defaults read from
/// the engine's one source (boop_synth_config_default).
@Suite("LiveSynth")
struct LiveSynthTests {
    static func line(_ status: UInt8, _ d1: UInt8, _ d2: UInt8) -> String {
        MidiEvent(frame: 480, status: status, data1: d1, data2: d2).description
    }

    @Test("each kind of channel message in words")
    func descriptions() {
        #expect(Self.line(0x90, 60, 100) == "frame 480  ch 1  note-on C4 velocity 100")
        #expect(Self.line(0x9F, 69, 0) == "frame 480  ch 16  note-off A4")   // a note-on of velocity 0 ends the note
        #expect(Self.line(0x83, 61, 64) == "frame 480  ch 4  note-off C#4")
        #expect(Self.line(0xA1, 62, 33) == "frame 480  ch 2  aftertouch D4 33")
        #expect(Self.line(0xB9, 74, 127) == "frame 480  ch 10  control 74 = 127")
        #expect(Self.line(0xC0, 5, 0) == "frame 480  ch 1  program 5")
        #expect(Self.line(0xD2, 90, 0) == "frame 480  ch 3  channel pressure 90")
        #expect(Self.line(0xE0, 0, 64) == "frame 480  ch 1  pitch bend 0")
        #expect(Self.line(0xE0, 0, 0) == "frame 480  ch 1  pitch bend -8192")
        #expect(Self.line(0xE0, 127, 127) == "frame 480  ch 1  pitch bend 8191")
    }

    @Test("channel numbers 1 ... 16 from the status's low nibble")
    func channels() {
        for ch in 0..<16 { #expect(MidiEvent(frame: 0, status: 0xB0 | UInt8(ch), data1: 7, data2: 0).channel == ch + 1) }
        #expect(LiveSynth.channels == 1...16)
    }

    @Test("the defaults come from the engine's config, and are in their ranges")
    func defaults() {
        let c = LiveSynth.defaultConfig()
        #expect(LiveSynth.defaultPolyphony == Int(c.voices))
        #expect(LiveSynth.defaultBendRange == c.bend_range)
        #expect(LiveSynth.bendRange.contains(LiveSynth.defaultBendRange))
        #expect(LiveSynthAlsa.defaultSampleRate == c.sample_rate)
        #expect(LiveSynthAlsa.defaultPeriodFrames == Int(c.period_frames))
        #expect(LiveSynth.defaultPolyphony > 0 && LiveSynthAlsa.defaultPeriodFrames > 0)
    }

    @Test("stats compare by their counters, the late count left out")
    func stats() {
        var a = LiveSynthStats(
            messages: 3, malformedBytes: 0, ignored: 1, notesHeld: 2, voices: 2, lastNote: (channel: 1, key: 60), xruns: 0,
            frames: 4800, lost: false)
        var b = a
        b.late = 7
        #expect(a == b)
        a = LiveSynthStats(
            messages: 3, malformedBytes: 0, ignored: 1, notesHeld: 2, voices: 2, lastNote: (channel: 2, key: 60), xruns: 0,
            frames: 4800, lost: false)
        #expect(a != b)
    }
}
