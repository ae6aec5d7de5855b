import Foundation
import Testing

@testable import PixelBoopCore

/// A simulated singer: harmonics falling 6 dB per octave, ±35 cent vibrato at 5.5 Hz faded in,
/// a scooped onset, breath noise 25 dB under the voice; with a seeded generator.
struct SimulatedVoice {
    var state: UInt64

    mutating func uniform() -> Double {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Double(state >> 11) / Double(1 << 53)
    }

    /// Gaussian noise (Box-Muller).
    mutating func gauss() -> Double {
        (-2 * log(max(uniform(), 1e-12))).squareRoot() * cos(2 * .pi * uniform())
    }

    mutating func note(_ f0: Double, seconds: Double, rate: Double = 16000, level: Double = 0.25) -> [Float] {
        let n = Int(seconds * rate)
        var phase = 0.0
        var out = [Float](repeating: 0, count: n)
        for i in 0..<n {
            let t = Double(i) / rate
            let scoop = -120 * exp(-t / 0.06)
            let vibrato = 35 * min(1, max(0, (t - 0.25) / 0.2)) * sin(2 * .pi * 5.5 * t)
            phase += f0 * pow(2, (scoop + vibrato) / 1200) / rate
            var v = 0.0
            for h in 1...8 where Double(h) * f0 < rate / 2 { v += sin(2 * .pi * Double(h) * phase) / Double(h) }
            let edge = min(1, Double(i) / (0.04 * rate), Double(n - i) / (0.08 * rate))
            out[i] = Float(level * edge * (0.8 * v + 0.05 * gauss()))
        }
        return out
    }

    /// A cough: a noise burst, loud, with a fast attack and a slower decay.
    mutating func cough(seconds: Double, rate: Double = 16000) -> [Float] {
        let n = Int(seconds * rate)
        return (0..<n).map { i in
            let t = Double(i) / rate
            return Float(0.5 * min(1, t / 0.01) * exp(-t / (seconds / 2)) * gauss())
        }
    }

    mutating func silence(_ seconds: Double, rate: Double = 16000) -> [Float] {
        (0..<Int(seconds * rate)).map { _ in Float(0.0005 * gauss()) }
    }
}

@Suite("Listening for a sung note: noise bursts set aside, the steadiness window enforced")
struct NoteListenerTests {
    /// Feeds `samples` in 20 ms pieces as a capture stream delivers them; every event in order.
    func listen(_ samples: [Float]) throws -> [NoteListener.Event] {
        let listener = try NoteListener(rate: 16000, noiseFloor: 0.0005)
        var events: [NoteListener.Event] = []
        var k = 0
        while k < samples.count {
            let got = listener.feed(Array(samples[k..<min(samples.count, k + 320)]))
            events += got
            if case .note = got.last { break }
            k += 320
        }
        if let last = listener.finish() { events.append(.note(last)) }
        return events
    }

    func notes(_ events: [NoteListener.Event]) -> [SungPitch] {
        events.compactMap { if case .note(let p) = $0 { return p } else { return nil } }
    }

    func cents(_ sung: SungPitch, _ f0: Double) -> Double { 1200 * log2(sung.frequency / f0) }

    @Test("a cough ending 0.6 s before the note is set aside, and the note is scored")
    func coughBefore() throws {
        var v = SimulatedVoice(state: 11)
        let f0 = 261.63 * pow(2, 12.0 / 1200)
        let signal = v.silence(0.2) + v.cough(seconds: 0.35) + v.silence(0.6) + v.note(f0, seconds: 1.4) + v.silence(0.5)
        let events = try listen(signal)
        #expect(events.contains(.discarded))
        let sung = notes(events)
        try #require(sung.count == 1)
        #expect(abs(cents(sung[0], f0)) < 3)
    }

    @Test("a cough starting 0.6 s before the note (running into it) leaves the note's pitch")
    func coughIntoNote() throws {
        var v = SimulatedVoice(state: 12)
        let f0 = 196.0 * pow(2, -20.0 / 1200)
        let signal = v.silence(0.2) + v.cough(seconds: 0.35) + v.silence(0.25) + v.note(f0, seconds: 1.4) + v.silence(0.5)
        let sung = notes(try listen(signal))
        try #require(sung.count == 1)
        #expect(abs(cents(sung[0], f0)) < 3)
    }

    @Test("vibrato voices across the low range keep their pitch through the hum filter")
    func accuracy() throws {
        let tracker = try PitchTracker(sampleRate: 16000)
        for midi in stride(from: 40, through: 76, by: 1) {
            var v = SimulatedVoice(state: UInt64(midi) + 100)
            let f0 = 440 * pow(2, (Double(midi - 69) + 0.13) / 12)
            guard let sung = SungNotes.stablePitch(v.note(f0, seconds: 1.4) + v.silence(0.3), tracker: tracker) else {
                Issue.record("\(midi): no steady note")
                continue
            }
            #expect(abs(cents(sung, f0)) < 3, "\(midi): \(cents(sung, f0)) cents")
        }
    }

    @Test("a 0.25 s blip is not a note (under 180 ms steady); the note after it is")
    func blip() throws {
        var v = SimulatedVoice(state: 13)
        let blip = v.silence(0.2) + v.note(330, seconds: 0.25) + v.silence(0.5)
        #expect(notes(try listen(blip)).isEmpty)
        let tracker = try PitchTracker(sampleRate: 16000)
        #expect(SungNotes.stablePitch(v.note(330, seconds: 0.25), tracker: tracker) == nil)
        let then = blip + v.note(440, seconds: 1.0) + v.silence(0.5)
        let sung = notes(try listen(then))
        try #require(sung.count == 1)
        #expect(abs(cents(sung[0], 440)) < 3)
        #expect(sung[0].stableMilliseconds >= SungNotes.minimumSteadyMilliseconds)
    }

    @Test("silence and noise alone: no note by the time limit")
    func nothing() throws {
        var v = SimulatedVoice(state: 14)
        #expect(notes(try listen(v.silence(1) + v.cough(seconds: 0.35) + v.silence(1))).isEmpty)
    }

    @Test("mains hum 15 dB under a low voice: no octave error, no unvoiced note (50 and 60 Hz)")
    func hum() throws {
        let tracker = try PitchTracker(sampleRate: 16000)
        for mains in [50.0, 60.0] {
            for midi in [43, 45, 40, 47, 48] {   // G2, A2, E2, B2, C3
                var v = SimulatedVoice(state: UInt64(midi))
                let f0 = 440 * pow(2, Double(midi - 69) / 12)
                var voice = v.note(f0, seconds: 1.5)
                let power = voice.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(voice.count)
                // Hum: the fundamental and four harmonics (1/k), 15 dB under the voice in all.
                let humPower = (1...5).reduce(0.0) { $0 + 0.5 / Double($1 * $1) }
                let gain = (power / pow(10, 1.5) / humPower).squareRoot()
                for i in voice.indices {
                    let t = Double(i) / 16000
                    let h = (1...5).reduce(0.0) { $0 + sin(2 * .pi * mains * Double($1) * t + Double($1)) / Double($1) }
                    voice[i] += Float(gain * h)
                }
                guard let sung = SungNotes.stablePitch(voice, tracker: tracker) else {
                    Issue.record("\(midi) with \(mains) Hz hum: no steady note")
                    continue
                }
                let score = MatchScore(sung: sung.frequency, target: f0)
                #expect(score.octave == 0, "\(midi) with \(mains) Hz hum: octave \(score.octave)")
                #expect(abs(score.cents) < 5, "\(midi) with \(mains) Hz hum: \(score.cents) cents")
            }
        }
    }
}
