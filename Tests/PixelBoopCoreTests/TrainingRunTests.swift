import Foundation
import Testing

@testable import PixelBoopCore

@Suite("TrainingRun: trials of a session")
struct TrainingRunTests {
    @Test("trials: a seed gives the same sequence; the higher tone is where the plan says; answers are judged")
    func trials() {
        var settings = TrainingSettings()
        settings.seed = 9
        var a = TrainingRun(settings: settings)
        var b = TrainingRun(settings: settings)
        for _ in 0..<10 {
            let pa = a.nextTrial()
            let pb = b.nextTrial()
            // The seed fixes the notes and the order; the differences follow each one's answers.
            #expect(pa.referenceHz == pb.referenceHz && pa.higherInterval == pb.higherInterval)
            if pa.number == 1 { #expect(pa == pb) }
            let replay = a.nextTrial()
            #expect(replay == pa)   // the same trial until answered (a replay)
            #expect((pa.higherInterval == 2) == (pa.secondHz > pa.firstHz))
            #expect(abs(1200 * log2(pa.highHz / pa.lowHz) - pa.cents) < 1e-9)
            #expect((60...84).contains(Int((69 + 12 * log2(pa.referenceHz / 440)).rounded())))
            let right = a.answer(secondHigher: pa.higherInterval == 2)
            let wrong = b.answer(secondHigher: pa.higherInterval != 2)
            #expect(right && !wrong)
        }
        #expect(a.estimate!.threshold < b.estimate!.threshold)
    }
}
