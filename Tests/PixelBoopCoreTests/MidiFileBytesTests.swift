import Foundation
import Testing

@testable import PixelBoopCore

/// The byte level of a Standard MIDI File (SMF 1.0): variable-length quantities as the
/// specification's own table lists them, one track chunk with its delta times and patched size,
/// meta and sysex events, silences past the longest delta, and a track's notes cut and ordered
/// so that no two notes of one pitch overlap on a channel.
@Suite("MIDI file bytes")
struct MidiFileBytesTests {
    @Test(
        "variable-length quantities: the SMF specification's examples",
        arguments: [
            (0x0000_0000, [0x00]), (0x0000_0040, [0x40]), (0x0000_007F, [0x7F]), (0x0000_0080, [0x81, 0x00]),
            (0x0000_2000, [0xC0, 0x00]), (0x0000_3FFF, [0xFF, 0x7F]), (0x0000_4000, [0x81, 0x80, 0x00]),
            (0x0010_0000, [0xC0, 0x80, 0x00]), (0x001F_FFFF, [0xFF, 0xFF, 0x7F]), (0x0020_0000, [0x81, 0x80, 0x80, 0x00]),
            (0x0800_0000, [0xC0, 0x80, 0x80, 0x00]), (0x0FFF_FFFF, [0xFF, 0xFF, 0xFF, 0x7F])
        ] as [(Int, [UInt8])])
    func variableLength(value: Int, bytes: [UInt8]) {
        #expect(MidiFileWriter.variableLength(UInt32(value)) == bytes)
    }

    /// A track built in memory by `body`, ended at `end`.
    static func track(end: Int = 0, _ body: (inout TrackBuilder) -> Void) -> [UInt8] {
        let sink = MidiSink(file: nil)
        var builder = TrackBuilder(sink)
        body(&builder)
        builder.finish(endTick: end)
        return sink.memory
    }

    @Test("a track: MTrk, its size patched in, delta times, meta, sysex and the end of track")
    func trackChunk() {
        let bytes = Self.track(end: 960) { t in
            t.meta(0x51, [0x07, 0xA1, 0x20])   // tempo 500000 µs
            t.event(0, [0x90, 60, 100])
            t.event(200, [0x80, 60, 0x40])
            t.sysex([0xF0, 0x7E, 0x7F, 0x09, 0x01, 0xF7], at: 200)
        }
        let body: [UInt8] = [
            0x00, 0xFF, 0x51, 0x03, 0x07, 0xA1, 0x20,
            0x00, 0x90, 60, 100,
            0x81, 0x48, 0x80, 60, 0x40,
            0x00, 0xF0, 0x05, 0x7E, 0x7F, 0x09, 0x01, 0xF7,
            0x85, 0x78, 0xFF, 0x2F, 0x00   // 760 ticks later
        ]
        #expect(bytes == Array("MTrk".utf8) + [0, 0, 0, UInt8(body.count)] + body)
    }

    @Test("the end of track never comes before the last event")
    func endAfterLast() {
        let bytes = Self.track(end: 10) { t in t.event(50, [0x90, 1, 1]) }
        #expect(Array(bytes.suffix(4)) == [0x00, 0xFF, 0x2F, 0x00])
    }

    @Test("a silence past the longest delta is bridged by empty text events")
    func longSilence() {
        let gap = 2 * TrackBuilder.maxDelta + 5
        let bytes = Self.track { t in t.event(gap, [0x90, 60, 1]) }
        let filler = MidiFileWriter.variableLength(UInt32(TrackBuilder.maxDelta)) + [0xFF, 0x01, 0x00]
        let expected = filler + filler + [0x05, 0x90, 60, 1] + [0x00, 0xFF, 0x2F, 0x00]
        #expect(Array(bytes.dropFirst(8)) == expected)
    }

    /// The note events a stream writes for `spans`, flushed once to the end.
    static func notes(_ spans: [MidiFileWriter.Span]) -> [[UInt8]] {
        let sink = MidiSink(file: nil)
        var builder = TrackBuilder(sink)
        var stream = SpanStream(channel: 2)
        for s in spans { stream.add(s) }
        stream.flush(before: Int.max, into: &builder)
        // Each event here is a delta of one byte (all ticks below 128) and three bytes.
        let body = Array(sink.memory.dropFirst(8))
        return stride(from: 0, to: body.count, by: 4).map { Array(body[$0..<($0 + 4)]) }
    }

    @Test("a note of the same pitch starting inside another ends it there; offs come before ons")
    func overlap() {
        let events = Self.notes([
            .init(start: 0, end: 40, pitch: 60, velocity: 90), .init(start: 20, end: 30, pitch: 60, velocity: 70),
            .init(start: 20, end: 25, pitch: 64, velocity: 50)
        ])
        #expect(
            events == [
                [0, 0x92, 60, 90],
                [20, 0x82, 60, 0x40],   // the first C cut at 20, before the new one starts
                [0, 0x92, 60, 70],
                [0, 0x92, 64, 50],
                [5, 0x82, 64, 0x40],
                [5, 0x82, 60, 0x40]
            ])
    }

    @Test("a note replaced on its own tick, and a note of no length, write nothing")
    func replaced() {
        let events = Self.notes([
            .init(start: 10, end: 50, pitch: 62, velocity: 1), .init(start: 10, end: 20, pitch: 62, velocity: 2),
            .init(start: 30, end: 30, pitch: 70, velocity: 3)
        ])
        #expect(events == [[10, 0x92, 62, 2], [10, 0x82, 62, 0x40]])
    }

    @Test("a note whose end is at or past the bound stays pending until a later flush")
    func pending() {
        let sink = MidiSink(file: nil)
        var builder = TrackBuilder(sink)
        var stream = SpanStream(channel: 0)
        stream.add(.init(start: 0, end: 100, pitch: 60, velocity: 9))
        stream.flush(before: 50, into: &builder)
        #expect(Array(sink.memory.dropFirst(8)) == [0, 0x90, 60, 9])
        stream.add(.init(start: 80, end: 90, pitch: 60, velocity: 8))   // cuts the first at 80
        stream.flush(before: Int.max, into: &builder)
        #expect(Array(sink.memory.dropFirst(12)) == [80, 0x80, 60, 0x40, 0, 0x90, 60, 8, 10, 0x80, 60, 0x40])
    }

    @Test("a file written atomically holds the bytes; a stop asked for leaves no file")
    func atomic() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("midibytes-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("a.mid").path
        let bytes = (0..<70000).map { UInt8($0 % 251) }   // more than one 64 KiB buffer
        let done = try MidiFileWriter.writeAtomically(to: path, shouldStop: { false }) { sink in
            sink.append(Array(bytes[..<4]))
            sink.append(Array(bytes[4...]))
            sink.patchUInt32(0xDEAD_BEEF, at: 2)
        }
        #expect(done)
        var expected = bytes
        expected.replaceSubrange(2..<6, with: [0xDE, 0xAD, 0xBE, 0xEF])
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(expected))

        let stopped = folder.appendingPathComponent("b.mid").path
        let finished = try MidiFileWriter.writeAtomically(to: stopped, shouldStop: { true }) { sink in
            sink.append(bytes)
        }
        #expect(!finished)
        #expect(!FileManager.default.fileExists(atPath: stopped))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["a.mid"])
    }

    @Test("a folder that does not exist is refused naming the path")
    func cannotCreate() {
        do {
            _ = try MidiFileWriter.writeAtomically(to: "/nonexistent-boop/x.mid", shouldStop: { false }) { _ in }
            Issue.record("written")
        } catch { #expect("\(error)".hasPrefix("/nonexistent-boop/x.mid: ") || "\(error)".includes("/nonexistent-boop/x.mid")) }
    }
}
