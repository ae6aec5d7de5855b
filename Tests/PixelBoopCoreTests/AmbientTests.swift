import CAudioEngine
import Foundation
import Testing

@testable import PixelBoopCore

private let presetFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Sources/PixelBoopCore/Ambient/Presets")

@Suite("Ambient presets")
struct AmbientPresetTests {
    @Test("at least six bundled presets, including the original Bright_Bells and Dark_Textures")
    func bundled() throws {
        let names = AmbientPreset.bundled.map(\.name)
        #expect(names.count >= 6)
        #expect(names.contains("Bright_Bells"))
        #expect(names.contains("Dark_Textures"))
        #expect(Set(names).count == names.count)
        #expect(AmbientPreset.bundled.count == BundledPresets.sources.count)   // every embedded copy parses
        for p in AmbientPreset.bundled { #expect(!p.description.isEmpty) }
        #expect(AmbientPreset.listing.allSatisfy { $0.contains("  ") })
        #expect(AmbientPreset.named("bright_bells")?.name == "Bright_Bells")
    }

    @Test("the compiled-in copies equal the JSON files (rerun scripts/embed-ambient-presets.sh if not)")
    func embeddedMatchesFiles() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: presetFolder.path)
            .filter { $0.hasSuffix(".json") }.sorted()
        #expect(files.map { String($0.dropLast(5)) } == BundledPresets.sources.map(\.name).sorted())
        for source in BundledPresets.sources {
            var text = try String(contentsOf: presetFolder.appendingPathComponent("\(source.name).json"), encoding: .utf8)
            if text.hasSuffix("\n") { text.removeLast() }
            #expect(text == source.json, "\(source.name).json differs from BundledPresets.swift")
            let fromFile = try AmbientPreset.load(path: presetFolder.appendingPathComponent("\(source.name).json").path)
            #expect(fromFile.name == source.name)
        }
    }

    @Test("a minimal preset takes the defaults")
    func defaults() throws {
        let p = try AmbientPreset.parse(Data(#"{"name": "Tiny"}"#.utf8), file: "tiny.json")
        #expect(p == AmbientPreset(name: "Tiny"))
        let unnamed = try AmbientPreset.parse(Data("{}".utf8), file: "/tmp/My_Own.json")
        #expect(unnamed.name == "My_Own")
    }

    // Each bad document and what its one-line message must contain.
    static let badDocuments: [(String, String)] = [
        (#"{"nme": "x"}"#, "t.json: nme: unknown key"),
        (#"{"pad": {"levle": 0.5}}"#, "t.json: pad.levle: unknown key"),
        (#"{"tempo": "slow"}"#, #"t.json: tempo: expected a number 20...240, got "slow""#),
        (#"{"tempo": 300}"#, "t.json: tempo: expected a number 20...240, got 300"),
        (#"{"tempo": true}"#, "t.json: tempo: expected a number 20...240, got true"),
        (#"{"tempo": null}"#, "t.json: tempo: expected a number 20...240, got null"),
        (#"{"reverb": {"mix": 1.5}}"#, "t.json: reverb.mix: expected a number 0...1, got 1.5"),
        (#"{"reverb": {"decay": -1}}"#, "t.json: reverb.decay: expected a number 0.1...60, got -1"),
        (#"{"delay": {"feedback": 0.99}}"#, "t.json: delay.feedback: expected a number 0...0.95, got 0.99"),
        (#"{"delay": []}"#, "t.json: delay: expected an object, got an array"),
        (#"{"lead": {"steps": 8, "pulses": 9}}"#, "t.json: lead.pulses: expected an integer 0...8, got 9"),
        (#"{"lead": {"steps": 8, "rotation": 8}}"#, "t.json: lead.rotation: expected an integer 0...7, got 8"),
        (#"{"lead": {"steps": 65}}"#, "t.json: lead.steps: expected an integer 1...64, got 65"),
        (#"{"lead": {"octave": 4.5}}"#, "t.json: lead.octave: expected an integer 2...7, got 4.5"),
        (
            #"{"pad": {"filterMin": 2000, "filterMax": 1000}}"#,
            "t.json: pad.filterMax: expected a frequency at least pad.filterMin (2000), got 1000"
        ),
        (#"{"pad": {"filterMin": 10}}"#, "t.json: pad.filterMin: expected a number 40...18000, got 10"),
        (#"{"key": "H"}"#, #"t.json: key: expected a key name such as "C", "F#" or "Bb", got "H""#),
        (#"{"key": 2}"#, "t.json: key: expected a key name"),
        (#"{"scale": "blues"}"#, #"t.json: scale: expected "major", "minor""#),
        (#"{"name": "two words"}"#, "t.json: name: expected a name without spaces"),
        (#"{"name": 7}"#, "t.json: name: expected a string, got 7"),
        (#"{"drift": 1e400}"#, "t.json: "),
        (#"{"drift": NaN}"#, "t.json: not valid JSON"),
        (#"[1, 2]"#, "t.json: (top level): expected an object, got an array"),
        (#"{"ocean": {"swellSeconds": 1}}"#, "t.json: ocean.swellSeconds: expected a number 2...60, got 1"),
        (#"{"grain": {"size": 0}}"#, "t.json: grain.size: expected a number 0.01...0.5, got 0"),
        ("{", "t.json: not valid JSON")
    ]

    @Test("invalid presets are refused with one line naming file, field and expectation", arguments: badDocuments)
    func invalid(_ document: String, _ expected: String) {
        do {
            _ = try AmbientPreset.parse(Data(document.utf8), file: "t.json")
            Issue.record("accepted: \(document)")
        } catch {
            #expect(error.kind == .invalid)
            #expect(error.message.contains(expected), "\(error.message)")
            #expect(!error.message.contains("\n"))
        }
    }

    @Test("a missing preset file is .missingFile (exit 66); an unknown bare name too")
    func missing() {
        #expect(throws: PatternError.self) { try AmbientPreset.load(path: "/nonexistent/x.json") }
        do {
            _ = try AmbientPreset.resolve("/nonexistent/x.json")
            Issue.record("resolved a missing file")
        } catch { #expect(error.kind == .missingFile) }
        do {
            _ = try AmbientPreset.resolve("No_Such_Preset")
            Issue.record("resolved an unknown name")
        } catch {
            #expect(error.kind == .missingFile)
            #expect(error.message.contains("Bright_Bells"))
        }
    }

    @Test("a user preset file loads by path")
    func userFile() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("ambient-\(getpid()).json").path
        try Data(#"{"name": "Mine", "key": "Bb", "scale": "dorian", "lead": {"pulses": 3, "steps": 8}}"#.utf8)
            .write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let p = try AmbientPreset.resolve(path)
        #expect(p.keyIndex == 10)
        #expect(p.scaleIndex == 2)
        #expect(p.lead.pulses == 3)
    }

    @Test("Codable round trip keeps every field")
    func codable() throws {
        for p in AmbientPreset.bundled {
            let data = try JSONEncoder().encode(p)
            #expect(try JSONDecoder().decode(AmbientPreset.self, from: data) == p)
            #expect(try AmbientPreset.parse(data, file: "roundtrip.json") == p)
        }
    }
}

@Suite("Ambient engine")
struct AmbientEngineTests {
    static func fnv(_ x: [Float]) -> UInt64 {
        var h: UInt64 = 0xcbf29ce484222325
        x.withUnsafeBytes { for b in $0 { h = (h ^ UInt64(b)) &* 0x100000001b3 } }
        return h
    }

    @Test("every bundled preset renders finite, non-silent audio within [-1, 1]", arguments: AmbientPreset.bundled.map(\.name))
    func bounded(_ name: String) throws {
        let engine = try AmbientEngine(preset: AmbientPreset.named(name)!, seed: 7, sampleRate: 22050)
        let x = engine.render(frames: 22050 * 12)
        #expect(x.allSatisfy { $0.isFinite && abs($0) <= 1 })
        let tail = x[(x.count / 2)...]
        let rms = (tail.reduce(0) { $0 + Double($1) * Double($1) } / Double(tail.count)).squareRoot()
        #expect(rms > 0.01)
        let s = engine.status
        #expect(!s.chord.isEmpty)
        #expect(s.frame == 22050 * 12)
    }

    @Test("same preset and seed give the same samples whatever the block sizes; seed 8 differs")
    func determinism() throws {
        let preset = AmbientPreset.named("Bright_Bells")!
        let a = try AmbientEngine(preset: preset, seed: 7, sampleRate: 44100)
        let b = try AmbientEngine(preset: preset, seed: 7, sampleRate: 44100)
        let c = try AmbientEngine(preset: preset, seed: 8, sampleRate: 44100)
        let x = a.render(frames: 44100 * 5)
        var y: [Float] = []
        var block = [Float]()
        var left = 44100 * 5
        var size = 1
        while left > 0 {
            let n = min(size, left)
            b.render(into: &block, frames: n)
            y += block[0..<(n * 2)]
            left -= n
            size = size * 3 % 1999 + 1
        }
        #expect(x == y)
        #expect(x != c.render(frames: 44100 * 5))
    }

    @Test("offline render: same arguments give identical files, another seed a different one")
    func offlineFiles() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ambient-test-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let preset = AmbientPreset.named("Dark_Textures")!
        var hashes: [UInt64] = []
        for (i, seed) in [7, 7, 8].enumerated() {
            // Over a second apart, so a timestamp anywhere in the file (libsndfile's PEAK chunk
            // carries one unless SFC_SET_ADD_PEAK_CHUNK is turned off) would show up as a difference.
            if i == 1 { Thread.sleep(forTimeInterval: 1.1) }
            let path = dir.appendingPathComponent("\(i).wav").path
            let frames = try AmbientEngine.renderOffline(
                preset: preset, seed: UInt64(seed), sampleRate: 22050, duration: 6, to: path)
            #expect(frames == 22050 * 6)
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            #expect(data.count > 22050 * 6 * 2 * 4)
            var h: UInt64 = 0xcbf29ce484222325
            for b in data { h = (h ^ UInt64(b)) &* 0x100000001b3 }
            hashes.append(h)
        }
        #expect(
            hashes[0] == hashes[1],
            "same arguments, different bytes: a timestamp in the file? (float WAV: libsndfile's PEAK chunk; boop_file_writer_open must call sf_command(SFC_SET_ADD_PEAK_CHUNK, SF_FALSE))"
        )
        #expect(hashes[0] != hashes[2])
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains("tmp") }
        #expect(leftovers.isEmpty)
    }

    @Test("a cancelled offline render leaves no file")
    func cancelled() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("ambient-cancel-\(getpid()).wav").path
        var calls = 0
        #expect(throws: CancellationError.self) {
            try AmbientEngine.renderOffline(
                preset: AmbientPreset.bundled[0], seed: 1, sampleRate: 22050, duration: 10,
                to: path,
                shouldStop: {
                    calls += 1
                    return calls > 3
                })
        }
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test("the end of an offline render fades to silence")
    func endFade() throws {
        let engine = try AmbientEngine(preset: AmbientPreset.named("Morning_Mist")!, seed: 3, sampleRate: 22050)
        let x = engine.render(frames: 22050 * 4)
        #expect(x.contains { $0 != 0 })
        engine.fadeOut(seconds: 0.02)
        let y = engine.render(frames: 2205)
        #expect(y[(441 * 2)...].allSatisfy { $0 == 0 })
        #expect(engine.status.finished)
    }

    @Test("pause stands the music still; resume continues")
    func pause() throws {
        let engine = try AmbientEngine(preset: AmbientPreset.named("Glass_Rain")!, seed: 3, sampleRate: 22050)
        _ = engine.render(frames: 22050)
        engine.setPaused(true, fadeSeconds: 0.01)
        _ = engine.render(frames: 2205)
        let frozen = engine.status.frame
        #expect(engine.status.paused)
        #expect(engine.render(frames: 22050).allSatisfy { $0 == 0 })
        #expect(engine.status.frame == frozen)
        engine.setPaused(false, fadeSeconds: 0.01)
        #expect(engine.render(frames: 22050).contains { $0 != 0 })
        #expect(engine.status.frame == frozen + 22050)
    }

    @Test("the render source is stereo at the engine's rate")
    func source() throws {
        let engine = try AmbientEngine(preset: AmbientPreset.bundled[0], seed: 1, sampleRate: 48000, maxBlockFrames: 512)
        let src = engine.renderSource
        #expect(src.channels == 2)
        #expect(src.sample_rate == 48000)
        #expect(src.max_block_frames == 512)
        #expect(src.render != nil)
    }
}
