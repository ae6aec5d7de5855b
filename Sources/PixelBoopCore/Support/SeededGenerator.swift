/// SplitMix64: a small, well-mixed generator, so `--seed N` gives the same trials everywhere and
/// a song's probabilities the same notes in `play` and `render`. The one generator on the Swift
/// side (`SongTimeline.draw` steps it too); what Swift draws the engine never draws, so it needs no
/// stream shared with the engine's (dsp/Rng.hpp, whose seeding uses the same SplitMix64 step).
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
