import ArgumentParser
import Foundation
import PixelBoopCore
import Testing

@testable import boop_cli

@Suite("train's text fits 80 columns")
struct TrainTextTests {
    @Test("a long result line breaks at spaces, its continuation indented; a short one is kept")
    func wrap() {
        let line = "  sang F4 348.53 Hz (an octave below): +296.6 cents, steady for 1270 ms - a wrong note: sang F4 for D5"
        let rows = TextWrap.wrap(line, indent: "    ").split(separator: "\n").map(String.init)
        #expect(rows.count == 2 && rows.allSatisfy { $0.count < 80 })
        #expect(rows[0].hasPrefix("  sang F4") && rows[1].hasPrefix("    ") && !rows[1].hasPrefix("     "))
        #expect(rows.joined(separator: " ").split(separator: " ") == line.split(separator: " "))
        #expect(TextWrap.wrap("trial 1/10: C4") == "trial 1/10: C4")
        let list = (1...40).map { "trial \($0) sang G4 for F#4" }.joined(separator: ", ")
        #expect(TextWrap.wrap(list).split(separator: "\n").allSatisfy { $0.count < 80 })
    }

    @Test("the keys line of train match and --help's summary of train fit 80 columns")
    func lines() {
        #expect(TrainMatchCommand.keysLine.count < 80)
        #expect(TrainCommand.configuration.abstract.contains("sing notes and intervals back"))
    }
}
