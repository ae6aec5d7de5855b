import Foundation
import Testing

@testable import PixelBoopCore

/// The one reader of `play`, `render` and `edit` (DESIGN.md's pattern and song tables): a
/// version-2 song or a version-1 pattern read as a one-pattern song, and each rule of the tables
/// refused in one message naming the file, the field path and what was expected.
@Suite("PieceFile")
struct PieceFileTests {
    /// A folder of the test's own, removed by the caller.
    static func folder() throws -> String { try scratchFolder("piecefile") }

    static func write(_ text: String, name: String = "piece.json", in dir: String) throws -> String {
        let path = dir + "/" + name
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func song(_ body: String) -> String { #"{"version": 2, "patterns": {"A": {"length": 4, "tracks": "# + body + "}}}" }

    static func refusal(_ text: String) -> String? {
        do {
            _ = try Song.parse(Bytes(text.utf8), file: "s.json")
            return nil
        } catch { return error.message }
    }

    @Test("a file without a version is a version-1 pattern, named after the file, as a one-pattern song")
    func version1() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = try Self.write(
            #"{"bpm": 90, "length": 8, "tracks": {"bass": [{"step": 7, "pitch": 40, "length": 1}]}}"#, name: "riff.json", in: dir)
        let song = try PieceFile.load(path: path)
        #expect(song.version1 != nil)
        #expect(song.name == "riff")
        #expect(song.bpm == 90)
        #expect(song.patterns.count == 1 && song.patterns[0].length == 8)
        #expect(song.patterns[0].notes(.bass) == [SongNote(step: 7, pitch: 40)])
    }

    @Test("version 2 is a song; another version is refused; patterns without a version name what is missing")
    func versions() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let song = try PieceFile.load(path: try Self.write(Self.song(#"{"melody": [{"step": 0, "pitch": 60}]}"#), in: dir))
        #expect(song.version1 == nil)
        let three = try Self.write(#"{"version": 3}"#, name: "three.json", in: dir)
        do {
            _ = try PieceFile.load(path: three)
            Issue.record("accepted")
        } catch { #expect(error.message.hasSuffix(": version: expected 1 (a pattern) or 2 (a song), got 3")) }
        let unversioned = try Self.write(#"{"patterns": {}}"#, name: "unversioned.json", in: dir)
        do {
            _ = try PieceFile.load(path: unversioned)
            Issue.record("accepted")
        } catch { #expect(error.message.includes("version: expected 2 for a song (the file has \"patterns\"")) }
    }

    @Test("version-1 rules: lengths 8 ... 32 in steps of 8, notes inside the pattern, each step and pitch once")
    func patternRules() {
        func refused(_ text: String) -> String? {
            do {
                _ = try Song.parseVersion1(Bytes(text.utf8), file: "p.json")
                return nil
            } catch { return error.message }
        }
        #expect(refused(#"{"length": 12}"#) == "p.json: length: expected 8, 16, 24 or 32 steps, got 12")
        #expect(
            refused(#"{"length": 8, "tracks": {"bass": [{"step": 8, "pitch": 40}]}}"#)
                == "p.json: tracks.bass[0].step: expected an integer 0...7, got 8")
        #expect(
            refused(#"{"tracks": {"bass": [{"pitch": 40}]}}"#)
                == "p.json: tracks.bass[0].step: expected an integer 0...15 (required)")
        #expect(
            refused(#"{"length": 8, "tracks": {"bass": [{"step": 6, "pitch": 40, "length": 3}]}}"#)
                == "p.json: tracks.bass[0].length: expected an integer 1...2, got 3")
        #expect(
            refused(#"{"tracks": {"bass": [{"step": 1, "pitch": 40}, {"step": 1, "pitch": 40}]}}"#)?
                .hasPrefix("p.json: tracks.bass[1]: duplicate note (step 1, pitch 40 already in tracks.bass)") == true)
        #expect(
            refused(#"{"tracks": {"bass": [{"step": 1, "pitch": 40, "velocity": 90}]}}"#)?
                .hasPrefix("p.json: tracks.bass[0].velocity: expected \"normal\", \"accent\" or \"sustain\"") == true)
        #expect(refused(#"{"tracks": {"drums": []}}"#)?.hasPrefix("p.json: tracks.drums: unknown key") == true)
        #expect(refused(#"{"bpm": 59}"#)?.hasPrefix("p.json: bpm: expected a number 60...200") == true)
    }

    @Test("song rules: notes inside their track's own length, ratchets of one step, offsets under half a step")
    func songNoteRules() {
        #expect(
            Self.refusal(Self.song(#"{"bass": [{"step": 4, "pitch": 36}]}"#))?
                .hasPrefix("s.json: patterns.A.tracks.bass[0].step: expected an integer 0...3") == true)
        let polymeter =
            #"{"version": 2, "patterns": {"A": {"length": 8, "track_lengths": {"bass": 3}, "tracks": {"bass": [{"step": 3, "pitch": 36}]}}}}"#
        #expect(Self.refusal(polymeter)?.hasPrefix("s.json: patterns.A.tracks.bass[0].step: expected an integer 0...2") == true)
        #expect(
            Self.refusal(Self.song(#"{"bass": [{"step": 0, "pitch": 36, "ratchet": 2, "length": 2}]}"#))
                == "s.json: patterns.A.tracks.bass[0].length: expected 1 for a ratcheted note (its hits fill one step), got 2")
        #expect(
            Self.refusal(Self.song(#"{"bass": [{"step": 0, "pitch": 36, "offset": 0.5}]}"#))?
                .hasPrefix("s.json: patterns.A.tracks.bass[0].offset: expected a number of steps -0.5 ... 0.5") == true)
        #expect(Self.refusal(Self.song(#"{"bass": [{"step": 0, "pitch": 36, "offset": -0.5}]}"#)) == nil)
        #expect(
            Self.refusal(Self.song(#"{"bass": [{"step": 0, "pitch": 36, "condition": "3:2"}]}"#))?
                .hasPrefix("s.json: patterns.A.tracks.bass[0].condition: expected \"a:b\" with 1 <= a <= b <= 64") == true)
        #expect(
            Self.refusal(Self.song(#"{"bass": [{"step": 0, "pitch": 36, "velocity": 128}]}"#))?
                .hasPrefix("s.json: patterns.A.tracks.bass[0].velocity: expected an integer 1...127") == true)
        #expect(
            Self.refusal(Self.song(#"{"bass": [{"step": 0, "pitch": 36}, {"step": 0, "pitch": 36}]}"#))?
                .hasPrefix("s.json: patterns.A.tracks.bass[1]: expected each step and pitch once per track") == true)
    }

    @Test("the chain: known patterns, repeats 1 ... 256, a transpose keeping notes in MIDI, counted from 1 for the editor")
    func chainRules() {
        let two =
            #"{"version": 2, "patterns": {"A": {"length": 4, "tracks": {"melody": [{"step": 0, "pitch": 120}]}}, "B": {}}, "song": "#
        #expect(
            Self.refusal(two + #"[{"pattern": "C"}]}"#)
                == "s.json: song[0].pattern: expected one of the patterns (A, B), got \"C\" (chain entry 1)")
        #expect(
            Self.refusal(two + #"[{"pattern": "A"}, {"pattern": "B", "repeat": 257}]}"#)?
                .hasPrefix("s.json: song[1].repeat: expected an integer 1...256, got 257") == true)
        #expect(
            Self.refusal(two + #"[{"pattern": "A", "transpose": 8}]}"#)
                == "s.json: song[0].transpose: expected a shift keeping pattern A's notes in 0...127 (melody pitch 120 would be 128), got 8 (chain entry 1)"
        )
        #expect(Self.refusal(two + #"[]}"#) == "s.json: song: expected at least one entry, got \"an empty array\"")
        #expect(
            Self.refusal(two + #"[{"pattern": "B", "fill": 1}]}"#)?.hasPrefix("s.json: song[0].fill: expected true or false")
                == true)
    }

    @Test("without a song entry every pattern plays once, in the order written")
    func defaultChain() throws {
        let text = #"{"version": 2, "patterns": {"Zed": {}, "Alpha": {}, "Mid": {}}}"#
        let song = try Song.parse(Bytes(text.utf8), file: "s.json")
        #expect(song.patterns.map(\.name) == ["Zed", "Alpha", "Mid"])
        #expect(song.chain.map(\.pattern) == ["Zed", "Alpha", "Mid"])
        #expect(song.name == "s")
    }

    @Test("a tuning's files are read relative to the song's folder; a missing one is 66 naming the song and tuning")
    func tuning() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let scl = try Self.write("t\n1\n2/1\n", name: "oct.scl", in: dir)
        let path = try Self.write(
            #"{"version": 2, "tuning": {"scl": "oct.scl"}, "patterns": {"A": {}}}"#, name: "tuned.json", in: dir)
        let song = try PieceFile.load(path: path)
        #expect(song.tuning?.scl == "oct.scl")
        #expect(song.tuning?.keys.scalePath == scl)
        let missing = try Self.write(
            #"{"version": 2, "tuning": {"scl": "none.scl"}, "patterns": {"A": {}}}"#, name: "bad.json", in: dir)
        do {
            _ = try PieceFile.load(path: missing)
            Issue.record("accepted")
        } catch {
            #expect(error.kind == .missingFile)
            #expect(error.message.hasPrefix(missing + ": tuning: "))
        }
    }
}
