import Testing

@testable import PixelBoopCore

/// `--mpe`'s zone text (CAudioEngineSynth.h, boop_synth_set_mpe): lower and upper with an optional
/// member count 1 ... 15, `both` splitting the 14 member channels 7 and 7.
@Suite("MpeZones")
struct MpeZonesTests {
    @Test(
        "zone texts",
        arguments: [
            ("lower", 15, 0), ("upper", 0, 15), ("both", 7, 7), ("lower:1", 1, 0), ("lower:15", 15, 0), ("upper:8", 0, 8)
        ])
    func reads(text: String, lower: Int, upper: Int) {
        #expect(MpeZones(text: text) == MpeZones(lower: lower, upper: upper))
    }

    @Test(
        "refused: unknown zones, counts outside 1 ... 15, a count on both",
        arguments: ["", "middle", "lower:0", "lower:16", "upper:-1", "lower:", "lower:x", "both:7", "Lower", "lower:3:4"])
    func refuses(text: String) {
        #expect(MpeZones(text: text) == nil)
    }

    @Test("no zones by default")
    func none() {
        #expect(MpeZones() == MpeZones(lower: 0, upper: 0))
    }
}
