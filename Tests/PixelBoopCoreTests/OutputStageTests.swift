import Foundation
import Testing

@testable import PixelBoopCore

/// Levels: ambient presets at one loudness, true peaks under -1 dBTP, --gain exact. Measured
/// with the engine's BS.1770 meter (itself checked against EBU Tech 3341 signals in the C++
/// tests) on rendered samples.
@Suite("Loudness and the output stage")
struct OutputStageTests {
    static let target = -18.0

    /// Renders `seconds` of a preset as `boop ambient -o` does (output stage included).
    static func ambient(_ preset: AmbientPreset, seed: UInt64, seconds: Double) throws -> LoudnessMeter {
        let rate = 44100.0
        let engine = try AmbientEngine(preset: preset, seed: seed, sampleRate: rate, maxBlockFrames: 4096)
        let stage = try OutputStage(sampleRate: rate, channels: AmbientEngine.channels)
        let meter = try LoudnessMeter(sampleRate: rate, channels: AmbientEngine.channels)
        var buffer = [Float](repeating: 0, count: 4096 * AmbientEngine.channels)
        for _ in 0..<Int(seconds * rate / 4096) {
            engine.render(into: &buffer, frames: 4096)
            buffer.withUnsafeBufferPointer { b in
                stage.process(b) { meter.add($0, frames: $0.count / AmbientEngine.channels) }
            }
        }
        return meter
    }

    @Test(
        "every bundled preset, three seeds: within 1 LU of -18 LUFS, true peak at most -1 dBTP",
        arguments: AmbientPreset.bundled.map(\.name))
    func presetLoudness(_ name: String) throws {
        let preset = try #require(AmbientPreset.bundled.first { $0.name == name })
        for seed: UInt64 in [2, 5, 9] {
            let meter = try OutputStageTests.ambient(preset, seed: seed, seconds: 30)
            #expect(abs(meter.integrated - OutputStageTests.target) <= 1.0, "\(name) seed \(seed): \(meter.integrated) LUFS")
            #expect(meter.truePeak <= -1.0, "\(name) seed \(seed): \(meter.truePeak) dBTP")
        }
    }

    /// A pattern at the edge: every track on every step, chords stacked, all accented.
    static var dense: Song {
        var tracks: [TrackKind: [SongNote]] = [:]
        tracks[.melody] = (0..<16).map { SongNote(step: $0, pitch: 84 + $0 % 5, velocity: .accent) }
        tracks[.chords] = (0..<16).flatMap { s in [60, 64, 67, 71].map { SongNote(step: s, pitch: $0, velocity: .accent) } }
        tracks[.bass] = (0..<16).map { SongNote(step: $0, pitch: 36 + $0 % 3, velocity: .accent) }
        tracks[.rhythm] = (0..<16).flatMap { s in [36, 38, 42].map { SongNote(step: s, pitch: $0, velocity: .accent) } }
        return Song(name: "Dense", bpm: 200, length: 16, tracks: tracks)
    }

    static func render(_ pattern: Song, gainDB: Double = 0, voices: Int = 8) throws -> [Float] {
        var r = SongRenderer(song: Song(version1: pattern))
        r.gainDB = gainDB
        r.voices = voices
        r.channels = 2
        var out: [Float] = []
        try r.render { out.append(contentsOf: $0) }
        return out
    }

    @Test("a dense accented pattern and a tone at +12 dB: true peak at most -1 dBTP")
    func limiterHolds() throws {
        let samples = try OutputStageTests.render(OutputStageTests.dense, gainDB: 12, voices: 32)
        let meter = try LoudnessMeter(sampleRate: 44100, channels: 2)
        samples.withUnsafeBufferPointer { meter.add($0, frames: $0.count / 2) }
        #expect(meter.truePeak <= -1.0)
        #expect(meter.truePeak > -3.0)   // limited, not silenced

        var tones = ToneRenderer(
            sequence: try ToneSequence(
                frequencies: [440, 660], duration: 0.5, gap: 0,
                sampleRate: 44100))
        tones.gainDB = 12
        let toneMeter = try LoudnessMeter(sampleRate: 44100, channels: 1)
        try tones.render { toneMeter.add($0, frames: $0.count) }
        #expect(toneMeter.truePeak <= -1.0)
    }

    @Test("--gain -6 on a pattern under the ceiling: every sample 0.501 x the default, same length")
    func gainIsExact() throws {
        let pattern = try PieceFile.load(
            path: URL(fileURLWithPath: #filePath)
                .deletingLastPathComponent().appendingPathComponent("../../examples/demo.json").standardized.path)
        let plain = try OutputStageTests.render(pattern)
        let quieter = try OutputStageTests.render(pattern, gainDB: -6)
        #expect(plain.count == quieter.count)
        let factor = Float(pow(10.0, -6.0 / 20.0))   // 0.501
        var worst = 0.0
        for (a, b) in zip(plain, quieter) where abs(a) > 1e-6 {
            worst = max(worst, abs(20 * log10(Double(b / a)) + 6.0))
        }
        #expect(worst <= 0.01, "\(worst) dB")
        #expect(
            abs(
                quieter[plain.indices.max { abs(plain[$0]) < abs(plain[$1]) }!] / factor
                    - plain.max { abs($0) < abs($1) }!) < 1e-5)
    }

    @Test("out-of-range gains are refused, naming the range")
    func gainRange() {
        #expect(throws: AudioError.self) { try OutputStage(sampleRate: 44100, channels: 1, gainDB: 12.5) }
        #expect(throws: AudioError.self) { try OutputStage(sampleRate: 44100, channels: 1, gainDB: .nan) }
        #expect(throws: Never.self) { try OutputStage(sampleRate: 44100, channels: 1, gainDB: -60) }
    }
}
