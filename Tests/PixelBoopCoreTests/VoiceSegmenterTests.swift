import Glibc
import Testing

@testable import PixelBoopCore

/// Pitch streams as the live tracker gives them: one estimate per 1.33 ms hop (64 frames at 48 kHz).
private let hop = 64
private let hopSeconds = 64.0 / 48000

private struct Stream {
    var frames: [(midi: Double?, level: Double)] = []

    mutating func sing(_ seconds: Double, _ pitch: (Double) -> Double, level: Double = -12) {
        let n = Int((seconds / hopSeconds).rounded())
        frames += (0..<n).map { (pitch(Double($0) * hopSeconds), level) }
    }

    mutating func rest(_ seconds: Double) {
        frames += Array(repeating: (nil, -70), count: Int((seconds / hopSeconds).rounded()))
    }

    /// The events, each with the frame its decision was made at.
    func run(bendRange: Double = 2) -> [VoiceNoteEvent] {
        var s = VoiceSegmenter(hopSeconds: hopSeconds, bendRange: bendRange)
        var out: [VoiceNoteEvent] = []
        for (i, f) in frames.enumerated() { out += s.push(frame: (i + 1) * hop, midi: f.midi, level: f.level) }
        return out + s.finish(frame: (frames.count + 1) * hop)
    }
}

private func notes(_ events: [VoiceNoteEvent]) -> [(on: Int, key: Int, off: Int?)] {
    var out: [(on: Int, key: Int, off: Int?)] = []
    for e in events {
        switch e.kind {
        case .on(let key, _): out.append((e.frame, key, nil))
        case .off(let key):
            if let i = out.lastIndex(where: { $0.key == key && $0.off == nil }) { out[i].off = e.frame }
        case .bend: break
        }
    }
    return out
}

private func bends(_ events: [VoiceNoteEvent]) -> [Int] {
    events.compactMap { if case .bend(let v) = $0.kind { return v } else { return nil } }
}

@Suite("VoiceSegmenter: a live pitch stream as note-on, bend and note-off")
struct VoiceSegmenterTests {
    @Test("a held note: one note-on two hops after its onset, bend before it, note-off after the 30 ms hold")
    func heldNote() {
        var s = Stream()
        s.rest(0.1)
        s.sing(0.3) { _ in 69.2 }
        s.rest(0.2)
        let events = s.run()
        let n = notes(events)
        #expect(n.count == 1)
        let onset = Int((0.1 / hopSeconds).rounded())
        #expect(n.first?.key == 69)
        #expect(n.first?.on == (onset + 2) * hop)
        // The hold: the note ends once the voice has been gone longer than NoteRule.gapSeconds.
        let end = onset + Int((0.3 / hopSeconds).rounded())
        let hold = Int((NoteRule.gapSeconds / hopSeconds).rounded(.down)) + 1
        #expect(n.first?.off == (end + hold) * hop)
        // The bend (+0.2 semitone of ±2) comes first, on the note-on's frame.
        #expect(events.first == VoiceNoteEvent(frame: (onset + 2) * hop, kind: .bend(8192 + 819)))
    }

    @Test("vibrato of ±50 cents and a scoop of −150 cents stay one note; the bend follows, clamped to the range")
    func vibratoAndScoop() {
        var s = Stream()
        s.sing(0.6) { (t: Double) -> Double in
            let scoop: Double = -1.5 * exp(-t / 0.05)
            let vibrato: Double = 0.5 * sin(2 * Double.pi * 5.5 * t)
            return 64 + scoop + vibrato
        }
        s.rest(0.1)
        let events = s.run(bendRange: 1)
        let n = notes(events)
        #expect(n.count == 1)
        // Decided in the scoop (62.6): the key a semitone below the note sung, the bend carrying the rest.
        #expect(n.first?.key == 63)
        let b = bends(events)
        #expect(b.count > 20)
        #expect(b.allSatisfy { (0...16383).contains($0) })
        #expect(b.max() == 16383)   // +1.5 semitones at a range of 1: clamped at the top
        #expect(VoiceSegmenter.bendValue(3, range: 2) == 16383)
        #expect(VoiceSegmenter.bendValue(-3, range: 2) == 0)
    }

    @Test("a legato move of a whole tone starts a new note once held 40 ms; a short breath inside a note does not end it")
    func legatoAndBreath() {
        var s = Stream()
        s.sing(0.3) { _ in 60 }
        s.sing(0.3) { _ in 62.1 }
        s.rest(0.02)   // a breath, shorter than the hold
        s.sing(0.2) { _ in 62 }
        s.rest(0.1)
        let n = notes(s.run())
        #expect(n.map(\.key) == [60, 62])
        let move = Int((0.3 / hopSeconds).rounded())
        let settle = Int((0.04 / hopSeconds).rounded(.up))
        // The 5-estimate median the move is judged on lags it by 2 hops.
        #expect(n[1].on == (move + settle + 2) * hop)
        #expect(n[0].off == n[1].on)
        #expect(n[1].off != nil)
    }

    @Test("after a gap, a voice a semitone or more away is a new note; one estimate alone starts nothing")
    func gapAndBlips() {
        var s = Stream()
        s.sing(0.2) { _ in 67 }
        s.rest(0.05)
        s.sing(0.2) { _ in 65 }
        s.rest(0.05)
        s.frames.append((72, -12))   // a single stray estimate
        s.rest(0.05)
        s.frames += [(50, -12), (75, -12)]   // two that disagree
        s.rest(0.05)
        let n = notes(s.run())
        #expect(n.map(\.key) == [67, 65])
        #expect(n.allSatisfy { $0.off != nil })
    }

    @Test("an octave error within a note is folded back, not a new note; velocity follows the onset's level")
    func octaveErrorAndVelocity() {
        var s = Stream()
        s.sing(0.1, { _ in 57 }, level: -6)
        s.sing(0.05) { _ in 69 }
        s.sing(0.1) { _ in 57 }
        s.rest(0.1)
        let events = s.run()
        #expect(notes(events).map(\.key) == [57])
        #expect(bends(events).allSatisfy { abs($0 - 8192) < 100 })
        #expect(events.contains { $0.kind == .on(key: 57, velocity: 127) })
        #expect(VoiceSegmenter.velocity(-50) == 1)
        #expect(VoiceSegmenter.velocity(-28) == 64)
    }
}
