import Testing

@testable import PixelBoopCore

/// Strings and numbers in the JSON parser: escapes (surrogate pairs included) to their scalars,
/// numbers to the Double their text names, and each malformed form refused with Foundation's words.
@Suite("JSONParser strings and numbers")
struct JSONParserScalarsTests {
    static func first(_ text: String) throws(JSONParser.Failure) -> Any {
        var parser = JSONParser(bytes: Array(("[" + text + "]").utf8))
        let array = try parser.document() as! [Any]
        return array[0]
    }

    static func reason(_ text: String) -> String? {
        do {
            _ = try first(text)
            return nil
        } catch { return error.reason }
    }

    @Test(
        "escapes",
        arguments: [
            ("\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"", "\"\\/\u{08}\u{0C}\n\r\t"), ("\"\\u0041\\u00e9\"", "Aé"),
            ("\"\\ud83c\\udfb5\"", "🎵"), ("\"plain ♪ text\"", "plain ♪ text"), ("\"\"", "")
        ])
    func escapes(json: String, text: String) throws {
        #expect(try Self.first(json) as? String == text)
    }

    @Test("malformed strings")
    func badStrings() {
        #expect(Self.reason("\"\\q\"") == "Invalid escape sequence around character 2.")
        #expect(Self.reason("\"\\u12G4\"") == "Invalid hex encoded sequence in \"12G4\" at 4.")
        #expect(Self.reason("\"a\u{01}\"") == "Unescaped control character around character 3.")
        #expect(
            Self.reason("\"\\ud800x\"")
                == "Unexpected end of file during string parse (expected low-surrogate code point but did not find one).")
        #expect(
            Self.reason("\"\\udc00\"")
                == "Unable to convert hex escape sequence (no high character) to UTF8-encoded character.")
        #expect(Self.reason("\"abc") == "Unexpected end of file during JSON parse.")
    }

    @Test("invalid UTF-8 inside a string names its bytes")
    func invalidUtf8() {
        var parser = JSONParser(bytes: Array("[\"a".utf8) + [0xFF] + Array("\"]".utf8))
        do {
            _ = try parser.document()
            Issue.record("accepted")
        } catch { #expect(error.reason == "Invalid UTF-8 sequence 2 bytes starting from character 2.") }
    }

    @Test(
        "numbers are the Double their text names",
        arguments: [
            ("0", 0.0), ("-0", 0.0), ("7", 7.0), ("-12", -12.0), ("1.25", 1.25), ("1e3", 1000.0), ("2E-2", 0.02),
            ("-1.5e+2", -150.0), ("9007199254740993", 9007199254740992.0), ("0.1", 0.1)
        ])
    func numbers(text: String, value: Double) throws {
        #expect(try Self.first(text) as? Double == value)
    }

    @Test("-0 reads as +0, as a whole number through Int64")
    func negativeZero() throws {
        let zero = try #require(try Self.first("-0") as? Double)
        #expect(zero.sign == .plus)
    }

    @Test("malformed numbers")
    func badNumbers() {
        #expect(Self.reason("01") == "Number with leading zero around character 2.")
        #expect(Self.reason("-01") == "Number with leading zero around character 3.")
        #expect(Self.reason("1.") == "Invalid value around character 3.")
        #expect(Self.reason("1.e2") == "Invalid value around character 3.")
        #expect(Self.reason("1e") == "Invalid value around character 3.")
        #expect(Self.reason("1+2") == "Invalid value around character 2.")
        #expect(Self.reason("1x") == "Invalid value around character 2.")
        #expect(Self.reason("1e999") == "Number 1e999 is not representable in Swift.")
    }
}
