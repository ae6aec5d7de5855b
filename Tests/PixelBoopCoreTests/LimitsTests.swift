import CAudioEngine
import Foundation
import Testing

@testable import PixelBoopCore

/// One source for every limit: the Swift ranges are the header's constants, the messages name
/// them, and the output stage the renders use is the engine's (aligned, as long as its input).
@Suite("Limits and the engine's output stage")
struct LimitsTests {
    @Test("the Swift ranges are the C header's")
    func rangesFromHeader() {
        #expect(Limits.sampleRate == Int(BOOP_ENGINE_RATE_MIN)...Int(BOOP_ENGINE_RATE_MAX))
        #expect(Limits.voices == Int(BOOP_ENGINE_VOICES_MIN)...Int(BOOP_ENGINE_VOICES_MAX))
        #expect(Limits.periodFrames == Int(BOOP_PERIOD_FRAMES_MIN)...Int(BOOP_PERIOD_FRAMES_MAX))
        #expect(Limits.periods == Int(BOOP_PERIODS_MIN)...Int(BOOP_PERIODS_MAX))
        #expect(OutputStage.gainRange == Double(BOOP_GAIN_DB_MIN)...Double(BOOP_GAIN_DB_MAX))
        #expect(Song.bpmRange == Double(BOOP_TEMPO_BPM_MIN)...Double(BOOP_TEMPO_BPM_MAX))
        #expect(Pitch.audibleRange == Double(BOOP_TONE_HZ_MIN)...Double(BOOP_TONE_HZ_MAX))
        #expect(ToneSequence.durationRange == Double(BOOP_TONE_SECONDS_MIN)...Double(BOOP_TONE_SECONDS_MAX))
        #expect(EngineConfiguration().voices == Int(BOOP_ENGINE_VOICES_DEFAULT))
        #expect(Limits.text(Limits.gainDB) == "-60...12")
        #expect(Limits.text(Limits.toneSeconds) == "0.02...3600")
    }

    @Test("messages name the range one past either end")
    func messagesNameTheRange() {
        var config = EngineConfiguration()
        config.voices = Limits.voices.upperBound + 1
        #expect(config.problem == "voices \(config.voices): expected \(Limits.text(Limits.voices))")
        config = EngineConfiguration(sampleRate: Double(Limits.sampleRate.lowerBound - 1))
        #expect(config.problem?.hasSuffix("expected \(Limits.text(Limits.sampleRate))") == true)
        #expect(throws: AudioError.self) {
            try StreamConfig(bufferFrames: Limits.pitchWindow.upperBound + 1).validate()
        }
        #expect(throws: AudioError.self) {
            try AudioPlayback(device: "null", sampleRate: 44100, channels: 1, periodFrames: Limits.periodFrames.upperBound + 1)
        }
    }

    @Test("the offline stage hands on as many frames as went in, the same samples under the ceiling")
    func alignedAndWhole() throws {
        let stage = try OutputStage(sampleRate: 44100, channels: 2)
        let input = (0..<2 * 1000).map { Float(sin(Double($0) * 0.01) * 0.5) }
        var output: [Float] = []
        for chunk in stride(from: 0, to: input.count, by: 2 * 37) {
            let part = Array(input[chunk..<min(chunk + 2 * 37, input.count)])
            part.withUnsafeBufferPointer { stage.process($0) { output.append(contentsOf: $0) } }
        }
        stage.finish { output.append(contentsOf: $0) }
        #expect(output == input)
        #expect(stage.takeReductionDB() == 0)
    }
}
