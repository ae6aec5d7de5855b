import Foundation
import Testing

@testable import PixelBoopCore

/// printf-style formatting without Foundation: each conversion against String(format:) from
/// Foundation, `%@` with any value's description, and `%%`.
@Suite("String(cFormat:)")
struct CFormatTests {
    @Test("numbers as String(format:) prints them")
    func asFoundation() {
        let pairs: [(String, String)] = [
            (String(cFormat: "%d", 42), String(format: "%d", 42)),
            (String(cFormat: "%5d|%-5d|", 7, -7), String(format: "%5d|%-5d|", 7, -7)),
            (String(cFormat: "%lld", Int64.max), String(format: "%lld", Int64.max)),
            (String(cFormat: "%6.1f", 3.14159), String(format: "%6.1f", 3.14159)),
            (String(cFormat: "%+.3f", 0.5), String(format: "%+.3f", 0.5)),
            (String(cFormat: "%02X", 10), String(format: "%02X", 10)),
            (String(cFormat: "%x", 255), String(format: "%x", 255)),
            (String(cFormat: "%g", 1e-7), String(format: "%g", 1e-7)),
            (String(cFormat: "%g", 1_234_567.0), String(format: "%g", 1_234_567.0)),
            (String(cFormat: "%.2e", 12345.678), String(format: "%.2e", 12345.678)),
            (String(cFormat: "%o", 8), String(format: "%o", 8)),
            (String(cFormat: "%u", UInt32.max), String(format: "%u", UInt32.max)),
            (String(cFormat: "a %d b %.1f c", 1, 2.25), String(format: "a %d b %.1f c", 1, 2.25)),
            (String(cFormat: "100%%"), String(format: "100%%")),
            (String(cFormat: "%5.1f%%", 99.44), String(format: "%5.1f%%", 99.44))
        ]
        for (ours, theirs) in pairs { #expect(ours == theirs) }
        #expect(String(cFormat: "%6.1f|%02X|%+.3f", 3.14159, 10, 0.5) == "   3.1|0A|+0.500")
    }

    @Test("%@ prints any value's description and ignores a width")
    func object() {
        #expect(String(cFormat: "[%@]", "text") == "[text]")
        #expect(String(cFormat: "%@ and %d", [1, 2], 3) == "[1, 2] and 3")
        #expect(String(cFormat: "%8@|", "x") == "x|")
    }

    @Test("text around conversions, and a lone % at the end, are kept")
    func literal() {
        #expect(String(cFormat: "no conversions") == "no conversions")
        #expect(String(cFormat: "ends with %") == "ends with %")
        #expect(String(cFormat: "é ♪ %d", 1) == "é ♪ 1")
    }

    @Test("a result longer than the first buffer is whole")
    func long() {
        let wide = String(cFormat: "%200d", 5)
        #expect(wide.count == 200)
        #expect(wide.hasSuffix(" 5"))
    }
}
