import Foundation
import Testing

@testable import PixelBoopCore

/// A minimal SMF reader, only for these tests: chunks, delta times, running status not needed
/// (the writer never uses it, which is itself checked).
private struct ParsedMidi {
    struct Track {
        var events: [(tick: Int, bytes: [UInt8])] = []
        var end: Int?
    }
    var format = 0, division = 0
    var tracks: [Track] = []

    init(_ data: Bytes) throws {
        let b = [UInt8](data)
        var i = 0
        func u32() -> Int {
            defer { i += 4 }
            return Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3])
        }
        func u16() -> Int {
            defer { i += 2 }
            return Int(b[i]) << 8 | Int(b[i + 1])
        }
        func vlq() -> Int {
            var v = 0
            while true {
                let c = b[i]
                i += 1
                v = v << 7 | Int(c & 0x7F)
                if c & 0x80 == 0 { return v }
            }
        }
        #expect(String(decoding: b[0..<4], as: UTF8.self) == "MThd")
        i = 4
        #expect(u32() == 6)
        format = u16()
        let count = u16()
        division = u16()
        for _ in 0..<count {
            #expect(String(decoding: b[i..<i + 4], as: UTF8.self) == "MTrk")
            i += 4
            let end = i + 4 + u32()
            var track = Track()
            var tick = 0
            while i < end {
                tick += vlq()
                let status = b[i]
                #expect(status & 0x80 != 0, "running status is never used")
                if status == 0xFF {
                    let type = b[i + 1]
                    i += 2
                    let n = vlq()
                    track.events.append((tick, [0xFF, type] + b[i..<i + n]))
                    i += n
                    if type == 0x2F { track.end = tick }
                } else {
                    let n = (status & 0xF0 == 0xC0 || status & 0xF0 == 0xD0) ? 2 : 3
                    track.events.append((tick, Array(b[i..<i + n])))
                    i += n
                }
            }
            #expect(i == end)
            tracks.append(track)
        }
        #expect(i == b.count)
    }

    /// (start, length, pitch, velocity, channel) of every note of a track.
    func notes(_ t: Int) -> [[Int]] {
        var held: [Int: (Int, Int)] = [:]
        var out: [[Int]] = []
        for (tick, e) in tracks[t].events where e[0] & 0xE0 == 0x80 {
            let ch = Int(e[0] & 0x0F)
            let key = Int(e[1])
            if e[0] & 0xF0 == 0x90 && e[2] > 0 {
                held[key] = (tick, Int(e[2]))
            } else if let (s, v) = held.removeValue(forKey: key) {
                out.append([s, tick - s, key, v, ch])
            }
        }
        return out.sorted { $0.lexicographicallyPrecedes($1) }
    }

    func meta(_ t: Int, _ type: UInt8) -> [UInt8]? {
        tracks[t].events.first { $0.bytes[0] == 0xFF && $0.bytes[1] == type }.map { Array($0.bytes.dropFirst(2)) }
    }
}

/// A version-1 pattern, written as its one-pattern song (`Song(version1:)`), as `boop render` does.
private let sample = Song(version1: sampleNotes)
private let sampleNotes = Song(
    name: "Test Song", bpm: 120, length: 16,
    tracks: [
        .melody: [
            SongNote(step: 0, pitch: 72, velocity: .accent, length: 2),
            SongNote(step: 2, pitch: 76),
            SongNote(step: 4, pitch: 79, velocity: .sustain, length: 4),
            SongNote(step: 8, pitch: 79, velocity: .sustain, length: 8)
        ],
        .bass: [SongNote(step: 0, pitch: 36, length: 4), SongNote(step: 2, pitch: 36)],   // overlaps: retrigger
        .rhythm: [SongNote(step: 0, pitch: 36, velocity: .accent), SongNote(step: 4, pitch: 38), SongNote(step: 15, pitch: 42)]
    ])

@Suite struct MidiFileWriterTests {
    @Test func headerAndConductor() throws {
        let midi = try ParsedMidi(MidiFileWriter.data(for: sample, loops: 1))
        #expect(midi.format == 1)
        #expect(midi.division == 480)
        #expect(midi.tracks.count == 4)   // conductor + melody, bass, rhythm
        #expect(midi.meta(0, 0x03) == Array("Test Song".utf8))
        #expect(midi.meta(0, 0x58) == [4, 2, 24, 8])
        #expect(midi.meta(0, 0x51) == [0x07, 0xA1, 0x20])   // 500 000 us per quarter = 120 bpm
        #expect(midi.tracks.allSatisfy { $0.end == 16 * 120 })
        #expect(midi.meta(1, 0x03) == Array("Melody".utf8))
        #expect(midi.meta(2, 0x03) == Array("Bass".utf8))
        #expect(midi.meta(3, 0x03) == Array("Rhythm".utf8))
    }

    @Test func notesGatesVelocitiesAndChannels() throws {
        let midi = try ParsedMidi(MidiFileWriter.data(for: sample, loops: 1))
        #expect(midi.notes(1) == [[0, 192, 72, 120, 0], [240, 96, 76, 96, 0], [480, 480, 79, 108, 0], [960, 960, 79, 108, 0]])
        // The first bass note (gate 384) is cut where the same pitch starts again.
        #expect(midi.notes(2) == [[0, 240, 36, 96, 2], [240, 96, 36, 96, 2]])
        #expect(midi.notes(3) == [[0, 96, 36, 120, 9], [480, 96, 38, 96, 9], [1800, 96, 42, 96, 9]])
    }

    @Test func legatoOffComesBeforeTheNextOn() throws {
        let midi = try ParsedMidi(MidiFileWriter.data(for: sample, loops: 1))
        let at960 = midi.tracks[1].events.filter { $0.tick == 960 && $0.bytes[0] != 0xFF }.map(\.bytes)
        #expect(at960 == [[0x80, 79, 0x40], [0x90, 79, 108]])
    }

    @Test func loopsRepeatAndMoveTheEnd() throws {
        let one = try ParsedMidi(MidiFileWriter.data(for: sample, loops: 1))
        let three = try ParsedMidi(MidiFileWriter.data(for: sample, loops: 3))
        #expect(three.tracks.allSatisfy { $0.end == 3 * 16 * 120 })
        for t in 1..<4 {
            let expected = (0..<3).flatMap { loop in one.notes(t).map { [$0[0] + loop * 1920] + $0.dropFirst() } }
            #expect(three.notes(t) == expected.sorted { $0.lexicographicallyPrecedes($1) })
        }
    }

    @Test(arguments: [(120.0, UInt32(500_000)), (133, 451_128), (60, 1_000_000), (200, 300_000), (97.5, 615_385)])
    func tempo(bpm: Double, microseconds: UInt32) throws {
        #expect(MidiFileWriter.microsecondsPerQuarter(bpm: bpm) == microseconds)
        var p = sample
        p.bpm = bpm
        let midi = try ParsedMidi(MidiFileWriter.data(for: p))
        let m = try #require(midi.meta(0, 0x51))
        #expect(UInt32(m[0]) << 16 | UInt32(m[1]) << 8 | UInt32(m[2]) == microseconds)
    }

    @Test func exactBytesOfATinyPattern() {
        let p = Song(version1: Song(name: "T", bpm: 120, length: 8, tracks: [.melody: [SongNote(step: 1, pitch: 60)]]))
        let expected: [UInt8] = [
            0x4D, 0x54, 0x68, 0x64, 0, 0, 0, 6, 0, 1, 0, 2, 0x01, 0xE0,
            0x4D, 0x54, 0x72, 0x6B, 0, 0, 0, 25,
            0x00, 0xFF, 0x03, 1, 0x54,
            0x00, 0xFF, 0x58, 4, 4, 2, 24, 8,
            0x00, 0xFF, 0x51, 3, 0x07, 0xA1, 0x20,
            0x87, 0x40, 0xFF, 0x2F, 0,   // end at 960 ticks (VLQ 0x87 0x40)
            0x4D, 0x54, 0x72, 0x6B, 0, 0, 0, 26,
            0x00, 0xFF, 0x03, 6, 0x4D, 0x65, 0x6C, 0x6F, 0x64, 0x79,
            0x00, 0xC0, 73,
            0x78, 0x90, 60, 96,   // step 1 = 120 ticks
            0x60, 0x80, 60, 0x40,   // gate 96 ticks
            0x85, 0x68, 0xFF, 0x2F, 0   // 960 - 216 = 744
        ]
        #expect([UInt8](MidiFileWriter.data(for: p)) == expected)
    }

    @Test func deterministic() {
        #expect(MidiFileWriter.data(for: sample, loops: 2) == MidiFileWriter.data(for: sample, loops: 2))
    }

    @Test func writeRenamesIntoPlaceAndLeavesNoTemporary() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("midi-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("out.mid").path
        try MidiFileWriter.write(sample, loops: 2, to: path)
        #expect(FileManager.default.contents(atPath: path).map { Bytes($0) } == MidiFileWriter.data(for: sample, loops: 2))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["out.mid"])
    }

    @Test func writeIntoAMissingFolderIsCannotCreate() {
        #expect {
            try MidiFileWriter.write(sample, to: "/nonexistent-\(getpid())/x.mid")
        } throws: { error in
            if case .cannotCreateFile(let c)? = error as? AudioError { return c.contains("x.mid") }
            return false
        }
    }

    /// Polymeter and an entry's transpose reach the file as they reach the render: each onset on
    /// its step's tick (120 a step), the transposed entry's pitched notes moved, the drums not.
    @Test func polymeterAndTransposeOnTheirTicks() throws {
        let song = try Song.parse(
            Bytes(
                #"""
                {"version": 2, "patterns": {"A": {"length": 16, "track_lengths": {"bass": 12, "rhythm": 7},
                 "tracks": {"bass": [{"step": 0, "pitch": 36}], "rhythm": [{"step": 0, "pitch": 36}]}}},
                 "song": [{"pattern": "A", "repeat": 2}, {"pattern": "A", "transpose": 7}]}
                """#.utf8), file: "p.json")
        let midi = try ParsedMidi(MidiFileWriter.data(for: song))
        let all = (0..<midi.tracks.count).flatMap { midi.notes($0) }
        let bass = all.filter { $0[4] != 9 }.map { [$0[0] / 120, $0[2]] }
        #expect(bass == [[0, 36], [12, 36], [24, 36], [32, 43], [44, 43]])
        let drums = all.filter { $0[4] == 9 }.map { [$0[0] / 120, $0[2]] }
        #expect(drums == [[0, 36], [7, 36], [14, 36], [21, 36], [28, 36], [32, 36], [39, 36], [46, 36]])
    }

    // MARK: - Independent reader

    /// Round trip through Python's mido (python3-mido): every note time and length, the tempo and the
    /// ends of the tracks must match what the pattern says, computed by the script itself.
    @Test(
        .enabled(if: MidoChecker.available, "needs /usr/bin/python3 with mido (python3-mido)"),
        arguments: [1, 3])
    func midoReadsTheSameNotesAndTempo(loops: Int) throws {
        let root = MidoChecker.repoRoot
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("midi-mido-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var patterns: [(String, Song)] = [("sample.json", sample)]
        var odd = sample
        odd.bpm = 133
        odd.patterns[0].length = 24
        odd.patterns[0].tracks[.chords] = [
            SongNote(step: 0, pitch: 60, velocity: .sustain, length: 24),
            SongNote(step: 0, pitch: 64, velocity: .sustain, length: 24),
            SongNote(step: 20, pitch: 67, length: 4)
        ]
        patterns.append(("odd.json", odd))
        let examples = root.appendingPathComponent("examples")
        for name in (try? FileManager.default.contentsOfDirectory(atPath: examples.path).sorted()) ?? []
        where name.hasSuffix(".json") {
            // Songs (version 2) are checked by SongTests and song.sh; check-midi.py reads version 1.
            let path = examples.appendingPathComponent(name).path
            let piece = try PieceFile.load(path: path)
            guard piece.version1 != nil else { continue }
            patterns.append((path, piece))
        }
        for (name, pattern) in patterns {
            let json = name.hasPrefix("/") ? name : dir.appendingPathComponent(name).path
            if !name.hasPrefix("/") {
                try Data(pattern.version1FileData()).write(to: URL(fileURLWithPath: json))
            }
            let mid = dir.appendingPathComponent((name as NSString).lastPathComponent + ".mid").path
            try MidiFileWriter.write(Song(version1: pattern), loops: loops, to: mid)
            let (status, output) = try MidoChecker.run([
                root.appendingPathComponent("scripts/check-midi.py").path,
                json, mid, "--loops", String(loops)
            ])
            #expect(status == 0, "\(name): \(output)")
        }
    }
}

enum MidoChecker {
    static let python = "/usr/bin/python3"
    static var repoRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }
    static var available: Bool {
        guard FileManager.default.isExecutableFile(atPath: python) else { return false }
        return (try? run(["-c", "import mido"]).0) == 0
    }

    static func run(_ arguments: [String]) throws -> (Int32, String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: python)
        p.arguments = arguments
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = pipe
        try p.run()
        let out = pipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: out, as: UTF8.self))
    }
}

/// Micro-timing in the `.mid`: a note's offset moves its start and end by the same ticks, and a
/// note played ahead of the next pattern's first step (a negative offset) still comes out in
/// tick order (the writer's flush bound allows for it).
struct MidiFileMicroTimingTests {
    @Test func offsetsMoveNotesByTheirTicks() throws {
        let text = """
            {"version": 2, "bpm": 120, "patterns": {"A": {"length": 4, "tracks": {"melody": [
              {"step": 0, "pitch": 60, "offset": -0.25}, {"step": 1, "pitch": 62, "offset": 0.25, "length": 2},
              {"step": 3, "pitch": 64, "offset": 0.4}]}}},
             "song": [{"pattern": "A", "repeat": 2}]}
            """
        let song = try Song.parse(Bytes(text.utf8), file: "m.json")
        let midi = try ParsedMidi(MidiFileWriter.data(for: song))
        let starts = midi.notes(1).map { [$0[0], $0[1], $0[2]] }
        // The first note of the piece cannot sound before it: tick 0; on the second pass 30 ticks early.
        #expect(
            starts == [[0, 96, 60], [150, 192, 62], [408, 96, 64], [450, 96, 60], [630, 192, 62], [888, 96, 64]])
        // Events in tick order: every delta was non-negative (a negative one cannot be written).
        let ticks = midi.tracks[1].events.map(\.tick)
        #expect(ticks == ticks.sorted())
    }
}
