import CAudioEngine
import Testing

@testable import PixelBoopCore

/// The audio layer's errors: each engine status to its case, the context and the engine's words
/// in the message, and each case's prefix.
@Suite("AudioError")
struct AudioErrorTests {
    @Test("each status maps to its case, the context and the status's text kept")
    func mapping() {
        let cases: [(boop_status, (AudioError) -> Bool)] = [
            (BOOP_ERROR_INVALID_ARGUMENT, { if case .invalidConfiguration = $0 { true } else { false } }),
            (BOOP_ERROR_QUEUE_FULL, { if case .queueFull = $0 { true } else { false } }),
            (BOOP_ERROR_DEVICE_UNAVAILABLE, { if case .deviceUnavailable = $0 { true } else { false } }),
            (BOOP_ERROR_DEVICE_LOST, { if case .deviceLost = $0 { true } else { false } }),
            (BOOP_ERROR_IO, { if case .ioError = $0 { true } else { false } }),
            (BOOP_ERROR_CANNOT_CREATE, { if case .cannotCreateFile = $0 { true } else { false } }),
            (BOOP_ERROR_ALREADY_RUNNING, { if case .alreadyStreaming = $0 { true } else { false } }),
            (BOOP_ERROR_OUT_OF_MEMORY, { if case .engineStartFailed = $0 { true } else { false } })
        ]
        for (status, isCase) in cases {
            let error = AudioError.from(status, "opening x")
            #expect(isCase(error), "\(status)")
            #expect(error.context == "opening x: " + String(cString: boop_status_string(status)))
        }
    }

    @Test("check throws only on an error, its context asked for only then")
    func check() throws {
        var asked = 0
        func context() -> String {
            asked += 1
            return "c"
        }
        try AudioError.check(BOOP_OK, context())
        #expect(asked == 0)
        #expect(throws: AudioError.self) { try AudioError.check(BOOP_ERROR_IO, context()) }
        #expect(asked == 1)
    }

    @Test("each case's message: its prefix, then the context")
    func descriptions() {
        #expect(AudioError.engineStartFailed("a").description == "engine start failed: a")
        #expect(AudioError.deviceUnavailable("a").description == "audio device unavailable: a")
        #expect(AudioError.deviceLost("a").description == "audio device lost: a")
        #expect(AudioError.invalidFrequency("a").description == "invalid frequency: a")
        #expect(AudioError.invalidConfiguration("a").description == "invalid configuration: a")
        #expect(AudioError.cannotCreateFile("a").description == "cannot create file: a")
        #expect(AudioError.ioError("a").description == "I/O error: a")
        #expect(AudioError.queueFull("a").description == "event queue full: a")
        #expect(AudioError.alreadyStreaming("a").description == "already streaming: a")
        #expect(AudioError.ioError("ctx").context == "ctx")
    }
}
