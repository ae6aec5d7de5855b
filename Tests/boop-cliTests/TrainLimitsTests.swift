import ArgumentParser
import CAudioEngine
import PixelBoopCore
import Testing

@testable import boop_cli

/// The training commands' ranges and defaults are the header's (CAudioEngineLimits.h): a session
/// with no options takes the table's defaults, and a value one past an end names the table's range.
struct TrainLimitsTests {
    private func row(_ id: boop_limit_id) -> boop_limit { boop_limit_get(id) }

    @Test func defaultsAreTheTables() throws {
        let run = try TrainRunCommand.parse([])
        #expect(run.gap == row(BOOP_LIMIT_TRAIN_GAP).default_value)
        #expect(run.reference == row(BOOP_LIMIT_TRAIN_REFERENCE_HZ).default_value)
        #expect(run.maxCents == row(BOOP_LIMIT_TRAIN_MAX_CENTS).default_value)
        #expect(Double(run.trials) == row(BOOP_LIMIT_TRAIN_TRIALS).default_value)
        #expect(run.duration == row(BOOP_LIMIT_TRAIN_NOTE_SECONDS).default_value)
        let interval = try TrainIntervalCommand.parse([])
        #expect(interval.maxCents == row(BOOP_LIMIT_TRAIN_INTERVAL_CENTS).default_value)
    }

    /// Each exercise names its own --trials and --duration defaults (the help of EarSessionOptions
    /// lists them): 40 and 1 s for `train`, 40 and 0.5 s interval, 30 and 0.7 s identify, 30 and 0.6 s degrees.
    @Test func eachExerciseTakesItsOwnDefaults() throws {
        let run = try TrainRunCommand.parse([])
        let interval = try TrainIntervalCommand.parse([])
        let identify = try TrainIdentifyCommand.parse([])
        let degrees = try TrainDegreesCommand.parse([])
        #expect([run.trials, interval.trials, identify.trials, degrees.trials] == [40, 40, 30, 30])
        #expect([run.duration, interval.duration, identify.duration, degrees.duration] == [1.0, 0.5, 0.7, 0.6])
        let given = try TrainDegreesCommand.parse(["--trials", "12", "--duration", "0.25", "-o", "d.wav"])
        #expect(given.trials == 12 && given.duration == 0.25 && given.output == "d.wav")
    }

    @Test func onePastAnEndNamesTheRange() {
        let cases: [(String, boop_limit_id)] = [
            ("--gap", BOOP_LIMIT_TRAIN_GAP), ("--reference", BOOP_LIMIT_TRAIN_REFERENCE_HZ),
            ("--max-cents", BOOP_LIMIT_TRAIN_MAX_CENTS), ("--trials", BOOP_LIMIT_TRAIN_TRIALS),
            ("--duration", BOOP_LIMIT_TRAIN_NOTE_SECONDS)
        ]
        for (option, id) in cases {
            let range = Limits.doubles(id)
            for value in [range.lowerBound - 1, range.upperBound + 1] {
                let text = value == value.rounded() ? "\(Int(value))" : "\(value)"
                do {
                    _ = try TrainRunCommand.parse(["\(option)=\(text)"])
                    Issue.record("\(option) \(text) was taken")
                } catch {
                    let said = TrainRunCommand.message(for: error)
                    #expect(said.includes(Limits.text(range)), "\(option) \(text): \(said)")
                }
            }
            #expect(throws: Never.self, "\(option) at its ends") {
                _ = try TrainRunCommand.parse([option, Limits.text(range.lowerBound)])
                _ = try TrainRunCommand.parse([option, Limits.text(range.upperBound)])
            }
        }
    }
}
