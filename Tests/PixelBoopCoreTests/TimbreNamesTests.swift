import Testing

@testable import PixelBoopCore

/// The timbres by the names the command line uses: one name each, read back to the same timbre.
@Suite("Timbre names")
struct TimbreNamesTests {
    @Test("every timbre has its own name, and the name reads back to it")
    func roundTrip() {
        #expect(Timbre.names == ["melody", "chords", "bass", "tone"])
        for timbre in Timbre.allCases { #expect(Timbre(name: timbre.name) == timbre) }
        #expect(Set(Timbre.names).count == Timbre.allCases.count)
    }

    @Test("other names are none", arguments: ["", "Melody", "pad", "melody ", "tones"])
    func unknown(name: String) {
        #expect(Timbre(name: name) == nil)
    }
}
