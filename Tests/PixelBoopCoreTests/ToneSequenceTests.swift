import Foundation
import Testing

@testable import PixelBoopCore

// MARK: - Rendered tones

@Suite("Sine tones rendered by the engine")
struct RenderedToneTests {
    @Test(
        "tuned within 0.01 cent on the rendered samples",
        arguments: [
            ("A4", 440.0), ("C4+12.5c", 440.0), ("1000Hz", 440.0), ("A4", 442.0), ("C8", 440.0), ("A0", 440.0),
            ("G#2-33.3c", 415.0), ("Eb7+49.99c", 466.0)
        ])
    func tuning(text: String, reference: Double) throws {
        let expected = try NoteSpec.parse(text).frequency(reference: reference)
        let (x, _) = try renderTones([expected], duration: 0.6)
        let measured = fittedFrequency(x, rate: 44100, range: 882..<(26460 - 882), guess: expected)
        #expect(abs(cents(measured, expected)) < 0.01, "\(text) at \(reference): \(cents(measured, expected)) cent")
    }

    @Test("two tones 3 cents apart: right spacing, right interval, silence between")
    func sequence() throws {
        let f0 = 440.0
        let f1 = Pitch.frequency(midi: 69, cents: 3)
        let (x, seq) = try renderTones([f0, f1], duration: 0.5, gap: 0.25)
        #expect(seq.onsetFrame(1) == 33075)   // 0.75 s: onset-to-onset = duration + gap
        // The first sample of each tone is sin(0) x 0; the next is already non-zero.
        for k in 0..<2 {
            let on = Int(seq.onsetFrame(k))
            let end = Int(seq.endFrame(k))
            #expect(x[on] == 0)
            #expect(x[on + 1] != 0)
            if on > 0 { #expect(x[(on - 100)..<on].allSatisfy { $0 == 0 }) }
            // Silent from the end frame on (the release ends there, give or take one frame).
            #expect(x[(end + 1)..<min(x.count, end + 100)].allSatisfy { $0 == 0 })
            #expect(abs(x[end - 1]) < 1e-4)
        }
        let m0 = fittedFrequency(x, rate: 44100, range: 882..<21168, guess: f0)
        let m1 = fittedFrequency(x, rate: 44100, range: 33957..<54243, guess: f1)
        #expect(abs(cents(m1, m0) - 3) < 0.01)
    }

    @Test("onsets stay on their absolute frames over a long sequence (no drift)")
    func noDrift() throws {
        // 0.1337 s is 5896.17 frames: rounding each step and adding would drift 34 frames by tone 199.
        let seq = try ToneSequence(
            frequencies: Array(repeating: 523.25, count: 200), duration: 0.1,
            gap: 0.0337, sampleRate: 44100)
        let x = try ToneRenderer(sequence: seq).renderSamples()
        for k in 0..<seq.count {
            let expected = Int((Double(k) * (0.1 + 0.0337) * 44100 + 0.5).rounded(.down))
            #expect(Int(seq.onsetFrame(k)) == expected)
            #expect(x[expected] == 0 && x[expected + 1] != 0)
            if k > 0 { #expect(x[expected - 1] == 0) }
        }
        #expect(Int(seq.onsetFrame(199)) == 1_173_338)
    }

    @Test("phrases: tones duration + gap apart inside a phrase, the next phrase a rest after the last tone ends")
    func phrases() throws {
        let seq = try ToneSequence(
            phrases: [[440, 660], [], [550, 825]], duration: 0.5, gap: 0.05, rest: 0.5, sampleRate: 44100)
        #expect(seq.frequencies == [440, 660, 550, 825])
        // 0, 0.55 s; then 0.55 + 0.5 + 0.5 = 1.55 s and 2.1 s.
        #expect((0..<4).map { seq.onsetFrame($0) } == [0, 24255, 68355, 92610])
        #expect(seq.endFrame == 114660)
        #expect(seq.onsetFrame(4) == 116865)   // a tone after the last: the last phrase goes on (2.65 s)
        let x = try ToneRenderer(sequence: seq).renderSamples()
        for k in 0..<4 {
            let on = Int(seq.onsetFrame(k))
            #expect(x[on] == 0 && x[on + 1] != 0)
        }
        // The rest is silent from the end of the first phrase to the start of the second.
        #expect(x[(Int(seq.endFrame(1)) + 1)..<Int(seq.onsetFrame(2))].allSatisfy { $0 == 0 })
        #expect(throws: AudioError.self) {
            try ToneSequence(phrases: [[440], [550]], duration: 0.5, gap: 0, rest: -0.1)
        }
        #expect(throws: AudioError.self) {
            try ToneSequence(phrases: [[440], [550]], duration: 0.5, gap: 0, rest: .nan)
        }
    }

    @Test("with no gap, tones abut without overlapping: the release is inside the duration")
    func abutting() throws {
        let seq = try ToneSequence(frequencies: [440, 660, 880], duration: 0.2, gap: 0, sampleRate: 44100)
        let events = seq.events
        for k in 0..<2 {
            #expect(seq.releaseFrame(k) < seq.onsetFrame(k + 1))
            let off = events.firstIndex { $0.tone == k && $0.kind == .off }!
            let nextOn = events.firstIndex { $0.tone == k + 1 && $0.kind != .off }!
            #expect(off < nextOn)
        }
        let x = try ToneRenderer(sequence: seq).renderSamples()
        // One voice at a time: never louder than one tone's peak (0.3).
        #expect(x.allSatisfy { abs($0) <= 0.30001 })
        let junction = Int(seq.onsetFrame(1))
        #expect(abs(x[junction - 2]) < 1e-5)
        #expect(abs(x[junction]) < 1e-5)
    }

    @Test("smooth edges: almost no energy above 3 kHz at onset and end of an A4")
    func smoothEdges() throws {
        let (x, seq) = try renderTones([440], duration: 0.5, gap: 0)
        let hp = SignalAnalysis.highpass(x, rate: 44100, cutoff: 3000)
        let on = Int(seq.onsetFrame(0))
        let end = Int(seq.endFrame(0))
        let w = 882
        let onsetRatio = energy(hp, on..<(on + w)) / energy(x, on..<(on + w))
        let endRatio = energy(hp, (end - w)..<min(x.count, end + w)) / energy(x, (end - w)..<end)
        #expect(onsetRatio < 1e-6, "onset HF ratio \(onsetRatio)")
        #expect(endRatio < 1e-6, "end HF ratio \(endRatio)")
        // For scale: the same sine switched on and off abruptly.
        var gated = [Float](repeating: 0, count: x.count)
        for n in on..<end { gated[n] = 0.3 * Float(sin(2 * Double.pi * 440 * Double(n - on) / 44100 + 1)) }
        let gatedHP = SignalAnalysis.highpass(gated, rate: 44100, cutoff: 3000)
        let gatedRatio = energy(gatedHP, on..<(on + w)) / energy(gated, on..<(on + w))
        #expect(gatedRatio > 1000 * onsetRatio)
    }

    @Test("the same sequence renders the same samples")
    func deterministic() throws {
        let a = try renderTones([440, 523.25], duration: 0.3).0
        let b = try renderTones([440, 523.25], duration: 0.3).0
        #expect(a == b)
    }

    @Test("a sequence refuses bad durations, gaps and frequencies above half the rate")
    func sequenceValidation() {
        #expect(throws: AudioError.self) { try ToneSequence(frequencies: [440], duration: 0) }
        #expect(throws: AudioError.self) { try ToneSequence(frequencies: [440], duration: .nan) }
        #expect(throws: AudioError.self) { try ToneSequence(frequencies: [440], duration: 1, gap: -1) }
        #expect(throws: AudioError.self) { try ToneSequence(frequencies: [5000], sampleRate: 8000) }
        #expect(throws: AudioError.self) { try ToneSequence(frequencies: [25000], sampleRate: 96000) }
        #expect(throws: AudioError.self) { try ToneSequence(frequencies: [.nan]) }
        #expect((try? ToneSequence(frequencies: [440], duration: 1, gap: -0.5)) != nil)   // overlap, asked for
    }

    @Test("a render to a file leaves only the finished file")
    func file() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tone-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("t.wav").path
        let seq = try ToneSequence(frequencies: [440], duration: 0.1, gap: 0)
        let frames = try ToneRenderer(sequence: seq).render(to: path)
        #expect(frames == 4410 + 441)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["t.wav"])
        #expect(throws: CancellationError.self) {
            try ToneRenderer(sequence: seq).render(to: dir.appendingPathComponent("u.wav").path, shouldStop: { true })
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["t.wav"])
    }
}
