import Foundation
import Testing

@testable import PixelBoopCore

/// Rendered files from Swift: what is written reads back (float WAV exactly, 16-bit FLAC to half
/// a step of 1/32768), a file appears only when committed, and a name that cannot be created is
/// refused before any work, naming it (exit 73, "cannot create").
@Suite("AudioFileWriter")
struct AudioFileWriterTests {
    static func folder() throws -> String { try scratchFolder("writer") }

    /// One second of a stereo 440 Hz sine at 0.5, right at half the left.
    static func stereo(_ rate: Double) -> [Float] {
        (0..<Int(rate)).flatMap { i -> [Float] in
            let x = Float(0.5 * sin(2 * Double.pi * 440 * Double(i) / rate))
            return [x, 0.5 * x]
        }
    }

    @Test("a float WAV reads back exactly (mixed to mono by the reader)")
    func wav() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/a.wav"
        let writer = try AudioFileWriter(path: path, sampleRate: 48000, channels: 2)
        let samples = Self.stereo(48000)
        try writer.write(samples)
        try writer.commit()
        let file = try WavFile(path: path)
        #expect(file.sampleRate == 48000)
        #expect(file.samples.count == 48000)
        let mono = stride(from: 0, to: samples.count, by: 2).map { Float((Double(samples[$0]) + Double(samples[$0 + 1])) / 2) }
        #expect(file.samples == mono)
    }

    @Test("a 16-bit FLAC reads back within half a step of 1/32768")
    func flac() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/a.flac"
        #expect(SampleFormat.natural(forPath: path) == .s16)
        let writer = try AudioFileWriter(path: path, sampleRate: 44100, channels: 1, format: .s16)
        let samples = (0..<44100).map { Float(0.5 * sin(2 * Double.pi * 440 * Double($0) / 44100)) }
        try writer.write(samples)
        try writer.commit()
        let back = try RecordingFile.read(path: path)
        #expect(back.sampleRate == 44100)
        #expect(back.samples.count == samples.count)
        let worst = zip(back.samples, samples).map { abs($0 - $1) }.max() ?? 1
        #expect(worst <= 0.5 / 32768 + 1e-7)
    }

    @Test("nothing at the name until commit; an abort leaves nothing; writing after commit is refused")
    func commitAndAbort() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/b.wav"
        let writer = try AudioFileWriter(path: path, sampleRate: 48000, channels: 1)
        try writer.write([Float](repeating: 0.25, count: 4800))
        #expect(!FileManager.default.fileExists(atPath: path))
        try writer.commit()
        #expect(FileManager.default.fileExists(atPath: path))
        #expect(throws: AudioError.ioError("\(path): already closed")) { try writer.write([0]) }
        let aborted = dir + "/c.wav"
        let other = try AudioFileWriter(path: aborted, sampleRate: 48000, channels: 1)
        try other.write([0.5])
        other.abort()
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["b.wav"])
    }

    @Test("a name the writer cannot make: an unknown extension, float FLAC")
    func badNames() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for name in ["x.mp3", "x.flac"] {
            #expect(
                throws: AudioError.cannotCreateFile("\(dir)/\(name): expected a .wav, .flac or .ogg name (float32 needs .wav)")
            ) {
                try AudioFileWriter(path: "\(dir)/\(name)", sampleRate: 48000, channels: 1, format: .f32)
            }
        }
    }

    @Test("an output name checked before any work: folder, device, missing or unwritable folder, too long")
    func outputPath() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try OutputPath.check(dir + "/new.wav")
        #expect(throws: AudioError.cannotCreateFile("\(dir): is a directory (expected a file name)")) {
            try OutputPath.check(dir)
        }
        #expect(throws: AudioError.cannotCreateFile("/dev/null: is not a regular file (expected a file name)")) {
            try OutputPath.check("/dev/null")
        }
        #expect(throws: AudioError.cannotCreateFile("\(dir)/none/x.wav: folder \(dir)/none does not exist")) {
            try OutputPath.check(dir + "/none/x.wav")
        }
        #expect(throws: AudioError.cannotCreateFile("(empty name): expected an output file name")) { try OutputPath.check("") }
        let long = dir + "/" + String(repeating: "n", count: Int(NAME_MAX) + 1) + ".wav"
        #expect(throws: AudioError.self) { try OutputPath.check(long) }
        if getuid() != 0 {
            #expect(throws: AudioError.cannotCreateFile("/proc/x.wav: folder /proc is not writable")) {
                try OutputPath.check("/proc/x.wav")
            }
        }
    }
}
