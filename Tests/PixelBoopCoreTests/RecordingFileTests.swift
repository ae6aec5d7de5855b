import Foundation
import Testing

@testable import PixelBoopCore

/// A recording for `train match --input`: WAV or FLAC mixed to mono; a missing file, a folder and
/// content that is no recording each refused in one message naming the file, with the kind the
/// command turns into its exit status (66 missing or unreadable, 65 content).
@Suite("RecordingFile")
struct RecordingFileTests {
    static func folder() throws -> String { try scratchFolder("recording") }

    @Test("a stereo FLAC is read as its mono mix at its rate")
    func flac() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/take.flac"
        let writer = try AudioFileWriter(path: path, sampleRate: 32000, channels: 2, format: .s16)
        try writer.write((0..<3200).flatMap { _ in [Float(0.5), Float(0.25)] })
        try writer.commit()
        let take = try RecordingFile.read(path: path)
        #expect(take.sampleRate == 32000)
        #expect(take.samples.count == 3200)
        #expect(take.samples.allSatisfy { abs($0 - 0.375) <= 1.0 / 32768 })
    }

    @Test("a WAV is read as WavFile reads it")
    func wav() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/take.wav"
        let writer = try AudioFileWriter(path: path, sampleRate: 22050, channels: 1)
        try writer.write([0.125, -0.5, 1])
        try writer.commit()
        let take = try RecordingFile.read(path: path)
        #expect(take.sampleRate == 22050 && take.samples == [0.125, -0.5, 1])
    }

    @Test("missing, a folder, and content that is no recording")
    func refusals() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        func failure(_ path: String) -> RecordingError? {
            do {
                _ = try RecordingFile.read(path: path)
                return nil
            } catch { return error }
        }
        let missing = failure(dir + "/none.wav")
        #expect(missing?.kind == .missing && missing?.message == "\(dir)/none.wav: no such file")
        let folder = failure(dir)
        #expect(folder?.kind == .unreadable && folder?.message == "\(dir): a folder, expected a WAV or FLAC recording")
        try Data("just text".utf8).write(to: URL(fileURLWithPath: dir + "/notes.txt"))
        let text = failure(dir + "/notes.txt")
        #expect(text?.kind == .content && text?.message == "\(dir)/notes.txt: expected a WAV or FLAC recording")
        try Data("fLaC and then nothing".utf8).write(to: URL(fileURLWithPath: dir + "/broken.flac"))
        let broken = failure(dir + "/broken.flac")
        #expect(broken?.kind == .content)
        #expect(broken?.message.hasPrefix("\(dir)/broken.flac: expected a FLAC recording") == true)
    }
}
