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

    @Test("--channel: timbres, palette voices, kits and off; song tracks only with --instruments")
    func channels() throws {
        let c = try #require(
            try Boop.parseAsRoot([
                "synth", "--channel", "4=pluck", "--channel", "11=808", "--channel", "12=off", "--channel", "2=gm"
            ])
                as? SynthCommand)
        let map = try c.sound.channelVoices()
        #expect(map[4] == .voice(Instrument.Voice(rawValue: "pluck")!))
        #expect(map[11] == .kit(Instrument.Kit(rawValue: "808")!))
        #expect(map[12] == .off)
        #expect(map[2] == .classic(.drums))
        for bad in ["0=sine", "17=sine", "1=kazoo", "1", "1=rhythm"] {
            #expect(throws: (any Error).self) {
                let c = try Boop.parseAsRoot(["synth", "--channel", bad]) as? SynthCommand
                _ = try c?.sound.channelVoices()
            }
        }
    }

    @Test("--instruments: a song's tracks on 1, 2, 3 and 10, --channel moves them")
    func instruments() throws {
        let song = #filePath.split(separator: "/").dropLast(3).joined(separator: "/")
        let path = "/" + song + "/examples/song.json"
        let c = try #require(
            try Boop.parseAsRoot(["synth", "--instruments", path, "--channel", "5=bass", "--channel", "3=saw"]) as? SynthCommand)
        let map = try c.sound.channelVoices()
        guard case .instrument(let melody, .melody)? = map[1] else {
            Issue.record("channel 1: \(String(describing: map[1]))")
            return
        }
        #expect(melody.voice?.rawValue == "pluck")
        #expect(map[10] == .kit(Instrument.Kit(rawValue: "808")!))
        guard case .instrument(_, .bass)? = map[5] else {
            Issue.record("channel 5: \(String(describing: map[5]))")
            return
        }
        #expect(map[3] == .voice(Instrument.Voice(rawValue: "saw")!))
        let missing = try #require(try Boop.parseAsRoot(["synth", "--instruments", "/nonexistent/x.json"]) as? SynthCommand)
        #expect(throws: BoopExit.self) { _ = try missing.sound.channelVoices() }
    }

    @Test("--name, --lookahead: checked; defaults boop and 1")
    func nameAndLookahead() throws {
        let plain = try #require(try Boop.parseAsRoot(["synth"]) as? SynthCommand)
        #expect(plain.sound.name == "boop")
        #expect(plain.sound.lookahead == 1)
        let live = try #require(
            try Boop.parseAsRoot(["synth", "--backend", "jack", "--name", "keys", "--lookahead", "0"]) as? SynthCommand)
        #expect(live.sound.name == "keys")
        #expect(live.sound.lookahead == 0)
        for bad in [["--name", ""], ["--name", "a:b"], ["--lookahead", "2"]] {
            #expect(throws: (any Error).self) { try Boop.parseAsRoot(["synth"] + bad) }
        }
    }

    @Test("--mpe: lower[:N], upper[:N], both; none by default; anything else refused")
    func mpeZones() throws {
        let plain = try #require(try Boop.parseAsRoot(["synth"]) as? SynthCommand)
        #expect(plain.sound.mpeZones == MpeZones())
        let cases: [(String, MpeZones)] = [
            ("lower", MpeZones(lower: 15)), ("lower:5", MpeZones(lower: 5)), ("upper", MpeZones(upper: 15)),
            ("upper:1", MpeZones(upper: 1)), ("both", MpeZones(lower: 7, upper: 7))
        ]
        for (text, zones) in cases {
            let command = try #require(try Boop.parseAsRoot(["synth", "--mpe", text]) as? SynthCommand)
            #expect(command.sound.mpeZones == zones, "\(text)")
        }
        for bad in ["", "lower:0", "lower:16", "upper:x", "both:3", "middle", "lower:"] {
            #expect(throws: (any Error).self) { try Boop.parseAsRoot(["synth", "--mpe", bad]) }
        }
    }

    @Test("the help lists every MIDI message of the library's table and a voice for each GM program")
    func helpTables() {
        let text = SynthSoundOptions.controlsText
        #expect(SynthTables.controls.count >= 15)
        for c in SynthTables.controls { #expect(text.contains(c.message)) }
        for p in 0..<128 { #expect(SynthTables.programVoice(p) != nil) }
        #expect(SynthTables.programVoice(38)?.rawValue == "sub")
        #expect(SynthTables.programLines.count == 16)
    }

    @Test("the README's synth table and program map are the library's (BOOP_SYNTH_CONTROLS, BOOP_GM_FAMILIES)")
    func readmeTables() throws {
        let root = "/" + #filePath.split(separator: "/").dropLast(3).joined(separator: "/")
        let readme = try String(contentsOfFile: root + "/README.md", encoding: .utf8)
        let text = SynthSoundOptions.markdownText
        #expect(readme.contains(text), "README.md, the synth section, should hold:\n\(text)")
    }
}
