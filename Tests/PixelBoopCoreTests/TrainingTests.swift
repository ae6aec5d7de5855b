import Foundation
import Testing

@testable import PixelBoopCore

@Suite("Training session and history")
struct TrainingTests {
    static func tempPath(_ name: String) -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("boop-train-\(getpid())-\(name)")
        try? FileManager.default.removeItem(at: dir)
        return dir.appendingPathComponent("history/training.sqlite").path
    }

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

    @Test("the history keeps sessions and trials across opens; migrations are versioned")
    func history() throws {
        let path = TrainingTests.tempPath("history")
        do {
            let store = try TrainingStore(path: path)
            let id = try store.beginSession(settings: "{}")
            for k in 1...3 {
                try store.add(
                    TrainingTrial(
                        session: id, trial: k, time: Date(), referenceHz: 440, differenceCents: 5,
                        higherInterval: 1, answer: "lower", correct: true, responseMilliseconds: 700))
            }
            try store.endSession(id, estimate: (4.5, 3, 6))
        }
        let again = try TrainingStore(path: path, create: false)
        let sessions = try again.sessions()
        #expect(sessions.count == 1 && sessions[0].trials == 3 && sessions[0].threshold == 4.5)
        #expect(try again.trials().map(\.trial) == [1, 2, 3])
    }

    @Test("a missing, corrupt or newer history is refused and left as it was")
    func refused() throws {
        #expect(throws: TrainingStoreError.self) { try TrainingStore(path: TrainingTests.tempPath("missing"), create: false) }
        let corrupt = TrainingTests.tempPath("corrupt")
        try FileManager.default.createDirectory(
            atPath: URL(fileURLWithPath: corrupt).deletingLastPathComponent().path,
            withIntermediateDirectories: true)
        let garbage = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        try garbage.write(to: URL(fileURLWithPath: corrupt))
        do {
            _ = try TrainingStore(path: corrupt)
            Issue.record("a corrupt file was opened")
        } catch {
            #expect(error.kind == .corrupt)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: corrupt)) == garbage)
    }
}
