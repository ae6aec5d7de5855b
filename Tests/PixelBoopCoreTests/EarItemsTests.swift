import Foundation
import Testing

@testable import PixelBoopCore

/// What the identification drills ask and how it sounds: answer keys, interval widths and
/// directions, chord shapes, and a degree after its I-IV-V-I cadence or over its drone, all in
/// equal temperament at A4 = 440 Hz unless a tuning's `hz` is given.
@Suite("EarItems")
struct EarItemsTests {
    static func semitones(_ hz: Double, above root: Int) -> Double { 12 * log2(hz / EarItems.hz(root)) }

    @Test("each drill's items and one answer key each")
    func items() {
        #expect(EarDrill.intervals.items.count == 12)
        #expect(EarDrill.intervals.keys == Array("1234567890-="))
        #expect(EarDrill.chords.items == ["maj", "min", "dim", "aug", "dom7", "maj7", "min7"])
        #expect(EarDrill.chords.keys == Array("1234567"))
        #expect(EarDrill.degrees.items == ["1", "2", "3", "4", "5", "6", "7"])
        #expect(EarItems.hz(69) == 440)
        #expect(abs(EarItems.hz(60) - 261.6255653) < 1e-6)
    }

    @Test("an interval is its width in semitones, up, down or together, on a root from the range")
    func intervals() {
        var rng = SeededGenerator(seed: 5)
        for (width, name) in EarItems.intervalNames.enumerated() {
            for _ in 0..<5 {
                let plan = EarTrialPlan.identify(
                    number: 1, drill: .intervals, item: name, roots: 48...60, directions: EarItems.directions, rng: &rng)
                #expect((48...60).contains(plan.base))
                #expect(plan.phrases.count == 1)
                let notes = plan.phrases[0]
                let (low, high) = plan.variant == "down" ? (notes[1], notes[0]) : (notes[0], notes[1])
                #expect(abs(Self.semitones(low, above: plan.base)) < 1e-9)
                #expect(abs(Self.semitones(high, above: plan.base) - Double(width + 1)) < 1e-9)
                #expect(plan.together == (plan.variant == "harmonic"))
            }
        }
    }

    @Test("a chord is its shape over the root, sounded together")
    func chords() {
        var rng = SeededGenerator(seed: 6)
        for chord in EarItems.chords {
            let plan = EarTrialPlan.identify(
                number: 2, drill: .chords, item: chord.name, roots: 55...55, directions: EarItems.directions, rng: &rng)
            #expect(plan.variant == "root" && plan.together && plan.base == 55)
            #expect(plan.phrases[0].map { Self.semitones($0, above: 55).rounded() } == chord.semitones.map(Double.init))
        }
    }

    @Test("the same seed draws the same trials")
    func seeded() {
        var a = SeededGenerator(seed: 9)
        var b = SeededGenerator(seed: 9)
        for _ in 0..<10 {
            #expect(
                EarTrialPlan.identify(
                    number: 1, drill: .intervals, item: "P5", roots: 40...70, directions: ["up", "down"], rng: &a)
                    == EarTrialPlan.identify(
                        number: 1, drill: .intervals, item: "P5", roots: 40...70, directions: ["up", "down"], rng: &b))
        }
    }

    @Test("a degree: the cadence I-IV-V-I, then the note within the octave above the tonic")
    func degreeAfterCadence() {
        let plan = EarTrialPlan.degree(number: 1, degree: "6", tonic: 63, drone: false)
        #expect(plan.variant == "Eb")
        #expect(plan.item == "6" && plan.base == 63 && plan.together)
        let steps = plan.phrases.map { $0.map { Self.semitones($0, above: 63).rounded() } }
        #expect(steps == [[0, 4, 7], [5, 9, 12], [7, 11, 14], [0, 4, 7], [9]])
    }

    @Test("a degree over the drone: tonic and fifth an octave below, alone and then under the note")
    func degreeOverDrone() {
        let plan = EarTrialPlan.degree(number: 1, degree: "7", tonic: 60, drone: true)
        let steps = plan.phrases.map { $0.map { Self.semitones($0, above: 60).rounded() } }
        #expect(steps == [[-12, -5], [-12, -5, 11]])
        #expect(plan.variant == "C")
    }

    @Test("the scale's steps wrap into the next octave; a tuning's hz is used when given")
    func scaleAndTuning() {
        #expect((0...8).map(EarTrialPlan.scale) == [0, 2, 4, 5, 7, 9, 11, 12, 14])
        let plan = EarTrialPlan.degree(number: 1, degree: "1", tonic: 60, drone: false, hz: { Double($0) })
        #expect(plan.phrases.last == [60])
        #expect(plan.phrases.first == [60, 64, 67])
    }
}
