import ArgumentParser
import Testing

@testable import PixelBoopCore
@testable import boop_cli

@Suite("boop ambient arguments")
struct AmbientCommandTests {
    func parse(_ args: [String]) throws -> AmbientCommand {
        let command = try Boop.parseAsRoot(["ambient"] + args)
        return try #require(command as? AmbientCommand)
    }

    @Test("defaults: Bright_Bells, seed 1, live on the default device at 44100 Hz")
    func defaults() throws {
        let c = try parse([])
        #expect(c.preset == "Bright_Bells")
        #expect(c.seed == 1)
        #expect(c.duration == nil)
        #expect(c.output == nil)
        #expect(c.device == "default")
        #expect(c.sampleRate == 44100)
        #expect(!c.list && !c.reconnect && !c.quiet && !c.verbose)
        #expect(c.fileFormat(for: "a.wav") == .f32)
        #expect(c.fileFormat(for: "a.flac") == .s16)
        #expect(try parse(["--sample-format", "s16"]).fileFormat(for: "a.wav") == .s16)
    }

    @Test("every option parses")
    func full() throws {
        let c = try parse([
            "--preset", "Dark_Textures", "--seed", "18446744073709551615", "--duration", "12.5",
            "-o", "a.wav", "-r", "48000", "--sample-format", "s16", "-v"
        ])
        #expect(c.preset == "Dark_Textures")
        #expect(c.seed == UInt64.max)
        #expect(c.duration == 12.5)
        #expect(c.output == "a.wav")
        #expect(c.sampleRate == 48000)
        #expect(c.sampleFormat.sampleFormat == "s16")
        #expect(c.verbose && !c.quiet)
        #expect(try parse(["-q"]).quiet)
        #expect(throws: (any Error).self) { try parse(["-q", "-v"]) }   // the shared DeviceOptions rule
        let live = try parse(["-D", "hw:1,0", "--reconnect", "--list"])
        #expect(live.device == "hw:1,0")
        #expect(live.reconnect && live.list)
        let long = try parse(["--device", "pulse", "--output", "b.flac", "--rate", "22050"])
        #expect(long.device == "pulse")
        #expect(long.output == "b.flac")
        #expect(long.sampleRate == 22050)
    }

    static let bad: [[String]] = [
        ["--seed", "-1"],
        ["--seed", "seven"],
        ["--duration", "0"],
        ["--duration", "-3"],
        ["--duration", "nan"],
        ["--duration", "inf"],
        ["--duration", "100000"],
        ["-r", "1000"],
        ["-r", "400000"],
        ["--sample-format", "f64"],
        ["-o", "x.wav", "--reconnect"],
        ["--preset"],
        ["--volume", "3"],
        ["-D", ""],
        ["extra-argument"]
    ]

    @Test("bad arguments are refused (exit 64)", arguments: bad)
    func refused(_ args: [String]) {
        #expect(throws: (any Error).self) { try parse(args) }
        do {
            _ = try parse(args)
        } catch {
            #expect(Boop.exitCode(for: error).rawValue == 64)
        }
    }

    @Test("-o without --duration renders 60 s; -d is not the device flag (-D is)")
    func renderDefaults() throws {
        #expect(AmbientCommand.defaultRenderSeconds == 60)
        #expect(throws: (any Error).self) { try parse(["-d", "pulse"]) }
    }

    @Test("the terminal view shows preset, seed, key, chord, meters, level and state")
    func view() {
        let s = AmbientStatus(
            frame: 44100 * 83, chords: 9, key: "F#", scale: "lydian", chord: "Bmaj7",
            peakLeft: 0.5, peakRight: 0.25, levelPad: 0.2, levelLead: 0, levelGrain: 0.01,
            levelOcean: 0.001, levelReverb: 0.1, paused: false, fading: false, finished: false)
        let line = AmbientCommand.view(preset: AmbientPreset(name: "Test"), seed: 7, status: s, rate: 44100, paused: true)
        #expect(line.hasPrefix("Test  #7  F# lydian  Bmaj7"))
        #expect(line.contains("-6 dB"))
        #expect(line.contains("1:23"))
        #expect(line.hasSuffix("paused "))
        #expect(!line.contains("\n"))
    }

    @Test("the status line fits the terminal: meters go first, then seed and level, never wrapped", arguments: [40, 80, 100])
    func viewFitsWidth(columns: Int) {
        let s = AmbientStatus(
            frame: 44100 * 83, chords: 9, key: "F#", scale: "lydian", chord: "Bmaj7",
            peakLeft: 0.5, peakRight: 0.25, levelPad: 0.2, levelLead: 0, levelGrain: 0.01,
            levelOcean: 0.001, levelReverb: 0.1, paused: false, fading: false, finished: false)
        let preset = AmbientPreset(name: "Dark_Textures")
        let full = AmbientCommand.view(preset: preset, seed: 12345, status: s, rate: 44100, paused: false)
        #expect(full.count > 100)
        let line = AmbientCommand.view(
            preset: preset, seed: 12345, status: s, rate: 44100, paused: false, columns: columns)
        #expect(line.count < columns)
        #expect(line.hasPrefix("Dark_Textures"))
        #expect(line.hasSuffix("playing"))
        #expect(line.contains("1:23"))
        if columns >= 80 {
            #expect(line.contains("F# lydian") && line.contains("pad "))
            #expect(!line.contains("ocean"))
        }
    }

    @Test("shell completion offers the bundled preset names after --preset")
    func presetCompletion() {
        #expect(AmbientPreset.bundled.count >= 6)
        for shell in [CompletionShell.bash, .zsh, .fish] {
            let script = Boop.completionScript(for: shell)
            for preset in AmbientPreset.bundled {
                #expect(script.contains(preset.name), "\(shell): \(preset.name)")
            }
        }
    }

    @Test("fitting: a lone field too long is cut; no limit leaves the line whole")
    func fitCuts() {
        #expect(StatusLine.fit([StatusField(String(repeating: "x", count: 50), priority: 0)], columns: 20).count == 19)
        let fields = [StatusField("a", priority: 0), StatusField("bb", priority: 2), StatusField("c", priority: 1)]
        #expect(StatusLine.fit(fields, columns: nil) == "a  bb  c")
        #expect(StatusLine.fit(fields, columns: 6) == "a  c")
    }
}
