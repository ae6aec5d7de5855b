import ArgumentParser
import Foundation
import PixelBoopCore
import Testing

@testable import boop_cli

@Suite("boop tone arguments")
struct ToneCommandTests {
    func parse(_ args: [String]) throws -> ToneCommand {
        let command = try Boop.parseAsRoot(["tone"] + args)
        return try #require(command as? ToneCommand)
    }

    @Test("defaults: 1 s tones, 0.25 s gap, A4 = 440 Hz, live on the default device at 44100 Hz")
    func defaults() throws {
        let c = try parse(["A4"])
        #expect(c.notes == ["A4"])
        #expect(c.duration == 1)
        #expect(c.gap == 0.25)
        #expect(c.cents == 0)
        #expect(c.reference == 440)
        #expect(c.output == nil)
        #expect(c.device == "default")
        #expect(c.rate == nil)
        #expect(!c.quiet && !c.verbose)
        let plan = try c.makePlan()
        #expect(plan.sequence.frequencies == [440])
        #expect(plan.sequence.sampleRate == 44100)
        #expect(plan.sequence.onsetFrame(1) == 55125)
    }

    struct Row: Sendable, CustomTestStringConvertible {
        let args: [String]
        let notes: [String], duration: Double, gap: Double, cents: Double, reference: Double
        let output: String?, device: String, rate: Int?, quiet: Bool, verbose: Bool
        var testDescription: String { args.joined(separator: " ") }
        init(
            _ args: [String], notes: [String], duration: Double = 1, gap: Double = 0.25, cents: Double = 0,
            reference: Double = 440, output: String? = nil, device: String = "default", rate: Int? = nil,
            quiet: Bool = false, verbose: Bool = false
        ) {
            self.args = args
            self.notes = notes
            self.duration = duration
            self.gap = gap
            self.cents = cents
            self.reference = reference
            self.output = output
            self.device = device
            self.rate = rate
            self.quiet = quiet
            self.verbose = verbose
        }
    }

    @Test(
        "argument table",
        arguments: [
            Row(["A4", "C4+12.5c", "1000Hz", "-o", "t.wav"], notes: ["A4", "C4+12.5c", "1000Hz"], output: "t.wav"),
            Row(["A4", "--reference", "442"], notes: ["A4"], reference: 442),
            Row(["--duration", "0.5", "--gap", "0", "C8", "A0"], notes: ["C8", "A0"], duration: 0.5, gap: 0),
            Row(["A4", "--gap=-0.1"], notes: ["A4"], gap: -0.1),
            Row(["A4", "--cents", "3"], notes: ["A4"], cents: 3),
            Row(["A4", "--cents=-3.5"], notes: ["A4"], cents: -3.5),
            // A negative value as the next word, as a musician types it (and as --gain takes it).
            Row(["A4", "--cents", "-20", "C5"], notes: ["A4", "C5"], cents: -20),
            Row(["--gap", "-0.1", "A4"], notes: ["A4"], gap: -0.1),
            Row(["A4", "C4-3c", "--output", "x.flac", "--rate", "48000"], notes: ["A4", "C4-3c"], output: "x.flac", rate: 48000),
            Row(["A4", "-D", "hw:1,0", "-r", "96000", "-q"], notes: ["A4"], device: "hw:1,0", rate: 96000, quiet: true),
            Row(["A4", "--device", "pulse", "-v"], notes: ["A4"], device: "pulse", verbose: true),
            Row(["A4", "--", "C4-3c"], notes: ["A4", "C4-3c"])
        ])
    func table(row: Row) throws {
        let c = try parse(row.args)
        #expect(c.notes == row.notes)
        #expect(c.duration == row.duration)
        #expect(c.gap == row.gap)
        #expect(c.cents == row.cents)
        #expect(c.reference == row.reference)
        #expect(c.output == row.output)
        #expect(c.device == row.device)
        #expect(c.rate == row.rate)
        #expect(c.quiet == row.quiet)
        #expect(c.verbose == row.verbose)
        _ = try c.makePlan()
    }

    @Test("frequencies the plan computes")
    func frequencies() throws {
        #expect(try parse(["A4", "--reference", "442"]).makePlan().sequence.frequencies == [442])
        let detuned = try parse(["A4", "1000Hz", "--cents", "1200"]).makePlan().sequence.frequencies
        #expect(abs(detuned[0] - 880) < 1e-9 && abs(detuned[1] - 2000) < 1e-9)
        let c4 = try parse(["C4+12.5c"]).makePlan().sequence.frequencies[0]
        #expect(abs(c4 - 263.5214119) < 1e-6)
        let plan = try parse(["A4", "A4+3c", "--duration", "0.5", "--gap", "0.25", "-r", "48000"]).makePlan()
        #expect(plan.sequence.onsetFrame(1) == 36000)
        #expect(plan.specs == [try NoteSpec.parse("A4"), try NoteSpec.parse("A4+3c")])
    }

    @Test(
        "bad notes and values are usage errors (64) with one line saying what is accepted",
        arguments: [
            (["25000Hz"], "20...20000 Hz"), (["5Hz"], "20...20000 Hz"), (["H9"], "expected a note name"),
            (["A4+x"], "expected a note name"), (["A4", "440"], "expected a note name"), (["C-1"], "20...20000 Hz"),
            (["A4", "--reference", "1000"], "300...600"), (["A4", "--reference", "nan"], "300...600"),
            (["A4", "--duration", "0"], "0.02...3600"), (["A4", "--duration", "inf"], "0.02...3600"),
            (["A4", "--gap=-1"], "more than -duration"), (["A4", "--cents", "5000"], "-1200...1200"),
            (["C8", "-r", "8000"], "half the sample rate")
        ])
    func usageErrors(args: [String], expected: String) throws {
        let c = try parse(args)
        do {
            _ = try c.makePlan()
            Issue.record("\(args) accepted")
        } catch let e as BoopExit {
            #expect(e.status == .usage)
            #expect(e.message.contains(expected), "\(e.message)")
            #expect(!e.message.contains("\n"))
        }
    }

    @Test("parse errors: no note, unknown option, non-numeric values")
    func parseErrors() {
        // (The shared DeviceOptions check -D/-r/-q/-v while parsing.)
        for args in [
            [], ["A4", "--bogus"], ["A4", "--duration", "abc"], ["A4", "-r", "x"], ["A4", "-r", "1000"],
            ["A4", "-q", "-v"], ["A4", "-D", ""]
        ] {
            #expect(throws: (any Error).self) { try Boop.parseAsRoot(["tone"] + args) }
        }
    }

    /// As `Boop.main` parses: the long-note pass first, then ArgumentParser, then the notes put back.
    func parseLikeMain(_ args: [String]) throws -> ToneCommand {
        ToneCommand.forgetLiftedNotes()
        defer { ToneCommand.forgetLiftedNotes() }
        var c = try #require(try Boop.parseAsRoot(ToneCommand.liftNotes(from: ["tone"] + args)) as? ToneCommand)
        if let notes = ToneCommand.liftedNotes { c.notes = notes }
        return c
    }

    // Serialized: the pass hands the notes over in a static, as main does once per process.
    @Test(
        "options after many notes parse as after few (64 notes once gave -q to --gain)", .serialized,
        arguments: [1, 63, 64, 65, 100, 1000])
    func manyNotes(count: Int) throws {
        let notes = (0..<count).map { $0 % 2 == 0 ? "A4" : "C5" }
        let tail = ["--gain", "3", "-q", "--backend", "alsa", "-o", "x.wav", "--gap=-0.01", "-D", "hw:1,0"]
        for args in [notes + tail, tail + notes, Array(notes.prefix(1)) + tail + Array(notes.dropFirst())] {
            let c = try parseLikeMain(args)
            #expect(c.notes == notes)
            #expect(c.gainOption.gain == 3)
            #expect(c.quiet)
            #expect(c.output == "x.wav")
            #expect(c.gap == -0.01)
            #expect(c.device == "hw:1,0")
        }
    }

    @Test("the long-note pass knows every option that takes a value")
    func valueOptions() {
        for name in [
            "--duration", "--gap", "--cents", "--reference", "-o", "--output", "-D", "--device", "-r", "--rate",
            "--backend", "--gain"
        ] {
            #expect(ToneCommand.valueOptions.contains(name), "\(name)")
        }
        for flag in ["-q", "--quiet", "-v", "--verbose", "--no-connect"] {
            #expect(!ToneCommand.valueOptions.contains(flag), "\(flag)")
        }
    }
}

/// Runs the built `boop` (next to the test bundle) when it is there.
@Suite("boop tone end to end")
struct ToneCommandProcessTests {
    static let boop: URL? = {
        let dir = Bundle.main.bundleURL
        for candidate in [dir.appendingPathComponent("boop"), dir.deletingLastPathComponent().appendingPathComponent("boop")] {
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }()

    func run(_ args: [String]) throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = Self.boop!
        process.arguments = args
        let err = Pipe()
        process.standardError = err
        process.standardOutput = Pipe()
        try process.run()
        let data = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test("exit 64, one line, no output file", .enabled(if: boop != nil), arguments: ["25000Hz", "5Hz", "H9", "A4+x"])
    func rejected(note: String) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tonecli-\(getpid())-\(note)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("t.wav").path
        let (status, stderr) = try run(["tone", note, "-o", out])
        #expect(status == 64)
        #expect(stderr.split(separator: "\n").count == 1, "\(stderr)")
        #expect(stderr.contains("expected"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
    }

    @Test("-o writes the file; the same arguments give the same bytes", .enabled(if: boop != nil))
    func renders() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tonecli-\(getpid())-ok")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = dir.appendingPathComponent("a.wav").path
        let b = dir.appendingPathComponent("b.wav").path
        #expect(try run(["tone", "A4", "A4+3c", "--duration", "0.2", "--gap", "0.1", "-o", a]).status == 0)
        #expect(try run(["tone", "A4", "A4+3c", "--duration", "0.2", "--gap", "0.1", "-o", b]).status == 0)
        let da = try Data(contentsOf: URL(fileURLWithPath: a))
        let db = try Data(contentsOf: URL(fileURLWithPath: b))
        // DESIGN: the same arguments give the same bytes (no timestamps anywhere in the file).
        #expect(da.count > 22050 * 4)
        #expect(da == db)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["a.wav", "b.wav"])
    }
}
