import Foundation
import Testing

@testable import PixelBoopCore

/// The strict JSON layer every file kind is read through (DESIGN.md: "The loader is strict"):
/// duplicate keys named by their full path (escapes decoded before comparing), nesting limited to
/// 16 levels, files to 1 MiB, malformed JSON placed at its line and column, and each typed
/// accessor's message naming the file, the field path, what was expected and what was found.
@Suite("StrictJSON")
struct StrictJSONTests {
    static var json: StrictJSON { StrictJSON(file: "song.json") }

    static func error(_ text: String) -> String? {
        do {
            _ = try json.parse(Bytes(text.utf8))
            return nil
        } catch { return error.message }
    }

    @Test("a duplicate key is named by its path, escapes decoded before comparing")
    func duplicates() {
        #expect(Self.error(#"{"bpm": 1, "bpm": 2}"#) == "song.json: bpm: duplicate key (expected each key once per object)")
        #expect(
            Self.error(#"{"tracks": {"bass": [{"step": 0}, {"pitch": 1, "pitch": 2}]}}"#)
                == "song.json: tracks.bass[1].pitch: duplicate key (expected each key once per object)")
        #expect(Self.error(#"{"bpm": 1, "b\u0070m": 2}"#) != nil)
        // The same key in different objects, or a key-like string value, is no duplicate.
        #expect(Self.error(#"{"a": {"k": 1}, "b": {"k": 2}, "c": "a"}"#) == nil)
        #expect(Self.error(#"{"a": ["a", "a"]}"#) == nil)
    }

    @Test("16 levels of nesting are read, the 17th refused")
    func depth() {
        let ok = String(repeating: "[", count: 16) + String(repeating: "]", count: 16)
        #expect(Self.error(ok) == nil)
        let deep = String(repeating: "[", count: 17) + String(repeating: "]", count: 17)
        #expect(Self.error(deep) == "song.json: nesting deeper than 16 levels: expected a pattern object")
    }

    @Test("a document over 1 MiB is refused before it is parsed")
    func size() {
        let big = Bytes(repeating: UInt8(ascii: " "), count: StrictJSON.maxBytes + 1)
        do {
            _ = try Self.json.parse(big)
            Issue.record("accepted")
        } catch { #expect(error.message == "song.json: 1048577 bytes: expected a JSON document of at most 1 MiB") }
    }

    @Test("malformed JSON is placed at its line and column, counted in characters from 1")
    func placed() throws {
        let message = try #require(Self.error("{\n  \"a\": 1,\n  \"é\": x\n}"))
        #expect(message.hasPrefix("song.json: not valid JSON at line 3, column 8 ("))
        #expect(StrictJSON.where("Unexpected end of file during JSON parse.", in: []) == "")
        #expect(StrictJSON.where("Invalid value around character 0.", in: Bytes("x".utf8)) == " at line 1, column 1")
    }

    @Test("typed accessors: the value when it fits, else the path, what was expected and what was found")
    func accessors() throws {
        let j = Self.json
        #expect(try j.integer(7.0, "bpm", in: 1...10) == 7)
        #expect(throws: PatternError(.invalid, "song.json: bpm: expected an integer 1...10, got 7.5")) {
            try j.integer(7.5, "bpm", in: 1...10)
        }
        #expect(throws: PatternError(.invalid, "song.json: bpm: expected an integer 1...10, got 11")) {
            try j.integer(11.0, "bpm", in: 1...10)
        }
        #expect(throws: PatternError(.invalid, "song.json: bpm: expected an integer 1...10, got true")) {
            try j.integer(true, "bpm", in: 1...10)
        }
        #expect(throws: PatternError(.invalid, "song.json: bpm: expected an integer 1...10, got 1e+20")) {
            try j.integer(1e20, "bpm", in: 1...10)
        }
        #expect(try j.double(0.5, "swing", in: 0...1) == 0.5)
        #expect(throws: PatternError(.invalid, "song.json: swing: expected a number 0...1, got \"x\"")) {
            try j.double("x", "swing", in: 0...1)
        }
        #expect(try j.string("name", "name") == "name")
        #expect(throws: PatternError(.invalid, "song.json: name: expected a string of at most 3 characters")) {
            try j.string("long", "name", maxLength: 3)
        }
        #expect(throws: PatternError(.invalid, "song.json: name: expected a string, got null")) {
            try j.string(JSONNull(), "name")
        }
        #expect(try j.array([1.0, 2.0], "steps", maxCount: 2).count == 2)
        #expect(throws: PatternError(.invalid, "song.json: steps: expected at most 1 entries, got \"2 entries\"")) {
            try j.array([1.0, 2.0], "steps", maxCount: 1)
        }
        #expect(throws: PatternError(.invalid, "song.json: (top level): expected an object, got an array")) {
            try j.object([Any](), "", allowed: [])
        }
        #expect(
            throws: PatternError(.invalid, "song.json: tracks.bogus: unknown key (expected one of bass, melody)")
        ) {
            try j.object(["bogus": 1.0, "bass": 1.0], "tracks", allowed: ["melody", "bass"])
        }
    }

    @Test("keys decode JSON's escapes; a lone surrogate is U+FFFD")
    func decodeKey() {
        #expect(StrictJSON.decodeKey(Array(#"b\u0070m"#.utf8)) == "bpm")
        #expect(StrictJSON.decodeKey(Array(#"a\nb\t\"\\\/"#.utf8)) == "a\nb\t\"\\/")
        #expect(StrictJSON.decodeKey(Array(#"\ud83c\udfb5"#.utf8)) == "🎵")
        #expect(StrictJSON.decodeKey(Array(#"\ud83cx"#.utf8)) == "\u{FFFD}x")
        #expect(StrictJSON.decodeKey(Array(#"\udfb5"#.utf8)) == "\u{FFFD}")
        #expect(StrictJSON.decodeKey(Array("plain é".utf8)) == "plain é")
    }

    @Test("a missing file is 66, a directory 66, a device 65, each naming the path")
    func files() {
        for (path, kind, words) in [
            ("/nonexistent/song.json", PatternError.Kind.missingFile, "no such file"), ("/tmp", .missingFile, "is a directory"),
            ("/dev/null", .invalid, "is a device or socket")
        ] {
            do {
                _ = try StrictJSON.load(path: path)
                Issue.record("\(path) accepted")
            } catch {
                #expect(error.kind == kind, "\(path)")
                #expect(error.message.hasPrefix(path + ": ") && error.message.includes(words), "\(error.message)")
            }
        }
    }
}
