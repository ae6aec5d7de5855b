import ArgumentParser
import Foundation
import PixelBoopCore
import Testing

@testable import boop_cli

@Suite("boop listen and boop devices arguments")
struct ListenDevicesParsingTests {
    func parseListen(_ args: [String]) throws -> ListenCommand {
        let command = try Boop.parseAsRoot(["listen"] + args)
        return try #require(command as? ListenCommand)
    }

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

    @Test("devices parses with and without --json; rejects extra arguments")
    func devicesParsing() throws {
        let d = try #require(try Boop.parseAsRoot(["devices"]) as? DevicesCommand)
        #expect(!d.json)
        let j = try #require(try Boop.parseAsRoot(["devices", "--json"]) as? DevicesCommand)
        #expect(j.json)
        #expect(throws: (any Error).self) { try Boop.parseAsRoot(["devices", "extra"]) }
    }

    @Test("the devices table marks the default and splits playback from capture")
    func devicesTable() {
        let list = [
            AudioDevice(name: "default", description: "Default ALSA device", playback: true, capture: true, isDefault: true),
            AudioDevice(name: "hdmi", description: "HDMI out", playback: true, capture: false, isDefault: false),
            AudioDevice(name: "mic", description: "USB \"mic\"", playback: false, capture: true, isDefault: false)
        ]
        let table = DevicesCommand.table(list)
        #expect(
            table == """
                Playback devices:
                * default  Default ALSA device
                  hdmi     HDMI out
                Capture devices:
                * default  Default ALSA device
                  mic      USB "mic"

                """)
        let json = DevicesCommand.json(list)
        #expect(
            json.hasPrefix(
                "[{\"backend\":\"alsa\",\"name\":\"default\",\"description\":\"Default ALSA device\",\"playback\":true,\"capture\":true,\"default\":true,\"kind\":\"audio\"}"
            ))
        #expect(json.contains("\"description\":\"USB \\\"mic\\\"\""))
    }

    @Test("with a JACK server, its ports follow the ALSA devices in their own sections")
    func devicesTableWithJack() {
        var port = AudioDevice(
            name: "system:playback_1", description: "physical playback port (takes audio)",
            playback: true, capture: false, isDefault: false)
        port.backend = .jack
        let table = DevicesCommand.table([
            AudioDevice(name: "default", description: "Default", playback: true, capture: true, isDefault: true), port
        ])
        #expect(
            table.contains(
                "JACK ports that take audio (--backend jack plays into the physical ones):\n"
                    + "  system:playback_1  physical playback port (takes audio)\n"))
        #expect(table.contains("JACK ports that give audio (--backend jack records from the physical ones):\n  (none)\n"))
        #expect(DevicesCommand.json([port]).hasPrefix("[{\"backend\":\"jack\",\"name\":\"system:playback_1\""))
    }

    @Test("synth: -D, -r, --period-frames and --midi on ALSA; --midi-connect and --no-connect on JACK")
    func synthBackendFlags() throws {
        let alsa = try #require(
            try Boop.parseAsRoot(["synth", "--midi", "24:0", "--midi", "Keystation", "-D", "hw:0,0", "--period-frames", "128"])
                as? SynthCommand)
        #expect(alsa.alsaOptions.midi == ["24:0", "Keystation"])
        #expect(alsa.alsaOptions.config.periodFrames == 128)
        #expect(alsa.alsaOptions.config.device == "hw:0,0")
        #expect(try Boop.parseAsRoot(["synth", "--backend", "jack", "--midi-connect", "a:b"]) is SynthCommand)
        #expect(throws: (any Error).self) { try Boop.parseAsRoot(["synth", "--backend", "jack", "--midi", "24:0"]) }
        #expect(throws: (any Error).self) { try Boop.parseAsRoot(["synth", "--midi-connect", "a:b"]) }
        #expect(throws: (any Error).self) { try Boop.parseAsRoot(["synth", "--period-frames", "9000"]) }
    }

    @Test("--json lists the MIDI ports after the audio devices, each with kind midi")
    func devicesJsonWithMidi() {
        var keys = AudioDevice(
            name: "24:0", description: "ALSA sequencer: Keystation - MIDI 1", playback: false, capture: true,
            isDefault: false)
        keys.backend = .alsa
        let json = DevicesCommand.json(
            [AudioDevice(name: "default", description: "Default", playback: true, capture: true, isDefault: true)],
            midi: [keys])
        #expect(json.contains("\"default\":true,\"kind\":\"audio\"}"))
        #expect(
            json.hasSuffix(
                ",{\"backend\":\"alsa\",\"name\":\"24:0\",\"description\":\"ALSA sequencer: Keystation - MIDI 1\",\"playback\":false,\"capture\":true,\"default\":false,\"kind\":\"midi\"}]"
            ))
    }

    @Test("--backend jack and --no-connect on every live command; --no-connect needs jack")
    func backendOption() throws {
        for args in [["play", "p.json"], ["tone", "A4"], ["ambient"], ["listen"]] {
            let command = try Boop.parseAsRoot(args + ["--backend", "jack", "--no-connect"])
            let options: DeviceOptions? =
                (command as? PlayCommand)?.deviceOptions ?? (command as? ToneCommand)?.deviceOptions
                ?? (command as? AmbientCommand)?.deviceOptions ?? (command as? ListenCommand)?.deviceOptions
            let route = try #require(options).route
            #expect(route == AudioRoute(device: "default", backend: .jack, connect: false))
            #expect(route.description == "JACK client 'boop'")
            #expect(throws: (any Error).self) { try Boop.parseAsRoot(args + ["--no-connect"]) }
            #expect(throws: (any Error).self) { try Boop.parseAsRoot(args + ["--backend", "pulse"]) }
        }
        let listen = try parseListen(["--backend", "jack"])
        #expect(listen.streamConfig.backend == .jack && listen.streamConfig.connect)
        #expect(try parseListen([]).deviceOptions.route == AudioRoute(device: "default"))
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

    @Test("DeviceOptions: rate stays optional so each command applies its own default")
    func deviceOptions() throws {
        let o = try DeviceOptions.parse([])
        #expect(o.device == "default")
        #expect(o.sampleRate(default: 44100) == 44100)
        let r = try DeviceOptions.parse(["-r", "22050", "-D", "pulse"])
        #expect(r.sampleRate(default: 44100) == 22050)
        #expect(r.device == "pulse")
    }
}
