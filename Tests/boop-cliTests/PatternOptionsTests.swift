import ArgumentParser
import Testing

@testable import boop_cli

@Suite("boop play / render argument parsing")
struct PatternOptionsTests {
    static let accepted: [[String]] = [
        ["render", "p.json", "-o", "x.wav"],
        [
            "render", "p.json", "--output", "x.flac", "--loops", "3", "-r", "48000", "--voices", "32", "--bpm", "133.5",
            "--sample-format", "s16"
        ],
        ["render", "p.json", "-o", "x.wav", "-q", "-v"],
        ["play", "p.json"],
        ["play", "p.json", "-D", "pulse", "--loops", "2", "--no-display", "-v"],
        [
            "play", "p.json", "--device", "hw:0,0", "-r", "48000", "--period-frames", "256", "--periods", "4", "--voices", "16",
            "--bpm", "90"
        ]
    ]

    @Test("valid argument lists parse", arguments: accepted)
    func parses(_ args: [String]) throws {
        let command = try Boop.parseAsRoot(args)
        #expect(command is RenderCommand || command is PlayCommand)
    }

    @Test("render options land in the right fields")
    func renderFields() throws {
        let c = try #require(
            try Boop.parseAsRoot([
                "render", "p.json", "-o", "x.wav", "--loops", "3", "-r", "48000", "--voices", "32", "--sample-format", "s16"
            ]) as? RenderCommand)
        #expect(c.patternOptions.pattern == "p.json")
        #expect(c.output == "x.wav")
        #expect(c.patternOptions.loops == 3)
        #expect(c.rate == 48000)
        #expect(c.patternOptions.voices == 32)
        #expect(c.sampleFormat.sampleFormat == "s16")
    }

    @Test("play defaults: device default, the 128 x 3 default buffer (not fixed: adaptive), display on")
    func playDefaults() throws {
        let c = try #require(try Boop.parseAsRoot(["play", "p.json"]) as? PlayCommand)
        #expect(c.deviceOptions.device == "default")
        #expect(c.periodFrames == nil)
        #expect(c.periods == nil)
        #expect(c.adaptive == nil)
        #expect(c.noDisplay == false)
        #expect(c.patternOptions.loops == nil)
    }

    @Test("--adaptive and --no-adaptive parse")
    func adaptiveFlags() throws {
        let on = try #require(try Boop.parseAsRoot(["play", "p.json", "--periods", "4", "--adaptive"]) as? PlayCommand)
        #expect(on.adaptive == true)
        let off = try #require(try Boop.parseAsRoot(["play", "p.json", "--no-adaptive"]) as? PlayCommand)
        #expect(off.adaptive == false)
    }

    static let refused: [[String]] = [
        ["render", "p.json"],   // -o is required
        ["render", "-o", "x.wav"],   // pattern is required
        ["render", "p.json", "-o", "x.wav", "--loops", "0"],
        ["render", "p.json", "-o", "x.wav", "--voices", "257"],
        ["render", "p.json", "-o", "x.wav", "--bpm", "59"],
        ["render", "p.json", "-o", "x.wav", "--bpm", "nan"],
        ["render", "p.json", "-o", "x.wav", "-r", "7999"],
        ["render", "p.json", "-o", "x.wav", "-r", "400000"],
        ["play", "p.json", "-D", ""],
        ["render", "p.json", "-o", "x.wav", "--sample-format", "f64"],
        ["play", "p.json", "--periods", "1"],
        ["play", "p.json", "--period-frames", "8"],
        ["play", "p.json", "--frobnicate"]
    ]

    @Test("invalid argument lists are refused (exit 64)", arguments: refused)
    func refuses(_ args: [String]) {
        do {
            _ = try Boop.parseAsRoot(args)
            Issue.record("accepted \(args)")
        } catch {
            #expect(Boop.exitCode(for: error).rawValue == 64)
        }
    }

    /// Every option checked against its range says it the same way: the option, the value as given,
    /// the range as the messages write it, and the unit when there is one.
    @Test("an option out of its range: one message shape")
    func outOfRangeMessage() throws {
        #expect(throws: Never.self) { try validateRange(nil as Int?, 1...4, option: "--periods") }
        #expect(throws: Never.self) { try validateRange(4, 1...4, option: "--periods") }
        #expect(throws: Never.self) { try validateRange(0.5, 0.5...60, option: "--listen-seconds") }
        let said = { (body: () throws -> Void) -> String? in
            do { try body() } catch let error as ValidationError { return error.message } catch { return "\(error)" }
            return nil
        }
        #expect(said { try validateRange(5, 1...4, option: "--periods") } == "--periods 5: expected 1...4")
        #expect(
            said { try validateRange(0.4, 0.5...60, option: "--listen-seconds") } == "--listen-seconds 0.4: expected 0.5...60")
        #expect(
            said { try validateRange(9.0, 0.1...5.0, option: "--gap", unit: "seconds") } == "--gap 9.0: expected 0.1...5 seconds")
        #expect(
            said { try validateRange(481.0, 400...480, option: "--reference", unit: "Hz") }
                == "--reference 481.0: expected 400...480 Hz")
    }
}
