import Testing

@testable import PixelBoopCore

/// JSON's encodings (RFC 8259 section 8.1, RFC 4627 section 3) as the strict checks see them: the
/// same characters in UTF-8, UTF-16 and UTF-32 of either byte order, with or without a mark, so a
/// duplicate key is found whatever the encoding; ill-formed units become U+FFFD.
@Suite("StrictJSON encodings")
struct StrictJSONEncodingTests {
    static let text = #"{"k": "é♪🎵", "n": [1]}"#

    static func utf16(_ s: String, big: Bool, mark: Bool) -> Bytes {
        let units: [UInt16] = (mark ? [0xFEFF] : []) + Array(s.utf16)
        return units.flatMap { u -> [UInt8] in
            big ? [UInt8(u >> 8), UInt8(u & 0xFF)] : [UInt8(u & 0xFF), UInt8(u >> 8)]
        }
    }

    static func utf32(_ s: String, big: Bool, mark: Bool) -> Bytes {
        let scalars: [UInt32] = (mark ? [0xFEFF] : []) + s.unicodeScalars.map(\.value)
        return scalars.flatMap { v -> [UInt8] in
            let b = (0..<4).map { UInt8((v >> (8 * $0)) & 0xFF) }
            return big ? b.reversed() : b
        }
    }

    @Test("every encoding, either byte order, with or without a mark, gives the UTF-8 text")
    func encodings() {
        let plain = Bytes(Self.text.utf8)
        #expect(StrictJSON.utf8(plain) == plain)
        #expect(StrictJSON.utf8([0xEF, 0xBB, 0xBF] + plain) == plain)
        for big in [true, false] {
            for mark in [true, false] {
                #expect(StrictJSON.utf8(Self.utf16(Self.text, big: big, mark: mark)) == plain, "UTF-16 big \(big) mark \(mark)")
                #expect(StrictJSON.utf8(Self.utf32(Self.text, big: big, mark: mark)) == plain, "UTF-32 big \(big) mark \(mark)")
            }
        }
    }

    @Test("a duplicate key in UTF-16 or UTF-32 is found as in UTF-8")
    func duplicates() {
        let text = #"{"bpm": 1, "bpm": 2}"#
        for bytes in [Self.utf16(text, big: false, mark: true), Self.utf32(text, big: true, mark: false)] {
            do {
                _ = try StrictJSON(file: "x.json").parse(bytes)
                Issue.record("accepted")
            } catch { #expect(error.message == "x.json: bpm: duplicate key (expected each key once per object)") }
        }
    }

    @Test("a unit cut short or a lone surrogate is U+FFFD")
    func illFormed() {
        #expect(StrictJSON.utf8([0x00, 0x7B, 0x00]) == Bytes("{\u{FFFD}".utf8))
        #expect(StrictJSON.utf8([0x7B, 0x00, 0x00, 0xD8]) == Bytes("{\u{FFFD}".utf8))
        #expect(StrictJSON.utf8([0x00, 0x00, 0x00, 0x7B, 0x00, 0x11, 0x00, 0x00]) == Bytes("{\u{FFFD}".utf8))
        #expect(StrictJSON.utf8([0x00, 0x00, 0x00, 0x7B, 0x00]) == Bytes("{\u{FFFD}".utf8))
    }

    @Test("ASCII text of one byte, and text without zero bytes, are left as they are")
    func short() {
        #expect(StrictJSON.utf8([0x5B]) == [0x5B])
        #expect(StrictJSON.utf8([]) == [])
        #expect(StrictJSON.utf8(Bytes("[1]".utf8)) == Bytes("[1]".utf8))
    }
}
