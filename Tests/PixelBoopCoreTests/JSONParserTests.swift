import Testing

@testable import PixelBoopCore

/// The parser's grammar and its messages: values of every kind, the offsets in bytes that the
/// messages name, the nesting limit, and trailing commas taken as Foundation took them.
@Suite("JSONParser")
struct JSONParserTests {
    static func parse(_ text: String) throws(JSONParser.Failure) -> Any {
        var parser = JSONParser(bytes: Array(text.utf8))
        return try parser.document()
    }

    static func reason(_ text: String) -> String? {
        do {
            _ = try parse(text)
            return nil
        } catch { return error.reason }
    }

    @Test("objects, arrays, strings, numbers, literals and nesting")
    func values() throws {
        let value = try #require(
            try Self.parse(" { \"a\" : [ true , false , null , 1.5 , \"x\" ] , \"b\" : { } , \"c\" : [ ] } ") as? [String: Any])
        let a = try #require(value["a"] as? [Any])
        #expect(a[0] as? Bool == true)
        #expect(a[1] as? Bool == false)
        #expect(a[2] is JSONNull)
        #expect(a[3] as? Double == 1.5)
        #expect(a[4] as? String == "x")
        #expect((value["b"] as? [String: Any])?.isEmpty == true)
        #expect((value["c"] as? [Any])?.isEmpty == true)
    }

    @Test("a later duplicate key wins; a trailing comma closes as Foundation allowed")
    func duplicatesAndTrailing() throws {
        let value = try #require(try Self.parse("{\"k\":1,\"k\":2,}") as? [String: Any])
        #expect(value["k"] as? Double == 2)
        #expect((try Self.parse("[1,2,]") as? [Double]) == [1, 2])
    }

    @Test("messages name the byte offset from 0")
    func offsets() {
        #expect(Self.reason("[1 2]") == "Invalid value around character 3.")
        #expect(Self.reason("{\"a\":1 x") == "Invalid value around character 7.")
        #expect(Self.reason("[tx]") == "Invalid value around character 2.")
        #expect(Self.reason("{3:1}") == "Invalid value around character 1.")
        #expect(Self.reason("[] ]") == "Invalid value around character 3.")
        // After a comma comes a member or the close: a second comma is refused where it stands.
        #expect(Self.reason("[1,,2]") == "Invalid value around character 3.")
        #expect(Self.reason("{\"a\":1,,}") == "Invalid value around character 7.")
        #expect(Self.reason("[1,") == "Unexpected end of file during JSON parse.")
        #expect(Self.reason("[") == "Unexpected end of file during JSON parse.")
        #expect(Self.reason("[tr") == "Unexpected end of file during JSON parse.")
        #expect(Self.reason("") == "Unexpected end of file during JSON parse.")
    }

    @Test("512 levels of nesting are read, the 513th refused")
    func depth() {
        let deep = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect(Self.reason(deep) == nil)
        let deeper = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
        #expect(Self.reason(deeper) == "Too many nested arrays or dictionaries around character 513.")
    }

    @Test("whitespace is space, tab, newline and return only")
    func whitespace() {
        #expect(Self.reason(" \t\r\n[ \t\r\n] \t\r\n") == nil)
        #expect(Self.reason("[\u{0B}]") == "Invalid value around character 1.")
        #expect(JSONParser.isWhitespace(0x20) && !JSONParser.isWhitespace(0x0C))
    }
}
