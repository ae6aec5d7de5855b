import Testing

@testable import PixelBoopCore

/// A song's `instruments` entry (DESIGN.md, "Song files"): a pitched track's voice and sound, the
/// rhythm's kit, every track's level, pan, mute and solo, each within its range; anything else
/// refused naming the field, what was expected and what was found.
@Suite("Instrument loader")
struct InstrumentLoaderTests {
    static func parse(_ text: String, _ kind: TrackKind) throws(PatternError) -> Instrument {
        let value = try StrictJSON(file: "s.json").parse(Bytes(text.utf8))
        return try Song.parseInstrument(value, kind, StrictJSON(file: "s.json"))
    }

    static func refusal(_ text: String, _ kind: TrackKind) -> String? {
        do {
            _ = try parse(text, kind)
            return nil
        } catch { return error.message }
    }

    @Test("every field of a pitched track, as written")
    func pitched() throws {
        let inst = try Self.parse(
            #"{"voice": "pulse", "width": 0.25, "attack": 0.005, "decay": 0.2, "sustain": 0.6, "release": 10,"#
                + #""cutoff": 2000, "resonance": 0.7, "level": 2, "pan": -1, "mute": true, "solo": false}"#, .melody)
        #expect(inst.voice == Instrument.Voice(rawValue: "pulse"))
        #expect(inst.width == 0.25)
        #expect(inst.attack == 0.005 && inst.decay == 0.2 && inst.sustain == 0.6 && inst.release == 10)
        #expect(inst.cutoff == 2000 && inst.resonance == 0.7)
        #expect(inst.level == 2 && inst.pan == -1 && inst.mute && !inst.solo)
    }

    @Test("fields left out keep the defaults: the track's own voice, width 0.5, level 1, centred")
    func defaults() throws {
        let inst = try Self.parse("{}", .bass)
        #expect(inst == Instrument())
        #expect(inst.voice == nil && inst.width == 0.5 && inst.level == 1 && inst.pan == 0 && inst.kit == .gm)
    }

    @Test("the rhythm track takes a kit and the mix, no voice")
    func rhythm() throws {
        #expect(try Self.parse(#"{"kit": "808", "level": 0.9}"#, .rhythm).kit == Instrument.Kit(rawValue: "808"))
        #expect(try Self.parse(#"{"kit": "chip"}"#, .rhythm).kit == Instrument.Kit(rawValue: "chip"))
        #expect(
            Self.refusal(#"{"voice": "saw"}"#, .rhythm)
                == "s.json: instruments.rhythm.voice: unknown key (expected one of kit, level, mute, pan, solo)")
        #expect(Self.refusal(#"{"kit": "808"}"#, .melody)?.hasPrefix("s.json: instruments.melody.kit: unknown key") == true)
    }

    @Test("names outside the lists are refused with the list")
    func names() {
        let voices = Instrument.Voice.allCases.map(\.rawValue).joined(separator: ", ")
        #expect(
            Self.refusal(#"{"voice": "organ"}"#, .chords)
                == "s.json: instruments.chords.voice: expected one of \(voices), got \"organ\"")
        let kits = Instrument.Kit.allCases.map(\.rawValue).joined(separator: ", ")
        #expect(Self.refusal(#"{"kit": 808}"#, .rhythm) == "s.json: instruments.rhythm.kit: expected one of \(kits), got 808")
    }

    @Test(
        "each number's range, at both ends and just past them",
        arguments: [
            ("width", 0.05, 0.95), ("attack", 0, 10), ("decay", 0, 10), ("sustain", 0, 1), ("release", 0, 10),
            ("cutoff", 20, 20000), ("resonance", 0.5, 20), ("level", 0, 2), ("pan", -1, 1)
        ] as [(String, Double, Double)])
    func ranges(field: String, low: Double, high: Double) {
        for v in [low, high] { #expect(Self.refusal("{\"\(field)\": \(v)}", .melody) == nil, "\(field) \(v)") }
        for v in [low - 0.01, high + 0.01] {
            #expect(
                Self.refusal("{\"\(field)\": \(v)}", .melody)?.hasPrefix("s.json: instruments.melody.\(field): expected a number")
                    == true, "\(field) \(v)")
        }
    }

    @Test("mute and solo are booleans")
    func flags() {
        #expect(Self.refusal(#"{"solo": 1}"#, .bass) == "s.json: instruments.bass.solo: expected true or false, got 1")
        #expect(Self.refusal(#"{"mute": "yes"}"#, .bass) == "s.json: instruments.bass.mute: expected true or false, got \"yes\"")
    }
}
