import Testing

@testable import boop_cli

@Suite("NegativeValues: a negative number after a long option is its value")
struct NegativeValuesTests {
    @Test(
        "joined as --option=value; anything else left as it is",
        arguments: [
            (["synth", "--bend-range", "-2"], ["synth", "--bend-range=-2"]),
            (["tone", "A4", "--cents", "-20", "C5"], ["tone", "A4", "--cents=-20", "C5"]),
            (["render", "x.json", "--gain", "-.5", "-q"], ["render", "x.json", "--gain=-.5", "-q"]),
            (["tone", "A4", "--reference", "-inf"], ["tone", "A4", "--reference=-inf"]),
            (["tone", "A4", "--duration", "-1e3"], ["tone", "A4", "--duration=-1e3"]),
            (["render", "x.json", "--bpm=-1"], ["render", "x.json", "--bpm=-1"]),
            (["tone", "A4", "-q", "-5"], ["tone", "A4", "-q", "-5"]),
            (["render", "x.json", "--gain", "-q"], ["render", "x.json", "--gain", "-q"]),
            (["render", "x.json", "--gain", "-6dB"], ["render", "x.json", "--gain", "-6dB"]),
            (["tone", "--", "--cents", "-3"], ["tone", "--", "--cents", "-3"]),
            (["tone", "A4", "--cents"], ["tone", "A4", "--cents"])
        ])
    func joined(args: [String], expected: [String]) {
        #expect(NegativeValues.joined(args) == expected)
    }
}
