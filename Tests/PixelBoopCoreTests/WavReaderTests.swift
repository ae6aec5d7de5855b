import Foundation
import Testing

@testable import PixelBoopCore

/// WAV files read to mono (`WavFile`): every sample format the reader names, built here byte by
/// byte from the RIFF/WAVE layout, with the value each format's scaling gives; channels averaged;
/// chunks before the data skipped (odd sizes padded); the extensible header's sub-format; and the
/// two refusals, each naming the file.
@Suite("WavReader")
struct WavReaderTests {
    static func le(_ v: Int, _ bytes: Int) -> [UInt8] { (0..<bytes).map { UInt8((v >> (8 * $0)) & 0xFF) } }

    static func wav(
        format: Int, channels: Int, rate: Int, bits: Int, data: [UInt8], extra: [UInt8] = [],
        extensible: Bool = false
    ) -> [UInt8] {
        var fmt = le(extensible ? 0xFFFE : format, 2) + le(channels, 2) + le(rate, 4)
        fmt += le(rate * channels * bits / 8, 4) + le(channels * bits / 8, 2) + le(bits, 2)
        if extensible { fmt += le(22, 2) + le(bits, 2) + le(0, 4) + le(format, 2) + [UInt8](repeating: 0, count: 14) }
        let chunks = Array("fmt ".utf8) + le(fmt.count, 4) + fmt + extra + Array("data".utf8) + le(data.count, 4) + data
        return Array("RIFF".utf8) + le(4 + chunks.count, 4) + Array("WAVE".utf8) + chunks
    }

    static func read(_ bytes: [UInt8]) throws -> WavFile {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("wav-\(getpid())-\(UUID()).wav").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try WavFile(path: path)
    }

    @Test("8-bit unsigned: (v - 128) / 128")
    func pcm8() throws {
        let file = try Self.read(Self.wav(format: 1, channels: 1, rate: 8000, bits: 8, data: [0, 128, 255, 192]))
        #expect(file.sampleRate == 8000)
        #expect(file.samples == [-1, 0, 127.0 / 128, 0.5])
    }

    @Test("16-bit signed: v / 32768, stereo averaged")
    func pcm16() throws {
        let data = Self.le(16384, 2) + Self.le(-16384 & 0xFFFF, 2) + Self.le(32767, 2) + Self.le(32767, 2)
        let file = try Self.read(Self.wav(format: 1, channels: 2, rate: 44100, bits: 16, data: data))
        #expect(file.samples == [0, Float(32767.0 / 32768)])
        #expect(file.sampleRate == 44100)
    }

    @Test("24- and 32-bit signed: full scale is 1")
    func pcm24and32() throws {
        let d24 = Self.le(0x40_0000, 3) + Self.le(0x80_0000, 3)   // +0.5, -1
        #expect(try Self.read(Self.wav(format: 1, channels: 1, rate: 48000, bits: 24, data: d24)).samples == [0.5, -1])
        let d32 = Self.le(0x2000_0000, 4) + Self.le(Int(UInt32(bitPattern: Int32.min)), 4)
        #expect(try Self.read(Self.wav(format: 1, channels: 1, rate: 48000, bits: 32, data: d32)).samples == [0.25, -1])
    }

    @Test("float 32 and 64 as they are")
    func floats() throws {
        let f32 = [Float(0.125), -0.75].flatMap { Self.le(Int($0.bitPattern), 4) }
        #expect(try Self.read(Self.wav(format: 3, channels: 1, rate: 96000, bits: 32, data: f32)).samples == [0.125, -0.75])
        let f64 = [0.3, -2.0].flatMap { v in (0..<8).map { UInt8((v.bitPattern >> (8 * UInt64($0))) & 0xFF) } }
        #expect(try Self.read(Self.wav(format: 3, channels: 1, rate: 96000, bits: 64, data: f64)).samples == [Float(0.3), -2])
    }

    @Test("a chunk before the data is skipped, an odd one with its pad byte; the extensible header's format")
    func chunks() throws {
        let list = Array("LIST".utf8) + Self.le(3, 4) + [1, 2, 3, 0]
        let data = Self.le(8192, 2)
        let file = try Self.read(Self.wav(format: 1, channels: 1, rate: 22050, bits: 16, data: data, extra: list))
        #expect(file.samples == [0.25])
        let ext = try Self.read(Self.wav(format: 1, channels: 1, rate: 22050, bits: 16, data: data, extensible: true))
        #expect(ext.samples == [0.25])
    }

    @Test("a truncated last frame is left out; a data size past the end is cut to what is there")
    func truncated() throws {
        var bytes = Self.wav(format: 1, channels: 2, rate: 8000, bits: 16, data: Self.le(100, 2) + Self.le(300, 2) + [1, 2])
        #expect(try Self.read(bytes).samples == [Float(200.0 / 32768)])
        bytes = Self.wav(format: 1, channels: 1, rate: 8000, bits: 16, data: Self.le(100, 2))
        bytes.replaceSubrange((bytes.count - 6)..<(bytes.count - 2), with: Self.le(1000, 4))
        #expect(try Self.read(bytes).samples == [Float(100.0 / 32768)])
    }

    @Test("refusals name the file and what was expected")
    func refusals() throws {
        #expect(throws: AudioError.self) { try Self.read(Array("RIFX....WAVE".utf8)) }
        #expect(throws: AudioError.self) { try Self.read(Self.wav(format: 2, channels: 1, rate: 8000, bits: 4, data: [0])) }
        #expect(throws: AudioError.self) { try Self.read(Self.wav(format: 3, channels: 1, rate: 8000, bits: 16, data: [0, 0])) }
        #expect(throws: AudioError.self) { try Self.read(Self.wav(format: 1, channels: 0, rate: 8000, bits: 16, data: [0, 0])) }
        do {
            _ = try WavFile(path: "/nonexistent/x.wav")
            Issue.record("read")
        } catch { #expect("\(error)".includes("/nonexistent/x.wav: cannot be read")) }
        do {
            _ = try Self.read(Array("not a wav file at all".utf8))
            Issue.record("read")
        } catch { #expect("\(error)".includes("expected a WAV file (RIFF/WAVE)")) }
    }
}
