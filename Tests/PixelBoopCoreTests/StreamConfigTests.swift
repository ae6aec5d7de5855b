import Foundation
import Testing

@testable import PixelBoopCore

@Suite("StreamConfig")
struct StreamConfigTests {
    @Test("StreamConfig defaults are the original design's: 16 kHz, 2048 frames, mono, default device")
    func defaults() {
        let c = StreamConfig()
        #expect(c.sampleRate == 16000)
        #expect(c.bufferFrames == 2048)
        #expect(c.channels == 1)
        #expect(c.device == "default")
    }

    @Test(
        "StreamConfig rejects values out of range, naming the field",
        arguments: [
            StreamConfig(sampleRate: 100), StreamConfig(bufferFrames: 8), StreamConfig(channels: 0),
            StreamConfig(device: "")
        ])
    func invalidConfig(_ config: StreamConfig) {
        #expect(throws: AudioError.self) { try config.validate() }
        let stream = AudioStream(config: config)
        #expect(throws: AudioError.self) { try stream.start() }
        #expect(!stream.isStreaming)
    }
}
