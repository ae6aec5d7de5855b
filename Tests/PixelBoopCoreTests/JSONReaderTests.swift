import Foundation
import Testing

@testable import PixelBoopCore

/// The JSON reader's document rules and encodings, each against what Foundation's
/// JSONSerialization (the parser it replaces) answers for the same bytes on this machine.
@Suite("JSONReader")
struct JSONReaderTests {
    static func foundationAccepts(_ bytes: [UInt8]) -> Bool {
        (try? JSONSerialization.jsonObject(with: Data(bytes))) != nil
    }

    @Test("a top-level object or array only; a fragment refused in Foundation's words")
    func topLevel() throws {
        #expect(try JSONReader.parse(Array("{}".utf8)) is [String: Any])
        #expect(try JSONReader.parse(Array(" [1] ".utf8)) is [Any])
        for fragment in ["1", "\"a\"", "true", "null"] {
            #expect(
                throws: JSONParseError(
                    reason: "JSON text did not start with array or object and option to allow fragments not set.")
            ) {
                try JSONReader.parse(Array(fragment.utf8))
            }
        }
    }

    @Test("a byte-order mark is skipped; UTF-16 and UTF-32 either way round read as their text")
    func encodings() throws {
        let text = "{\"note\":\"A♯4\",\"v\":[1,2]}"
        var documents: [[UInt8]] = [[0xEF, 0xBB, 0xBF] + Array(text.utf8)]
        let utf16 = Array(text.utf16)
        documents.append(utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] })   // big-endian, no mark
        documents.append(utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })   // little-endian, no mark
        documents.append([0xFE, 0xFF] + utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] })
        documents.append([0xFF, 0xFE] + utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
        let utf32 = text.unicodeScalars.map(\.value)
        documents.append(utf32.flatMap { v in (0..<4).map { UInt8((v >> (8 * (3 - $0))) & 0xFF) } })
        documents.append(utf32.flatMap { v in (0..<4).map { UInt8((v >> (8 * $0)) & 0xFF) } })
        for bytes in documents {
            let object = try #require(try JSONReader.parse(bytes) as? [String: Any])
            #expect(object["note"] as? String == "A♯4")
            #expect(object["v"] as? [Double] == [1, 2])
            #expect(Self.foundationAccepts(bytes))
        }
    }

    @Test("UTF-16 of an odd length is no UTF-16: read as the bytes it is, and refused where they fail")
    func oddUtf16() {
        #expect(throws: JSONParseError(reason: "Cannot convert input string to valid utf8 input.")) {
            try JSONReader.utf8([0xFE, 0xFF, 0x00, 0x7B, 0x00])
        }
        #expect(throws: JSONParseError(reason: "Invalid value around character 0.")) {
            try JSONReader.parse([0xFE, 0xFF, 0x00, 0x7B, 0x00])
        }
    }

    @Test(
        "refused and accepted as Foundation refuses and accepts",
        arguments: [
            "{\"a\":1,}", "[1,2,]", "[01]", "[1.]", "[-]", "{\"a\" 1}", "[tru]", "[\"\\x\"]", "{\"a\":1} x", "[1e999]",
            "[\"\\ud800\"]", "[1e5, -0.25, 3E-2]", "", "   ", "[\"\u{01}\"]", "{1:2}", "[nul"
        ])
    func agrees(text: String) {
        let bytes = Array(text.utf8)
        let ours = (try? JSONReader.parse(bytes)) != nil
        #expect(ours == Self.foundationAccepts(bytes))
    }
}
