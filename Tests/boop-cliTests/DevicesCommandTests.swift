import ArgumentParser
import Foundation
import Testing

@testable import PixelBoopCore
@testable import boop_cli

@Suite("boop devices arguments and its table")
struct DevicesCommandTests {
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
}
