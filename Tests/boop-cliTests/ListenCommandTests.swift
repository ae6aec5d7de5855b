import ArgumentParser
import Foundation
import Testing

@testable import PixelBoopCore
@testable import boop_cli

/// `boop listen ARGS`, parsed (DeviceOptionsTests reads the shared options through it too).
func parseListen(_ args: [String]) throws -> ListenCommand {
    let command = try Boop.parseAsRoot(["listen"] + args)
    return try #require(command as? ListenCommand)
}

@Suite("boop listen arguments and its lines")
struct ListenCommandTests {
    @Test("listen defaults: default device, 16 kHz mono, 2048-frame buffers, no file, live line")
    func listenDefaults() throws {
        let c = try parseListen([])
        #expect(c.deviceOptions.device == "default")
        #expect(c.deviceOptions.rate == nil)
        #expect(c.channels == 1)
        #expect(c.bufferFrames == 2048)
        #expect(c.duration == nil)
        #expect(c.output == nil)
        #expect(!c.json && !c.deviceOptions.quiet && !c.deviceOptions.verbose)
        #expect(c.streamConfig == StreamConfig())
    }

    @Test("listen flags, short and long")
    func listenFlags() throws {
        let c = try parseListen([
            "-D", "pulse", "-r", "48000", "-c", "2", "--buffer-frames", "4096", "--duration", "2.5",
            "-o", "out.wav", "--json", "-v"
        ])
        #expect(c.deviceOptions.device == "pulse")
        #expect(c.deviceOptions.rate == 48000)
        #expect(c.channels == 2)
        #expect(c.bufferFrames == 4096)
        #expect(c.duration == 2.5)
        #expect(c.output == "out.wav")
        #expect(c.json && c.deviceOptions.verbose)
        #expect(c.streamConfig == StreamConfig(sampleRate: 48000, bufferFrames: 4096, channels: 2, device: "pulse"))
        let l = try parseListen(["--device", "hw:1,0", "--rate", "8000", "--channels", "1", "--output", "x.flac", "-q"])
        #expect(l.deviceOptions.device == "hw:1,0")
        #expect(l.deviceOptions.quiet)
        #expect(l.output == "x.flac")
    }

    @Test(
        "listen rejects values out of range",
        arguments: [
            ["-c", "0"], ["-c", "33"], ["--buffer-frames", "10"], ["--duration", "0"], ["--duration", "-1"],
            ["-r", "100"], ["-r", "1000000"], ["-D", ""], ["-q", "-v"], ["--bogus"], ["-o", ""]
        ])
    func listenInvalid(_ args: [String]) {
        #expect(throws: (any Error).self) { try parseListen(args) }
    }

    @Test("--json lines carry time, rms, peak and the pitch or nulls")
    func jsonLines() throws {
        let voiced = ListenCommand.jsonLine(
            time: 0.128, rms: 0.2121, peak: 0.3,
            pitch: PitchReading(frequency: 440.01, confidence: 0.99, note: "A4", midi: 69, cents: 0.04))
        #expect(voiced == #"{"time":0.128,"rms":0.212100,"peak":0.300000,"frequency":440.010,"note":"A4","cents":0.04}"#)
        let obj = try #require(try JSONSerialization.jsonObject(with: Data(voiced.utf8)) as? [String: Any])
        #expect(Set(obj.keys) == ["time", "rms", "peak", "frequency", "note", "cents"])
        let unvoiced = ListenCommand.jsonLine(time: 0, rms: 0, peak: 0, pitch: nil)
        #expect(unvoiced == #"{"time":0.000,"rms":0.000000,"peak":0.000000,"frequency":null,"note":null,"cents":null}"#)
    }

    @Test("the live line shows dBFS, a meter, the note and cents")
    func liveLine() {
        let line = ListenCommand.liveLine(
            time: 1.5, rms: 0.1, peak: 0.3,
            pitch: PitchReading(frequency: 446, confidence: 1, note: "A4", midi: 69, cents: 23.45))
        #expect(line.contains("-20.0 dBFS"))
        #expect(line.contains("[################........]"))
        #expect(line.contains("A4"))
        #expect(line.contains("+23.4c") || line.contains("+23.5c"))
        #expect(line.contains("446.00 Hz"))
        #expect(ListenCommand.liveLine(time: 0, rms: 0, peak: 0, pitch: nil).contains("-inf dBFS"))
        #expect(ListenCommand.liveLine(time: 0, rms: 0.7, peak: 1.0, pitch: nil).contains("CLIP"))
    }

    @Test("the live line fits the terminal: the meter goes first, the level and pitch stay", arguments: [40, 80, 100])
    func liveLineFits(columns: Int) {
        let pitch = PitchReading(frequency: 446, confidence: 1, note: "A4", midi: 69, cents: 23.45)
        let line = ListenCommand.liveLine(time: 12345.5, rms: 0.1, peak: 1.0, pitch: pitch, columns: columns)
        #expect(line.count < columns)
        #expect(line.contains("-20.0 dBFS") && line.contains("CLIP") && line.contains("A4"))
        #expect(line.contains("[") == (columns >= 80))
    }
}
