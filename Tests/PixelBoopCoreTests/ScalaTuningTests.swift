import CAudioEngine
import Foundation
import Testing

@testable import PixelBoopCore

/// Tunings read from Scala files through the engine: the keys' frequencies against the Scala
/// arithmetic (a degree's cents above the reference key's, repeated by the period), the mapping's
/// reference and unmapped keys, and the messages that name the file and the line.
@Suite("ScalaTuning")
struct ScalaTuningTests {
    /// A folder of the test's own, removed by the caller.
    static func folder() throws -> String { try scratchFolder("scala") }

    static func write(_ name: String, _ text: String, in dir: String) throws -> String {
        let path = dir + "/" + name
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func cents(_ a: Double, _ b: Double) -> Double { 1200 * log2(a / b) }

    @Test("12 equal steps without a mapping: A4 = 440 Hz (C4 261.63 Hz), every key a semitone apart")
    func equal() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let text = "12-tone equal\n12\n" + (1...12).map { String(format: "%.1f\n", Double($0) * 100) }.joined()
        let tuning = try ScalaTuning.load(scale: try Self.write("12.scl", text, in: dir), mapping: nil)
        #expect(tuning.degreeCount == 12)
        #expect(tuning.description == "12-tone equal")
        #expect(tuning.keyHz.count == ScalaTuning.keyCount)
        for key in 0..<128 {
            #expect(abs(tuning.keyHz[key] - 440 * pow(2, Double(key - 69) / 12)) < 1e-6 * tuning.keyHz[key])
        }
    }

    @Test("a just scale repeats its ratios in every period from middle C")
    func just() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let text = "! just.scl\nJust\n 3\n 5/4\n 3/2\n 2/1\n"
        let tuning = try ScalaTuning.load(scale: try Self.write("just.scl", text, in: dir), mapping: nil)
        let c4 = try #require(tuning.hz(key: 60))
        #expect(abs(c4 - 261.6255653) < 1e-6)
        #expect(abs(Self.cents(try #require(tuning.hz(key: 61)), c4) - Self.cents(5, 4)) < 1e-6)
        #expect(abs(Self.cents(try #require(tuning.hz(key: 62)), c4) - Self.cents(3, 2)) < 1e-6)
        #expect(abs(Self.cents(try #require(tuning.hz(key: 63)), c4) - 1200) < 1e-6)
        #expect(abs(Self.cents(try #require(tuning.hz(key: 59)), c4) - (Self.cents(3, 2) - 1200)) < 1e-6)
    }

    @Test("a mapping places degree 0 on its middle key, tunes its reference key to its Hz, leaves x unmapped")
    func mapping() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let scl = "12\n12\n" + (1...12).map { "\($0 * 100).0\n" }.joined()
        let kbm = "12\n0\n127\n60\n69\n432.0\n12\n0\n1\n2\n3\n4\n5\n6\n7\n8\n9\nx\n11\n"
        let tuning = try ScalaTuning.load(
            scale: try Self.write("m.scl", scl, in: dir), mapping: try Self.write("m.kbm", kbm, in: dir))
        #expect(abs(try #require(tuning.hz(key: 69)) - 432) < 1e-9)
        #expect(abs(Self.cents(try #require(tuning.hz(key: 60)), 432) + 900) < 1e-6)
        #expect(tuning.hz(key: 70) == nil)   // degree x
        #expect(tuning.keyHz[70] == 0)
        #expect(tuning.hz(key: 128) == nil)
        #expect(tuning.hz(key: -1) == nil)
        #expect(tuning.mappingPath != nil)
    }

    @Test("a malformed file: 65 naming the file and the line; a mapping's error names the mapping")
    func malformed() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let bad = try Self.write("bad.scl", "desc\n2\n100.0\nthree\n", in: dir)
        #expect(
            throws: PatternError(
                .invalid,
                "\(bad): line 4: expected a pitch (cents with a period, as 701.955, or a positive ratio, as 3/2 or 2), found \"three\""
            )
        ) {
            try ScalaTuning.load(scale: bad, mapping: nil)
        }
        let empty = try Self.write("empty.scl", "", in: dir)
        #expect(throws: PatternError(.invalid, "\(empty): line 1: expected a description line, found the end of the file")) {
            try ScalaTuning.load(scale: empty, mapping: nil)
        }
        let good = try Self.write("good.scl", "d\n1\n2/1\n", in: dir)
        let badMap = try Self.write("bad.kbm", "1\n0\n200\n", in: dir)
        do {
            _ = try ScalaTuning.load(scale: good, mapping: badMap)
            Issue.record("accepted")
        } catch {
            #expect(error.kind == .invalid)
            #expect(error.message.hasPrefix("\(badMap): line 3: expected the last key to retune"))
        }
    }

    @Test("a missing file is 66")
    func missing() {
        do {
            _ = try ScalaTuning.load(scale: "/nonexistent/x.scl", mapping: nil)
            Issue.record("accepted")
        } catch { #expect(error.kind == .missingFile) }
    }

    @Test("withHandle makes the same tuning again from the text it kept")
    func handle() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let tuning = try ScalaTuning.load(scale: try Self.write("h.scl", "h\n2\n350.0\n1200.0\n", in: dir), mapping: nil)
        let again = try tuning.withHandle { handle in (0..<128).map { boop_tuning_key_hz(handle, Int32($0)) } }
        #expect(again == tuning.keyHz)
    }
}
