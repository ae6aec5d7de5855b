import ArgumentParser
import Foundation
import PixelBoopCore
import Testing

@testable import boop_cli

@Suite("boop synth arguments")
struct SynthCommandTests {
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

    @Test("--reconnect: JACK only; off by default")
    func reconnect() throws {
        let jack = try #require(try Boop.parseAsRoot(["synth", "--backend", "jack", "--reconnect"]) as? SynthCommand)
        #expect(jack.reconnect)
        let plain = try #require(try Boop.parseAsRoot(["synth", "--backend", "jack"]) as? SynthCommand)
        #expect(!plain.reconnect)
        #expect(throws: (any Error).self) { try Boop.parseAsRoot(["synth", "--reconnect"]) }
    }

    @Test("--gain: the output stage's range, on either backend; the default is 0 dB")
    func gain() throws {
        let plain = try #require(try Boop.parseAsRoot(["synth"]) as? SynthCommand)
        #expect(plain.gainOption.gain == 0)
        let quieter = try #require(try Boop.parseAsRoot(["synth", "--backend", "jack", "--gain", "-6"]) as? SynthCommand)
        #expect(quieter.gainOption.gain == -6)
        for bad in ["13", "-61", "nan", "loud"] {
            #expect(throws: (any Error).self) { try Boop.parseAsRoot(["synth", "--gain", bad]) }
        }
    }
}
