import Foundation
import Testing

@testable import PixelBoopCore

/// Live tests need the private PulseAudio null sink (scripts/live-tests.sh sets PULSE_SERVER).
private let pulseAvailable = ProcessInfo.processInfo.environment["PULSE_SERVER"] != nil

@Suite("AudioStream: start, stop, a missing device")
struct AudioStreamTests {
    @Test("stop() from two threads at once, and start/stop racing: no hang, the state always consistent")
    func concurrentStops() async throws {
        // ALSA's null PCM: a capture device on every machine (silence, not paced).
        let stream = AudioStream(config: StreamConfig(device: "null"))
        for _ in 0..<20 {
            try stream.start()
            let group = DispatchGroup()
            for _ in 0..<2 { DispatchQueue.global().async(group: group) { stream.stop() } }
            #expect(group.wait(timeout: .now() + 5) == .success, "stop() hung")
            #expect(!stream.isStreaming)
            #expect(throws: Never.self) { try stream.start() }
            #expect(throws: AudioError.self) { try stream.start() }   // already streaming
            stream.stop()
            stream.stop()
        }
    }

    @Test("a device that does not exist is deviceUnavailable, and the stream stays stopped")
    func missingDevice() {
        let stream = AudioStream(config: StreamConfig(device: "hw:9,0"))
        do {
            try stream.start()
            Issue.record("start on hw:9,0 should throw")
        } catch {
            guard case .deviceUnavailable(let message) = error else {
                Issue.record("expected deviceUnavailable, got \(error)")
                return
            }
            #expect(message.contains("hw:9,0"))
        }
        #expect(!stream.isStreaming)
    }
}

@Suite("Capture live (PulseAudio null sink)", .enabled(if: pulseAvailable), .serialized)
struct CaptureLiveTests {
    @Test("events: streaming, buffers of 2048 mono samples at 16 kHz with sample-clock timestamps, stopped")
    func streamEvents() async throws {
        let stream = AudioStream(config: StreamConfig(device: "pulse"))
        try stream.start()
        #expect(stream.isStreaming)
        #expect(stream.sampleRate == 16000)
        // Starting twice is an error and leaves the running stream alone.
        #expect(throws: AudioError.self) { try stream.start() }
        do { try stream.start() } catch { #expect(error == .alreadyStreaming(error.context)) }
        #expect(stream.isStreaming)

        var statuses: [StreamStatus] = []
        var timestamps: [Double] = []
        for await event in stream.events {
            switch event {
            case .status(let s):
                statuses.append(s)
                if s == .stopped { break }
            case .samples(let samples, let rate, let count, let timestamp):
                #expect(samples.count == 2048)
                #expect(count == 2048)
                #expect(rate == 16000)
                #expect(samples.allSatisfy { $0 >= -1 && $0 <= 1 })
                timestamps.append(timestamp)
                if timestamps.count == 3 { stream.stop() }
            case .error(let code, let message):
                Issue.record("unexpected error \(code): \(message)")
            }
            if statuses.last == .stopped { break }
        }
        #expect(statuses == [.streaming, .stopped])
        #expect(timestamps == [0, 0.128, 0.256])
        #expect(!stream.isStreaming)

        // A stopped stream starts again.
        try stream.start()
        #expect(stream.isStreaming)
        stream.stop()
        #expect(!stream.isStreaming)
    }
}
