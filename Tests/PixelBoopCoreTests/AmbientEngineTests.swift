import CAudioEngine
import Foundation
import Testing

@testable import PixelBoopCore

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

    @Test("a preset keyed C# shows C# and sharp chord roots; keyed Db, Db; the sound is the same")
    func keySpelling() throws {
        var sharp = AmbientPreset.named("Glass_Rain")!
        sharp.key = "C#"
        var flat = sharp
        flat.key = "Db"
        let a = try AmbientEngine(preset: sharp, seed: 3, sampleRate: 22050)
        let b = try AmbientEngine(preset: flat, seed: 3, sampleRate: 22050)
        #expect(a.render(frames: 4096) == b.render(frames: 4096))
        #expect(a.status.key == "C#" && a.status.chord.hasPrefix("C#"))
        #expect(b.status.key == "Db" && b.status.chord.hasPrefix("Db"))
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
