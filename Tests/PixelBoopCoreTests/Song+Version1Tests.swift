import Foundation
import Testing

@testable import PixelBoopCore

private let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
private let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("examples")

@Suite("Song+Version1: version-1 pattern files, read and written as one-pattern songs")
struct SongVersion1Tests {
    @Test("the bundled examples load", arguments: ["demo", "minor-groove", "arpeggio-133", "lullaby"])
    func examplesLoad(_ name: String) throws {
        let pattern = try PieceFile.load(path: examples.appendingPathComponent("\(name).json").path)
        #expect(!pattern.patterns[0].tracks.isEmpty)
        #expect(Song.version1Lengths.contains(pattern.patterns[0].length))
    }

    @Test("defaults: bpm 120, length 16, velocity normal, note length 1, name from the file")
    func defaults() throws {
        let p = try Song.parseVersion1(Bytes(#"{"tracks": {"melody": [{"step": 3, "pitch": 60}]}}"#.utf8), file: "/x/Song.json")
        #expect(p.bpm == 120)
        #expect(p.patterns[0].length == 16)
        #expect(p.name == "Song")
        #expect(p.patterns[0].notes(.melody) == [SongNote(step: 3, pitch: 60, velocity: .normal, length: 1)])
    }

    // Each bad file: the field path its one-line message must name.
    static let badFiles: [(String, String)] = [
        ("bpm-too-low", "bpm: expected a number 60...200, got 59"),
        ("bpm-string", "bpm: expected a number 60...200, got \"fast\""),
        ("bpm-null", "bpm: expected a number 60...200, got null"),
        ("length-12", "length: expected 8, 16, 24 or 32 steps, got 12"),
        ("unknown-top-key", "tempo: unknown key"),
        ("unknown-track", "tracks.drums: unknown key"),
        ("tracks-array", "tracks: expected an object"),
        ("notes-object", "tracks.melody: expected an array"),
        ("step-out-of-range", "tracks.melody[0].step: expected an integer 0...15, got 16"),
        ("step-negative", "tracks.bass[1].step: expected an integer 0...15, got -1"),
        ("pitch-128", "tracks.melody[0].pitch: expected an integer 0...127, got 128"),
        ("pitch-fraction", "tracks.melody[0].pitch: expected an integer 0...127, got 60.5"),
        ("pitch-boolean", "tracks.melody[0].pitch: expected an integer 0...127, got true"),
        ("velocity-loud", "tracks.melody[0].velocity: expected \"normal\", \"accent\" or \"sustain\", got \"loud\""),
        ("note-too-long", "tracks.chords[0].length: expected an integer 1...2, got 4"),
        ("note-length-zero", "tracks.melody[0].length: expected an integer 1...15, got 0"),
        ("duplicate-note", "tracks.melody[2]: duplicate note (step 2, pitch 60"),
        ("unknown-note-key", "tracks.melody[0].vel: unknown key"),
        ("missing-step", "tracks.rhythm[0].step: expected an integer 0...15 (required)"),
        ("name-number", "name: expected a string, got 5"),
        ("not-json", "not valid JSON"),
        ("empty", "not valid JSON"),
        ("deep-nesting", "nesting deeper than 16 levels"),
        ("huge-number", "not valid JSON"),
        ("top-level-array", "(top level): expected an object"),
        ("nan", "not valid JSON"),
        ("bad-utf8", "not valid JSON"),
        ("binary", "not valid JSON"),
        ("bpm-overflow", "not valid JSON"),
        ("duplicate-bpm", "bpm: duplicate key (expected each key once per object)"),
        ("duplicate-melody", "tracks.melody: duplicate key"),
        ("duplicate-note-key", "tracks.bass[0].pitch: duplicate key"),
        // Keys are compared as the parser sees them: escapes decoded, canonically equivalent
        // spellings equal (one dictionary key for Foundation, which kept the last silently).
        ("duplicate-escaped-bpm", "bpm: duplicate key"),
        ("duplicate-escaped-nested", "tracks.melody[1].pitch: duplicate key"),
        ("duplicate-canonical", "café: duplicate key"),
        ("duplicate-surrogates", "x🎵: duplicate key"),
        ("duplicate-solidus", "na/me: duplicate key"),
        ("escaped-key", "unknown key (expected one of bpm, length, name, tracks, version)"),
        ("length-1e19", "length: expected 8, 16, 24 or 32 steps, got 1e+19"),
        ("length-negative-huge", "length: expected 8, 16, 24 or 32 steps, got -1e+300"),
        ("pitch-2-63", "tracks.melody[0].pitch: expected an integer 0...127, got 9.22")
    ]

    @Test("bad pattern files: one line naming the file, the field and what was expected", arguments: badFiles)
    func badFile(_ name: String, _ fragment: String) {
        let path = fixtures.appendingPathComponent("bad/\(name).json").path
        do {
            _ = try PieceFile.load(path: path)
            Issue.record("\(name) was accepted")
        } catch {
            #expect(error.kind == .invalid)
            #expect(error.message.hasPrefix(path + ": "), "\(error.message)")
            #expect(error.message.contains(fragment), "\(error.message)")
            #expect(!error.message.contains("\n"))
            #expect(error.message.count < 300)
        }
    }

    @Test("a missing file is .missingFile (exit 66), not .invalid")
    func missingFile() {
        #expect(throws: PatternError(.missingFile, "/nonexistent/p.json: no such file")) {
            try PieceFile.load(path: "/nonexistent/p.json")
        }
    }

    @Test("a FIFO nobody writes to is read as empty at once (65), not waited for in open(2)")
    func fifoWithoutWriter() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("boop-fifo-\(getpid())").path
        unlink(path)
        #expect(mkfifo(path, 0o600) == 0)
        defer { unlink(path) }
        // Returning is the test: open(2) on a FIFO without a writer would block for ever.
        #expect(
            throws: PatternError(.invalid, "\(path): not valid JSON (nothing was written to the pipe; expected a JSON document)")
        ) {
            try PieceFile.load(path: path)
        }
    }

    @Test("a device is refused (65), a directory is no input (66)")
    func notFiles() {
        #expect(throws: PatternError(.invalid, "/dev/zero: is a device or socket, not a file (expected a JSON file)")) {
            try PieceFile.load(path: "/dev/zero")
        }
        #expect(throws: PatternError(.missingFile, "/tmp: is a directory (expected a JSON file)")) {
            try PieceFile.load(path: "/tmp")
        }
    }

    @Test("a file name that is not UTF-8 is opened by its own bytes and shown escaped")
    func rawByteName() throws {
        let folder = FileManager.default.temporaryDirectory.path
        var bytes = Array("\(folder)/lat".utf8) + [0xE9] + Array(".json".utf8)
        bytes.append(0)
        let fd = bytes.withUnsafeBufferPointer {
            open(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), O_CREAT | O_WRONLY | O_TRUNC, 0o600)
        }
        #expect(fd >= 0)
        _ = #"{"name": "L"}"#.withCString { write(fd, $0, strlen($0)) }
        close(fd)
        defer {
            bytes.withUnsafeBufferPointer { _ = unlink(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self)) }
        }
        let path = RawBytes.decode(bytes.dropLast())
        #expect(RawBytes.fileSystemBytes(path).map { UInt8(bitPattern: $0) } == bytes)
        #expect(try PieceFile.load(path: path).name == "L")
        #expect(OneLine.escape(path) == "\(folder)/lat\\xE9.json")
        // Valid UTF-8 is left as it is, and a truncated sequence is bytes too.
        #expect(RawBytes.decode(Array("café".utf8)) == "café")
        let broken = RawBytes.decode([0x61, 0xC3])
        #expect(OneLine.escape(broken) == "a\\xC3")
        #expect(RawBytes.fileSystemBytes(broken) == [0x61, CChar(bitPattern: 0xC3), 0])
    }

    @Test("a version-1 file as written reads back to the same one-pattern song")
    func fileRoundTrip() throws {
        let p = Song(
            name: "R", bpm: 133, length: 24,
            tracks: [
                .melody: [SongNote(step: 1, pitch: 70, velocity: .accent, length: 3)],
                .rhythm: [SongNote(step: 0, pitch: 36)]
            ])
        let data = try p.version1FileData()
        #expect(try Song.parseVersion1(data, file: "r.json") == Song(version1: p))
    }
}
