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
            let text = try String(contentsOf: presetFolder.appendingPathComponent("\(source.name).json"), encoding: .utf8)
            // The embedded copy is the file on one line: each line without its indentation, joined.
            let oneLine = text.split(separator: "\n").map { $0.drop { $0 == " " } }.joined()
            #expect(oneLine == source.json, "\(source.name).json differs from BundledPresets.swift")
            let fromFile = try AmbientPreset.load(path: presetFolder.appendingPathComponent("\(source.name).json").path)
            #expect(fromFile.name == source.name)
        }
    }

    @Test("a minimal preset takes the defaults")
    func defaults() throws {
        let p = try AmbientPreset.parse(Bytes(#"{"name": "Tiny"}"#.utf8), file: "tiny.json")
        #expect(p == AmbientPreset(name: "Tiny"))
        let unnamed = try AmbientPreset.parse(Bytes("{}".utf8), file: "/tmp/My_Own.json")
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
            _ = try AmbientPreset.parse(Bytes(document.utf8), file: "t.json")
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
            #expect(try AmbientPreset.parse(Bytes(data), file: "roundtrip.json") == p)
        }
    }
}
