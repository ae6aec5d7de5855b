import Foundation
import Testing

@testable import PixelBoopCore

/// The String helpers that stand in for Foundation's: each against the Foundation call it replaces
/// (components(separatedBy:), contains, padding(toLength:), trimmingCharacters(in: .whitespaces)).
@Suite("String text helpers")
struct StringTextTests {
    static let texts = ["", "a", "a..b", "a..b..", "..", "...", "....a", "x.y", "♪..é..♪", "a. .b", "..a..b..c"]

    @Test("parts(separatedBy:) is components(separatedBy:)")
    func parts() {
        for text in Self.texts {
            for separator in ["..", ".", "♪", "a..b", "zz"] {
                #expect(text.parts(separatedBy: separator) == text.components(separatedBy: separator), "\(text) / \(separator)")
            }
        }
        #expect("abc".parts(separatedBy: "") == ["abc"])
    }

    @Test("includes(_:) is contains(_:) for text, the empty text included everywhere")
    func includes() {
        for text in Self.texts {
            for other in ["", "..", "a", "b..", "♪", "q"] {
                #expect(text.includes(other) == (other.isEmpty || text.contains(other)), "\(text) / \(other)")
            }
        }
    }

    @Test("padded(to:) is padding(toLength:withPad:startingAt:)")
    func padded() {
        for text in ["", "abc", "é", "♪♪", "👍x", "exactly"] {
            for length in [0, 1, 2, 3, 7, 10] {
                #expect(
                    text.padded(to: length) == text.padding(toLength: length, withPad: " ", startingAt: 0),
                    "\(text) to \(length)")
            }
        }
    }

    @Test("trimmingWhitespace() is trimmingCharacters(in: .whitespaces): newlines stay")
    func trimming() {
        for text in ["", "  ", " a ", "\ta b\t", "\u{00A0}x\u{2003}", "\na\n", " \n ", "é", "  ♪ ♪  "] {
            #expect(text.trimmingWhitespace() == text.trimmingCharacters(in: .whitespaces), "\(text.debugDescription)")
        }
    }

    @Test("counted: singular for one, the plural given or with s otherwise")
    func countedNouns() {
        #expect(counted(1, "note") == "1 note")
        #expect(counted(0, "note") == "0 notes")
        #expect(counted(6, "note") == "6 notes")
        #expect(counted(1, "entry", "entries") == "1 entry")
        #expect(counted(3, "entry", "entries") == "3 entries")
        #expect(counted(-1, "step") == "-1 steps")
    }
}
