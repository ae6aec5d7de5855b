import Testing

@testable import PixelBoopCore

/// Text made safe for a one-line message: every control character (C0, DEL, C1), line and
/// paragraph separators and the bidirectional controls escaped, the rest as it is; long text cut
/// in its middle; and command-line bytes that are not UTF-8 carried through to the file system.
@Suite("OneLine")
struct OneLineTests {
    @Test("the named escapes and \\u{X} for the other controls")
    func escapes() {
        #expect(OneLine.escape("a\nb\rc\td\u{1B}[2J") == "a\\nb\\rc\\td\\e[2J")
        #expect(OneLine.escape("\u{00}\u{07}\u{1F}\u{7F}\u{80}\u{9F}") == "\\u{0}\\u{7}\\u{1F}\\u{7F}\\u{80}\\u{9F}")
        #expect(OneLine.escape("evil\u{202E}nosj.exe") == "evil\\u{202E}nosj.exe")
        for scalar: UInt32 in [0x2028, 0x2029, 0x061C, 0x200E, 0x200F, 0x202A, 0x202D, 0x2066, 0x2069] {
            #expect(OneLine.escape(String(Unicode.Scalar(scalar)!)) == String(cFormat: "\\u{%X}", scalar))
        }
    }

    @Test("printable text, accents, symbols and emoji pass as they are")
    func passes() {
        for text in ["plain.json", "é ♪ 日本 👍", "\u{A0}non-breaking", "quote \" and \\ backslash", ""] {
            #expect(OneLine.escape(text) == text)
        }
    }

    @Test("no control character is left in any escaped text")
    func noneLeft() {
        let all = String(String.UnicodeScalarView((0..<0x300).compactMap { Unicode.Scalar(UInt32($0)) }))
        let escaped = OneLine.escape(all)
        #expect(!escaped.unicodeScalars.contains { $0.value < 0x20 || (0x7F..<0xA0).contains($0.value) })
    }

    @Test("a long text keeps its start and end and says how much was left out")
    func limit() {
        let text = String(repeating: "a", count: 50) + String(repeating: "b", count: 100) + String(repeating: "z", count: 50)
        let cut = OneLine.escape(text, limit: 60)
        // Two thirds of the limit from the start, one third from the end.
        #expect(
            cut == String(repeating: "a", count: 40) + "... (140 characters left out) ..." + String(repeating: "z", count: 20))
        #expect(OneLine.escape("short", limit: 60) == "short")
        #expect(OneLine.escape("a\nb", limit: 4) == "a\\nb")   // escaped first: 4 characters
    }

    @Test("bytes that are not UTF-8 round-trip to the file system and show as \\xNN")
    func rawBytes() {
        let bytes: [UInt8] = Array("lat".utf8) + [0xE9] + Array(".json".utf8)
        let name = RawBytes.decode(bytes)
        #expect(RawBytes.inUse)
        #expect(RawBytes.fileSystemBytes(name).dropLast().map { UInt8(bitPattern: $0) } == bytes)
        #expect(RawBytes.byteCount(name) == bytes.count)
        #expect(OneLine.escape(name) == "lat\\xE9.json")
        // Valid UTF-8 around the bad byte is kept; overlongs and surrogates are bytes too.
        #expect(RawBytes.decode(Array("é".utf8)) == "é")
        #expect(OneLine.escape(RawBytes.decode([0xC0, 0xAF, 0x41])) == "\\xC0\\xAFA")
        #expect(OneLine.escape(RawBytes.decode([0xED, 0xA0, 0x80])) == "\\xED\\xA0\\x80")
        #expect(OneLine.escape(RawBytes.decode([0xE2, 0x99, 0xAA, 0xFF])) == "♪\\xFF")
    }

    @Test("a C buffer's text stops at its NUL")
    func cBuffer() {
        let buffer: [CChar] = [72, 105, 0, 88]
        #expect(String(cBuffer: buffer) == "Hi")
    }
}
