import Testing

@testable import PixelBoopCore

/// The training history as one CSV table (`boop train stats --csv`): RFC 4180 quoting, one header
/// and the same columns on every row, the columns each exercise fills, values to a millionth,
/// rows in session then trial order.
@Suite("TrainingCSV")
struct TrainingCSVTests {
    @Test("RFC 4180: quoted when a field holds a comma, a quote or a line break; quotes doubled")
    func quoting() {
        #expect(TrainingCSV.field("plain") == "plain")
        #expect(TrainingCSV.field("") == "")
        #expect(TrainingCSV.field("a,b") == "\"a,b\"")
        #expect(TrainingCSV.field("say \"hi\"") == "\"say \"\"hi\"\"\"")
        #expect(TrainingCSV.field("\"") == "\"\"\"\"")
        #expect(TrainingCSV.field("line\nbreak") == "\"line\nbreak\"")
        #expect(TrainingCSV.field("cr\r\nlf") == "\"cr\r\nlf\"")
        #expect(TrainingCSV.field("é ♪") == "é ♪")
    }

    /// The table's rows as field lists (no field here holds a comma).
    static func rows(_ table: String) -> [[String]] {
        table.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map {
            $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        }
    }

    @Test("no records: the header alone, ending in LF")
    func empty() {
        #expect(TrainingCSV.table(trials: [], attempts: [], intervals: []) == TrainingCSV.columns.joined(separator: ",") + "\n")
    }

    @Test("each exercise fills its columns; the rest stay empty; rows in session and trial order")
    func rows() throws {
        let t0 = Timestamp(timeIntervalSince1970: 1_714_566_896.79)
        let discrimination = TrainingTrial(
            session: 2, trial: 1, time: t0, referenceHz: 440, differenceCents: 12.5, higherInterval: 2, answer: "higher",
            correct: true, responseMilliseconds: 830)
        let match = MatchAttempt(
            session: 1, trial: 3, time: t0, referenceHz: 220, targetHz: 261.6255653, interval: "P5", sungHz: nil, cents: nil,
            octave: nil, stableMilliseconds: nil)
        let heard = MatchAttempt(
            session: 1, trial: 2, time: t0, referenceHz: 220, targetHz: 110, interval: nil, sungHz: 111, cents: 15.667,
            octave: -1, stableMilliseconds: 640)
        let table = TrainingCSV.table(trials: [discrimination], attempts: [match, heard], intervals: [])
        let lines = Self.rows(table)
        #expect(lines.count == 4)
        #expect(lines.allSatisfy { $0.count == TrainingCSV.columns.count })
        func value(_ row: [String], _ column: String) -> String { row[TrainingCSV.columns.firstIndex(of: column)!] }
        // Session 1 first, its trial 2 before trial 3.
        #expect(lines[1...].map { value($0, "session") + "." + value($0, "trial") } == ["1.2", "1.3", "2.1"])
        let d = lines[3]
        #expect(value(d, "exercise") == "discrimination")
        #expect(value(d, "time") == "2024-05-01T12:34:56.790Z")
        #expect(value(d, "register") == "4")   // A4
        #expect(value(d, "reference_hz") == "440.000000")
        #expect(value(d, "difference_cents") == "12.500000")
        #expect(value(d, "higher_interval") == "2")
        #expect(value(d, "correct") == "1")
        #expect(value(d, "response_ms") == "830")
        #expect(value(d, "target_hz").isEmpty && value(d, "drill").isEmpty && value(d, "interval").isEmpty)
        let silent = lines[2]
        #expect(value(silent, "exercise") == "match")
        #expect(value(silent, "interval") == "P5")
        #expect(value(silent, "register") == "4")   // C4
        #expect(value(silent, "target_hz") == "261.625565")
        #expect(value(silent, "sung_hz").isEmpty && value(silent, "error_cents").isEmpty && value(silent, "octave").isEmpty)
        let sung = lines[1]
        #expect(value(sung, "register") == "2")   // A2
        #expect(value(sung, "sung_hz") == "111.000000")
        #expect(value(sung, "error_cents") == "15.667000")
        #expect(value(sung, "octave") == "-1")
        #expect(value(sung, "stable_ms") == "640")
        #expect(value(sung, "answer").isEmpty)
    }

    @Test("an interval trial's register is its first interval's lower note's")
    func intervalRegister() {
        let plan = IntervalTrialPlan(number: 1, first: (130.81, 196.0), second: (146.83, 220.0), cents: 10, widerInterval: 1)
        let record = IntervalTrialRecord(
            session: 1, trial: 1, time: Timestamp(timeIntervalSince1970: 0), interval: "P5", plan: plan, secondWider: false,
            responseMilliseconds: 500)
        #expect(TrainingCSV.register(record) == 3)   // C3
    }
}
