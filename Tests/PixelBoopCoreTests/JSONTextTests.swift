import Foundation
import Testing

@testable import PixelBoopCore

/// The JSON writer: compact and sorted as JSONSerialization wrote boop's documents, its escapes,
/// numbers without a trailing ".0", the pretty form, and nil for what JSON cannot hold.
@Suite("JSONText")
struct JSONTextTests {
    @Test("compact, keys sorted, slashes escaped unless told not to")
    func compact() {
        let value: [String: Any] = ["b": [1, 2.5, true, JSONNull()], "a": "x/y", "c": [String: Any]()]
        #expect(JSONText.encode(value) == "{\"a\":\"x\\/y\",\"b\":[1,2.5,true,null],\"c\":{}}")
        #expect(JSONText.encode(value, escapeSlashes: false) == "{\"a\":\"x/y\",\"b\":[1,2.5,true,null],\"c\":{}}")
    }

    @Test("the same bytes JSONSerialization writes, sorted, for boop's kinds of values")
    func asFoundation() throws {
        let value: [String: Any] = [
            "bpm": 120, "swing": 0.55, "name": "a \"b\" \\ c\n\t/", "steps": [[0, 1], [], [127]], "on": false,
            "tiny": 1e-7, "neg": -3.25
        ]
        let ours = try #require(JSONText.encode(value))
        let theirs = try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys])
        #expect(ours == String(decoding: theirs, as: UTF8.self))
    }

    @Test("controls as \\u00XX, the named ones by name, other text as it is")
    func quote() {
        #expect(JSONText.quote("\u{01}\u{1F}\u{08}\u{0C}é♪") == "\"\\u0001\\u001f\\b\\fé♪\"")
    }

    @Test("Doubles as Swift prints them without .0")
    func doubles() {
        #expect(JSONText.encode([440.0, 0.5, 1e-07, -2.0]) == "[440,0.5,1e-07,-2]")
    }

    @Test("nil for NaN, infinity and values of other kinds")
    func unrepresentable() {
        #expect(JSONText.encode([Double.nan]) == nil)
        #expect(JSONText.encode(["k": Double.infinity]) == nil)
        #expect(JSONText.encode([Character("x")]) == nil)
    }

    @Test("pretty: two spaces a level, \"key\" : value, empty containers on lines of their own")
    func pretty() {
        let value: [String: Any] = ["a": [1, 2], "e": [Any](), "o": [String: Any]()]
        let expected = "{\n  \"a\" : [\n    1,\n    2\n  ],\n  \"e\" : [\n\n  ],\n  \"o\" : {\n\n  }\n}"
        #expect(JSONText.encode(value, pretty: true) == expected)
    }

    @Test("what the writer writes, the reader reads back")
    func roundTrip() throws {
        let value: [String: Any] = ["s": "é\u{01}/\"", "n": [0.1, -7, 1e300], "t": [true, JSONNull()]]
        let text = try #require(JSONText.encode(value))
        let back = try #require(try JSONReader.parse(Array(text.utf8)) as? [String: Any])
        #expect(back["s"] as? String == "é\u{01}/\"")
        #expect(back["n"] as? [Double] == [0.1, -7, 1e300])
        #expect(JSONText.encode(back) == text)
    }
}
