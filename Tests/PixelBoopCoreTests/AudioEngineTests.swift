import Testing

@testable import PixelBoopCore

@Suite("AudioEngine bridge")
struct AudioEngineTests {
    @Test("a rendered A4 is 440 Hz at accent gain 0.3")
    func renderedNoteFrequencyAndGain() throws {
        let engine = try AudioEngine()
        try engine.triggerNote(pitch: 69, velocity: .accent, at: 0)
        let x = try engine.render(frames: 44100)
        let hz = SignalAnalysis.zeroCrossingFrequency(x, rate: 44100, range: 4410..<44100)
        #expect(abs(Pitch.cents(from: 440, to: hz)) < 0.01)
        #expect(abs(SignalAnalysis.peak(x, 4410..<44100) - 0.3) < 0.003)
    }

    @Test("velocity maps to gains 0.6, 1.0 and 0.8", arguments: Velocity.allCases)
    func velocityMapping(_ velocity: Velocity) throws {
        let engine = try AudioEngine()
        try engine.triggerNote(pitch: 60, velocity: velocity, at: 0)
        let x = try engine.render(frames: 22050)
        let expected: Float = [.normal: 0.6, .accent: 1.0, .sustain: 0.8][velocity]!
        #expect(velocity.gain == expected)
        #expect(abs(SignalAnalysis.peak(x, 4410..<22050) / 0.3 - expected) < 0.005)
    }

    @Test(
        "invalid configurations throw AudioError.invalidConfiguration naming the field",
        arguments: [
            (EngineConfiguration(sampleRate: 0), "sample rate 0.0 Hz: expected 8000...384000"),
            (EngineConfiguration(sampleRate: .nan), "sample rate nan Hz"),
            (EngineConfiguration(voices: 0), "voices 0: expected 1...256"),
            (EngineConfiguration(voices: 1000), "voices 1000: expected 1...256"),
            (EngineConfiguration(maxBlockFrames: 0), "block of 0 frames: expected 1...8192"),
            (EngineConfiguration(queueCapacity: 8), "queue of 8 events"),
            (EngineConfiguration(channels: 3), "channels 3: expected 1 or 2")
        ])
    func invalidConfiguration(_ config: EngineConfiguration, _ expected: String) {
        #expect(throws: AudioError.self) { try AudioEngine(configuration: config) }
        do {
            _ = try AudioEngine(configuration: config)
        } catch {
            guard case .invalidConfiguration(let context) = error else {
                Issue.record("wrong case \(error)")
                return
            }
            #expect(context.contains(expected), "\(context)")
        }
    }

    @Test("out-of-range notes and frequencies are refused")
    func refusals() throws {
        let engine = try AudioEngine()
        #expect(throws: AudioError.self) { try engine.triggerNote(pitch: 128) }
        #expect(throws: AudioError.self) { try engine.play(frequency: 30000, gain: 1) }
        #expect(throws: AudioError.self) { try engine.play(frequency: .infinity, gain: 1) }
        #expect(throws: AudioError.self) { try engine.drumHit(key: -1) }
    }

    @Test("handles: many engines created and destroyed; each keeps its own clock")
    func handleLifetime() throws {
        for _ in 0..<200 {
            let a = try AudioEngine()
            let b = try AudioEngine(configuration: EngineConfiguration(sampleRate: 48000, channels: 2))
            _ = try a.render(frames: 100)
            _ = try b.render(frames: 300)
            #expect(a.frameClock == 100)
            #expect(b.frameClock == 300)
        }
    }

    @Test("triggerNote/releaseNote by pitch: the note releases and falls silent")
    func releaseByPitch() throws {
        let engine = try AudioEngine()
        try engine.triggerNote(pitch: 72, velocity: .normal, at: 0)
        try engine.releaseNote(pitch: 72, at: 4410)
        let x = try engine.render(frames: 44100)
        #expect(SignalAnalysis.peak(x, 0..<4410) > 0.1)
        #expect(SignalAnalysis.peak(x, 4410 + 2000..<44100) == 0)
        #expect(engine.activeVoices == 0)
    }

    @Test("AudioError carries context and a readable description")
    func errorDescriptions() {
        let e = AudioError.invalidFrequency("25000.0 Hz")
        #expect(e.description == "invalid frequency: 25000.0 Hz")
        #expect(e.context == "25000.0 Hz")
        #expect(AudioError.deviceUnavailable("hw:9,0").description.contains("hw:9,0"))
    }
}
