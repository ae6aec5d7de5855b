import Foundation
import Testing

@testable import PixelBoopCore

private func render(_ pattern: Song, loops: Int = 1, rate: Double = 44100, voices: Int = 8) throws -> [Float] {
    var renderer = SongRenderer(song: Song(version1: pattern))
    renderer.loops = loops
    renderer.sampleRate = rate
    renderer.voices = voices
    var out: [Float] = []
    try renderer.render { out.append(contentsOf: $0) }
    return out
}

private func expectedFrame(_ k: Int, rate: Double, bpm: Double) -> Int {
    Int((Double(k) * rate * 60 / (bpm * 4) + 0.5).rounded(.down))
}

/// A version-1 pattern's sequencer: its one-pattern song, looping for ever.
private func sequencer(_ pattern: Song, rate: Double) -> SongSequencer {
    SongSequencer(song: Song(version1: pattern), sampleRate: rate, loops: nil)
}

@Suite("Sequencer and offline render of a version-1 pattern")
struct SongSequencerTests {
    @Test("step frames come from the absolute index: no accumulation, no drift")
    func stepFrames() {
        var seq = sequencer(Song(name: "t", bpm: 133), rate: 44100)
        for k in [0, 1, 2, 3, 7, 16, 1000, 2659, 1_000_000] {
            #expect(Int(seq.frame(ofStep: k)) == expectedFrame(k, rate: 44100, bpm: 133))
        }
        let at1234 = seq.frame(ofStep: 1234)
        #expect(seq.step(atFrame: at1234) == 1234)
        #expect(seq.step(atFrame: at1234 - 1) == 1233)
    }

    @Test("five minutes at 133 BPM (4973.68 frames per step): every onset on its exact frame")
    func onsetsOverFiveMinutes() throws {
        // A quarter-note pulse; the note and its release end long before the next onset, so each
        // onset is the first non-zero sample after silence. The engine's envelope starts at 0,
        // so the first audible sample of a note scheduled on frame F is F + 1.
        let pattern = Song(
            name: "pulse", bpm: 133, length: 16,
            tracks: [
                .melody: [0, 4, 8, 12].map { SongNote(step: $0, pitch: 69) }
            ])
        let loops = 5 * 60 * 133 * 4 / 16 / 4 * 1   // 5 min of 16-step loops
        let x = try render(pattern, loops: loops)
        let onsets = SignalAnalysis.onsets(x, minSilence: 1000)
        #expect(onsets.count == loops * 4)
        var worst = 0
        for (i, onset) in onsets.enumerated() {
            worst = max(worst, abs(onset - (expectedFrame(i * 4, rate: 44100, bpm: 133) + 1)))
        }
        #expect(worst == 0)
        #expect(Double(x.count) / 44100 > 299)
    }

    @Test("the loop seam is just another step: step 15 -> step 16 spacing equals every other")
    func loopSeam() throws {
        let pattern = Song(
            name: "seam", bpm: 133, length: 8,
            tracks: [
                .melody: [SongNote(step: 0, pitch: 72), SongNote(step: 4, pitch: 72)]
            ])
        let x = try render(pattern, loops: 3)
        let onsets = SignalAnalysis.onsets(x, minSilence: 500)
        #expect(onsets == (0..<6).map { expectedFrame($0 * 4, rate: 44100, bpm: 133) + 1 })
    }

    @Test("gate 0.8 x length x step; release min(gate x 0.3, 0.15 s); sustain holds the full length")
    func gateAndRelease() throws {
        let rate = 44100.0
        // 60 BPM: a step is 0.25 s. Normal note of 2 steps: gate 0.4 s, release 0.12 s.
        let normal = try render(Song(name: "g", bpm: 60, length: 8, tracks: [.melody: [SongNote(step: 0, pitch: 69, length: 2)]]))
        let gate = Int(0.4 * rate)
        let release = Int(0.12 * rate)
        #expect(SignalAnalysis.peak(normal, gate - 500..<gate) > 0.29 * 0.6)
        #expect(SignalAnalysis.peak(normal, gate + release + 100..<normal.count) < 1e-6)   // -110 dB below the note: the lowpass ringing out
        #expect(SignalAnalysis.peak(normal, gate + release - 600..<gate + release - 100) > 0)
        // Sustain of 4 steps: holds 1 s, release capped at 0.15 s.
        let sustain = try render(
            Song(name: "s", bpm: 60, length: 8, tracks: [.melody: [SongNote(step: 0, pitch: 69, velocity: .sustain, length: 4)]]))
        #expect(SignalAnalysis.peak(sustain, Int(rate) - 500..<Int(rate)) > 0.23)
        #expect(SignalAnalysis.peak(sustain, Int(1.15 * rate) + 100..<sustain.count) < 1e-6)
        #expect(SignalAnalysis.peak(sustain, Int(1.15 * rate) - 800..<Int(1.15 * rate) - 100) > 0)
    }

    @Test("velocity ratios on rendered notes: 0.6 : 1.0 : 0.8")
    func velocities() throws {
        let p = Song(
            name: "v", bpm: 60, length: 16,
            tracks: [
                .melody: [
                    SongNote(step: 0, pitch: 69, velocity: .normal, length: 2),
                    SongNote(step: 4, pitch: 69, velocity: .accent, length: 2),
                    SongNote(step: 8, pitch: 69, velocity: .sustain, length: 2)
                ]
            ])
        let x = try render(p)
        let step = 11025
        let a = SignalAnalysis.peak(x, step / 2..<step)
        let b = SignalAnalysis.peak(x, 4 * step + step / 2..<5 * step)
        let c = SignalAnalysis.peak(x, 8 * step + step / 2..<9 * step)
        #expect(abs(b - 0.3) < 0.003)
        #expect(abs(a / b - 0.6) < 0.002)
        #expect(abs(c / b - 0.8) < 0.002)
    }

    @Test("each melody note is in tune within 0.1 cent", arguments: [48, 60, 69, 72, 84, 96])
    func melodyTuning(_ pitch: Int) throws {
        let x = try render(
            Song(
                name: "t", bpm: 60, length: 8, tracks: [.melody: [SongNote(step: 0, pitch: pitch, velocity: .sustain, length: 8)]]
            ))
        let hz = SignalAnalysis.zeroCrossingFrequency(x, rate: 44100, range: 4410..<80000)
        #expect(abs(Pitch.cents(from: Pitch.frequency(midi: Double(pitch)), to: hz)) < 0.1)
    }

    @Test("no clicks at note boundaries or steals: little energy above 3 kHz anywhere")
    func noClicks() throws {
        // Low notes (their harmonics sit far below 3 kHz) in a dense line with 2 voices, so
        // every third note steals.
        let notes = (0..<16).map { SongNote(step: $0, pitch: [45, 48, 52, 55][$0 % 4], velocity: .accent, length: 2 - $0 % 2) }
        var unique: [SongNote] = []
        for n in notes where !unique.contains(where: { $0.step == n.step && $0.pitch == n.pitch }) { unique.append(n) }
        let x = try render(Song(name: "c", bpm: 180, length: 16, tracks: [.melody: unique]), loops: 2, voices: 2)
        let hp = SignalAnalysis.highpass(x, rate: 44100, cutoff: 3000)
        var worst = 0.0
        var i = 0
        while i + 256 < hp.count {
            worst = max(worst, SignalAnalysis.rms(hp, i..<i + 256))
            i += 128
        }
        // A hard cut of a 0.3 sine would leave ~1e-2 here; the envelopes keep it near 1e-4.
        #expect(worst < 1e-3, "worst 256-frame HF rms \(worst)")
    }

    @Test("the same pattern renders the same samples every time; no sample reaches 1.0")
    func deterministic() throws {
        let demo = try PieceFile.load(
            path: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("examples/demo.json").path)
        let a = try render(demo, loops: 2)
        let b = try render(demo, loops: 2)
        #expect(a == b)
        #expect(a.allSatisfy { abs($0) < 1 })
    }

    @Test("BPM change mid-run takes effect at the next step without a jump")
    func tempoChange() {
        var seq = sequencer(Song(name: "b", bpm: 120), rate: 48000)
        let before = seq.frame(ofStep: 10)
        seq.setBPM(60, fromStep: 10)
        #expect(seq.frame(ofStep: 10) == before)
        #expect(seq.frame(ofStep: 11) == before + 12000)
        // Steps before the new anchor count back at the new tempo and never wrap below frame 0.
        #expect(seq.frame(ofStep: 9) == before - 12000)
        #expect(seq.frame(ofStep: -1000) == 0)
    }

    @Test("events are sorted, offs before ons on a shared frame, legato sustain ends on the next onset")
    func eventOrder() {
        var seq = sequencer(
            Song(
                name: "l", bpm: 120, length: 8,
                tracks: [
                    .melody: [
                        SongNote(step: 0, pitch: 60, velocity: .sustain, length: 2),
                        SongNote(step: 2, pitch: 60, velocity: .sustain, length: 2)
                    ]
                ]), rate: 44100)
        let events = seq.events(forSteps: 0..<8)
        #expect(events.map(\.frame) == events.map(\.frame).sorted())
        let frame2 = seq.frame(ofStep: 2)
        let at2 = events.filter { $0.frame == frame2 }
        #expect(at2.count == 2)
        #expect(at2.first?.isNoteOff == true)
    }

    @Test("swapping the song mid-run: the new pattern starts on the next step's frame; the old notes' offs still come")
    func patternSwap() throws {
        let a = Song(
            name: "a", bpm: 120, length: 8, tracks: [.melody: [SongNote(step: 0, pitch: 60, velocity: .sustain, length: 8)]])
        let b = Song(name: "b", bpm: 100, length: 8, tracks: [.melody: [SongNote(step: 0, pitch: 67)]])
        var seq = sequencer(a, rate: 44100)
        let first = seq.events(forSteps: 0..<4)
        let swapFrame = seq.frame(ofStep: 4)
        seq.replaceSong(Song(version1: b), fromStep: 4)
        #expect(seq.frame(ofStep: 4) == swapFrame)
        let second = seq.events(forSteps: 4..<12)
        // Every note-on of the first part has its note-off among the events already produced.
        let ons = first.compactMap { if case .noteOn(_, _, _, let id, _) = $0.action { return id } else { return nil } }
        let offs = first.compactMap { if case .noteOff(let id) = $0.action { return id } else { return nil } }
        #expect(Set(ons) == Set(offs))
        let frame8 = seq.frame(ofStep: 8)
        #expect(second.first?.frame == frame8)
        #expect(seq.frame(ofStep: 9) - seq.frame(ofStep: 8) == UInt64((44100.0 * 60 / 400 + 0.5).rounded(.down)))
    }

    @Test("cancelling (stop/pause) silences every sounding note within the fade")
    func stopReleasesEverything() throws {
        let engine = try AudioEngine()
        var seq = sequencer(
            try Song.parseVersion1(
                Bytes(
                    #"{"tracks":{"melody":[{"step":0,"pitch":60,"velocity":"sustain","length":16}],"chords":[{"step":0,"pitch":64,"velocity":"sustain","length":16}],"bass":[{"step":0,"pitch":36,"velocity":"sustain","length":16}]}}"#
                        .utf8), file: "s.json"), rate: 44100)
        for e in seq.events(forSteps: 0..<16) { try engine.schedule(e) }
        _ = try engine.render(frames: 22050)
        #expect(engine.activeVoices == 3)
        try engine.cancelPending(fade: 0.01)
        let x = try engine.render(frames: 44100)
        #expect(SignalAnalysis.peak(x, 1000..<44100) < 1e-6)
        #expect(engine.activeVoices == 0)
    }
}
