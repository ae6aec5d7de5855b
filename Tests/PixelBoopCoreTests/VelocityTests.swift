import Foundation
import Testing

@testable import PixelBoopCore

/// A note's velocity: the original design's three names at their own gains (normal 0.6, sustain
/// 0.8, accent 1.0), a MIDI level v at v / 127, levels clamped to 1 ... 127, and the file's two
/// forms (a name as a string, a level as a number) read and written back.
@Suite("Velocity")
struct VelocityTests {
    @Test("the three names and a level's gain v / 127")
    func gains() {
        #expect(Velocity.normal.gain == 0.6 && Velocity.sustain.gain == 0.8 && Velocity.accent.gain == 1.0)
        for v in Velocity.levels { #expect(Velocity.level(v).gain == Float(v) / 127) }
        #expect(Velocity.levels == 1...127)
    }

    @Test("names read back; a level's text is its number; anything else is no name")
    func names() {
        for named in Velocity.allCases { #expect(Velocity(rawValue: named.rawValue) == named && !named.isLevel) }
        #expect(Velocity.level(97).rawValue == "97" && Velocity.level(97).isLevel)
        #expect(Velocity(rawValue: "97") == nil && Velocity(rawValue: "Accent") == nil && Velocity(rawValue: "") == nil)
    }

    @Test("clamped keeps a level within 1 ... 127")
    func clamping() {
        #expect(Velocity.clamped(0) == .level(1) && Velocity.clamped(-5) == .level(1))
        #expect(
            Velocity.clamped(64) == .level(64) && Velocity.clamped(128) == .level(127) && Velocity.clamped(Int.max) == .level(127)
        )
    }

    @Test("the file's forms: a name as a string, a level as a number; others refused naming the range")
    func fileForms() throws {
        let read = try JSONDecoder().decode([Velocity].self, from: Data(#"["accent", 1, 127, "sustain", "normal"]"#.utf8))
        #expect(read == [.accent, .level(1), .level(127), .sustain, .normal])
        let written = String(decoding: try JSONEncoder().encode(read), as: UTF8.self)
        #expect(written == #"["accent",1,127,"sustain","normal"]"#)
        for bad in ["0", "128", "\"loud\"", "1.5", "null"] {
            #expect(throws: DecodingError.self) { try JSONDecoder().decode(Velocity.self, from: Data(bad.utf8)) }
        }
        do {
            _ = try JSONDecoder().decode(Velocity.self, from: Data(#""loud""#.utf8))
            Issue.record("a name that is no velocity was read")
        } catch DecodingError.dataCorrupted(let context) {
            #expect(context.debugDescription == "expected a velocity name or 1...127")
        }
    }
}
