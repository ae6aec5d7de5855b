import ArgumentParser
import PixelBoopCore
import Testing

@testable import boop_cli

@Suite("--sample-format and --reconnect, shared by render, ambient and play")
struct SampleFormatOptionTests {
    @Test("no --sample-format: float for WAV, 16-bit for FLAC and Ogg (they carry no float)")
    func naturalFormat() throws {
        let none = try SampleFormatOption.parse([])
        #expect(none.format(forPath: "take.wav") == .f32)
        #expect(none.format(forPath: "TAKE.WAV") == .f32)
        #expect(none.format(forPath: "take.flac") == .s16)
        #expect(none.format(forPath: "take.ogg") == .s16)
    }

    @Test("--sample-format wins over the file type")
    func asked() throws {
        #expect(try SampleFormatOption.parse(["--sample-format", "s16"]).format(forPath: "x.wav") == .s16)
        #expect(try SampleFormatOption.parse(["--sample-format", "f32"]).format(forPath: "x.flac") == .f32)
    }

    @Test("an unknown format is refused in one line naming the option and what it takes")
    func refused() {
        for bad in ["f64", "S16", "", "s16\u{1B}[2J"] {
            let error = #expect(throws: (any Error).self) { try SampleFormatOption.parse(["--sample-format", bad]) }
            let message = error.map(SampleFormatOption.message(for:)) ?? ""
            #expect(message.hasPrefix("--sample-format ") && message.hasSuffix(": expected f32 or s16"))
            #expect(!message.contains("\n") && !message.contains("\u{1B}"))
        }
    }

    @Test("render, ambient -o and play take the shared options")
    func commands() throws {
        let render = try #require(try Boop.parseAsRoot(["render", "p.json", "-o", "x.ogg"]) as? RenderCommand)
        #expect(render.sampleFormat.format(forPath: render.output) == .s16)
        let ambient = try #require(try Boop.parseAsRoot(["ambient", "--reconnect"]) as? AmbientCommand)
        #expect(ambient.reconnect)
        let play = try #require(try Boop.parseAsRoot(["play", "p.json", "--reconnect"]) as? PlayCommand)
        #expect(play.reconnectOption.reconnect)
        #expect(try Boop.parseAsRoot(["play", "p.json"]) is PlayCommand)
    }
}
